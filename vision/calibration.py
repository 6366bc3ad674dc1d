"""Tile confidences that mean what they say: the chance that the box is a tile *and* the
kind is right.

The raw numbers are not that. A CenterNet heat-map peak on a sure tile reads 0.55-0.75, and
the classifier's averaged-over-four-turns softmax is under-confident (on the synthetic
hold-out a top probability of 0.6 was right 82 % of the time). Their plain product flagged
nearly every tile of a clean photo as doubtful, which made the review flags useless.

So each is mapped once, with parameters fitted on held-out data by
``python -m mjscore.vision.training.fit_calibration`` and stored in recognizer.json:
- detection score -> P(box is a tile): Platt scaling, ``sigmoid(a * logit(score) + b)``
  (``det_calibration``: [a, b]);
- kind probabilities -> temperature scaling, ``p_i ** (1/T)`` renormalised
  (``cls_temperature``: T; T < 1 sharpens), which keeps a proper distribution over kinds.
- a tile read as a flower or season gets its own temperature (``bonus_temperature``), fitted on
  the bonus reads alone. Why: every set draws its own flowers and seasons, so on sets the
  classifier never saw its bonus reads are the least reliable, and a season read as the
  player's own flower doubles the score; one temperature for all kinds, dominated by the many
  suit tiles, left such misreads above the review's 0.6. With its own (flatter) temperature an
  unsure bonus read says so and the review asks.
Without these settings the raw values pass through unchanged."""

from __future__ import annotations

import numpy as np

# tiles under this calibrated confidence are flagged for review (handscan.pipeline) and
# counted as "shown unsure" by the evaluation (vision.evaluate)
REVIEW_CONFIDENCE = 0.6


def _logit(p: np.ndarray) -> np.ndarray:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return np.log(p / (1 - p))


def tile_probability(det_score, platt: tuple[float, float] | None) -> np.ndarray:
    """P(the detection is a tile) from its heat-map score (array or scalar)."""
    s = np.asarray(det_score, float)
    if not platt:
        return s
    a, b = platt
    return 1.0 / (1.0 + np.exp(-(a * _logit(s) + b)))


def sharpened(probs: np.ndarray, temperature: float | None) -> np.ndarray:
    """Kind probabilities (last axis) after temperature scaling."""
    if not temperature or temperature == 1.0:
        return probs
    z = np.log(np.clip(probs, 1e-12, None)) / temperature
    z -= z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def fit_platt(scores: np.ndarray, outcomes: np.ndarray, iters: int = 100) -> tuple[float, float]:
    """[a, b] maximising the likelihood of ``outcomes`` (0/1) under sigmoid(a*logit(s)+b)
    (Newton's method on the two parameters)."""
    x = _logit(np.asarray(scores, float)); y = np.asarray(outcomes, float)
    w = np.array([1.0, 0.0])
    X = np.stack([x, np.ones_like(x)], 1)
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-(X @ w)))
        grad = X.T @ (p - y)
        hess = X.T @ (X * (p * (1 - p))[:, None]) + 1e-6 * np.eye(2)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return float(w[0]), float(w[1])


def fit_temperature(probs: np.ndarray, true_index: np.ndarray) -> float:
    """T minimising the negative log-likelihood of the true kinds (golden-section search on
    log T in [1/8, 8])."""
    def nll(log_t: float) -> float:
        p = sharpened(probs, float(np.exp(log_t)))
        return float(-np.mean(np.log(np.clip(p[np.arange(len(p)), true_index], 1e-12, None))))

    lo, hi = np.log(1 / 8), np.log(8)
    g = (np.sqrt(5) - 1) / 2
    c, d = hi - g * (hi - lo), lo + g * (hi - lo)
    for _ in range(60):
        if nll(c) < nll(d):
            hi, d = d, c
            c = hi - g * (hi - lo)
        else:
            lo, c = c, d
            d = lo + g * (hi - lo)
    return float(np.exp((lo + hi) / 2))


def kind_probabilities(probs: np.ndarray, temperature: float | None,
                       bonus_temperature: float | None = None, bonus: np.ndarray | None = None) -> np.ndarray:
    """Calibrated kind probabilities of one read or a batch (last axis = kinds): the
    temperature of the read's top kind's family, ``bonus_temperature`` where the top kind is a
    flower or season (``bonus``: a boolean mask over the kinds), ``temperature`` elsewhere."""
    out = sharpened(probs, temperature)
    if not bonus_temperature or bonus is None:
        return out
    flat = sharpened(probs, bonus_temperature)
    is_bonus = bonus[np.argmax(probs, axis=-1)]
    return np.where(np.asarray(is_bonus)[..., None], flat, out)

