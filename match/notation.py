"""Split a hand written in the spec's notation (§1.2) into the JSON form of §1.3.

This is only a lexical split (groups, concealed tiles, winning tile, bonus tiles); the
scoring engine validates tiles and groups and names any problem. Keeping the split here
means the session code depends on nothing but the ``score_request`` dict contract.

    "[EEE] RRR 234m 88s 45s +6s / f1 j3"
    -> {"melds": ["[EEE]"], "concealed": "RRR234m88s45s", "winning_tile": "6s",
        "bonus": ["f1", "j3"]}

A group the user fixes by hand, ``(555p)``, is passed on as concealed tiles (the engine
groups concealed tiles itself and picks the best arrangement anyway).
"""

from __future__ import annotations

import re

_GROUP = re.compile(r"\[[^\[\]{}]*\]|\{[^\[\]{}]*\}")
_WINNING = re.compile(r"\+\s*([^\s+/]+)\s*$")
_BONUS_TILE = re.compile(r"[a-z][0-9]")


class NotationError(ValueError):
    """The text cannot even be split into groups; the message names the problem."""


def split_hand(notation: str) -> dict:
    """Groups, concealed tiles, winning tile (if written with ``+``) and bonus tiles."""
    text = notation.strip()
    if not text:
        raise NotationError("the hand is empty")
    main, slash, bonus_text = text.partition("/")
    if "/" in bonus_text:
        raise NotationError(f"more than one '/' in {notation!r}")
    melds = [m.replace(" ", "") for m in _GROUP.findall(main)]
    rest = _GROUP.sub(" ", main)
    if any(ch in rest for ch in "[]{}"):
        raise NotationError(f"unbalanced brackets in {notation!r}")
    winning = None
    match = _WINNING.search(rest)
    if match:
        winning = match.group(1)
        rest = rest[: match.start()]
    if "+" in rest:
        raise NotationError(f"the winning tile (+tile) must be written last in {notation!r}")
    concealed = re.sub(r"[\s()]", "", rest)
    hand: dict = {"melds": melds, "concealed": concealed}
    if winning is not None:
        hand["winning_tile"] = winning
    if slash:
        compact = re.sub(r"\s", "", bonus_text)
        tiles = _BONUS_TILE.findall(compact)
        if "".join(tiles) != compact or not tiles:
            raise NotationError(f"cannot read the bonus tiles {bonus_text.strip()!r} "
                                "(write flowers f1..f4 and seasons j1..j4 after '/')")
        hand["bonus"] = tiles
    return hand
