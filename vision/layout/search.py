"""The role search (step 4 of the layout): every assignment of blocks to "concealed" or
"sets" is scored, the best few become layouts; the margin to the runner-up is the decision's
confidence. Duplicate boxes are dropped and a stretched photo is unstretched first."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Sequence

import numpy as np

from ..boxes import iou_matrix, rescale
from .build import build_layout, isolated, sigmoid
from .geometry import (Block, estimate_geometry, frame_tiles, gap_threshold, pitch, row_gaps,
                                           split_blocks, split_rows, upright_steps)
from .model import Layout
from .notation import is_bonus
from .sets import cut_claimed_set, cut_concealed_kongs, partition_sets
from ..types import TileRead

GAP_RATIO = 0.4                 # a gap wider than this many tile widths sets a block apart
DUPLICATE_IOU = 0.6             # two boxes overlapping more than this are one tile


def group_tiles(tiles: Sequence[TileRead], *, gap_ratio: float = GAP_RATIO) -> Layout:
    """Group the recognizer's tiles into the hand on the table (see :mod:`mjscore.vision.layout`)."""
    return _candidates(tiles, gap_ratio=gap_ratio, keep=1)[0]


def candidate_layouts(tiles: Sequence[TileRead], *, gap_ratio: float = GAP_RATIO, keep: int = 6) -> list[Layout]:
    """The best few role assignments, best first (the first is :func:`group_tiles`)."""
    return _candidates(tiles, gap_ratio=gap_ratio, keep=keep)


def _drop_duplicates(tiles: list[TileRead]) -> tuple[list[TileRead], list[str]]:
    """Two boxes on one tile (IoU over ``DUPLICATE_IOU``): keep the more confident read."""
    order = sorted(range(len(tiles)), key=lambda i: -tiles[i].confidence)
    boxes = np.array([t.box for t in tiles], float).reshape(-1, 4)
    overlap = iou_matrix(boxes, boxes)
    kept: list[int] = []
    notes = []
    for i in order:
        twin = next((k for k in kept if overlap[i, k] > DUPLICATE_IOU), None)
        if twin is None:
            kept.append(i)
        else:
            notes.append(f"a second box on the {tiles[twin].kind} tile (read {tiles[i].kind}, "
                         f"{tiles[i].confidence:.2f}) was dropped")
    return [tiles[i] for i in sorted(kept)], notes


def unstretch_factors(tiles: Sequence[TileRead], limit: float = 2.2) -> tuple[float, float]:
    """(sx, sy) that make the tiles tile-shaped again when the photo was stretched along one
    axis (an exporter squashed it to a square): no tile face or body is more than about twice
    as long as wide, so a median box that is (``limit`` times or more) longer along x or y
    says the photo is stretched there; scaling that axis down to a 4:3 median undoes it.
    (1, 1) for ordinary photos."""
    if len(tiles) < 2:
        return 1.0, 1.0
    ratios = sorted((t.box[2] - t.box[0]) / max(t.box[3] - t.box[1], 1e-6) for t in tiles)
    r = ratios[len(ratios) // 2]
    if r >= limit:
        return (4 / 3) / r, 1.0
    if r <= 1 / limit:
        return 1.0, r / 0.75
    return 1.0, 1.0


def _candidates(tiles: Sequence[TileRead], *, gap_ratio: float, keep: int) -> list[Layout]:
    tiles, dup_notes = _drop_duplicates(list(tiles))
    if not tiles:
        return [Layout([], [], [], "", ["no tiles found in the photo"], [], 0, 0.0)]
    sx, sy = unstretch_factors(tiles)
    if (sx, sy) != (1.0, 1.0):
        # group in the unstretched geometry; the layout hands back the photo's own tiles
        scaled = [replace(t, box=rescale(t.box, sx, sy)) for t in tiles]
        original = {id(c): t for c, t in zip(scaled, tiles)}
        out = _candidates_in_frame(scaled, dup_notes, gap_ratio=gap_ratio, keep=keep)
        for lay in out:
            _to_photo(lay, original)
        return out
    return _candidates_in_frame(tiles, dup_notes, gap_ratio=gap_ratio, keep=keep)


def _to_photo(lay: Layout, original: dict[int, TileRead]) -> None:
    """Hand back the photo's own tiles, in the layout *and* in its groups: every box that
    leaves the layout step is in photo pixels (annotations outline a group by its tiles)."""
    lay.tiles = [original.get(id(t), t) for t in lay.tiles]
    for g in lay.groups:
        g.tiles = [lay.tiles[i] for i in g.indices]


def _candidates_in_frame(tiles: list[TileRead], dup_notes: list[str], *, gap_ratio: float,
                         keep: int) -> list[Layout]:
    geo = estimate_geometry(tiles)
    ftiles = frame_tiles(tiles, geo)
    rows = split_rows(ftiles, geo)
    reading = [t for r in rows for t in r]
    pos = {t.index: k for k, t in enumerate(reading)}          # input index -> reading index
    ordered = [t.read for t in reading]
    direction = math.degrees(math.atan2(-geo.u[1], geo.u[0]))

    bonus_tiles = [t for t in reading if is_bonus(t.read.kind)]
    blocks: list[Block] = []
    pooled = pitch([st for row in rows for st in upright_steps(row)], geo)
    gaps_by_row = [row_gaps(row, geo, pooled) for row in rows]
    threshold = gap_threshold([x for gaps in gaps_by_row for x in gaps], gap_ratio)
    for ri, row in enumerate(rows):
        for b in split_blocks(row, gaps_by_row[ri], ri, threshold):
            kept = [t for t in b.tiles if not is_bonus(t.read.kind)]
            if kept:
                inner = [gap for k, gap in enumerate(b.inner)
                         if not is_bonus(b.tiles[k].read.kind) and not is_bonus(b.tiles[k + 1].read.kind)]
                if len(inner) != len(kept) - 1:
                    inner = (inner + [0.0] * len(kept))[:len(kept) - 1]
                for part in cut_claimed_set(Block(kept, b.row, b.gap_before, b.gap_after, inner)):
                    blocks.extend(cut_concealed_kongs(part))

    parts = [partition_sets(b) for b in blocks]
    # face-down tiles in blocks that split into sets: declared kongs (a face-down tile in any
    # other block is a misread or a tile seen from behind: that block keeps both roles open)
    forced = [b.has_back and p is not None for b, p in zip(blocks, parts)]
    free = [i for i, f in enumerate(forced) if not f]
    row_sizes = [sum(1 for t in r if not is_bonus(t.read.kind)) for r in rows]
    n_rows = sum(1 for s in row_sizes if s)

    # enumerate roles of the (at most 12 largest) free blocks; the rest count as sets
    free.sort(key=lambda i: -len(blocks[i].tiles))
    enum, fixed_sets = free[:12], free[12:]
    facts = [_BlockFacts(b.row, len(b.tiles), b.has_back, b.has_sideways, p is not None)
             for b, p in zip(blocks, parts)]
    masks = np.zeros((2 ** len(enum), len(blocks)), bool)
    masks[:, enum] = _all_roles(len(enum))
    totals = _score_assignments(facts, masks, n_rows)
    extra = [f"{len(fixed_sets)} small blocks read as sets without comparison"] if fixed_sets else []
    scored: list[tuple[float, tuple[bool, ...], list[str]]] = []
    for k in np.argsort(-totals, kind="stable")[:max(keep, 2)]:
        concealed = tuple(bool(c) for c in masks[k])
        scored.append((float(totals[k]), concealed, _assignment_notes(facts, concealed) + extra))
    best = scored[0][0]
    runner_up = scored[1][0] if len(scored) > 1 else best - 4.0
    out = []
    for rank, (total, concealed, notes) in enumerate(scored[:keep]):
        conf = sigmoid(2.0 * (best - runner_up)) if rank == 0 else sigmoid(2.0 * (total - best))
        out.append(build_layout(ordered, pos, blocks, concealed, parts, bonus_tiles, conf, dup_notes + notes,
                                 len(rows), direction, total))
    far = isolated(ordered, geo.width)
    for lay in out:
        lay.isolated = far
        lay.warnings += [f"tile {i + 1} ({ordered[i].kind}) lies far from the others: a tile of this hand?"
                         for i in far]
    return out


def _all_roles(n: int) -> np.ndarray:
    """Every concealed (True) / set (False) choice for n blocks, in the order of
    ``itertools.product((True, False), repeat=n)`` (ties keep it): row k is k's bits, 0 = True."""
    k = np.arange(2 ** n)[:, None]
    return (k >> np.arange(n - 1, -1, -1)) & 1 == 0


@dataclass(frozen=True)
class _BlockFacts:
    """What the role search asks of a block, worked out once: the search scores up to 4096
    assignments of the same blocks, and the hand search regroups hundreds of readings (a
    16-tile photo of many small blocks took a minute to propose a hand, session 40)."""
    row: int
    size: int
    has_back: bool
    has_sideways: bool
    splits_into_sets: bool


def _score_assignments(blocks: Sequence[_BlockFacts], masks: np.ndarray, n_rows: int) -> np.ndarray:
    """The plausibility of each role assignment (a row of ``masks``: which blocks are concealed),
    all at once; rounded to 1e-9 so that assignments that tie keep the enumeration's order."""
    size = np.array([b.size for b in blocks], int)
    row = np.array([b.row for b in blocks], int)
    back = np.array([b.has_back for b in blocks], bool)
    side = np.array([b.has_sideways for b in blocks], bool)
    sets = np.array([b.splits_into_sets for b in blocks], bool)
    score = np.zeros(len(masks))
    score -= 3.0 * (masks.astype(int) @ size % 3 != 2)
    row_ids = np.unique(row)
    rows_concealed = np.zeros((len(masks), len(row_ids)), bool)                            # assignments x rows
    for k, r in enumerate(row_ids):
        rows_concealed[:, k] = (masks & (row == r)).any(axis=1)
    n_conc_rows = rows_concealed.sum(axis=1)
    score -= 1.5 * np.maximum(n_conc_rows - 1, 0)
    kong = back & sets                                     # a face-down tile in a block of sets: a declared kong
    score += kong.sum()
    hidden = masks & ~kong
    score -= hidden.astype(float) @ (1.5 * side + 2.0 * back)
    # DECISION (session 21): a face-down tile is never a concealed tile; a block holding one is
    # more likely a declared kong with a back missed (``X a a``, whose fourth tile the proposals
    # add back) than part of the concealed hand. A back misread for a face (white dragon) still
    # ends in the proposals either way.
    if n_rows > 1:
        score += 0.3 * hidden.sum(axis=1)
    shown = ~masks & ~kong
    as_sets = np.where(sets, 1.0 + 0.5 * side, np.where(np.isin(size, (3, 4)), -0.8, -2.0))
    score += shown.astype(float) @ as_sets
    if n_rows > 1 and len(row_ids):
        in_concealed_row = rows_concealed[:, np.searchsorted(row_ids, row)]              # assignments x blocks
        score -= 0.8 * (shown & in_concealed_row).sum(axis=1)                           # a row is either concealed or sets
        # DECISION: exposed sets lie "in front of" the rack, towards the camera, so the
        # concealed row is the furthest one (a weak tie-breaker; tile counts decide first)
        only_furthest = (n_conc_rows == 1) & rows_concealed[:, 0]
        score += 0.25 * only_furthest
    score -= 1.0 * (n_conc_rows == 0)                      # a winning hand keeps at least a pair
    return np.round(score, 9)


def _assignment_notes(blocks: Sequence[_BlockFacts], concealed: Sequence[bool]) -> list[str]:
    n_conc = sum(b.size for b, c in zip(blocks, concealed) if c)
    return [f"concealed part of {n_conc} tiles is not 3n+2"] if n_conc % 3 != 2 else []
