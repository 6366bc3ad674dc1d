"""A second opinion on flowers and seasons: the bonus reader (``models/bonus_reader.onnx``).

Why: each set paints its own plum, orchid, spring..., so on sets it never saw the crop
classifier reads flowers and seasons right only about half the time, and a season read as the
player's own flower doubles the score. The bonus reader is a network trained only on the
cues every set shares (corner index 1-4 or 一二三四, the characters 梅蘭菊竹 /
春夏秋冬; ``vision/training/train_bonus_reader.py``): 9 classes, the eight bonus kinds and
"no bonus tile".

How its answer is used (pure function :func:`reweigh`, settings in recognizer.json):
- it is asked only about crops the classifier gives at least ``bonus_reader_gate`` of its mass
  on the bonus kinds (a suit tile read surely never pays for it);
- within the bonus kinds the two opinions are multiplied, the reader's with the power
  ``bonus_reader_weight`` (0: classifier only, 1: reader only), so a flower the classifier
  cannot tell from another is read by its index or character;
- the total bonus mass moves ``bonus_reader_mass`` of the way to the reader's (0: the
  classifier alone decides whether it is a bonus tile at all).
The probabilities stay a distribution; an unsure reading stays unsure (the calibration and the
review work on the result as before)."""

from __future__ import annotations

import numpy as np

from . import models
from .calibration import softmax
from .crops import to_tensor
from .kinds import BONUS, BONUS_MASK

BONUS_KINDS = BONUS                                # the reader's classes 0-7, in this order
BONUS_INDEX = np.flatnonzero(BONUS_MASK)           # ... at these places of the kind list
OTHER_INDEX = np.flatnonzero(~BONUS_MASK)


def settings() -> dict | None:
    """The reader's settings, or None when recognizer.json names no reader."""
    cfg = models.settings()
    name = cfg.get("bonus_reader")
    if not name:
        return None
    return {"model": name, "gate": float(cfg.get("bonus_reader_gate", 0.05)),
            "weight": float(cfg.get("bonus_reader_weight", 0.5)),
            "mass": float(cfg.get("bonus_reader_mass", 0.0))}


def bonus_mass(probs: np.ndarray) -> np.ndarray:
    """The classifier's total probability on the eight bonus kinds (last axis = kinds)."""
    return probs[..., BONUS_INDEX].sum(-1)


def read_bonus(crops: np.ndarray, model: str, turns: tuple[int, ...] = (0, 1, 2, 3)) -> np.ndarray:
    """N x 9 reader probabilities (f1..j4, other) of N x S x S x 3 uint8 crops, averaged over
    the quarter ``turns`` (the reader was trained on all four)."""
    sess = models.session(model)
    return np.mean([softmax(sess.run(["bonus_logits"], {"crops": to_tensor(np.ascontiguousarray(
        np.rot90(crops, k, axes=(1, 2))))})[0]) for k in turns], axis=0)


def reweigh(probs: np.ndarray, reader: np.ndarray, weight: float, mass: float) -> np.ndarray:
    """Kind probabilities (N x 43) after the reader's opinion (N x 9); see the module doc."""
    probs = np.asarray(probs, float)
    mb = np.clip(bonus_mass(probs), 1e-9, 1.0)
    rb = np.clip(1.0 - reader[:, -1], 1e-9, 1.0)
    new_mb = (1.0 - mass) * mb + mass * rb
    within = (probs[:, BONUS_INDEX] / mb[:, None]) ** (1.0 - weight) * \
             (np.clip(reader[:, :-1], 1e-9, None) / rb[:, None]) ** weight
    within /= within.sum(1, keepdims=True)
    out = probs.copy()
    out[:, BONUS_INDEX] = new_mb[:, None] * within
    rest = np.clip(1.0 - mb, 1e-9, None)
    out[:, OTHER_INDEX] = probs[:, OTHER_INDEX] * ((1.0 - new_mb) / rest)[:, None]
    return out / out.sum(1, keepdims=True)


def with_bonus_reader(probs: np.ndarray, crops: np.ndarray, cfg: dict | None = None, read=None) -> np.ndarray:
    """``probs`` (N x 43) with the reader's opinion on the crops that look like bonus tiles;
    unchanged when no reader is configured or no crop passes the gate. ``read(crops, model)``
    gives the reader's probabilities (default :func:`read_bonus`; the settings search passes
    answers it has cached)."""
    cfg = cfg if cfg is not None else settings()
    read = read or read_bonus
    if not cfg or not len(probs):
        return probs
    asked = np.flatnonzero(bonus_mass(probs) >= cfg["gate"])
    if not len(asked):
        return probs
    out = np.array(probs, float)
    out[asked] = reweigh(out[asked], read(crops[asked], cfg["model"]), cfg["weight"], cfg["mass"])
    return out
