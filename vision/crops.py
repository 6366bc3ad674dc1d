"""Square crops around tile boxes, shared by training and runtime so both see the same pixels.

A crop is centred on the box and its side is ``context * max(w, h)``, so a tile keeps its
aspect (a sideways tile stays sideways) and the classifier sees a little of its surroundings.
Pixels outside the image are filled with mid grey."""

from __future__ import annotations

import numpy as np

CROP_SIZE = 48
CONTEXT = 1.15


def crop_matrix(box, size: int = CROP_SIZE, context: float = CONTEXT,
                dx: float = 0.0, dy: float = 0.0, scale: float = 1.0) -> np.ndarray:
    """2x3 affine matrix mapping image pixels to a ``size`` x ``size`` crop of ``box``."""
    x1, y1, x2, y2 = box
    side = max(x2 - x1, y2 - y1, 1.0) * context * scale
    cx = (x1 + x2) / 2 + dx * side
    cy = (y1 + y2) / 2 + dy * side
    s = size / side
    return np.array([[s, 0, size / 2 - s * cx], [0, s, size / 2 - s * cy]], dtype=np.float32)


def square_crop(image: np.ndarray, box, size: int = CROP_SIZE, context: float = CONTEXT,
                **jitter) -> np.ndarray:
    """The uint8 HxWx3 crop of ``box`` from an RGB uint8 image."""
    import cv2

    m = crop_matrix(box, size, context, **jitter)
    shrink = 1.0 / m[0, 0]
    src = image
    if shrink > 2.5:   # area-average big tiles first so thin strokes don't alias away
        # only the crop's own region of the image is shrunk (not the whole photo per tile)
        h, w = image.shape[:2]
        x0, y0 = -m[0, 2] * shrink, -m[1, 2] * shrink          # crop's top-left in the image
        side = size * shrink
        ix0, iy0 = max(int(x0) - 2, 0), max(int(y0) - 2, 0)
        ix1, iy1 = min(int(x0 + side) + 3, w), min(int(y0 + side) + 3, h)
        if ix1 - ix0 < 2 or iy1 - iy0 < 2:
            return np.full((size, size, 3), 128, np.uint8)
        f = 1.0 / (shrink / 1.5)
        roi = image[iy0:iy1, ix0:ix1]
        src = cv2.resize(roi, (max(1, round(roi.shape[1] * f)), max(1, round(roi.shape[0] * f))),
                         interpolation=cv2.INTER_AREA)
        fx, fy = src.shape[1] / roi.shape[1], src.shape[0] / roi.shape[0]
        m = m.copy()
        # image -> roi (shift) -> shrunk roi (scale): crop = M [x; 1] with x = (u / fx + ix0)
        m[:, 2] += m[:, 0] * ix0 + m[:, 1] * iy0
        m[:, 0] /= fx
        m[:, 1] /= fy
    return cv2.warpAffine(src, m, (size, size), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=(128, 128, 128))


def to_tensor(crops: np.ndarray) -> np.ndarray:
    """NxHxWx3 uint8 -> Nx3xHxW float32 in [-1, 1] (the models' input)."""
    x = crops.astype(np.float32) * (2.0 / 255.0) - 1.0
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2))
