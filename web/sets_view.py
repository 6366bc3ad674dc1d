"""The sets the engine chose, pinned to the photo's tiles, so the page can outline them.

The engine answers with an arrangement in notation (``[RRR] (234m) (55p)*``); the layout
knows which photo tiles form each exposed set and which lie in the concealed part. This
module only matches the two (exposed sets by their notation, concealed sets tile by tile
from the concealed part); it decides nothing about the grouping."""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Sequence

from ..vision.layout import CONCEALED, CONCEALED_KONG, EXPOSED, Layout

_TOKEN = re.compile(r"(\d+)([mps])|(Wh|[ESWNRGX])")
_KIND_OF_BRACKET = {"[": EXPOSED, "{": CONCEALED_KONG, "(": CONCEALED}


def tokens(text: str) -> list[str]:
    """``'234m'`` -> ``['2m', '3m', '4m']``; honours and ``X`` as they are."""
    out: list[str] = []
    for digits, suit, honour in _TOKEN.findall(text):
        out += [d + suit for d in digits] if digits else [honour]
    return out


def engine_sets(layout: Layout, decomposition: Sequence[str], winning_tile: str | None = None) -> list[dict]:
    """One entry per set of the arrangement: ``notation``, ``kind``, ``tiles`` (1-based
    numbers of the photo tiles it is made of, as far as they are on the photo) and
    ``winning`` (the set the winning tile completed, the engine's ``*``)."""
    used: set[int] = set()
    pool: dict[str, list[int]] = defaultdict(list)
    for g in layout.groups:
        if g.kind == CONCEALED:
            for i, t in zip(g.indices, g.tiles):
                pool[t.kind].append(i)
    out = []
    for part in decomposition:
        winning = part.endswith("*")
        text = part.rstrip("*")
        kind = _KIND_OF_BRACKET.get(text[:1], CONCEALED)
        numbers: list[int] = []
        if kind in (EXPOSED, CONCEALED_KONG):
            group = next((g for gi, g in enumerate(layout.groups) if g.kind == kind and gi not in used
                          and sorted(g.tokens) == sorted(tokens(text))), None)
            if group is not None:
                used.add(layout.groups.index(group))
                numbers = [i + 1 for i in group.indices]
        else:
            for kind_of_tile in tokens(text):
                if pool.get(kind_of_tile):
                    numbers.append(pool[kind_of_tile].pop(0) + 1)
        out.append({"notation": text, "kind": kind, "tiles": numbers, "winning": winning})
    return out
