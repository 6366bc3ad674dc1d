"""Detections and their classifier reads -> the photo's tiles: calibrated confidences (see
:mod:`vision.calibration`), runner-up kinds, face angle, boxes in photo pixels, reading order.
Shared by the plain read (:mod:`vision.recognizer`) and the read with a taught set
(:mod:`vision.set_support`)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from . import models
from .types import TileRead


@dataclass(frozen=True)
class Calibrated:
    """A view's detections, calibrated (vision.calibration): kind probabilities (N x kinds),
    P(a tile here) of each, and each tile's confidence (P(box and top kind right))."""
    kind_probs: np.ndarray
    p_tile: np.ndarray
    confidence: np.ndarray
    features: np.ndarray | None = None     # the confidence model's inputs, where it is set


def context_inputs(view, kind_probs: np.ndarray, names) -> np.ndarray:
    """The confidence model's features of a view's detections (vision.calibration)."""
    from .calibration import context_features
    from .kinds import BONUS_MASK

    boxes = np.array([d.box for d in view.detections], float).reshape(-1, 4)
    scores = np.array([d.score for d in view.detections], float)
    h, w = view.rgb.shape[:2]
    return context_features(boxes, scores, kind_probs, (w, h), BONUS_MASK, names)


def calibrated(view, reads: list, cfg: dict | None = None) -> Calibrated:
    """Calibrated kind probabilities and confidences of a view's detections and their reads."""
    from .calibration import kind_probabilities, model_confidence, tile_probability
    from .kinds import BONUS_MASK, KINDS

    cfg = models.settings() if cfg is None else cfg
    n = len(view.detections)
    if n == 0:
        return Calibrated(np.zeros((0, len(KINDS))), np.zeros(0), np.zeros(0))
    raw = np.stack([r.probs for r in reads])
    probs = kind_probabilities(raw, cfg.get("cls_temperature"), cfg.get("bonus_temperature"), BONUS_MASK)
    p_tile = tile_probability(np.array([d.score for d in view.detections], float), cfg.get("det_calibration"))
    product = p_tile * probs.max(axis=1)
    model = cfg.get("confidence_model")
    if not model:
        return Calibrated(probs, p_tile, product)
    feats = context_inputs(view, probs, model["features"])
    return Calibrated(probs, p_tile, np.minimum(product, model_confidence(feats, model["weights"])), feats)


def tiles_from_reads(view, reads: list) -> list[TileRead]:
    """The calibrated tiles, in reading order, of a view's detections and their reads."""
    from .classifier import angle_for, ranked

    cal = calibrated(view, reads)
    tiles = []
    for i, (det, read) in enumerate(zip(view.detections, reads)):
        (kind, p), alts = ranked(replace(read, probs=cal.kind_probs[i]))
        # runner-ups keep their odds against the top kind (handscan.alternatives weighs them)
        scale = float(cal.confidence[i]) / max(p, 1e-9)
        tiles.append(TileRead(kind=kind, box=view.to_photo(det.box), confidence=float(cal.confidence[i]),
                              alternatives=tuple((k, q * scale) for k, q in alts),
                              angle=angle_for(read, det.box)))
    return in_reading_order(tiles)


def in_reading_order(tiles: list[TileRead]) -> list[TileRead]:
    """Top to bottom, left to right, by box centre (rows are grouped by vision.layout)."""
    return sorted(tiles, key=lambda t: (round((t.box[1] + t.box[3]) / 2), t.box[0]))
