"""Coarser views for tiles too big for the detector: a lone tile, a close-up, a tile filling
the frame.

Why: the detector learnt tiles as parts of hand rows, 10-40 px at its input. A tile much
bigger than that comes back cut into pieces (a 3-circle tile as three ``1p``, a character tile
as two boxes) or not at all, while the same tile shrunk into the trained band reads as one.
So when the tiles found are big, or fewer than three, the photo is detected again shrunk
``k`` times (``zoom_outs`` in recognizer.json: 2, 4, 8) in the middle of a canvas of its own
size filled with the photo's border colour: the detector sees a small tile on a wide table.

Its boxes are judged by what the classifier reads in them, like the squeezed views of
``detector.detect_any_aspect``: a coarse box that is tile-shaped and surely read replaces the
boxes of the photo's own view that are pieces of it (mostly inside it, each much smaller), or
is added where the own view found nothing. Boxes of the own view that are whole tiles (IoU
>= 0.5 with the coarse box) stay as they are. Normal hand photos (median tile under
``big_tile_px`` at the detector's input, three or more tiles) never run these passes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from . import models
from .boxes import iou_matrix

ZOOM_OUTS = ()                 # unless recognizer.json sets ``zoom_outs``
BIG_TILE_PX = 40               # median long side at the detector's input that counts as big
MIN_TILES = 3                  # fewer found than this: look coarser too
INSIDE = 0.6                   # a piece lies at least this much inside the coarse box
PIECE_AREA = 0.7               # ... and is at most this share of its area
MIN_READ = 0.5                 # the classifier's top probability a coarse box needs
MARGIN = 1.0                   # coarse quality (score x read) over the pieces' mean


@dataclass(frozen=True)
class Candidate:
    box: tuple[float, float, float, float]   # photo pixels
    score: float                             # detector score
    read: float                              # classifier top probability

    @property
    def quality(self) -> float:
        return self.score * self.read


def _settings() -> dict:
    cfg = models.settings()
    return {"zooms": cfg.get("zoom_outs", ZOOM_OUTS), "big": cfg.get("big_tile_px", BIG_TILE_PX),
            "min_read": cfg.get("zoom_min_read", MIN_READ), "margin": cfg.get("zoom_margin", MARGIN)}


def needs_coarser(boxes, shape, det_size: int, big_px: float) -> bool:
    """Whether the tiles found are big at the detector's input (or too few to tell)."""
    if len(boxes) < MIN_TILES:
        return True
    k = det_size / max(shape[:2])
    sides = [max(b[2] - b[0], b[3] - b[1]) * k for b in boxes]
    return float(np.median(sides)) >= big_px


def shrunk_on_table(rgb: np.ndarray, k: float, det_size: int) -> tuple[np.ndarray, float, int, int]:
    """The photo shrunk ``k`` times more than the detector's input needs, centred on a canvas of
    the input's size filled with its border's median colour: (canvas, photo->canvas scale, x0, y0)."""
    import cv2

    h, w = rgb.shape[:2]
    s = det_size / (k * max(h, w))
    nh, nw = max(1, round(h * s)), max(1, round(w * s))
    small = cv2.resize(rgb, (nw, nh), interpolation=cv2.INTER_AREA)
    ch, cw = max(nh, round(h * s * k)), max(nw, round(w * s * k))
    border = np.concatenate([small[0], small[-1], small[:, 0], small[:, -1]])
    canvas = np.empty((ch, cw, 3), np.uint8)
    canvas[:] = np.median(border, axis=0).astype(np.uint8)
    y0, x0 = (ch - nh) // 2, (cw - nw) // 2
    canvas[y0:y0 + nh, x0:x0 + nw] = small
    return canvas, s, x0, y0


def _tile_shaped(box) -> bool:
    w, h = box[2] - box[0], box[3] - box[1]
    return min(w, h) > 0 and max(w, h) / min(w, h) <= 2.0


def coarse_candidates(rgb: np.ndarray, zooms, det_size: int, detect: Callable) -> list[tuple]:
    """(box in photo pixels, score) of every zoomed-out view, tile-shaped boxes only."""
    out = []
    h, w = rgb.shape[:2]
    for k in zooms:
        canvas, s, x0, y0 = shrunk_on_table(rgb, k, det_size)
        for d in detect(canvas):
            x1, y1, x2, y2 = d.box
            box = ((x1 - x0) / s, (y1 - y0) / s, (x2 - x0) / s, (y2 - y0) / s)
            clipped = (max(0.0, box[0]), max(0.0, box[1]), min(float(w), box[2]), min(float(h), box[3]))
            area = (box[2] - box[0]) * (box[3] - box[1])
            inside = max(0.0, clipped[2] - clipped[0]) * max(0.0, clipped[3] - clipped[1])
            if area > 0 and inside / area >= 0.8 and _tile_shaped(clipped):
                out.append((clipped, d.score))
    return out


def merge_coarse(own: list[Candidate], coarse: list[Candidate], min_read: float = MIN_READ,
                 margin: float = MARGIN) -> list[Candidate]:
    """The own view's tiles with the coarse boxes that are whole tiles where the own view saw
    pieces or nothing (module doc). Pure: boxes and reads in, boxes out, best coarse first."""
    kept = list(own)
    taken: list[Candidate] = []
    for c in sorted(coarse, key=lambda c: -c.quality):
        if c.read < min_read:
            continue
        cb = np.array([c.box], float)
        if taken and iou_matrix(cb, np.array([t.box for t in taken], float)).max() >= 0.3:
            continue                                   # a coarser copy of a box already taken
        if not kept:
            kept.append(c); taken.append(c)
            continue
        boxes = np.array([k.box for k in kept], float)
        ious = iou_matrix(cb, boxes)[0]
        if ious.max() >= 0.5:
            continue                                   # the own view has this tile whole
        area_c = (c.box[2] - c.box[0]) * (c.box[3] - c.box[1])
        areas = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
        ix = np.clip(np.minimum(boxes[:, 2], c.box[2]) - np.maximum(boxes[:, 0], c.box[0]), 0, None)
        iy = np.clip(np.minimum(boxes[:, 3], c.box[3]) - np.maximum(boxes[:, 1], c.box[1]), 0, None)
        inside = ix * iy / np.maximum(areas, 1e-6)
        pieces = [i for i in range(len(kept)) if inside[i] >= INSIDE and areas[i] <= PIECE_AREA * area_c]
        touching = [i for i in range(len(kept)) if ix[i] * iy[i] > 0 and i not in pieces]
        if any(ix[i] * iy[i] / max(1e-6, min(areas[i], area_c)) > 0.3 for i in touching):
            continue                                   # overlaps a tile it does not contain
        if pieces and c.quality < margin * float(np.mean([kept[i].quality for i in pieces])):
            continue
        kept = [k for i, k in enumerate(kept) if i not in pieces] + [c]
        taken.append(c)
    return kept


def with_coarser(rgb: np.ndarray, dets: list, det_size: int, detect: Callable,
                 likeness: Callable) -> list:
    """``dets`` (detector.Detection, photo pixels) with the coarse views' whole tiles merged in
    when the tiles are big or few; unchanged otherwise. ``detect(image)`` runs the detector,
    ``likeness([(image, dets)])`` the classifier's top probabilities (detector.detect_any_aspect
    passes its own)."""
    from .detector import Detection

    cfg = _settings()
    if not cfg["zooms"] or not needs_coarser([d.box for d in dets], rgb.shape, det_size, cfg["big"]):
        return dets
    found = coarse_candidates(rgb, cfg["zooms"], det_size, detect)
    if not found:
        return dets
    coarse = [Detection(b, s) for b, s in found]
    reads_own, reads_coarse = likeness([(rgb, dets), (rgb, coarse)])
    own = [Candidate(d.box, d.score, r) for d, r in zip(dets, reads_own)]
    cands = [Candidate(d.box, d.score, r) for d, r in zip(coarse, reads_coarse)]
    merged = merge_coarse(own, cands, cfg["min_read"], cfg["margin"])
    if merged == own:
        return dets
    return [Detection(tuple(float(v) for v in m.box), m.score) for m in sorted(merged, key=lambda m: -m.score)]
