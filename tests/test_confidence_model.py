"""The confidence model (vision.calibration: a tile's chance of being right from how it sits
among the photo's boxes): its features say what they claim, the fit recovers a known model,
and the reading path uses it only where recognizer.json names one."""

import numpy as np
import pytest

from mjscore.vision.calibration import (CONTEXT_FEATURES, context_features, fit_logistic,
                                        model_confidence)
from mjscore.vision.kinds import BONUS_MASK, KINDS

NAMES = tuple(CONTEXT_FEATURES)


def _row_with_a_piece():
    """Five upright tiles 30 x 40 in a row, and a 14 x 14 box inside the third (a piece)."""
    boxes = [(10 + 32 * i, 10, 40 + 32 * i, 50) for i in range(5)] + [(80, 20, 94, 34)]
    probs = np.full((6, len(KINDS)), 0.001)
    probs[:, KINDS.index("3p")] = 0.9
    probs[5] = 0.001
    probs[5, KINDS.index("f2")] = 0.6
    probs[5, KINDS.index("1p")] = 0.3
    return np.array(boxes, float), np.array([0.7] * 5 + [0.6]), probs / probs.sum(1, keepdims=True)


def test_features_single_out_a_piece_inside_a_tile():
    boxes, scores, probs = _row_with_a_piece()
    f = dict(zip(NAMES, context_features(boxes, scores, probs, (200, 100), BONUS_MASK).T))
    piece, tile = 5, 0
    assert f["inside"][piece] == pytest.approx(1.0) and f["inside"][tile] == 0.0
    assert f["size_dev"][piece] < -1.5 and f["size_dev"][tile] == pytest.approx(0.0)
    assert f["shape_abs"][piece] > f["shape_abs"][tile] + 0.2     # square, not tile-shaped
    assert f["bonus"][piece] == 1.0 and f["bonus"][tile] == 0.0
    assert f["margin_log"][piece] == pytest.approx(np.log(2.0), abs=0.05)
    assert f["few"][0] == pytest.approx(np.log(6))
    assert f["frame_share"][tile] == pytest.approx(np.log(np.sqrt(1200) / 100))


def test_a_subset_of_features_in_the_order_named():
    boxes, scores, probs = _row_with_a_piece()
    full = context_features(boxes, scores, probs, (200, 100), BONUS_MASK)
    two = context_features(boxes, scores, probs, (200, 100), BONUS_MASK, ("inside", "det_logit"))
    assert np.allclose(two, full[:, [NAMES.index("inside"), NAMES.index("det_logit")]])
    assert context_features(np.zeros((0, 4)), np.zeros(0), np.zeros((0, len(KINDS))), (9, 9), BONUS_MASK).shape == (0, len(NAMES))


def test_logistic_fit_recovers_the_generating_weights():
    rng = np.random.default_rng(3)
    X = rng.normal(0, 1, (20000, 3))
    truth = np.array([1.5, -2.0, 0.0, 0.4])
    y = rng.random(len(X)) < model_confidence(X, truth)
    w = fit_logistic(X, y, l2=1e-5)
    assert np.allclose(w, truth, atol=0.1), w


def test_reading_uses_the_model_only_where_it_is_set(monkeypatch):
    """Without ``confidence_model`` a tile's confidence is P(tile) x P(kind) as before; with
    one, the model's, and the runner-ups keep their odds against the top kind."""
    from mjscore.vision import models, reading
    from mjscore.vision.classifier import KindRead
    from mjscore.vision.detector import AspectView, Detection

    boxes, scores, probs = _row_with_a_piece()
    view = AspectView(np.zeros((100, 200, 3), np.uint8), 1.0, 1.0,
                      [Detection(tuple(b), float(s)) for b, s in zip(boxes, scores)])
    reads = [KindRead(probs=p, orient=np.array([1.0, 0, 0, 0])) for p in probs]
    base = {"det_calibration": [3.0, 0.0], "cls_temperature": 0.7}
    monkeypatch.setattr(models, "settings", lambda: dict(base))
    plain = reading.calibrated(view, reads)
    assert plain.features is None
    assert np.allclose(plain.confidence, plain.p_tile * plain.kind_probs.max(1))

    model = {"features": ["inside", "size_abs"], "weights": [-4.0, -1.0, 2.0]}
    with_model = reading.calibrated(view, reads, dict(base, confidence_model=model))
    assert with_model.confidence[5] < 0.1 < 0.8 < with_model.confidence[0]
    assert (with_model.confidence <= plain.confidence + 1e-12).all()     # it only ever lowers
    monkeypatch.setattr(models, "settings", lambda: dict(base, confidence_model=model))
    tiles = reading.tiles_from_reads(view, reads)
    piece = next(t for t in tiles if t.kind == "f2")
    (alt, q), = [a for a in piece.alternatives if a[0] == "1p"]
    assert piece.confidence == pytest.approx(with_model.confidence[5])
    assert piece.confidence < plain.confidence[5]
    assert piece.confidence / q == pytest.approx(2.0 ** (1 / 0.7), rel=0.02)    # the odds, sharpened


def test_the_fit_follows_the_framed_read_as_the_recognizer_takes_it(monkeypatch):
    """fit_confidence_model collects the tiles the user is shown: where the first read found
    few tiles and the read of the framed photo is surer, the framed read's tiles, with boxes
    back in the photo's pixels (border taken off, cut to the photo); a hand photo's own read
    otherwise, and nothing from a framed read with no tile read surely."""
    from mjscore.vision.training import fit_confidence_model as fit

    from mjscore.vision import models

    rgb = np.full((100, 200, 3), 90, np.uint8)
    cfg = {"pad_share": 0.25, "closeup_min_tiles": 3}
    monkeypatch.setattr(models, "settings", lambda: cfg)      # the fit reads recognizer.json's settings

    def read(boxes, sure):
        n = len(boxes)
        return {"features": np.zeros((n, len(NAMES))), "plain": np.full(n, sure),
                "probs": np.full((n, len(KINDS)), 1 / len(KINDS)), "shipped": np.full(n, sure),
                "boxes": np.array(boxes, float).reshape(-1, 4)}

    # the framed image is 300 x 200 (a border of 50 px): one tile cut by the photo's left edge
    # is found whole there, reaching into the border; one lies in the border only
    monkeypatch.setattr(fit, "_raw_read", lambda image, _cfg: read([(30, 60, 90, 140), (0, 0, 40, 40)], 0.9))
    first = read([(0, 10, 20, 90)], 0.3)
    got = fit._with_framed(rgb, first, cfg)
    assert got["boxes"].tolist() == [[0.0, 10.0, 40.0, 90.0]]      # cut to the photo; the border's box gone
    assert got["plain"].tolist() == [0.9]
    hand = read([(0, 10, 20, 90), (30, 10, 50, 90), (60, 10, 80, 90)], 0.3)
    assert fit._with_framed(rgb, hand, cfg) is hand                   # enough tiles: no second look
    assert fit._with_framed(rgb, first, dict(cfg, pad_share=None)) is first
    monkeypatch.setattr(fit, "_raw_read", lambda image, _cfg: read([(60, 60, 90, 140)] * 2, 0.4))
    assert fit._with_framed(rgb, first, cfg) is first                # surer in sum, but no tile >= MIN_READ
    assert fit._with_framed(rgb, None, cfg) is None                   # nothing found stays nothing
