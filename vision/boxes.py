"""Axis-aligned boxes ``(x1, y1, x2, y2)``: overlap (IoU), non-maximum suppression, centre and
size, rescaling.

One place for the box arithmetic of the detector, the layout, the evaluation and the scene
checks, so every step measures overlap the same way.

Own NMS rather than ``cv2.dnn.NMSBoxes``: ours also drops a box lying mostly inside a better
one (``containment``), which OpenCV's has no option for, so the detections would change."""

from __future__ import annotations

from typing import Sequence

import numpy as np

_EPS = 1e-9                       # keeps a ratio finite for empty boxes (it is then 0)

Box = tuple[float, float, float, float]


def areas(boxes: np.ndarray) -> np.ndarray:
    """Area of each box of an N x 4 array."""
    return (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])


def intersections(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """len(a) x len(b) areas of the overlap of every pair."""
    x1 = np.maximum(a[:, None, 0], b[None, :, 0]); y1 = np.maximum(a[:, None, 1], b[None, :, 1])
    x2 = np.minimum(a[:, None, 2], b[None, :, 2]); y2 = np.minimum(a[:, None, 3], b[None, :, 3])
    return np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)


def _iou_of(inter: np.ndarray, area_a: np.ndarray, area_b: np.ndarray) -> np.ndarray:
    return inter / (area_a[:, None] + area_b[None, :] - inter + _EPS)


def iou_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """len(a) x len(b) intersection over union of two N x 4 box arrays."""
    if len(a) == 0 or len(b) == 0:
        return np.zeros((len(a), len(b)))
    return _iou_of(intersections(a, b), areas(a), areas(b))


def iou(a: Sequence[float], b: Sequence[float]) -> float:
    """Intersection over union of two boxes."""
    return float(iou_matrix(np.asarray([a], float), np.asarray([b], float))[0, 0])


def nms(boxes: np.ndarray, scores: np.ndarray, iou: float, containment: float = 1.01) -> np.ndarray:
    """Indices kept by greedy non-maximum suppression, best first. A box is also dropped when
    ``containment`` of its own area lies inside a better box (a second, smaller peak on
    a big tile has a small IoU with it but lies almost wholly inside it)."""
    order = np.argsort(-scores)
    keep = []
    area = areas(boxes)
    while order.size:
        i = order[0]
        keep.append(i)
        rest = order[1:]
        inter = intersections(boxes[i:i + 1], boxes[rest])
        ov = _iou_of(inter, area[i:i + 1], area[rest])[0]
        inside = inter[0] / (area[rest] + _EPS)
        order = rest[(ov < iou) & (inside < containment)]
    return np.array(keep, np.int64)


def centre(box: Sequence[float]) -> tuple[float, float]:
    x1, y1, x2, y2 = box
    return (x1 + x2) / 2.0, (y1 + y2) / 2.0


def size(box: Sequence[float]) -> tuple[float, float]:
    """Width and height."""
    x1, y1, x2, y2 = box
    return x2 - x1, y2 - y1


def rescale(box: Sequence[float], sx: float, sy: float | None = None) -> Box:
    """The box with x times ``sx`` and y times ``sy`` (default ``sx``)."""
    sy = sx if sy is None else sy
    x1, y1, x2, y2 = box
    return (x1 * sx, y1 * sy, x2 * sx, y2 * sy)


def unscale(box: Sequence[float], fx: float, fy: float | None = None) -> Box:
    """The box in the image that a copy scaled by ``fx``, ``fy`` (default ``fx``) was made from."""
    fy = fx if fy is None else fy
    x1, y1, x2, y2 = box
    return (x1 / fx, y1 / fy, x2 / fx, y2 / fy)
