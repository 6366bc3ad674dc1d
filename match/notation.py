"""A hand written in the spec's notation (§1.2) as the JSON form of §1.3.

The notation is parsed by the scoring engine's own parser (``scoring.notation.parse_hand``)
and written back by ``scoring.api.hand_to_json``, so a session reads a hand exactly as
``score_request`` would read ``{"notation": ...}`` and a bad hand gets the engine's
message naming the token and its position.

    "[EEE] RRR 234m 88s 45s +6s / f1 j3"
    -> {"melds": ["[EEE]"], "concealed": "RRR234m88s45s", "winning_tile": "6s",
        "bonus": ["f1", "j3"]}

A group the user fixes by hand, ``(555p)``, stays a fixed group in ``melds`` (the engine
then scores it as written instead of choosing the arrangement itself).
"""

from __future__ import annotations

from ..scoring.api import hand_to_json
from ..scoring.notation import NotationError, parse_hand

__all__ = ["NotationError", "split_hand"]


def split_hand(notation: str) -> dict:
    """Groups, concealed tiles, winning tile (if written with ``+``) and bonus tiles.

    Raises the engine's :class:`NotationError` (token and position), also for an empty hand."""
    if not isinstance(notation, str) or not notation.strip():
        raise NotationError("the hand is empty", str(notation or ""), 0, str(notation or ""))
    return hand_to_json(parse_hand(notation))
