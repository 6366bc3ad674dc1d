"""Reading a photo with a taught set: tiles the detector was unsure of are kept when the set
vouches for them, then every read is mixed with the set's (vision.teach).

Why: on a set it never saw, the detector's trouble is recall more than kind (leo-riichi-v5:
0.81 of tiles found, 0.97 of those read right); most missed tiles still leave a weak peak
(score 0.3-0.5). A weak peak whose crop is as close to a taught kind as the taught tiles
themselves are (cosine >= the set's ``gate[1]``) is one of the player's tiles."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .boxes import centre
from .teach import adapted_reads, nearest, photo_likeness, read_features

MIN_WEAK_SCORE = 0.3
# boxes are fitted only for tiles this close to a taught tile: chinese-v4 photos read with the
# leo set lost 0.04 tile F1 when every tile's box was fitted (their labels are not leo's)
FIT_LIKENESS = 0.95


def _inside_any(box, boxes: list) -> bool:
    """The centre of ``box`` lies inside one of ``boxes`` (the same tile found twice)."""
    cx, cy = centre(box)
    return any(b[0] <= cx <= b[2] and b[1] <= cy <= b[3] for b in boxes)


def vouched_weak(view, reads: list, taught) -> tuple:
    """The view and reads with the weak peaks the set vouches for added."""
    from .classifier import classify_boxes
    from .detector import AspectView

    found = [d.box for d in view.detections]
    cands = []
    for w in sorted(view.weak, key=lambda d: -d.score):
        if w.score >= MIN_WEAK_SCORE and not _inside_any(w.box, found + [c.box for c in cands]):
            cands.append(w)
    if not cands:
        return view, reads
    weak_reads = classify_boxes(view.rgb, [c.box for c in cands], embed=True)
    cos = read_features(weak_reads) @ taught.head.prototypes.T
    kept = [i for i, c in enumerate(cos.max(axis=1)) if c >= taught.head.gate[1]]
    if not kept:
        return view, reads
    view = AspectView(view.rgb, view.fx, view.fy, view.detections + [cands[i] for i in kept], view.weak)
    return view, reads + [weak_reads[i] for i in kept]


def fitted(box, fit: np.ndarray) -> tuple[float, float, float, float]:
    """``box`` moved and resized the way the player's labels sit on the detector's boxes
    (vision.lessons.box_fit: leo's labels take in the tile's side, 16 % taller)."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    cx, cy = (x1 + x2) / 2 + fit[0] * w, (y1 + y2) / 2 + fit[1] * h
    w, h = w * fit[2], h * fit[3]
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def read_with_set(view, reads: list, taught) -> list:
    """The tiles (vision.types.TileRead) of a photo read with a taught set: vouched weak
    tiles added, every read mixed with the set's, and the boxes of tiles very like a taught
    one (:data:`FIT_LIKENESS`) fitted to the player's way of boxing them. A photo whose tiles
    do not look like the set (``photo_gate``) is read as without it."""
    from .detector import AspectView
    from .reading import tiles_from_reads

    if reads and photo_likeness(taught.head, read_features(reads)) < taught.head.photo_gate:
        return tiles_from_reads(view, reads)            # not a photo of this set: the general read
    view, reads = vouched_weak(view, reads, taught)
    if not reads:
        return []
    feats = read_features(reads)
    fit = taught.lessons.box_fit()
    if fit is not None:
        cos = nearest(taught.head, feats).max(axis=1)
        dets = [replace(d, box=fitted(d.box, fit)) if c >= FIT_LIKENESS else d
                for d, c in zip(view.detections, cos)]
        view = AspectView(view.rgb, view.fx, view.fy, dets, view.weak)
    return tiles_from_reads(view, adapted_reads(taught, reads, feats))
