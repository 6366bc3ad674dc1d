"""The most probable valid hands near an invalid reading of a photo, each checked by the engine.

When the tiles as read make no valid hand (a one-tile "exposed set", a fifth copy, a wrong
count, no decomposition), the right reading is often among the runner-ups: a plum flower read
``1s`` at 0.47 laid aside, a ``2p`` read ``4p``. So the search weighs every nearby reading by how
probable the recognizer found it and asks the engine about the most probable first:

- a tile read as its runner-up kind costs ``log(p_read / p_runner_up)`` (the probabilities the
  recognizer gave, calibrated, so the ratio is the odds of the change);
- a tile left out (a false detection) costs the log odds that a tile is there;
- the grouping redone costs ``REGROUP_COST`` (a regrouping of the same tiles) or nothing
  (the layout step itself regroups tiles whose change moves them between bonus and hand).

Readings of up to ``MAX_CHANGES`` tile changes among the ``SUSPECTS`` least sure tiles are tried
in order of cost; the first valid ones found are the answer, best first. The best is the
pipeline's *proposal* (``ScanResult.proposal``): scored and flagged ``proposed_reading``, shown
with what was changed, so the player confirms it with one tap or key; the result itself stays
the reading as seen. ``likelihood`` = ``exp(-cost)``: the proposal's odds against the reading
as seen (1 = as likely; 0.05 = a long shot, which the review should question)."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

from .context import ContextError, ScanContext
from .hand import hand_from_layout, score
from ..scoring.model import HandScore
from ..vision.layout import Layout, alternative_layouts, group_tiles, with_kind, without_tile

SUSPECTS = 10          # least sure tiles whose runner-ups are tried
RUNNER_UPS = 3         # runner-up kinds per tile
MAX_CHANGES = 2        # tiles changed at once
REGROUP_COST = 1.0     # a regrouping of the same tiles: e^-1, a third as likely as the read
MAX_COST = 6.0         # readings less than e^-6 as likely as the read are not tried
MAX_CHECKS = 120       # engine calls at most (each a few ms)


@dataclass(frozen=True)
class Edit:
    """One tile changed: read as ``kind``, or left out (``kind`` None)."""
    index: int
    kind: str | None
    cost: float
    text: str


@dataclass
class Alternative:
    notation: str
    changes: list[str]            # what differs from the reading as seen, one line each
    final: int | None
    likelihood: float = 1.0       # exp(-cost): odds against the reading as seen
    score: HandScore | None = field(default=None, repr=False, compare=False)
    layout: Layout | None = field(default=None, repr=False, compare=False)

    @property
    def change(self) -> str:
        return "; ".join(self.changes)

    def to_json(self) -> dict:
        return {"notation": self.notation, "change": self.change, "changes": list(self.changes),
                "final": self.final, "likelihood": round(self.likelihood, 4)}


def tile_edits(layout: Layout, suspects: int = SUSPECTS) -> list[Edit]:
    """The single-tile changes worth trying, cheapest first."""
    tiles = layout.tiles
    counts: dict[str, int] = {}
    for t in tiles:
        counts[t.kind] = counts.get(t.kind, 0) + 1
    # tiles of a kind read more than four times first, then the least sure
    order = sorted(range(len(tiles)), key=lambda i: (counts[tiles[i].kind] <= 4, tiles[i].confidence))
    edits = []
    for i in order[:suspects]:
        t = tiles[i]
        p_read = max(t.confidence, 1e-6)
        for kind, p in t.alternatives[:RUNNER_UPS]:
            if kind != t.kind and p > 0:
                edits.append(Edit(i, kind, max(0.0, math.log(p_read / p)),
                                  f"tile {i + 1} read as {kind} instead of {t.kind}"))
        p_tile = min(0.999, t.confidence + sum(p for _, p in t.alternatives))
        edits.append(Edit(i, None, max(0.0, math.log(p_tile / (1 - p_tile))),
                          f"tile {i + 1} ({t.kind}, {t.confidence:.2f}) is not a tile of the hand"))
    return sorted(edits, key=lambda e: e.cost)


def _combinations(edits: list[Edit], max_changes: int) -> list[tuple[float, tuple[Edit, ...]]]:
    combos = []
    for n in range(1, max_changes + 1):
        for combo in itertools.combinations(edits, n):
            if len({e.index for e in combo}) == n:
                cost = sum(e.cost for e in combo)
                if cost <= MAX_COST:
                    combos.append((cost, combo))
    return sorted(combos, key=lambda c: c[0])


def _apply(layout: Layout, combo: tuple[Edit, ...]) -> list[Layout]:
    """The layouts of a reading with these tile changes: the same grouping, and the tiles
    grouped again by the layout step (a flower read as ``1s`` goes to the bonus tiles)."""
    lay = layout
    for e in sorted(combo, key=lambda e: -e.index):      # leave-outs shift later indices
        lay = with_kind(lay, e.index, e.kind) if e.kind else without_tile(lay, e.index)
    return [lay, group_tiles(lay.tiles)]


def find_alternatives(layout: Layout, ctx: ScanContext, *, limit: int = 3,
                      max_checks: int = MAX_CHECKS) -> list[Alternative]:
    """The most probable valid readings near ``layout`` (module doc), best first."""
    found: list[tuple[float, int, Alternative]] = []
    seen: set[str] = {layout.notation}
    checks = 0

    def try_layout(lay: Layout, changes: list[str], cost: float) -> None:
        nonlocal checks
        try:
            laid = hand_from_layout(lay, ctx.winning_tile)
        except ContextError:
            return
        if laid.notation in seen:
            return
        seen.add(laid.notation)
        checks += 1
        answer = score(laid.hand, ctx)
        if answer.valid:
            found.append((cost, -(answer.final or 0),
                          Alternative(laid.notation, changes, answer.final, math.exp(-cost), answer, lay)))
            found.sort(key=lambda f: (f[0], f[1]))

    candidates: list[tuple[float, list[str], object]] = []
    for lay, what in alternative_layouts(layout):
        candidates.append((REGROUP_COST, [what], lay))
    for cost, combo in _combinations(tile_edits(layout), MAX_CHANGES):
        candidates.append((cost, [e.text for e in sorted(combo, key=lambda e: e.index)], combo))
    candidates.sort(key=lambda c: c[0])
    for cost, changes, what in candidates:
        if checks >= max_checks or len(found) >= limit and cost > found[limit - 1][0]:
            break
        if isinstance(what, Layout):
            try_layout(what, changes, cost)
            continue
        same, regrouped = _apply(layout, what)
        try_layout(same, changes, cost)
        try_layout(regrouped, changes + ["tiles grouped again"], cost)
    return [a for _, _, a in found[:limit]]
