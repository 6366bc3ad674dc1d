"""Layout step: from the recognizer's tiles (boxes, kinds, angles) to the hand on the table.

A winning hand photographed on the table shows a *concealed part* (the tiles from the rack,
usually one contiguous block), *exposed sets* (set apart by a gap, lying in a row in front of
the rack, or holding one sideways tile: the claimed discard), *declared concealed kongs*
(four tiles with the outer or the middle two face down, ``X``) and *flowers/seasons* laid
aside. This module turns the geometry into those groups, with a reason and a confidence for
every decision, and writes the hand in spec §1 notation (without the winning tile: the photo
cannot show which tile won; see :func:`hand_notation`).

How it works (all in the row frame, so any photo rotation works):

1. Row direction: the direction to each tile's nearest neighbour, averaged as a doubled
   angle (tiles in a row touch; rows lie further apart), falling back to the tiles' face
   angles; the reading sense (left -> right) follows the dominant face angle.
2. Rows: gaps across the row direction larger than half a tile height.
3. Blocks: gaps along a row larger than ``gap_ratio`` tile widths (a sideways tile is wider,
   which the expected pitch accounts for).
4. Roles: every assignment of blocks to "concealed" or "sets" is scored (concealed count is
   3n+2, sets blocks split into pungs/chows/kongs, sideways tiles mark exposed sets, the
   concealed part lies in one row, the concealed row is the one nearest the camera); the best
   one wins and the margin to the runner-up is the decision's confidence.

DECISION: in a one-row photo the concealed tiles are expected to touch; concealed sets laid
apart by a gap read as exposed (the layout cannot tell them apart; fix with ``--hand`` or the
review). Group ``confidence`` is the confidence of the *grouping* decision, not of the tile
readings (those stay on each :class:`TileRead`).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field, replace
from typing import Iterable, Sequence

from mjscore.vision.types import TileRead

CONCEALED = "concealed"
EXPOSED = "exposed"
CONCEALED_KONG = "concealed_kong"
BONUS = "bonus"
GROUP_KINDS = (CONCEALED, EXPOSED, CONCEALED_KONG, BONUS)

_SUIT_ORDER = {"m": 0, "p": 1, "s": 2}
_HONOUR_ORDER = {"E": 0, "S": 1, "W": 2, "N": 3, "R": 4, "G": 5, "Wh": 6}


# ----------------------------------------------------------------------------- tokens

def is_bonus(token: str) -> bool:
    return len(token) == 2 and token[0] in "fj" and token[1] in "1234"


def is_suited(token: str) -> bool:
    return len(token) == 2 and token[0] in "123456789" and token[1] in "mps"


def sort_key(token: str) -> tuple:
    """Canonical order (spec §1.1): m, p, s by number, E S W N, R G Wh, bonus, X."""
    if is_suited(token):
        return (0, _SUIT_ORDER[token[1]], int(token[0]))
    if token in _HONOUR_ORDER:
        return (1, _HONOUR_ORDER[token], 0)
    if is_bonus(token):
        return (2, "fj".index(token[0]), int(token[1]))
    return (3, 0, 0)


def compact(tokens: Sequence[str], *, keep_order: bool = False) -> str:
    """Write tokens in compact notation: ``['2m','3m','4m','R','R']`` -> ``'234m RR'``.

    Runs of one suit share the suit letter; different suits and honour kinds are separated
    by a space (whitespace is ignored by the parser). ``keep_order`` keeps the given order
    (for a concealed kong, where the face-down positions matter) and writes no spaces."""
    seq = list(tokens) if keep_order else sorted(tokens, key=sort_key)
    parts: list[str] = []
    run_digits, run_suit = "", ""
    for tok in seq:
        if is_suited(tok) and tok[1] == run_suit:
            run_digits += tok[0]
            continue
        if run_digits:
            parts.append(run_digits + run_suit)
            run_digits, run_suit = "", ""
        if is_suited(tok):
            run_digits, run_suit = tok[0], tok[1]
        elif parts and not keep_order and parts[-1].startswith(tok) and \
                len(parts[-1]) % len(tok) == 0 and parts[-1] == tok * (len(parts[-1]) // len(tok)):
            parts[-1] += tok                                  # EE, WhWh together
        else:
            parts.append(tok)
    if run_digits:
        parts.append(run_digits + run_suit)
    return "".join(parts) if keep_order else " ".join(parts)


def set_type(tokens: Sequence[str]) -> str | None:
    """'pung', 'kong', 'chow', 'concealed_kong' (with face-down tiles) or None."""
    toks = list(tokens)
    faces = [t for t in toks if t != "X"]
    if any(is_bonus(t) for t in toks):
        return None
    if len(faces) != len(toks):
        if len(toks) == 4 and faces and len(set(faces)) == 1 and _kong_back_pattern(toks):
            return "concealed_kong"
        return None
    if len(toks) in (3, 4) and len(set(toks)) == 1:
        return "pung" if len(toks) == 3 else "kong"
    if len(toks) == 3 and all(is_suited(t) for t in toks) and len({t[1] for t in toks}) == 1:
        nums = sorted(int(t[0]) for t in toks)
        if nums[1] == nums[0] + 1 and nums[2] == nums[1] + 1:
            return "chow"
    return None


def _kong_back_pattern(toks: Sequence[str]) -> bool:
    """Face-down tiles at both ends, or in the two middle places (or any X: a tile the
    recognizer saw as a back inside a four-block is still read as a declared kong)."""
    backs = tuple(t == "X" for t in toks)
    return backs in ((True, False, False, True), (False, True, True, False)) or (any(backs) and not all(backs))


def group_notation(kind: str, tokens: Sequence[str]) -> str:
    """Notation of one group: ``[555p]``, ``{X55pX}``, loose concealed tiles, or bonus tokens."""
    if kind == EXPOSED:
        return "[" + compact(tokens).replace(" ", "") + "]"
    if kind == CONCEALED_KONG:
        return "{" + compact(tokens, keep_order=True) + "}"
    if kind == BONUS:
        return " ".join(sorted(tokens, key=sort_key))
    return compact(tokens)


# ----------------------------------------------------------------------------- data

@dataclass
class Group:
    """One group on the table. ``indices`` point into :attr:`Layout.tiles` (reading order)."""
    tiles: list[TileRead]
    kind: str                      # concealed / exposed / concealed_kong / bonus
    reason: str
    confidence: float
    indices: tuple[int, ...] = ()

    @property
    def tokens(self) -> list[str]:
        return [t.kind for t in self.tiles]

    @property
    def notation(self) -> str:
        return group_notation(self.kind, self.tokens)


@dataclass
class Layout:
    """The hand as laid out. ``concealed`` holds the concealed tokens *including* the winning
    tile (which the photo cannot single out); ``notation`` is the hand without ``+winning``."""
    groups: list[Group]
    concealed: list[str]
    bonus: list[str]
    notation: str
    warnings: list[str] = field(default_factory=list)
    tiles: list[TileRead] = field(default_factory=list)   # all tiles, reading order
    rows: int = 0
    direction_deg: float = 0.0                           # reading direction in the image
    score: float = 0.0                                   # structural plausibility (higher = better)
    apart_tile: int | None = None     # a lone concealed tile set apart at the row's end (the winning tile?)
    isolated: tuple[int, ...] = ()    # tiles far from every other tile (another hand's? a false detection?)

    @property
    def melds(self) -> list[str]:
        """Exposed sets and declared concealed kongs, as engine ``melds`` strings."""
        return [g.notation for g in self.groups if g.kind in (EXPOSED, CONCEALED_KONG)]

    @property
    def group_of_tile(self) -> dict[int, int]:
        return {i: gi for gi, g in enumerate(self.groups) for i in g.indices}

    def to_json(self) -> dict:
        return {
            "notation": self.notation,
            "melds": self.melds,
            "concealed": compact(self.concealed).replace(" ", ""),
            "bonus": list(self.bonus),
            "groups": [{"kind": g.kind, "notation": g.notation, "tiles": [i + 1 for i in g.indices],
                        "reason": g.reason, "confidence": round(g.confidence, 3)} for g in self.groups],
            "warnings": list(self.warnings),
            "rows": self.rows,
            "direction_deg": round(self.direction_deg, 1),
        }


def hand_notation(groups: Sequence[Group], winning_tile: str | None = None) -> str:
    """Spec §1.2 notation. With a winning tile, one copy of it leaves the concealed part and
    is written last as ``+tile`` (raises ValueError when the concealed part lacks it)."""
    melds = [g.notation for g in groups if g.kind in (EXPOSED, CONCEALED_KONG)]
    concealed = [t for g in groups if g.kind == CONCEALED for t in g.tokens]
    bonus = sorted((t for g in groups if g.kind == BONUS for t in g.tokens), key=sort_key)
    if winning_tile is not None:
        if winning_tile not in concealed:
            raise ValueError(f"the winning tile {winning_tile} is not among the concealed tiles")
        concealed.remove(winning_tile)
    parts = melds + ([compact(concealed)] if concealed else [])
    if winning_tile is not None:
        parts.append("+" + winning_tile)
    if bonus:
        parts.append("/ " + " ".join(sorted(bonus, key=sort_key)))
    return " ".join(parts)


def layout_from_groups(tiles: Sequence[TileRead], spec: Sequence[tuple[str, Sequence[int]]],
                       reasons: Sequence[tuple[str, float]] | None = None,
                       warnings: Iterable[str] = (), **extra) -> Layout:
    """Build a Layout from explicit groups ``[(kind, [tile index, ...]), ...]`` (used by the
    review, where the user regroups by hand). Empty groups are dropped."""
    groups: list[Group] = []
    for n, (kind, idx) in enumerate(spec):
        if kind not in GROUP_KINDS:
            raise ValueError(f"unknown group kind {kind!r}")
        idx = tuple(idx)
        if not idx:
            continue
        reason, conf = reasons[n] if reasons else ("set by hand", 1.0)
        groups.append(Group([tiles[i] for i in idx], kind, reason, conf, idx))
    groups = _merge_concealed(groups)
    concealed = [t for g in groups if g.kind == CONCEALED for t in g.tokens]
    bonus = sorted((t for g in groups if g.kind == BONUS for t in g.tokens), key=sort_key)
    warns = list(warnings) + _hand_warnings(groups)
    return Layout(groups, concealed, bonus, hand_notation(groups), warns, list(tiles), **extra)


def _merge_concealed(groups: list[Group]) -> list[Group]:
    """All concealed tiles form one group (the engine decomposes it), placed after the sets."""
    conc = [g for g in groups if g.kind == CONCEALED]
    bonus = [g for g in groups if g.kind == BONUS]
    rest = [g for g in groups if g.kind not in (CONCEALED, BONUS)]
    out = rest
    if conc:
        pairs = sorted((i, t) for g in conc for i, t in zip(g.indices, g.tiles)) if all(
            len(g.indices) == len(g.tiles) for g in conc) else None
        idx = tuple(i for i, _ in pairs) if pairs else tuple(i for g in conc for i in g.indices)
        tiles = [t for _, t in pairs] if pairs else [t for g in conc for t in g.tiles]
        reason = conc[0].reason if len(conc) == 1 else "; ".join(dict.fromkeys(g.reason for g in conc))
        out = out + [Group(tiles, CONCEALED, reason, min(g.confidence for g in conc), idx)]
    if bonus:
        idx = tuple(i for g in bonus for i in g.indices)
        out = out + [Group([t for g in bonus for t in g.tiles], BONUS,
                           "flowers/seasons are laid aside and scored apart from the sets",
                           min(g.confidence for g in bonus), idx)]
    return out


def _hand_warnings(groups: Sequence[Group]) -> list[str]:
    warns = []
    kongs = sum(1 for g in groups if g.kind in (EXPOSED, CONCEALED_KONG) and len(g.tiles) == 4)
    n = sum(len(g.tiles) for g in groups if g.kind != BONUS)
    if n and n != 14 + kongs:
        warns.append(f"{n} tiles in sets and concealed part; a winning hand has 14 + one per kong "
                     f"({14 + kongs}): a tile may be {'missing' if n < 14 + kongs else 'extra'}")
    for g in groups:
        if g.kind == EXPOSED and set_type(g.tokens) not in ("pung", "kong", "chow"):
            warns.append(f"exposed group {g.notation} is not a pung, chow or kong")
        if g.kind == CONCEALED_KONG and set_type(g.tokens) != "concealed_kong":
            warns.append(f"concealed kong {g.notation} is not four of one kind with face-down tiles")
        if g.kind == CONCEALED and "X" in g.tokens:
            warns.append("a face-down tile (X) lies among the concealed tiles")
    return warns


# ----------------------------------------------------------------------------- geometry

@dataclass
class _Geometry:
    u: tuple[float, float]         # reading direction (unit, image coordinates)
    v: tuple[float, float]         # across the rows, towards the camera for upright tiles
    width: float                   # tile extent along u (upright tile)
    height: float                  # tile extent along v
    dominant_angle: int


def _centre(t: TileRead) -> tuple[float, float]:
    x1, y1, x2, y2 = t.box
    return (x1 + x2) / 2.0, (y1 + y2) / 2.0


def _median(values: Sequence[float], default: float = 0.0) -> float:
    vals = sorted(values)
    if not vals:
        return default
    m = len(vals) // 2
    return vals[m] if len(vals) % 2 else (vals[m - 1] + vals[m]) / 2.0


def _quarter(angle: float) -> int:
    """Face angle to the nearest of 0/90/180/270 (labels may carry exact angles)."""
    return int(round(angle / 90.0)) % 4 * 90


def _dominant_angle(tiles: Sequence[TileRead]) -> int:
    counts: dict[int, int] = {}
    for t in tiles:
        if t.kind != "X":
            q = _quarter(t.angle)
            counts[q] = counts.get(q, 0) + 1
    if not counts:
        return 0
    return max(sorted(counts), key=lambda a: counts[a])


def _estimate_geometry(tiles: Sequence[TileRead]) -> _Geometry:
    dom = _dominant_angle(tiles)
    a = math.radians(dom)
    reading = (math.cos(a), -math.sin(a))          # face angle is counter-clockwise, image y down
    centres = [_centre(t) for t in tiles]
    sx = sy = 0.0
    for i, (x, y) in enumerate(centres):
        best, bd = None, float("inf")
        for j, (x2, y2) in enumerate(centres):
            if i != j:
                d = math.hypot(x2 - x, y2 - y)
                if d < bd:
                    best, bd = (x2 - x, y2 - y), d
        if best is not None and bd > 0:
            th = math.atan2(best[1], best[0])
            sx += math.cos(2 * th)
            sy += math.sin(2 * th)
    if math.hypot(sx, sy) > 0.3 * max(1, len(tiles) - 1) * 0.5:
        phi = 0.5 * math.atan2(sy, sx)
        u = (math.cos(phi), math.sin(phi))
        if u[0] * reading[0] + u[1] * reading[1] < 0:
            u = (-u[0], -u[1])
    else:
        u = reading
    v = (-u[1], u[0])
    # tile size in the row frame from the boxes of tiles that face like the majority
    c, s = abs(u[0]), abs(u[1])
    cos2 = c * c - s * s
    ws, hs, sums = [], [], []
    for t in tiles:
        if (_quarter(t.angle) - dom) % 180 != 0:
            continue
        bw, bh = t.box[2] - t.box[0], t.box[3] - t.box[1]
        sums.append((bw + bh) / (c + s))
        if abs(cos2) > 0.35:
            ws.append((bw * c - bh * s) / cos2)
            hs.append((bh * c - bw * s) / cos2)
    if ws and _median(ws) > 0 and _median(hs) > 0:
        width, height = _median(ws), _median(hs)
    else:
        total = _median(sums, default=1.0)
        width, height = total / 2.35, total * 1.35 / 2.35
    return _Geometry(u, v, max(width, 1e-6), max(height, 1e-6), dom)


# ----------------------------------------------------------------------------- grouping

@dataclass
class _Tile:
    index: int                     # position in the input list
    read: TileRead
    pu: float                      # centre along u
    pv: float                      # centre across
    sideways: bool
    ext: float                     # extent along u


@dataclass
class _Block:
    tiles: list[_Tile]
    row: int
    gap_before: float | None       # gap (tile widths) to the previous block in the row
    gap_after: float | None
    inner: list[float]             # gaps (tile widths) between consecutive tiles

    @property
    def tokens(self) -> list[str]:
        return [t.read.kind for t in self.tiles]

    @property
    def has_sideways(self) -> bool:
        return any(t.sideways for t in self.tiles)

    @property
    def has_back(self) -> bool:
        return any(t.read.kind == "X" for t in self.tiles)


def _frame_tiles(tiles: Sequence[TileRead], g: _Geometry) -> list[_Tile]:
    """Tiles in the row frame. Sideways: the face angle differs by 90 degrees from the
    majority; only when no face angle says so (a recognizer without angles) the box shape
    decides, for rows near the image axes. A face-down tile has no face angle."""
    # A tile is turned when its face angle (rounded to a quarter turn by the recognizer) is
    # clearly across the row direction measured from the geometry: within 25 degrees of
    # perpendicular. On a photo turned about 45 degrees no rounded angle is that clear, so no
    # tile counts as sideways there (the gaps still separate the sets).
    row_deg = math.degrees(math.atan2(-g.u[1], g.u[0]))

    def turned(t: TileRead) -> bool:
        if t.kind == "X":
            return False                                   # a face-down tile has no face angle
        d = abs(_quarter(t.angle) - row_deg) % 180.0
        return 65.0 <= d <= 115.0
    faces = [t for t in tiles if t.kind != "X"]
    n_turned = sum(1 for t in faces if turned(t))
    # a recognizer whose angles scatter (more than a third turned) is ignored, not followed
    if n_turned > len(faces) / 3:
        n_turned = 0
        turned = lambda t: False                                          # noqa: E731
    out = []
    for i, t in enumerate(tiles):
        x, y = _centre(t)
        sideways = turned(t)
        if n_turned == 0 and abs(abs(g.u[0]) - abs(g.u[1])) > 0.7:   # no angles, near-axis rows: box shape
            bw, bh = t.box[2] - t.box[0], t.box[3] - t.box[1]
            along, across = (bw, bh) if abs(g.u[0]) > abs(g.u[1]) else (bh, bw)
            upright_ratio = g.width / g.height
            sideways = upright_ratio < 0.87 and along / max(across, 1e-6) > 1.12
        out.append(_Tile(i, t, x * g.u[0] + y * g.u[1], x * g.v[0] + y * g.v[1], sideways,
                         g.height if sideways else g.width))
    return out


def _split_rows(ftiles: list[_Tile], g: _Geometry) -> list[list[_Tile]]:
    order = sorted(ftiles, key=lambda t: t.pv)
    rows: list[list[_Tile]] = [[order[0]]] if order else []
    for prev, cur in zip(order, order[1:]):
        if cur.pv - prev.pv > 0.55 * g.height:
            rows.append([cur])
        else:
            rows[-1].append(cur)
    return [sorted(r, key=lambda t: t.pu) for r in rows]


def _row_scales(row: list[_Tile]) -> list[float]:
    """Per consecutive pair: its size relative to the row's median tile (perspective)."""
    sizes = [math.sqrt(max((t.read.box[2] - t.read.box[0]) * (t.read.box[3] - t.read.box[1]), 1e-6)) for t in row]
    med = _median([sz for sz, t in zip(sizes, row) if not t.sideways] or sizes)
    return [(sizes[k] + sizes[k + 1]) / (2 * med) for k in range(len(row) - 1)]


def _upright_steps(row: list[_Tile]) -> list[float]:
    """Scale-corrected centre steps between neighbouring upright tiles of a row."""
    return [(b.pu - a.pu) / sc for a, b, sc in zip(row, row[1:], _row_scales(row))
            if not a.sideways and not b.sideways]


def _pitch(steps: list[float], g: _Geometry) -> float | None:
    """The usual step between touching tiles: the median step, when it is plausible (boxes
    that cover only the face make the pitch wider than the box width)."""
    if len(steps) < 3:
        return None
    m = _median(steps)
    return m if 0.6 * g.width < m < 1.7 * g.width else None


def _row_gaps(row: list[_Tile], g: _Geometry, pooled: float | None = None) -> list[float]:
    """Free space between consecutive tiles of a row, in (local) tile widths beyond the usual
    pitch. Each pair is measured in its own scale (box size relative to the row's median), so
    perspective that shrinks the far end of a row does not hide the gaps there. Short rows use
    the pitch of the whole photo (``pooled``)."""
    if len(row) < 2:
        return []
    scales = _row_scales(row)
    unit = _pitch(_upright_steps(row), g) or pooled or g.width
    gaps = []
    for (a, b), sc in zip(zip(row, row[1:]), scales):
        expected = unit + (a.ext - g.width) / 2 + (b.ext - g.width) / 2
        gaps.append(((b.pu - a.pu) / sc - expected) / unit)
    return gaps


def _gap_threshold(gaps: Sequence[float], default: float) -> float:
    """The photo's own break between 'touching' and 'set apart' when its gaps show one clearly
    (tight spacing, small gaps between sets); otherwise ``default``."""
    vals = sorted(x for x in gaps if x < 1.5)
    best: tuple[float, float] | None = None
    for k, (lo, hi) in enumerate(zip(vals, vals[1:])):
        if hi < 0.35 or lo > default:
            continue
        below = vals[:k + 1]
        spread = (max(below) - min(below)) if len(below) > 1 else 0.0
        jump = hi - lo
        if jump >= 0.15 and jump >= 0.6 * spread and (best is None or jump > best[0]):
            best = (jump, (lo + hi) / 2)
    if best is None:
        return default
    return min(max(best[1], 0.22), default)


def _split_blocks(row: list[_Tile], gaps: list[float], row_index: int, threshold: float) -> list[_Block]:
    blocks: list[_Block] = []
    start = 0
    for k, gap in enumerate(gaps + [None]):
        if gap is None or gap > threshold:
            blocks.append(_Block(row[start:k + 1], row_index, gaps[start - 1] if start else None,
                                 gap, gaps[start:k]))
            start = k + 1
    return blocks


def _cut_claimed_set(block: _Block) -> list[_Block]:
    """A sideways tile marks a claimed set even when the set lies closer to the concealed
    tiles than a full gap: cut the set (3 or 4 tiles at either end of the block, holding the
    sideways tile, forming a set) off at the widest possible cut, if that shows some space."""
    n = len(block.tiles)
    if not block.has_sideways or n <= 4 or _partition_sets(block) is not None:
        return [block]
    best = None
    for size in (3, 4):
        for start, end in ((0, size), (n - size, n)):
            chunk = block.tiles[start:end]
            if any(t.sideways for t in chunk) and set_type([t.read.kind for t in chunk]) in ("pung", "kong", "chow"):
                cut = end if start == 0 else start               # tiles before ``cut`` | from ``cut``
                gap = block.inner[cut - 1]
                if gap < 0.2:            # no visible space at all: a turned face angle alone is too weak
                    continue
                if best is None or gap > best[0]:
                    best = (gap, cut)
    if best is None:
        return [block]
    gap, cut = best
    left = _Block(block.tiles[:cut], block.row, block.gap_before, gap, block.inner[:cut - 1])
    right = _Block(block.tiles[cut:], block.row, gap, block.gap_after, block.inner[cut:])
    return [left, right]


def _partition_sets(block: _Block) -> tuple[list[tuple[int, int]], float] | None:
    """Split a block into consecutive chunks of 3/4 tiles that are sets; prefer splits at the
    widest inner gaps. Returns ([(start, end)], score) or None when no split works."""
    toks = block.tokens
    n = len(toks)
    best: dict[int, tuple[float, list[tuple[int, int]]]] = {0: (0.0, [])}
    for i in range(n):
        if i not in best:
            continue
        for size in (3, 4):
            j = i + size
            if j > n or set_type(toks[i:j]) is None:
                continue
            bonus = block.inner[j - 1] if j < n else 0.0
            cand = (best[i][0] + 1.0 + bonus, best[i][1] + [(i, j)])
            if j not in best or cand[0] > best[j][0]:
                best[j] = cand
    if n not in best:
        return None
    return best[n][1], best[n][0]


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def group_tiles(tiles: Sequence[TileRead], *, gap_ratio: float = 0.4) -> Layout:
    """Group the recognizer's tiles into the hand on the table (see the module docstring)."""
    return _candidates(tiles, gap_ratio=gap_ratio, keep=1)[0]


def candidate_layouts(tiles: Sequence[TileRead], *, gap_ratio: float = 0.4, keep: int = 6) -> list[Layout]:
    """The best few role assignments, best first (the first is :func:`group_tiles`)."""
    return _candidates(tiles, gap_ratio=gap_ratio, keep=keep)


def _iou(a: tuple, b: tuple) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def _drop_duplicates(tiles: list[TileRead]) -> tuple[list[TileRead], list[str]]:
    """Two boxes on one tile (IoU > 0.6): keep the more confident read."""
    order = sorted(range(len(tiles)), key=lambda i: -tiles[i].confidence)
    kept: list[int] = []
    notes = []
    for i in order:
        twin = next((k for k in kept if _iou(tiles[i].box, tiles[k].box) > 0.6), None)
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
        scaled = [replace(t, box=(t.box[0] * sx, t.box[1] * sy, t.box[2] * sx, t.box[3] * sy)) for t in tiles]
        original = {id(c): t for c, t in zip(scaled, tiles)}
        out = _candidates_in_frame(scaled, dup_notes, gap_ratio=gap_ratio, keep=keep)
        for lay in out:
            lay.tiles = [original.get(id(t), t) for t in lay.tiles]
        return out
    return _candidates_in_frame(tiles, dup_notes, gap_ratio=gap_ratio, keep=keep)


def _candidates_in_frame(tiles: list[TileRead], dup_notes: list[str], *, gap_ratio: float,
                         keep: int) -> list[Layout]:
    geo = _estimate_geometry(tiles)
    ftiles = _frame_tiles(tiles, geo)
    rows = _split_rows(ftiles, geo)
    reading = [t for r in rows for t in r]
    pos = {t.index: k for k, t in enumerate(reading)}          # input index -> reading index
    ordered = [t.read for t in reading]
    direction = math.degrees(math.atan2(-geo.u[1], geo.u[0]))

    bonus_tiles = [t for t in reading if is_bonus(t.read.kind)]
    blocks: list[_Block] = []
    pooled = _pitch([st for row in rows for st in _upright_steps(row)], geo)
    row_gaps = [_row_gaps(row, geo, pooled) for row in rows]
    threshold = _gap_threshold([x for gaps in row_gaps for x in gaps], gap_ratio)
    for ri, row in enumerate(rows):
        for b in _split_blocks(row, row_gaps[ri], ri, threshold):
            kept = [t for t in b.tiles if not is_bonus(t.read.kind)]
            if kept:
                inner = [gap for k, gap in enumerate(b.inner)
                         if not is_bonus(b.tiles[k].read.kind) and not is_bonus(b.tiles[k + 1].read.kind)]
                if len(inner) != len(kept) - 1:
                    inner = (inner + [0.0] * len(kept))[:len(kept) - 1]
                blocks.extend(_cut_claimed_set(_Block(kept, b.row, b.gap_before, b.gap_after, inner)))

    parts = [_partition_sets(b) for b in blocks]
    # face-down tiles in blocks that split into sets: declared kongs (a face-down tile in any
    # other block is a misread or a tile seen from behind: that block keeps both roles open)
    forced = [b.has_back and p is not None for b, p in zip(blocks, parts)]
    free = [i for i, f in enumerate(forced) if not f]
    row_sizes = [sum(1 for t in r if not is_bonus(t.read.kind)) for r in rows]
    n_rows = sum(1 for s in row_sizes if s)

    # enumerate roles of the (at most 12 largest) free blocks; the rest count as sets
    free.sort(key=lambda i: -len(blocks[i].tiles))
    enum, fixed_sets = free[:12], free[12:]
    scored: list[tuple[float, tuple[bool, ...], list[str]]] = []
    for mask in itertools.product((True, False), repeat=len(enum)):
        concealed = [False] * len(blocks)
        for i, m in zip(enum, mask):
            concealed[i] = m
        total, notes = _score_assignment(blocks, concealed, parts, n_rows, rows)
        scored.append((total, tuple(concealed), notes))
    if fixed_sets:
        scored = [(s - 0.0, c, n + [f"{len(fixed_sets)} small blocks read as sets without comparison"])
                  for s, c, n in scored]
    scored.sort(key=lambda s: -s[0])
    best = scored[0][0]
    runner_up = scored[1][0] if len(scored) > 1 else best - 4.0
    out = []
    for rank, (total, concealed, notes) in enumerate(scored[:keep]):
        conf = _sigmoid(2.0 * (best - runner_up)) if rank == 0 else _sigmoid(2.0 * (total - best))
        out.append(_build_layout(ordered, pos, blocks, concealed, parts, bonus_tiles, conf, dup_notes + notes,
                                 len(rows), direction, total))
    far = _isolated(ordered, geo.width)
    for lay in out:
        lay.isolated = far
        lay.warnings += [f"tile {i + 1} ({ordered[i].kind}) lies far from the others: a tile of this hand?"
                         for i in far]
    return out


def _score_assignment(blocks: list[_Block], concealed: Sequence[bool], parts, n_rows: int,
                      rows) -> tuple[float, list[str]]:
    score = 0.0
    notes: list[str] = []
    n_conc = sum(len(b.tiles) for b, c in zip(blocks, concealed) if c)
    if n_conc % 3 != 2:
        score -= 3.0
        notes.append(f"concealed part of {n_conc} tiles is not 3n+2")
    conc_rows = {b.row for b, c in zip(blocks, concealed) if c}
    if len(conc_rows) > 1:
        score -= 1.5 * (len(conc_rows) - 1)
    for b, c, p in zip(blocks, concealed, parts):
        if b.has_back and p is not None:
            score += 1.0
            continue
        if c:
            if b.has_sideways:
                score -= 1.5
            if n_rows > 1 and conc_rows and b.row in conc_rows:
                score += 0.3
        else:
            if p is None:
                score -= 2.0 if len(b.tiles) not in (3, 4) else 0.8
            else:
                score += 1.0 + (0.5 if b.has_sideways else 0.0)
            if n_rows > 1 and b.row in conc_rows:
                score -= 0.8                               # a row is either concealed or sets
    if conc_rows and n_rows > 1:
        # DECISION: exposed sets lie "in front of" the rack, towards the camera, so the
        # concealed row is the furthest one (a weak tie-breaker; tile counts decide first)
        furthest = min(b.row for b in blocks)
        if conc_rows == {furthest}:
            score += 0.25
    if not conc_rows:
        score -= 1.0                                       # a winning hand keeps at least a pair
    return score, notes


def _build_layout(ordered, pos, blocks, concealed, parts, bonus_tiles, conf, notes, n_rows,
                  direction, total) -> Layout:
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
    groups = _merge_concealed(groups)
    groups.sort(key=lambda g: (g.kind in (CONCEALED, BONUS), g.kind == BONUS, min(g.indices)))
    conc = [t for g in groups if g.kind == CONCEALED for t in g.tokens]
    bonus = sorted((t for g in groups if g.kind == BONUS for t in g.tokens), key=sort_key)
    warnings += _hand_warnings(groups)
    return Layout(groups, conc, bonus, hand_notation(groups), warnings, ordered, n_rows, direction, total,
                  _apart_tile(blocks, concealed, pos))


def _isolated(ordered: Sequence[TileRead], width: float) -> tuple[int, ...]:
    """Non-bonus tiles whose nearest neighbour is more than three tile widths away."""
    centres = [_centre(t) for t in ordered]
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


def _add_sets(groups: list[Group], b: _Block, p, idx: list[int], conf: float, base: str) -> None:
    chunks, _ = p
    for (i, j) in chunks:
        toks = b.tokens[i:j]
        kind = CONCEALED_KONG if set_type(toks) == "concealed_kong" else EXPOSED
        reason = base
        c = conf
        if len(chunks) > 1:
            reason += f"; tiles {i + 1}-{j} of a block of {len(b.tiles)} split into sets"
            inner = [b.inner[k - 1] for (k, _) in chunks[1:]]
            c = min(conf, 0.6 + 0.3 * _sigmoid(4 * min(inner)) if inner else conf)
        if kind == CONCEALED_KONG:
            reason = "four tiles with face-down ones: a declared concealed kong"
        groups.append(Group([t.read for t in b.tiles[i:j]], kind, reason, c, tuple(idx[i:j])))


# ----------------------------------------------------------------------------- alternatives

def alternative_layouts(layout: Layout, *, gap_ratio: float = 0.4, limit: int = 24) -> list[tuple[Layout, str]]:
    """Nearby regroupings to try when the layout gives no valid hand: other role assignments,
    odd-sized exposed groups split into a set plus concealed tiles, an exposed group taken
    back into the concealed part. Structural only; the caller checks them with the engine.
    Returns ``[(layout, description)]``, closest first, without duplicates."""
    tiles = layout.tiles
    spec = [(g.kind, list(g.indices)) for g in layout.groups]
    seen = {layout.notation}
    out: list[tuple[Layout, str, int]] = []

    def add(new_spec, what: str, moved: int) -> None:
        try:
            lay = layout_from_groups(tiles, new_spec, rows=layout.rows, direction_deg=layout.direction_deg)
        except ValueError:
            return
        if lay.notation not in seen:
            seen.add(lay.notation)
            out.append((lay, what, moved))

    conc_i = [i for i, (k, _) in enumerate(spec) if k == CONCEALED]
    for gi, (kind, idx) in enumerate(spec):
        if kind != EXPOSED:
            continue
        toks = [tiles[i].kind for i in idx]
        label = group_notation(EXPOSED, toks)
        # take the whole group back into the concealed part
        new = [s for k, s in enumerate(spec) if k != gi]
        new.append((CONCEALED, list(idx)))
        add(new, f"{label} is concealed, not exposed", len(idx))
        # keep a set at either end, the rest goes to the concealed part
        for size in (3, 4):
            if len(idx) <= size:
                continue
            for part, rest, where in ((idx[:size], idx[size:], "first"), (idx[-size:], idx[:-size], "last")):
                ptoks = [tiles[i].kind for i in part]
                if set_type(ptoks) in ("pung", "kong", "chow"):
                    new = [s for k, s in enumerate(spec) if k != gi]
                    new.insert(gi, (EXPOSED, list(part)))
                    new.append((CONCEALED, list(rest)))
                    add(new, f"{label} split: {group_notation(EXPOSED, ptoks)} exposed, "
                             f"{compact([tiles[i].kind for i in rest])} concealed", len(rest))
        # split a 6-8 tile group into two sets
        for cut in range(3, len(idx) - 2):
            a, b = idx[:cut], idx[cut:]
            ta, tb = [tiles[i].kind for i in a], [tiles[i].kind for i in b]
            if set_type(ta) and set_type(tb):
                new = [s for k, s in enumerate(spec) if k != gi]
                new.insert(gi, (EXPOSED, list(b)))
                new.insert(gi, (EXPOSED, list(a)))
                add(new, f"{label} split into {group_notation(EXPOSED, ta)} {group_notation(EXPOSED, tb)}", 0)
    # a set at the end of the concealed part that was meant to be exposed
    for ci in conc_i:
        idx = spec[ci][1]
        for size in (3, 4):
            for part, rest in ((idx[:size], idx[size:]), (idx[-size:], idx[:-size])):
                ptoks = [tiles[i].kind for i in part]
                if len(idx) > size and set_type(ptoks) in ("pung", "kong", "chow"):
                    new = [s for k, s in enumerate(spec) if k != ci] + [(EXPOSED, list(part)), (CONCEALED, list(rest))]
                    add(new, f"{group_notation(EXPOSED, ptoks)} exposed, not concealed", len(part))
    # other role assignments of the geometric blocks
    if tiles:
        for lay in candidate_layouts(tiles, gap_ratio=gap_ratio, keep=6)[1:]:
            if lay.notation not in seen:
                seen.add(lay.notation)
                moved = _moved(layout, lay)
                out.append((lay, "other grouping: " + lay.notation, moved))
    out.sort(key=lambda x: x[2])
    return [(lay, what) for lay, what, _ in out[:limit]]


def _moved(a: Layout, b: Layout) -> int:
    ga, gb = a.group_of_tile, b.group_of_tile
    kinds_a = {i: a.groups[g].kind for i, g in ga.items()}
    kinds_b = {i: b.groups[g].kind for i, g in gb.items()}
    return sum(1 for i in kinds_a if kinds_b.get(i) != kinds_a[i])


def with_kind(layout: Layout, tile_index: int, kind: str) -> Layout:
    """The same grouping with one tile read as another kind (review fixes, alternatives)."""
    tiles = list(layout.tiles)
    tiles[tile_index] = replace(tiles[tile_index], kind=kind, confidence=1.0, alternatives=())
    spec = [(g.kind, list(g.indices)) for g in layout.groups]
    reasons = [(g.reason, g.confidence) for g in layout.groups]
    return layout_from_groups(tiles, spec, reasons, rows=layout.rows, direction_deg=layout.direction_deg)


def without_tile(layout: Layout, tile_index: int) -> Layout:
    """The same grouping with one tile left out (a false detection)."""
    tiles = [t for i, t in enumerate(layout.tiles) if i != tile_index]
    shift = {i: i - (i > tile_index) for i in range(len(layout.tiles)) if i != tile_index}
    spec = [(g.kind, [shift[i] for i in g.indices if i != tile_index]) for g in layout.groups]
    reasons = [(g.reason, g.confidence) for g in layout.groups]
    return layout_from_groups(tiles, spec, reasons, rows=layout.rows, direction_deg=layout.direction_deg)
