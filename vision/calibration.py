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
- where ``confidence_model`` is set, a tile's confidence is at most what a logistic model over
  the calibrated score and probability *and* how the box sits among the photo's other boxes
  says (see the section below); its runner-up kinds keep their odds against the top kind.
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


def softmax(z: np.ndarray) -> np.ndarray:
    """Probabilities from logits (last axis): the networks' kind and orientation heads."""
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def sharpened(probs: np.ndarray, temperature: float | None) -> np.ndarray:
    """Kind probabilities (last axis) after temperature scaling."""
    if not temperature or temperature == 1.0:
        return probs
    return softmax(np.log(np.clip(probs, 1e-12, None)) / temperature)


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



# --- the confidence model: a tile's chance of being right given how it sits in the photo -----
#
# Why: detection score x kind probability knows nothing of the tile's surroundings, and on
# lone tiles and close-ups most wrong tiles were shown sure (0.6+ on 61 % of them): a piece of
# a tile (one circle of a 3p, half a character tile) reads as a sure 1p, a box that covers half
# a tile reads its kind right but is not the tile. Such boxes give themselves away by how they
# sit among the photo's other boxes: smaller than the rest, not tile-shaped, inside another
# box, few boxes in the photo. A logistic model over these cues (``confidence_model`` in
# recognizer.json: feature names and weights, fitted by vision.training.fit_confidence_model
# on synthetic scenes and synthetic close-ups, never on an evaluation set) caps the calibrated
# confidence; without it the product above is kept.
# DECISION: the model only ever lowers a confidence (the tile's confidence is the smaller of
# the two). It is fitted on synthetic photos, where whole-hand photos are read worse than real
# ones; let loose, it raised sure-looking wrong tiles of busy hand photos over the review
# threshold (one more wrong hand shown unflagged of 100). Its job is to catch the boxes that
# sit wrong, not to vouch for the ones that sit right.

TILE_SHAPE_RATIO = 0.76    # short side / long side of an upright tile face (chinese-v4 median)

CONTEXT_FEATURES = {
    "det_logit": "logit of the detection's heat-map score",
    "kind_log": "log of the calibrated probability of the top kind",
    "margin_log": "log odds of the top kind over the runner-up",
    "size_dev": "log of the box area over the photo's median box area",
    "size_abs": "absolute value of size_dev",
    "shape_abs": "how far the box is from tile-shaped: |log(short/long / 0.76)|",
    "shape_dev": "how far its shape is from the photo's median box shape",
    "inside": "largest share of the box covered by another box",
    "few": "log of the number of boxes in the photo",
    "frame_share": "log of the box's side over the photo's short side",
    "bonus": "1 where the top kind is a flower or season",
}


def context_features(boxes: np.ndarray, scores: np.ndarray, probs: np.ndarray, frame_wh: tuple[int, int],
                     bonus: np.ndarray, names=tuple(CONTEXT_FEATURES)) -> np.ndarray:
    """Features (N x len(names)) of a photo's N boxes (x1, y1, x2, y2 in one frame of
    ``frame_wh``), their raw detection scores and calibrated kind probabilities (N x kinds)."""
    from .boxes import areas, intersections

    boxes = np.asarray(boxes, float).reshape(-1, 4)
    n = len(boxes)
    if n == 0:
        return np.zeros((0, len(names)))
    w = np.maximum(boxes[:, 2] - boxes[:, 0], 1e-3)
    h = np.maximum(boxes[:, 3] - boxes[:, 1], 1e-3)
    area = np.maximum(areas(boxes), 1e-3)
    ratio = np.minimum(w, h) / np.maximum(w, h)
    srt = np.sort(probs, axis=1)
    inter = intersections(boxes, boxes)
    np.fill_diagonal(inter, 0.0)
    size_dev = np.log(area / np.median(area))
    cols = {
        "det_logit": _logit(np.asarray(scores, float)),
        "kind_log": np.log(np.clip(srt[:, -1], 1e-6, None)),
        "margin_log": np.log(np.clip(srt[:, -1], 1e-6, None) / np.clip(srt[:, -2], 1e-6, None)),
        "size_dev": size_dev,
        "size_abs": np.abs(size_dev),
        "shape_abs": np.abs(np.log(ratio / TILE_SHAPE_RATIO)),
        "shape_dev": np.abs(np.log(ratio / np.median(ratio))),
        "inside": (inter / area[:, None]).max(axis=1) if n > 1 else np.zeros(n),
        "few": np.full(n, np.log(n)),
        "frame_share": np.log(np.sqrt(area) / max(1.0, float(min(frame_wh)))),
        "bonus": np.asarray(bonus, float)[np.argmax(probs, axis=1)],
    }
    return np.stack([cols[k] for k in names], axis=1)


def model_confidence(features: np.ndarray, weights) -> np.ndarray:
    """P(right) of the logistic confidence model: ``weights`` = one per feature, then the bias."""
    w = np.asarray(weights, float)
    return 1.0 / (1.0 + np.exp(-(features @ w[:-1] + w[-1])))


def fit_logistic(features: np.ndarray, outcomes: np.ndarray, l2: float = 1e-2, iters: int = 100) -> list[float]:
    """Weights (then bias) maximising the likelihood of ``outcomes`` (0/1), with a small L2
    pull to zero on the weights (Newton's method)."""
    X = np.hstack([np.asarray(features, float), np.ones((len(features), 1))])
    y = np.asarray(outcomes, float)
    reg = l2 * len(y) * np.eye(X.shape[1]); reg[-1, -1] = 1e-9
    w = np.zeros(X.shape[1])
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-np.clip(X @ w, -30, 30)))
        grad = X.T @ (p - y) + reg @ w
        hess = X.T @ (X * (p * (1 - p))[:, None]) + reg
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return [float(v) for v in w]
