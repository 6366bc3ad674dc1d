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
Without these settings the raw values pass through unchanged."""

from __future__ import annotations

import numpy as np


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
