"""Detections and their classifier reads -> the photo's tiles: calibrated confidences (see
:mod:`vision.calibration`), runner-up kinds, face angle, boxes in photo pixels, reading order.
Shared by the plain read (:mod:`vision.recognizer`) and the read with a taught set
(:mod:`vision.set_support`)."""

from __future__ import annotations

from dataclasses import replace

from . import models
from .types import TileRead


def tiles_from_reads(view, reads: list) -> list[TileRead]:
    """The calibrated tiles, in reading order, of a view's detections and their reads."""
    from .calibration import kind_probabilities, tile_probability
    from .classifier import angle_for, ranked
    from .kinds import BONUS_MASK

    dets = view.detections
    cfg = models.settings()
    platt, temperature = cfg.get("det_calibration"), cfg.get("cls_temperature")
    bonus_t = cfg.get("bonus_temperature")
    tiles = []
    for det, read in zip(dets, reads):
        # calibrated: P(a tile here) x P(this kind), see vision.calibration
        p_tile = float(tile_probability(det.score, platt))
        (kind, p), alts = ranked(replace(read, probs=kind_probabilities(read.probs, temperature, bonus_t, BONUS_MASK)))
        tiles.append(TileRead(kind=kind, box=view.to_photo(det.box), confidence=p * p_tile,
                              alternatives=tuple((k, q * p_tile) for k, q in alts),
                              angle=angle_for(read, det.box)))
    # reading order: top to bottom, left to right (rows are grouped by vision.layout)
    tiles.sort(key=lambda t: (round((t.box[1] + t.box[3]) / 2), t.box[0]))
    return tiles
