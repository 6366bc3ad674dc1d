"""The photo's geometry in the row frame: reading direction, tile size, rows, the pitch of
touching tiles and the gaps that split a row into blocks (steps 1-3 of the layout)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from ...scoring.tiles import BACK
from ..boxes import centre
from ..types import TileRead


@dataclass
class Geometry:
    """The row frame of a photo: every later step measures along ``u`` and across ``v``."""
    u: tuple[float, float]         # reading direction (unit, image coordinates)
    v: tuple[float, float]         # across the rows, towards the camera for upright tiles
    width: float                   # tile extent along u (upright tile)
    height: float                  # tile extent along v
    dominant_angle: int


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
        if t.kind != BACK:
            q = _quarter(t.angle)
            counts[q] = counts.get(q, 0) + 1
    if not counts:
        return 0
    return max(sorted(counts), key=lambda a: counts[a])


def estimate_geometry(tiles: Sequence[TileRead]) -> Geometry:
    dom = _dominant_angle(tiles)
    a = math.radians(dom)
    reading = (math.cos(a), -math.sin(a))          # face angle is counter-clockwise, image y down
    centres = [centre(t.box) for t in tiles]
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
    return Geometry(u, v, max(width, 1e-6), max(height, 1e-6), dom)


@dataclass
class RowTile:
    """A tile placed in the row frame."""
    index: int                     # position in the input list
    read: TileRead
    pu: float                      # centre along u
    pv: float                      # centre across
    sideways: bool
    ext: float                     # extent along u


@dataclass
class Block:
    """Touching tiles of one row, between two gaps: the unit the role search assigns."""
    tiles: list[RowTile]
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
        return any(t.read.kind == BACK for t in self.tiles)


def frame_tiles(tiles: Sequence[TileRead], g: Geometry) -> list[RowTile]:
    """Tiles in the row frame. Sideways: the face angle differs by 90 degrees from the
    majority; only when no face angle says so (a recognizer without angles) the box shape
    decides, for rows near the image axes. A face-down tile has no face angle."""
    # A tile is turned when its face angle (rounded to a quarter turn by the recognizer) is
    # clearly across the row direction measured from the geometry: within 25 degrees of
    # perpendicular. On a photo turned about 45 degrees no rounded angle is that clear, so no
    # tile counts as sideways there (the gaps still separate the sets).
    row_deg = math.degrees(math.atan2(-g.u[1], g.u[0]))

    def turned(t: TileRead) -> bool:
        if t.kind == BACK:
            return False                                   # a face-down tile has no face angle
        d = abs(_quarter(t.angle) - row_deg) % 180.0
        return 65.0 <= d <= 115.0
    faces = [t for t in tiles if t.kind != BACK]
    n_turned = sum(1 for t in faces if turned(t))
    # a recognizer whose angles scatter (more than a third turned) is ignored, not followed
    if n_turned > len(faces) / 3:
        n_turned = 0
        turned = lambda t: False                                          # noqa: E731
    out = []
    for i, t in enumerate(tiles):
        x, y = centre(t.box)
        sideways = turned(t)
        if n_turned == 0 and abs(abs(g.u[0]) - abs(g.u[1])) > 0.7:   # no angles, near-axis rows: box shape
            bw, bh = t.box[2] - t.box[0], t.box[3] - t.box[1]
            along, across = (bw, bh) if abs(g.u[0]) > abs(g.u[1]) else (bh, bw)
            upright_ratio = g.width / g.height
            sideways = upright_ratio < 0.87 and along / max(across, 1e-6) > 1.12
        out.append(RowTile(i, t, x * g.u[0] + y * g.u[1], x * g.v[0] + y * g.v[1], sideways,
                         g.height if sideways else g.width))
    return out


def split_rows(ftiles: list[RowTile], g: Geometry) -> list[list[RowTile]]:
    order = sorted(ftiles, key=lambda t: t.pv)
    rows: list[list[RowTile]] = [[order[0]]] if order else []
    for prev, cur in zip(order, order[1:]):
        if cur.pv - prev.pv > 0.55 * g.height:
            rows.append([cur])
        else:
            rows[-1].append(cur)
    return [sorted(r, key=lambda t: t.pu) for r in rows]


def _row_scales(row: list[RowTile]) -> list[float]:
    """Per consecutive pair: its size relative to the row's median tile (perspective)."""
    sizes = [math.sqrt(max((t.read.box[2] - t.read.box[0]) * (t.read.box[3] - t.read.box[1]), 1e-6)) for t in row]
    med = _median([sz for sz, t in zip(sizes, row) if not t.sideways] or sizes)
    return [(sizes[k] + sizes[k + 1]) / (2 * med) for k in range(len(row) - 1)]


def upright_steps(row: list[RowTile]) -> list[float]:
    """Scale-corrected centre steps between neighbouring upright tiles of a row."""
    return [(b.pu - a.pu) / sc for a, b, sc in zip(row, row[1:], _row_scales(row))
            if not a.sideways and not b.sideways]


def pitch(steps: list[float], g: Geometry) -> float | None:
    """The usual step between touching tiles: the median step, when it is plausible (boxes
    that cover only the face make the pitch wider than the box width)."""
    if len(steps) < 3:
        return None
    m = _median(steps)
    return m if 0.6 * g.width < m < 1.7 * g.width else None


def row_gaps(row: list[RowTile], g: Geometry, pooled: float | None = None) -> list[float]:
    """Free space between consecutive tiles of a row, in (local) tile widths beyond the usual
    pitch. Each pair is measured in its own scale (box size relative to the row's median), so
    perspective that shrinks the far end of a row does not hide the gaps there. Short rows use
    the pitch of the whole photo (``pooled``)."""
    if len(row) < 2:
        return []
    scales = _row_scales(row)
    unit = pitch(upright_steps(row), g) or pooled or g.width
    gaps = []
    for (a, b), sc in zip(zip(row, row[1:]), scales):
        expected = unit + (a.ext - g.width) / 2 + (b.ext - g.width) / 2
        gaps.append(((b.pu - a.pu) / sc - expected) / unit)
    return gaps


def gap_threshold(gaps: Sequence[float], default: float) -> float:
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


def split_blocks(row: list[RowTile], gaps: list[float], row_index: int, threshold: float) -> list[Block]:
    blocks: list[Block] = []
    start = 0
    for k, gap in enumerate(gaps + [None]):
        if gap is None or gap > threshold:
            blocks.append(Block(row[start:k + 1], row_index, gaps[start - 1] if start else None,
                                 gap, gaps[start:k]))
            start = k + 1
    return blocks
