"""Rows of tiles that lie tilted in the photo, read again in a copy turned so the rows run level.

Why: the detector gives axis-aligned boxes and was trained mostly on rows near the image
axes. A row laid 30-60 degrees off them (a phone held at an angle to the table, a rack seen
from a corner) comes back short: neighbouring tiles' boxes overlap by half, their peaks
merge, and the crops hold two tilted half tiles. On 100 synthetic hand photos, hands whose
rows lay 30-45 degrees off the axes were read right 14 of 32 times against 20 of 30 near the
axes. Turned level, the same tiles are tiles the detector knows.

How: the tilt of the rows is taken from the first read's tiles (the direction from each tile
to its nearest neighbour, averaged modulo a quarter turn) or, when it found fewer than three,
from the photo's strongest edges (same average). When that is at least ``turn_min_degrees``
(recognizer.json; no default: without it the turned read is off) off the axes, the photo is
turned by it (canvas grown, nothing cut; the border filled with the photo's median colour,
never mirrored, so no tile is copied) and read again by the same pipeline. The turned read
is kept when its tiles' summed confidence beats the first read's by ``turn_margin``: a photo
whose rows were level keeps its own read. Boxes come back as the photo-pixel bounds of the
turned boxes (what the labels of tilted tiles are too), except where the first read had a
box round that tile alone (:func:`boxes_kept`), and face angles turned back, rounded to
quarter turns as the recognizer's always are.
Pure functions over arrays; :mod:`vision.recognizer` decides and reads.

DECISION (session 33, finished session 34): on in the shipped recognizer.json
(``turn_min_degrees`` 12, ``turn_margin`` 1.1, ``turn_tiles_tilted``, ``turn_surer_each``),
guarded by :func:`tiles_turned_with_rows`: a photo is read turned only where at least three
tiles were found and the tiles themselves (the edges inside their boxes) lie as far off the
axes as their rows, within ``turn_min_degrees``; and the turned read is kept only where its
tiles are also no less sure on average than the first read's (a sum rewards a read that cuts
each tile in two: a synthetic close-up of four bamboo tiles, 0.96 each, came back as nine
boxes at 0.51). History: session 13 measured it unguarded (hands to choose on 60 -> 64
exact or rightly proposed) and left it off because leo-riichi-v5 fell 0.835 -> 0.817: a
screenshot of upright tiles laid along a line 13 degrees off the axis was read turned;
session 14's :func:`boxes_kept` cut that loss to 0.836 -> 0.832 and it stayed off. The guard
is the general cause, not that photo: the rows' tilt says where tiles lie, not how. Chosen on
the choice sets (hands of seed 2 up close 69 -> 72 and far off 67 -> 68, synth_choose
0.8373 -> 0.8401, chinese-v4 valid, its close-ups and its far-off copies unchanged, the
synthetic close-ups at phone size 0.810 -> 0.806 by the sum alone, 0.809 per tile too;
unguarded, a scattered chinese-v4 photo was turned and lost a tile, and single tiles on
patterned tables got false boxes from the table's edges: hence the three tiles); leo was read
after and is unchanged (models/README.md, session 33)."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Sequence

import numpy as np

from .types import TileRead

TURN_MARGIN = 1.1          # the turned read must be this much surer in sum to be kept
EDGE_SIDE = 480            # the edge-based tilt is measured on a copy this long


@dataclass(frozen=True)
class Turn:
    """A photo turned ``degrees`` counter-clockwise (as shown, image y down) onto a larger
    canvas; ``forward`` maps photo pixels to turned-canvas pixels, ``back`` the other way."""
    degrees: float
    forward: np.ndarray        # 2 x 3 affine
    back: np.ndarray           # 2 x 3 affine
    size: tuple[int, int]      # the turned canvas, (width, height)


def _quarter_mean(angles: np.ndarray, weights: np.ndarray | None = None) -> float:
    """Mean of directions (radians) modulo a quarter turn, in degrees within [-45, 45)."""
    z = np.sum((np.ones_like(angles) if weights is None else weights) * np.exp(4j * angles))
    return float((math.degrees(np.angle(z)) / 4 + 45) % 90 - 45)


def tilt_from_boxes(boxes: Sequence[Sequence[float]]) -> float | None:
    """Degrees (image y down, clockwise as shown is positive) the rows of these boxes run off
    the x axis, in [-45, 45); None for fewer than three boxes."""
    c = np.array([((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in boxes], float).reshape(-1, 2)
    if len(c) < 3:
        return None
    d = np.linalg.norm(c[:, None] - c[None], axis=2)
    np.fill_diagonal(d, np.inf)
    v = c[d.argmin(axis=1)] - c
    return _quarter_mean(np.arctan2(v[:, 1], v[:, 0]))


def tilt_from_edges(rgb: np.ndarray, boxes: Sequence[Sequence[float]] | None = None) -> float:
    """Degrees the photo's strongest edges (its top tenth by gradient) run off the axes, as
    :func:`tilt_from_boxes`: tile rows, racks and tile sides dominate a hand photo's edges.
    With ``boxes``, only the edges inside them count: the tiles' own outlines and strokes, so
    the answer is how the tiles themselves lie, whatever line they are laid along."""
    import cv2

    g = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY).astype(np.float32)
    s = min(1.0, EDGE_SIDE / max(g.shape))
    if s < 1:
        g = cv2.resize(g, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    mag = np.hypot(gx, gy)
    if boxes is not None:
        inside = np.zeros(mag.shape, bool)
        for x1, y1, x2, y2 in boxes:
            inside[max(0, int(y1 * s)):max(0, int(math.ceil(y2 * s))), max(0, int(x1 * s)):max(0, int(math.ceil(x2 * s)))] = True
        mag = np.where(inside, mag, 0.0)
        if not inside.any():
            return 0.0
    considered = mag[mag > 0] if boxes is not None else mag
    if considered.size == 0:
        return 0.0
    strong = mag > np.percentile(considered, 90)
    if not strong.any():
        return 0.0
    # an edge runs across its gradient; modulo a quarter turn the two are the same direction
    return _quarter_mean(np.arctan2(gy[strong], gx[strong]), mag[strong])


def row_tilt(rgb: np.ndarray, boxes: Sequence[Sequence[float]]) -> float:
    """The rows' tilt in degrees, from the boxes where there are three or more, else the edges."""
    t = tilt_from_boxes(boxes)
    return tilt_from_edges(rgb) if t is None else t


def tiles_tilt(rgb: np.ndarray, boxes: Sequence[Sequence[float]]) -> float:
    """How the tiles themselves lie, in degrees off the axes: the edges inside their boxes."""
    return tilt_from_edges(rgb, boxes)


def quarter_gap(a: float, b: float) -> float:
    """Degrees between two directions taken modulo a quarter turn (44 and -44 are 2 apart)."""
    return abs((a - b + 45) % 90 - 45)


def tiles_turned_with_rows(rgb: np.ndarray, boxes: Sequence[Sequence[float]], tilt: float, least: float) -> bool:
    """Whether the tiles themselves lie at least ``least`` degrees off the axes and within
    ``least`` of the rows' ``tilt``: only then does turning the photo lay its tiles level.
    Why (session 33): the rows' tilt comes from where the tiles lie, not how. Upright tiles
    laid along a slanted line (a screenshot, a staggered row) have tilted rows but level tiles,
    and loose tiles scattered at many angles have a "row" tilt that no tile shares (a
    chinese-v4 photo: rows -28, tiles 16 degrees); turning either tilts tiles for nothing."""
    own = tiles_tilt(rgb, boxes)
    return abs(own) >= least and quarter_gap(own, tilt) <= least


def turn_for(rgb: np.ndarray, tilt: float) -> Turn:
    """The turn that lays rows tilted ``tilt`` degrees level: counter-clockwise by ``tilt``
    about the photo's centre, onto a canvas that holds the whole photo."""
    import cv2

    h, w = rgb.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), tilt, 1.0)
    c, s = abs(m[0, 0]), abs(m[0, 1])
    nw, nh = int(math.ceil(w * c + h * s)), int(math.ceil(w * s + h * c))
    m[0, 2] += nw / 2 - w / 2
    m[1, 2] += nh / 2 - h / 2
    return Turn(float(tilt), m, cv2.invertAffineTransform(m), (nw, nh))


def turned_image(rgb: np.ndarray, turn: Turn) -> np.ndarray:
    import cv2

    fill = tuple(float(v) for v in np.median(rgb.reshape(-1, rgb.shape[2]), axis=0))
    return cv2.warpAffine(rgb, turn.forward, turn.size, flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=fill)


def box_back(box: Sequence[float], turn: Turn, frame: tuple[int, int]) -> tuple[float, float, float, float]:
    """A turned-canvas box as the bounds, in photo pixels, of its four corners turned back,
    clipped to the photo (``frame`` = width, height)."""
    x1, y1, x2, y2 = box
    pts = np.array([[x1, y1], [x2, y1], [x1, y2], [x2, y2]], float) @ turn.back[:, :2].T + turn.back[:, 2]
    w, h = frame
    lo = pts.min(axis=0).clip(0, None)
    hi = np.minimum(pts.max(axis=0), (w, h))
    return (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]))


def tiles_back(tiles: Sequence[TileRead], turn: Turn, frame: tuple[int, int]) -> list[TileRead]:
    """Tiles read on the turned canvas, in photo pixels and photo face angles, reading order."""
    from .reading import in_reading_order

    return in_reading_order([replace(t, box=box_back(t.box, turn, frame),
                                     angle=int(round((t.angle - turn.degrees) / 90.0)) % 4 * 90) for t in tiles])


def _inside(box: Sequence[float], x: float, y: float) -> bool:
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def boxes_kept(back: Sequence[TileRead], first: Sequence[TileRead]) -> list[TileRead]:
    """The turned read's tiles (already in photo pixels), each taking the box of the one
    first-read tile that holds its centre, where that first box holds no other turned tile's
    centre. Why: a row of upright tiles laid along a tilted line is read well turned, but the
    bounds of a turned box round a tile that is tilted on the turned canvas are too big for
    the upright tile; the first read's box round that tile alone is already right. Where the
    first read merged tiles (its box holds two centres) or missed them, the turned box stays."""
    from .boxes import centre

    centres = [centre(t.box) for t in back]
    out = []
    for t, (x, y) in zip(back, centres):
        holders = [f for f in first if _inside(f.box, x, y)]
        if len(holders) == 1 and sum(_inside(holders[0].box, *c) for c in centres) == 1:
            t = replace(t, box=tuple(float(v) for v in holders[0].box))
        out.append(t)
    return out


def evidence(tiles: Sequence[TileRead]) -> float:
    """How much a read found: the summed confidence of its tiles."""
    return float(sum(t.confidence for t in tiles))


def sureness(tiles: Sequence[TileRead]) -> float:
    """How sure a read is of each tile: their mean confidence (0 for no tiles)."""
    return evidence(tiles) / len(tiles) if tiles else 0.0


__all__ = ["TURN_MARGIN", "Turn", "box_back", "boxes_kept", "evidence", "row_tilt", "tilt_from_boxes",
           "tilt_from_edges", "quarter_gap", "sureness", "tiles_back", "tiles_tilt", "tiles_turned_with_rows", "turn_for", "turned_image"]
