"""The zoomed look at a few small tiles: where they lie, and how its boxes join the first ones.

Why (issue 17, session 24): a pair of tiles laid far from the camera is 8-14 px at the
detector's input even in the finer pass (``fine_det_size``), below the scale band the detector
learnt (hand rows, 10-40 px); it finds one of the two and loses the other. When a photo holds
only a few tiles and they are small, the window around them is cut out of the photo and
detected again at the normal input size, where each tile is ~``span`` times bigger than it was
relative to the frame. The geometry lives here as pure functions; the pass is
:func:`vision.detector.with_zoom`.
"""

from __future__ import annotations

import numpy as np

from .boxes import centre


def median_side(boxes) -> float:
    """The median long side of ``boxes`` (0 for none)."""
    if not len(boxes):
        return 0.0
    b = np.asarray(boxes, float)
    return float(np.median(np.maximum(b[:, 2] - b[:, 0], b[:, 3] - b[:, 1])))


def zoom_window(boxes: list, shape, span: float, max_share: float) -> tuple[int, int, int, int] | None:
    """The window (x0, y0, x1, y1, image pixels) to look at again: centred on the boxes, at
    least ``span`` median tile long sides wide and high and holding all boxes with that much
    margin's half on each side; None when it would be over ``max_share`` of the image's long
    side (a zoom that is no zoom) or there are no boxes."""
    if not boxes:
        return None
    b = np.asarray(boxes, float)
    side = median_side(b)
    if side <= 0:
        return None
    h, w = shape[:2]
    x0, y0, x1, y1 = b[:, 0].min(), b[:, 1].min(), b[:, 2].max(), b[:, 3].max()
    half_w = max(span * side, (x1 - x0) + span * side / 2) / 2
    half_h = max(span * side, (y1 - y0) + span * side / 2) / 2
    if 2 * max(half_w, half_h) > max_share * max(h, w):
        return None
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    wx0, wy0 = max(0, int(cx - half_w)), max(0, int(cy - half_h))
    wx1, wy1 = min(w, int(np.ceil(cx + half_w))), min(h, int(np.ceil(cy + half_h)))
    return (wx0, wy0, wx1, wy1) if wx1 - wx0 >= 8 and wy1 - wy0 >= 8 else None


def shifted(box, dx: float, dy: float) -> tuple[float, float, float, float]:
    return (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)


def inside(box, window) -> bool:
    """Whether the box's centre lies in the window."""
    cx, cy = centre(box)
    return window[0] <= cx < window[2] and window[1] <= cy < window[3]


def joined(first: list, zoomed: list, window) -> list:
    """The zoomed look's detections (in image pixels) and the first look's outside the window;
    inside it the zoomed boxes win, because they were found at the scale the detector knows.
    When the zoomed look found nothing the first look stands (a zoom never loses a tile)."""
    if not zoomed:
        return list(first)
    return list(zoomed) + [d for d in first if not inside(d.box, window)]
