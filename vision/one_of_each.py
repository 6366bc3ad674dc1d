"""A set holds one of each flower and season: two tiles of a photo read as the same one are
not both right.

Why (issue 17): on sets the classifier never saw, most of its bonus-tile errors are one flower
or season read as another, and a photo of a laid-out hand shows each bonus kind at most once
(a 144-tile set has one of each). When two or more tiles read as the same bonus kind, the
reading that keeps each bonus kind once and loses the least probability (the product of each
tile's chance of its kind, from its confidence and its runner-ups) replaces it; a tile that is
moved to its runner-up keeps the lower chance of that runner-up as its confidence, so the
review still asks about it. Photos without such a clash are left exactly as read.

DECISION (session 29): the rule applies to every photo. A photo of two sets (a shop's shelf,
two tables) breaks it; chinese-v4's labels show a repeated bonus kind in 25 of 2088 photos, and
the runner-up only wins where the classifier was unsure anyway. A photo with more than
``MAX_BONUS`` bonus reads is not one set's bonus tiles and is left as read. Suit and honour
tiles (four of each) are the hand search's business (handscan/alternatives.py), not this rule's.
"""

from __future__ import annotations

import math
from dataclasses import replace

from .kinds import BONUS
from .types import TileRead

BONUS_KINDS = frozenset(BONUS)
MAX_BONUS = 8


def _options(tile: TileRead) -> list[tuple[str, float]]:
    """The tile's kinds with their (relative) chances: the read kind first, then its runner-ups."""
    return [(tile.kind, tile.confidence)] + [(k, p) for k, p in tile.alternatives if p > 0]


def best_assignment(options: list[list[tuple[str, float]]]) -> list[int] | None:
    """For each tile, the index of the option to take so that no bonus kind is taken twice and
    the sum of log chances is highest; None when no option list allows it. Exhaustive (at
    most ``MAX_BONUS`` tiles, four options each), ties keep the earlier options."""
    best: list = [-math.inf, None]
    logs = [[math.log(max(p, 1e-12)) for _, p in opts] for opts in options]
    bound = [max(row) for row in logs]                   # the best a tile can still add
    rest = [sum(bound[i:]) for i in range(len(options) + 1)]

    def walk(i: int, taken: frozenset, total: float, chosen: list[int]) -> None:
        if total + rest[i] <= best[0]:
            return
        if i == len(options):
            best[0], best[1] = total, list(chosen)
            return
        for j, (kind, _) in enumerate(options[i]):
            if kind in BONUS_KINDS and kind in taken:
                continue
            walk(i + 1, taken | {kind} if kind in BONUS_KINDS else taken, total + logs[i][j], chosen + [j])
    walk(0, frozenset(), 0.0, [])
    return best[1]


def _moved(tile: TileRead, j: int) -> TileRead:
    """``tile`` read as its ``j``-th option, the others (the old kind included) as runner-ups."""
    opts = _options(tile)
    kind, p = opts[j]
    others = sorted((o for i, o in enumerate(opts) if i != j), key=lambda o: -o[1])
    return replace(tile, kind=kind, confidence=p, alternatives=tuple(others))


def one_of_each(tiles: list[TileRead]) -> list[TileRead]:
    """``tiles`` with each bonus kind read at most once (see the module doc); same order."""
    bonus = [i for i, t in enumerate(tiles) if t.kind in BONUS_KINDS]
    kinds = [tiles[i].kind for i in bonus]
    if len(set(kinds)) == len(kinds) or len(bonus) > MAX_BONUS:
        return tiles
    choice = best_assignment([_options(tiles[i]) for i in bonus])
    if choice is None:
        return tiles
    out = list(tiles)
    for i, j in zip(bonus, choice):
        if j:
            out[i] = _moved(tiles[i], j)
    return out
