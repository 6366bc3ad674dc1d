"""Calibrated tile confidences (vision.calibration): the fitting recovers known parameters,
and on the bundled real photos the review threshold separates right reads from wrong ones."""

import sys
from pathlib import Path

import numpy as np

from mjscore.vision.calibration import fit_platt, fit_temperature, sharpened, tile_probability

sys.path.insert(0, str(Path(__file__).parent))


def test_platt_fit_recovers_the_generating_curve():
    rng = np.random.default_rng(0)
    scores = rng.uniform(0.3, 0.95, 20000)
    logit = np.log(scores / (1 - scores))
    outcomes = rng.random(scores.size) < 1 / (1 + np.exp(-(3.0 * logit + 0.5)))
    a, b = fit_platt(scores, outcomes)
    assert abs(a - 3.0) < 0.2 and abs(b - 0.5) < 0.1, (a, b)
    p = tile_probability([0.5, 0.7], (a, b))
    assert 0.55 < p[0] < 0.7 and p[1] > 0.9


def test_temperature_fit_recovers_the_sharpening():
    rng = np.random.default_rng(1)
    logits = rng.normal(0, 2, (5000, 43))
    truth = np.array([rng.choice(43, p=np.exp(z) / np.exp(z).sum()) for z in logits])
    soft = np.exp(logits / 2.0)                 # an under-confident model: logits halved
    soft /= soft.sum(1, keepdims=True)
    t = fit_temperature(soft, truth)
    assert abs(t - 0.5) < 0.05, t
    sharp = sharpened(soft, t)
    assert np.allclose(sharp.sum(1), 1) and (sharp.argmax(1) == soft.argmax(1)).all()
    assert sharp.max(1).mean() > soft.max(1).mean()


def test_without_settings_values_pass_through():
    probs = np.array([[0.7, 0.2, 0.1]])
    assert np.allclose(sharpened(probs, None), probs)
    assert np.allclose(tile_probability([0.55], None), [0.55])


def test_review_threshold_separates_right_and_wrong_reads_on_bundled_photos():
    """The bundled photos: five real ones (93 tiles) and the 18 synthetic sample hands. With the
    shipped calibration few right reads fall under the review threshold, wrong reads far more
    often (session 12 models: 20 of 366 right, 7 of 16 wrong; the real photos alone no longer
    have a flagged wrong read: their one misread left, an 8s, is now read right, and the rest are
    boxes just under IoU 0.5 of rightly read tiles). Uncalibrated, a sure tile's heat-map peak
    alone (0.55-0.75) put most reads under it."""
    import json

    from mjscore import vision
    from mjscore.handscan.pipeline import LOW_CONFIDENCE
    from test_vision_recognizer import SAMPLES, _truth
    from mjscore.vision.evaluate import iou_matrix
    from mjscore.vision.yolo import image_label_pairs

    photos = []     # (image, [(kind, box)])
    for item in image_label_pairs(SAMPLES):
        photos.append((item.image, lambda read, item=item: _truth(item.labels, read.width, read.height)))
    synthetic = SAMPLES.parent / "synthetic"
    for hand in json.loads((synthetic / "hands.json").read_text()):
        tiles = [(t["kind"], tuple(t["box"])) for t in hand["tiles"]]
        photos.append((synthetic / hand["file"], lambda read, tiles=tiles: tiles))
    right, wrong = [], []
    for image, truth_of in photos:
        read = vision.recognize_file(image)
        truth = truth_of(read)
        boxes = np.array([b for _, b in truth])
        for tile in read.tiles:
            ious = iou_matrix(np.array([tile.box]), boxes)[0]
            j = int(ious.argmax())
            (right if ious[j] >= 0.5 and truth[j][0] == tile.kind else wrong).append(tile.confidence)
    right, wrong = np.array(right), np.array(wrong)
    assert len(right) >= 300 and len(wrong) >= 5
    flagged_right = float((right < LOW_CONFIDENCE).mean())
    flagged_wrong = float((wrong < LOW_CONFIDENCE).mean())
    assert flagged_right <= 0.10, flagged_right
    assert flagged_wrong > 3 * flagged_right, (flagged_right, flagged_wrong)


def test_fit_command_reports_reliability_and_leaves_settings_in_dry_run(capsys):
    """``python -m mjscore.vision.training.fit_calibration FOLDER --dry-run`` on the bundled photos:
    fits, prints the reliability tables, and does not touch recognizer.json."""
    from mjscore.vision import models
    from mjscore.vision.training import fit_calibration

    settings = models.MODELS_DIR / models.SETTINGS
    before = settings.read_bytes()
    samples = Path(__file__).resolve().parents[1] / "samples" / "chinese-v4"
    assert fit_calibration.main([str(samples), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "det_calibration [" in out and "cls_temperature" in out
    assert out.count("expected calibration error") == 2          # raw and calibrated
    assert settings.read_bytes() == before


def test_fit_command_names_a_folder_that_is_not_a_dataset(tmp_path):
    import pytest
    from mjscore.vision.training import fit_calibration

    with pytest.raises(SystemExit, match="not a YOLO folder"):
        fit_calibration.main([str(tmp_path)])


def test_bonus_reads_get_their_own_temperature():
    import numpy as np
    from mjscore.vision.calibration import kind_probabilities
    from mjscore.vision.kinds import BONUS_MASK, KIND_INDEX

    def read(kind, runner_up):
        p = np.full(len(BONUS_MASK), 0.001)
        p[KIND_INDEX[kind]], p[KIND_INDEX[runner_up]] = 0.85, 0.1
        return p / p.sum()

    flower, bamboo = read("f1", "j1"), read("5s", "3s")
    both = np.stack([flower, bamboo])
    plain = kind_probabilities(both, 0.7)
    flat = kind_probabilities(both, 0.7, 2.0, BONUS_MASK)
    assert np.allclose(flat[1], plain[1])                       # a suit read keeps the common temperature
    assert flat[0].max() < plain[0].max() and flat[0].argmax() == KIND_INDEX["f1"]   # a flower read is less sure
    assert np.allclose(flat.sum(axis=1), 1.0)
    assert np.allclose(kind_probabilities(flower, 0.7, 2.0, BONUS_MASK), flat[0])    # one read alike
