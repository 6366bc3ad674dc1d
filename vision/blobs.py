"""Tile-shaped outlines in a photo, found without any network: whole-tile proposals for close-ups.

Why: a lone tile at about a tenth of the frame, on a plain table, often comes back from both
detectors as strips of its rows of symbols (a 6-bamboo as three boxes, a peacock 1-bamboo as
its head and feet) or not at all, and the strips' union is not the whole tile, so joining them
(vision.closeup) cannot help. Yet the tile's own outline is plain to see: a face of tile shape
set off from the table by its edge. What a tile looks like from outside (a rounded rectangle
of 3:4, a border) is the same for every set, so the outline is a proposal that does not depend
on the set's art; the classifier then decides (vision.detector._outlines_made_whole).

How: edges (Canny, two strengths) on a copy of the photo ``WORK_PX`` long, closed a little;
each closed outline whose bounding box is tile-shaped (short / long side in vision.closeup's ``TILE_SHAPE``) and
nearly filled by its convex hull (>= ``FILL``) is a proposal, in photo pixels. Boxes nearly the
same (IoU >= 0.8) are one. Pure and cheap (a few ms): it runs only on close-ups with fewer than
``closeup_min_tiles`` tiles found."""

from __future__ import annotations

import numpy as np

from .boxes import iou
from .closeup import tile_shaped

WORK_PX = 640               # long side of the copy the edges are found in
EDGE_STRENGTHS = ((30, 90), (60, 160))   # Canny (low, high): soft and hard edges
FILL = 0.85                 # convex hull area / bounding box area: a rectangle, not a ragged shape
MIN_PX = 8                  # smallest side, at WORK_PX, of an outline worth reading
MAX_SHARE = 0.6             # an outline over this share of the photo is the table or the frame
SAME = 0.8                  # IoU at which two outlines are one


def tile_outlines(rgb: np.ndarray, work_px: int = WORK_PX) -> list[tuple[float, float, float, float]]:
    """Boxes (x0, y0, x1, y1, photo pixels) of closed tile-shaped outlines, biggest first."""
    import cv2

    h, w = rgb.shape[:2]
    k = min(1.0, work_px / max(h, w))
    small = cv2.resize(rgb, (max(1, round(w * k)), max(1, round(h * k))), interpolation=cv2.INTER_AREA) if k < 1 else rgb
    gray = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_RGB2GRAY), (5, 5), 0)
    limit = MAX_SHARE * small.shape[0] * small.shape[1]
    found = []
    for low, high in EDGE_STRENGTHS:
        edges = cv2.dilate(cv2.Canny(gray, low, high), np.ones((3, 3), np.uint8))
        contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        for c in contours:
            x, y, bw, bh = cv2.boundingRect(c)
            if min(bw, bh) < MIN_PX or bw * bh > limit:
                continue
            if not tile_shaped((x, y, x + bw, y + bh)):
                continue
            if cv2.contourArea(cv2.convexHull(c)) < FILL * bw * bh:
                continue
            found.append((x / k, y / k, (x + bw) / k, (y + bh) / k))
    kept: list[tuple[float, float, float, float]] = []
    for box in sorted(found, key=lambda b: -(b[2] - b[0]) * (b[3] - b[1])):
        if all(iou(box, other) < SAME for other in kept):
            kept.append(box)
    return kept
