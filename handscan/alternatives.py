"""The most probable valid hands near an invalid reading of a photo, each checked by the engine.

When the tiles as read make no valid hand (a one-tile "exposed set", a fifth copy, a wrong
count, no decomposition), the right reading is often among the runner-ups: a plum flower read
``1s`` at 0.47 laid aside, a ``2p`` read ``4p``. So the search weighs every nearby reading by how
probable the recognizer found it and asks the engine about the most probable first:

- a tile read as its runner-up kind costs ``log(p_read / p_runner_up)`` (the probabilities the
  recognizer gave, calibrated, so the ratio is the odds of the change);
- the copies of one kind in one group read as a runner-up kind they all share, together, as one
  change (``kind_edits``): a set prints one glyph for all four copies of a kind, so a glyph the
  classifier does not know is misread the same way on each copy (a green dragon pung read
  ``f2 f2 f2``, three North read ``1p``), which a search of two tile changes cannot undo. It costs
  the mean of the copies' own costs: one glyph seen k times (DECISION, session 40; the sum, as
  if the copies were independent reads, proposed fewer right hands);
- a tile left out (a false detection) costs the log odds that a tile is there;
- the grouping redone costs ``REGROUP_COST`` (a regrouping of the same tiles) or nothing
  (the layout step itself regroups tiles whose change moves them between bonus and hand);
- when the hand is one tile short, a tile the detector missed is added (``tile_additions``):
  each kind that completes the hand costs ``MISSED_COST`` plus ``log(n)`` where ``n`` kinds
  complete it (DECISION: the photo cannot say which of them was missed, so each is ``1/n`` as
  likely, and the change says which others would do). A winning tile named in the context but
  not read is often the one: then it is the only kind that completes the hand.

Readings of up to ``MAX_CHANGES`` tile changes among the ``SUSPECTS`` least sure tiles are tried
in order of cost; the first valid ones found are the answer, best first. The best is the
pipeline's *proposal* (``ScanResult.proposal``): scored and flagged ``proposed_reading``, shown
with what was changed, so the player confirms it with one tap or key; the result itself stays
the reading as seen. ``likelihood`` = ``exp(-cost)``: the proposal's odds against the reading
as seen (1 = as likely; 0.05 = a long shot, which the review should question)."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import dataclass, field

from .context import ContextError, ScanContext
from .hand import hand_from_layout, score
from ..scoring.model import HandScore
from ..scoring.decompose import completing_kinds, counts_of
from ..scoring.tiles import BONUS as BONUS_TILES, INDEX, TILES
from ..vision.layout import (BONUS, CONCEALED, CONCEALED_KONG, EXPOSED, Layout, alternative_layouts,
                             group_tiles, with_kind, with_tile_added, without_tile)

SUSPECTS = 10          # least sure tiles whose runner-ups are tried
RUNNER_UPS = 3         # runner-up kinds per tile
MAX_CHANGES = 2        # tiles changed at once
REGROUP_COST = 1.0     # a regrouping of the same tiles: e^-1, a third as likely as the read
MAX_COST = 6.0         # readings less than e^-6 as likely as the read are not tried
MAX_CHECKS = 120       # engine calls at most (each a few ms)
MISSED_COST = 1.5      # a tile of a hand one tile short was missed: e^-1.5, a fifth as likely as the read


@dataclass(frozen=True)
class Edit:
    """Tiles changed: read as ``kind``, or left out (``kind`` None). One tile, or the copies of
    one kind in a group changed together (``kind_edits``)."""
    indices: tuple[int, ...]
    kind: str | None
    cost: float
    text: str

    @property
    def index(self) -> int:
        """The first tile changed (the only one for a single-tile edit)."""
        return self.indices[0]


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
                edits.append(Edit((i,), kind, _change_cost(t, p),
                                  f"tile {i + 1} read as {kind} instead of {t.kind}"))
        p_tile = min(0.999, t.confidence + sum(p for _, p in t.alternatives))
        edits.append(Edit((i,), None, max(0.0, math.log(p_tile / (1 - p_tile))),
                          f"tile {i + 1} ({t.kind}, {t.confidence:.2f}) is not a tile of the hand"))
    return sorted(edits + kind_edits(layout), key=lambda e: e.cost)


def _change_cost(tile, p_other: float) -> float:
    """The log odds against reading ``tile`` as a kind the recognizer gave ``p_other``."""
    return max(0.0, math.log(max(tile.confidence, 1e-6) / p_other))


def kind_edits(layout: Layout) -> list[Edit]:
    """The copies of one kind in one group (two or more) read together as a runner-up kind
    that each of them has among its ``RUNNER_UPS`` (module doc). Why per group: a pung or the
    flowers laid aside are where a set's one glyph is repeated side by side."""
    tiles = layout.tiles
    edits = []
    for g in layout.groups:
        copies: dict[str, list[int]] = {}
        for i in g.indices:
            copies.setdefault(tiles[i].kind, []).append(i)
        for kind, idx in copies.items():
            if len(idx) < 2:
                continue
            shared = [dict(tiles[i].alternatives[:RUNNER_UPS]) for i in idx]
            for other in sorted(set(shared[0]).intersection(*shared[1:]) - {kind}):   # sorted: no hash order
                if any(runner_ups[other] <= 0 for runner_ups in shared):
                    continue
                cost = sum(_change_cost(tiles[i], runner_ups[other]) for i, runner_ups in zip(idx, shared)) / len(idx)
                edits.append(Edit(tuple(idx), other, cost,
                                  f"tiles {', '.join(str(i + 1) for i in idx)} read as {other} instead of {kind}"))
    return edits


def tile_additions(layout: Layout) -> list[tuple[Layout, str]]:
    """The layouts with one tile added that the detector may have missed, when the hand is one
    tile short (14 + one per kong, bonus tiles not counted): to the concealed tiles (the engine
    decomposes them) any kind that could complete a hand (``scoring.decompose.completing_kinds``,
    as for waits), the tile that completes a two-tile exposed set, the fourth
    tile of a face-down kong read as three. Each comes with the kind added."""
    hand = [g for g in layout.groups if g.kind != BONUS]
    kongs = sum(1 for g in hand if g.kind in (EXPOSED, CONCEALED_KONG) and len(g.tiles) == 4)
    short = sum(len(g.tiles) for g in hand) - (13 + kongs)    # 0: one tile short; 1: a kong's tile
    if short not in (0, 1):
        return []
    counts = Counter(t for g in hand for t in g.tokens)
    # the engine's own candidates for a wait: neighbours of held suit tiles, held honours, orphans
    could_complete = [TILES[i] for i in completing_kinds(counts_of(INDEX[t] for t in counts.elements() if t in INDEX))]
    out = []
    for gi, g in enumerate(layout.groups):
        if g.kind in (EXPOSED, CONCEALED_KONG) and len(g.tiles) == 3 and "X" in g.tokens:
            faces = [t for t in g.tokens if t != "X"]      # a face-down kong read as three tiles
            if short == 1 and (len(faces) == 2 and faces[0] == faces[1] or len(faces) == 1):
                out.append((with_tile_added(layout, gi, "X", CONCEALED_KONG), "X"))
        elif short:
            continue
        elif g.kind == CONCEALED:
            out += [(with_tile_added(layout, gi, k), k) for k in could_complete if counts[k] < 4]
        elif g.kind == EXPOSED and len(g.tiles) == 2:
            out += [(with_tile_added(layout, gi, k), k) for k in _completing(g.tokens) if counts[k] < 4]
    return out


def _completing(pair: list[str]) -> list[str]:
    """The kinds that make a pung or a chow of two tiles."""
    a, b = sorted(pair, key=TILES.index) if all(t in TILES for t in pair) else (None, None)
    if a is None:
        return []
    if a == b:
        return [a]
    if a[-1] != b[-1] or not a[0].isdigit():
        return []
    lo, hi = int(a[0]), int(b[0])
    nums = {1: [lo - 1, hi + 1], 2: [lo + 1]}.get(hi - lo, [])
    return [f"{n}{a[-1]}" for n in nums if 1 <= n <= 9]


def _combinations(edits: list[Edit], max_changes: int) -> list[tuple[float, tuple[Edit, ...]]]:
    combos = []
    for n in range(1, max_changes + 1):
        for combo in itertools.combinations(edits, n):
            indices = [i for e in combo for i in e.indices]
            if len(set(indices)) == len(indices):
                cost = sum(e.cost for e in combo)
                if cost <= MAX_COST:
                    combos.append((cost, combo))
    return sorted(combos, key=lambda c: c[0])


def _apply(layout: Layout, combo: tuple[Edit, ...]) -> list[Layout]:
    """The layouts of a reading with these tile changes: the same grouping, and the tiles
    grouped again by the layout step (a flower read as ``1s`` goes to the bonus tiles)."""
    lay = layout
    changes = sorted(((i, e.kind) for e in combo for i in e.indices), reverse=True, key=lambda c: c[0])
    for index, kind in changes:                          # leave-outs shift later indices
        lay = with_kind(lay, index, kind) if kind else without_tile(lay, index)
    return [lay, group_tiles(lay.tiles)]


def find_alternatives(layout: Layout, ctx: ScanContext, *, limit: int = 3,
                      max_checks: int = MAX_CHECKS) -> list[Alternative]:
    """The most probable valid readings near ``layout`` (module doc), best first."""
    found: list[tuple[float, int, Alternative]] = []
    seen: set[str] = {layout.notation}
    checks = 0

    def valid_reading(lay: Layout, changes: list[str], cost: float) -> Alternative | None:
        nonlocal checks
        try:
            laid = hand_from_layout(lay, ctx.winning_tile)
        except ContextError:
            return None
        if laid.notation in seen:
            return None
        seen.add(laid.notation)
        checks += 1
        answer = score(laid.hand, ctx)
        if not answer.valid:
            return None
        return Alternative(laid.notation, changes, answer.final, math.exp(-cost), answer, lay)

    def keep(alt: Alternative | None, cost: float, rank: int = 0) -> None:
        if alt is not None:
            found.append((cost, rank, -(alt.final or 0), alt))
            found.sort(key=lambda f: f[:3])

    def try_layout(lay: Layout, changes: list[str], cost: float, rank: int = 0) -> None:
        keep(valid_reading(lay, changes, cost), cost, rank)

    completed = [(a, k) for lay, k in tile_additions(layout)
                 if (a := valid_reading(lay, [], MISSED_COST)) is not None]
    for alt, kind in completed:
        cost = MISSED_COST + math.log(len(completed))
        others = [k for _, k in completed if k != kind]
        alt.changes = [f"a tile may be missing: {kind} added" + (
            f" (also possible: {' '.join(others)})" if others else " (the only kind that completes the hand)")]
        alt.likelihood = math.exp(-cost)
        keep(alt, cost)

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
        # tiles moved between the flowers laid aside and the hand: where with_kind puts them is a
        # guess, the layout step's grouping knows where they lie (a pung read as three flowers
        # laid apart is an exposed pung), so at the same cost it comes first
        moved = int(_moves_bonus(layout, what))
        try_layout(same, changes, cost, rank=moved)
        try_layout(regrouped, changes + ["tiles grouped again"], cost)
    return [a for *_, a in found[:limit]]


def _moves_bonus(layout: Layout, combo: tuple[Edit, ...]) -> bool:
    """Whether the changes turn a flower or season into a hand tile, or the other way."""
    return any(e.kind is not None and (layout.tiles[i].kind in BONUS_TILES) != (e.kind in BONUS_TILES)
               for e in combo for i in e.indices)
