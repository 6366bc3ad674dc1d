"""One tap on the page: the photo just corrected teaches the player's own tile set.

What ``mjscore teach`` does with a labelled YOLO folder (``vision.lessons.from_pairs``), done
for one uploaded photo and the tiles the player has checked: each box is read the way a
scan reads it (``as_detected``, ``read_tiles``), labelled with the player's kind, added to
the set's lessons and the set is learned again and saved (``vision.sets``). The photo is
decoded in memory and never stored; only the set file changes."""

from __future__ import annotations

import json
from dataclasses import replace

from ..errors import InputError
from ..vision.boxes import rescale
from .photo import decode_photo

MAX_TEACH_TILES = 60


def _tiles(text: str) -> list[tuple[str, tuple[float, float, float, float]]]:
    """The page's ``[{"kind", "box"}]`` as (kind, box); face-down and unknown kinds are refused."""
    import math

    from ..vision.kinds import KIND_INDEX

    try:
        items = json.loads(text)
    except (ValueError, TypeError):
        raise InputError("tiles must be a JSON list of {kind, box}") from None
    if not isinstance(items, list) or not items:
        raise InputError("send the photo's corrected tiles to teach from (none were sent)")
    if len(items) > MAX_TEACH_TILES:
        raise InputError(f"{len(items)} tiles sent; at most {MAX_TEACH_TILES} are accepted")
    out = []
    for n, item in enumerate(items, 1):
        kind = item.get("kind") if isinstance(item, dict) else None
        box = item.get("box") if isinstance(item, dict) else None
        if kind not in KIND_INDEX or kind == "X":
            raise InputError(f"tile {n}: {kind!r} is not a tile kind a set can learn")
        if (not isinstance(box, list) or len(box) != 4 or not all(isinstance(v, (int, float)) and math.isfinite(v)
                                                                 for v in box) or box[2] <= box[0] or box[3] <= box[1]):
            raise InputError(f"tile {n}: box must be four numbers x1, y1, x2, y2 on the photo")
        out.append((kind, tuple(float(v) for v in box)))
    return out


def teach_photo(name: str, data: bytes, tiles_json: str) -> dict:
    """Add one corrected photo to set ``name`` (made when new); its summary after."""
    import numpy as np

    from ..vision.kinds import KIND_INDEX
    from ..vision.lessons import as_detected, read_tiles
    from ..vision.sets import check_name, list_sets, load_set, save_set, taught

    check_name(name)
    tiles = _tiles(tiles_json)
    photo = decode_photo(data)
    boxes = [rescale(b, photo.scale, photo.scale) for _, b in tiles]
    old = load_set(name) if name in list_sets() else None
    first = int(old.lessons.groups.max()) + 1 if old is not None and len(old.lessons.groups) else 0
    rgb, found, fits = as_detected(photo.rgb, boxes)
    read = read_tiles(rgb, found, first)
    lessons = replace(read, labels=np.array([KIND_INDEX[k] for k, _ in tiles], np.int64), fits=fits)
    if old is not None:
        lessons = old.lessons.plus(lessons)
    tset = taught(name, lessons, (old.sources if old else ()) + ("web photo",))
    save_set(tset)
    return {"name": tset.name, "tiles": int(len(tset.lessons.labels)), "kinds": len(tset.tiles_per_kind()),
            "tiles_per_kind": tset.tiles_per_kind()}
