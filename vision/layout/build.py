"""One role assignment of the blocks -> a :class:`Layout`: groups with their reasons and
confidences, the tile set apart at a row's end, tiles lying far from the rest."""

from __future__ import annotations

import math
from typing import Sequence

from ..boxes import centre
from .geometry import Block
from .model import Group, Layout, hand_notation, hand_warnings, merge_concealed
from .notation import (BONUS, CONCEALED, CONCEALED_KONG, EXPOSED, compact, is_bonus,
                                           set_type, sort_key)
from ..types import TileRead


def sigmoid(x: float) -> float:
    """Score margins -> confidences in (0, 1)."""
    return 1.0 / (1.0 + math.exp(-x))


def build_layout(ordered, pos, blocks, concealed, parts, bonus_tiles, conf, notes, n_rows,
                 direction, total) -> Layout:
    """The layout of one assignment (``concealed[i]``: block ``i`` is concealed), each group
    with the reason for its kind; ``pos`` maps input tile indices to reading order."""
    groups: list[Group] = []
    warnings = list(notes)
    single_row = n_rows == 1
    for b, c, p in zip(blocks, concealed, parts):
        idx = [pos[t.index] for t in b.tiles]
        gaps = [g for g in (b.gap_before, b.gap_after) if g is not None]
        gap_txt = f"gap of {max(gaps):.1f} tile widths" if gaps else "no gap"
        if b.has_back and (p is not None or not c):
            if p is not None and len(p[0]) == 1 and set_type(b.tokens) == "concealed_kong":
                groups.append(Group([t.read for t in b.tiles], CONCEALED_KONG,
                                    "four tiles with face-down ones: a declared concealed kong",
                                    min(0.97, conf + 0.3), tuple(idx)))
                continue
            if p is not None:
                _add_sets(groups, b, p, idx, conf, "face-down tiles among set-apart tiles")
                continue
            groups.append(Group([t.read for t in b.tiles], CONCEALED_KONG if len(b.tiles) == 4 else EXPOSED,
                                f"{len(b.tiles)} tiles with face-down ones do not form a declared kong",
                                0.3, tuple(idx)))
            continue
        if c:
            n = len(b.tiles)
            why = (f"{'the largest ' if single_row else ''}block of {n} tile{'s' if n != 1 else ''} in the "
                   f"{'row' if single_row else 'concealed row'}")
            groups.append(Group([t.read for t in b.tiles], CONCEALED, why, conf, tuple(idx)))
            continue
        cues = []
        if b.has_sideways:
            cues.append("holds a sideways tile (claimed discard)")
        if gaps:
            cues.append(f"set apart by a {gap_txt}")
        if not single_row:
            cues.append("lies in the row of sets, apart from the concealed row")
        base = "; ".join(cues) or "not part of the concealed block"
        if p is None:
            groups.append(Group([t.read for t in b.tiles], EXPOSED,
                                base + f"; but {len(b.tiles)} tiles {compact(b.tokens)} do not form sets",
                                min(conf, 0.35), tuple(idx)))
            continue
        _add_sets(groups, b, p, idx, conf, base)
    for t in bonus_tiles:
        groups.append(Group([t.read], BONUS, "flower/season tile: laid aside, scored apart from the sets",
                            0.99, (pos[t.index],)))
    groups = merge_concealed(groups)
    groups.sort(key=lambda g: (g.kind in (CONCEALED, BONUS), g.kind == BONUS, min(g.indices)))
    conc = [t for g in groups if g.kind == CONCEALED for t in g.tokens]
    bonus = sorted((t for g in groups if g.kind == BONUS for t in g.tokens), key=sort_key)
    warnings += hand_warnings(groups)
    return Layout(groups, conc, bonus, hand_notation(groups), warnings, ordered, n_rows, direction, total,
                  _apart_tile(blocks, concealed, pos))


def isolated(ordered: Sequence[TileRead], width: float) -> tuple[int, ...]:
    """Non-bonus tiles whose nearest neighbour is more than three tile widths away."""
    centres = [centre(t.box) for t in ordered]
    out = []
    for i, (x, y) in enumerate(centres):
        if is_bonus(ordered[i].kind):
            continue
        near = min((math.hypot(x - x2, y - y2) for j, (x2, y2) in enumerate(centres) if j != i), default=0.0)
        if near > 3.0 * width:
            out.append(i)
    return tuple(out)


def _apart_tile(blocks, concealed, pos) -> int | None:
    """Players often put the winning tile a little apart at the end of the concealed row: a
    one-tile concealed block at either end of a row whose other concealed block is larger.
    Only ever offered as a suggestion (the winning tile is never guessed)."""
    conc = [b for b, c in zip(blocks, concealed) if c]
    for row in {b.row for b in conc}:
        in_row = [b for b in conc if b.row == row]          # blocks keep their order along the row
        if len(in_row) != 2:
            continue
        for lone, rest in ((in_row[-1], in_row[0]), (in_row[0], in_row[-1])):
            if len(lone.tiles) == 1 and len(rest.tiles) >= 2:
                return pos[lone.tiles[0].index]
    return None


def _add_sets(groups: list[Group], b: Block, p, idx: list[int], conf: float, base: str) -> None:
    chunks, _ = p
    for (i, j) in chunks:
        toks = b.tokens[i:j]
        kind = CONCEALED_KONG if set_type(toks) == "concealed_kong" else EXPOSED
        reason = base
        c = conf
        if len(chunks) > 1:
            reason += f"; tiles {i + 1}-{j} of a block of {len(b.tiles)} split into sets"
            inner = [b.inner[k - 1] for (k, _) in chunks[1:]]
            c = min(conf, 0.6 + 0.3 * sigmoid(4 * min(inner)) if inner else conf)
        if kind == CONCEALED_KONG:
            reason = "four tiles with face-down ones: a declared concealed kong"
        groups.append(Group([t.read for t in b.tiles[i:j]], kind, reason, c, tuple(idx[i:j])))
