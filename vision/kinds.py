"""The 43 tile kinds the recognizer reads (spec §1.1 tokens plus ``X`` for a face-down tile),
and the mappings from the class names of the datasets we train and evaluate on.

The order of ``KINDS`` is the class index of every model in ``models/``: never reorder it,
only append (and retrain)."""

from __future__ import annotations

import numpy as np

from ..scoring import tiles

# the tokens themselves are the engine's (scoring.tiles), so there is one list of them
SUITED = list(tiles.TILES[:27])
HONOURS = list(tiles.TILES[27:])
BONUS = list(tiles.BONUS)
BACK = tiles.BACK

KINDS: list[str] = SUITED + HONOURS + BONUS + [BACK]
KIND_INDEX: dict[str, int] = {k: i for i, k in enumerate(KINDS)}
BONUS_MASK = np.array([k in BONUS for k in KINDS])     # flowers and seasons (own calibration)

# chinese-mahjong-detection-v4 (Roboflow) class names -> our tokens
CHINESE_V4: dict[str, str] = {
    **{f"sc{n}": f"{n}m" for n in range(1, 10)},
    **{f"sd{n}": f"{n}p" for n in range(1, 10)},
    **{f"sb{n}": f"{n}s" for n in range(1, 10)},
    "hwe": "E", "hws": "S", "hww": "W", "hwn": "N",
    "hdr": "R", "hdg": "G", "hdw": "Wh",
    **{f"bf{n}": f"f{n}" for n in range(1, 5)},
    **{f"bs{n}": f"j{n}" for n in range(1, 5)},
}

# leo-riichi-v5 (Japanese set, test only) class names -> our tokens; "0" is a tile cut off
# at the image edge and maps to None (ignored in evaluation, neither hit nor miss).
LEO_RIICHI_V5: dict[str, str | None] = {
    "0": None,
    **{f"{n}_man": f"{n}m" for n in range(1, 10)},
    **{f"{n}_pin": f"{n}p" for n in range(1, 10)},
    **{f"{n}_sou": f"{n}s" for n in range(1, 10)},
    "ton": "E", "nan": "S", "sya-": "W", "pe-": "N",
    "chun": "R", "hatsu": "G", "haku": "Wh",
}


def token_for_dataset_name(name: str) -> str | None:
    """Map any known dataset class name (or one of our own tokens) to our token."""
    if name in KIND_INDEX:
        return name
    if name in CHINESE_V4:
        return CHINESE_V4[name]
    if name in LEO_RIICHI_V5:
        return LEO_RIICHI_V5[name]
    raise KeyError(f"unknown tile class name {name!r}")
