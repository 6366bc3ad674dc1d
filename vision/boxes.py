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


def straddlers(boxes: np.ndarray, scores: np.ndarray, cover: float, least_overlap: float = 0.15,
               most_overlap: float = 0.6, least_area: float = 0.55, pair_pitch: float = 1.4,
               grid: int = 24) -> np.ndarray:
    """Indices of boxes that lie across two or more surer boxes of their own size: boxes each
    overlapping it partly (IoU in [``least_overlap``, ``most_overlap``)), each at least
    ``least_area`` of its area, all scored higher, that together cover ``cover`` of it, two of
    them neighbours (centres at most ``pair_pitch`` times the photo's pitch apart: the median
    distance from a box to its nearest other box, the box in question left out).

    Why: in a row whose tiles touch (above all a tilted one, where neighbours' boxes overlap)
    the detector sometimes puts a second peak between two tiles; its box is tile-sized, so NMS
    keeps it (its IoU with either tile is below ``nms_iou``), and a pung read through it becomes
    a kong, sure and unflagged. A piece of a big tile is not dropped by this: the surer boxes
    must be at least ``least_area`` of its size, and the pieces of a tile are each about half.
    Nor is a tile of a steeply tilted row, whose neighbours' bounds cover most of its own: its
    two neighbours are two pitches apart, the two tiles a straddler lies across one.
    Coverage is counted on a ``grid`` x ``grid`` raster of the box."""
    n = len(boxes)
    if n < 3:
        return np.zeros(0, np.int64)
    c = np.stack([(boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2], 1)
    dist = np.linalg.norm(c[:, None] - c[None], axis=2)
    np.fill_diagonal(dist, np.inf)

    def pitch_without(i: int) -> float:
        rest = np.delete(np.delete(dist, i, 0), i, 1)
        return float(np.median(rest.min(axis=1)))

    ov = iou_matrix(boxes, boxes)
    area = areas(boxes)
    steps = (np.arange(grid) + 0.5) / grid
    drop = []
    for i in range(n):
        near = np.nonzero((ov[i] >= least_overlap) & (ov[i] < most_overlap) & (scores > scores[i])
                          & (area >= least_area * area[i]))[0]
        near = near[near != i]
        if len(near) < 2:
            continue
        x1, y1, x2, y2 = boxes[i]
        xs = x1 + steps * (x2 - x1)
        ys = y1 + steps * (y2 - y1)
        covered = np.zeros((grid, grid), bool)
        for j in near:
            bx = (xs >= boxes[j, 0]) & (xs <= boxes[j, 2])
            by = (ys >= boxes[j, 1]) & (ys <= boxes[j, 3])
            covered |= by[:, None] & bx[None, :]
        if covered.mean() >= cover and dist[np.ix_(near, near)].min() <= pair_pitch * pitch_without(i):
            drop.append(i)
    return np.array(drop, np.int64)


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
