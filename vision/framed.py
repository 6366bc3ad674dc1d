"""A photo framed by a border of its own colour: a second look at close-ups whose tiles fill the frame.

Why: in a close-up the tiles often fill the frame's width, cut by its edges or touching them
(a crop around one tile of a row, a phone held close). Both detectors learnt tiles with table
around them; with none, they find nothing or a neighbour only (chinese-v4 crops around one tile:
60 of 148 photos wrong). Framed by a border of the photo's median colour (``pad_share`` of its
long side on each side) the same tiles are whole tiles on a table again, a little smaller at
the detector's input. The recognizer reads the framed photo too when it found fewer than
``closeup_min_tiles`` tiles (the close-up steps' own bound: fewer than a hand), and keeps the
read with the higher summed confidence (vision.recognizer.with_framed). Figures:
models/README.md, sessions 25 and 26."""

from __future__ import annotations

import numpy as np

MIN_INSIDE = 0.6        # a box found mostly on the border is the border's, not a tile of the photo
MIN_READ = 0.5          # the framed read wins only with a tile at least this sure (else junk beats nothing)


def framed(rgb: np.ndarray, share: float, max_px: int | None = None) -> tuple[np.ndarray, int, float]:
    """``rgb`` inside a border ``share`` of its long side wide, in its median colour, first
    shrunk so that the framed image's long side is at most ``max_px`` (the second look costs
    what a photo of that size costs, whatever the camera's); and the border's width and the
    shrink factor (what :func:`back_in_photo` takes off the boxes found in it)."""
    import cv2

    h, w = rgb.shape[:2]
    scale = 1.0
    if max_px and (1 + 2 * share) * max(h, w) > max_px:
        scale = max_px / ((1 + 2 * share) * max(h, w))
        rgb = cv2.resize(rgb, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
        h, w = rgb.shape[:2]
    pad = int(round(share * max(h, w)))
    colour = [int(v) for v in np.median(rgb[::4, ::4].reshape(-1, 3), axis=0)]
    return cv2.copyMakeBorder(rgb, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=colour), pad, scale


def framed_wins(first_shown: float, framed_shown: float, framed_best: float) -> bool:
    """Whether the framed read stands: its reported tiles' summed confidence beats the first
    read's, and it holds a tile read at least ``MIN_READ`` surely (else junk beats nothing)."""
    return framed_shown > first_shown and framed_best >= MIN_READ


def back_in_photo(box, pad: int, size: tuple[int, int], scale: float = 1.0, min_inside: float = MIN_INSIDE):
    """A box of the framed image in the photo's pixels (border and shrink taken off), cut to the
    photo (a tile the frame cut is found whole and reaches into the border); None when less than
    ``min_inside`` of it lies in the photo. ``size``: the photo's (width, height)."""
    x0, y0, x1, y1 = ((float(v) - pad) / scale for v in box)
    w, h = size
    cx0, cy0, cx1, cy1 = max(0.0, x0), max(0.0, y0), min(float(w), x1), min(float(h), y1)
    if cx1 <= cx0 or cy1 <= cy0 or (cx1 - cx0) * (cy1 - cy0) < min_inside * (x1 - x0) * (y1 - y0):
        return None
    return (cx0, cy0, cx1, cy1)
