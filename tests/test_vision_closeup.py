"""Close-up photos (vision/closeup.py): which photos the close-up detector is asked about."""

import numpy as np

from mjscore.vision.closeup import needs_closeup

def test_hand_photos_keep_the_main_detector():
    row = [(i * 30, 0, i * 30 + 28, 38) for i in range(14)]
    assert not needs_closeup(row, (1000, 1000), 320, 40, 3)      # 14 tiles of ~12 px at the input

def test_few_or_big_tiles_are_a_close_up():
    row = [(i * 30, 0, i * 30 + 28, 38) for i in range(14)]
    assert needs_closeup(row[:2], (1000, 1000), 320, 40, 3)       # too few to tell
    assert needs_closeup([], (1000, 1000), 320, 40, 3)            # nothing found at all
    big = [(i * 300, 0, i * 300 + 280, 380) for i in range(3)]
    assert needs_closeup(big, (1000, 1000), 320, 40, 3)            # ~120 px at the input

def test_the_close_up_view_is_taken_only_where_it_reads_better(monkeypatch):
    """detector.with_closeup with the shipped detector standing in for the close-up one."""
    from pathlib import Path

    from mjscore.vision import detector, models
    from mjscore.vision.imageio import load_image

    photo = Path(__file__).resolve().parent.parent / "samples" / "chinese-v4" / "images" / "photo_3.jpg"
    rgb = load_image(photo).rgb
    cfg = dict(models.settings(), closeup_detector=models.DETECTOR)
    monkeypatch.setattr(models, "settings", lambda *a: cfg)
    hand = detector.detect_any_aspect(rgb)                              # a whole hand: 19 tiles
    sure = lambda views: [[0.99] * len(d) for _, d in views]            # noqa: E731
    assert detector.with_closeup(rgb, hand, 320, sure) is hand          # the gate: not a close-up
    few = detector.AspectView(rgb, 1.0, 1.0, hand.detections[:2])
    unsure_own = lambda views: [[0.1] * len(views[0][1])] + [[0.99] * len(d) for _, d in views[1:]]   # noqa: E731
    taken = detector.with_closeup(rgb, few, 320, unsure_own)
    assert taken is not few and len(taken.detections) > 2         # the close-up detector's own view
    sure_own = lambda views: [[0.99] * len(views[0][1])] + [[0.01] * len(d) for _, d in views[1:]]    # noqa: E731
    assert detector.with_closeup(rgb, few, 320, sure_own) is few        # reads worse: kept
    # the close-up view has many more boxes, each read a little less surely: summed evidence
    # takes it, the classifier's mean confidence alone ("likeness") keeps the two sure tiles
    a_little_surer = lambda views: [[0.9] * len(views[0][1])] + [[0.8] * len(d) for _, d in views[1:]]  # noqa: E731
    cfg.update(closeup_weigh="evidence", closeup_join=False, closeup_merge=False)
    assert detector.with_closeup(rgb, few, 320, a_little_surer) is not few
    cfg.update(closeup_weigh="likeness")
    assert detector.with_closeup(rgb, few, 320, a_little_surer) is few
    cfg.pop("closeup_detector")
    assert detector.with_closeup(rgb, few, 320, unsure_own) is few      # none configured


def test_a_tile_cut_in_two_in_the_kept_view_is_made_whole(monkeypatch):
    """with_closeup keeps the main view (it reads as well as the close-up one) but replaces the
    two halves of one tile in it by the close-up detector's whole box (closeup_merge)."""
    from pathlib import Path

    from mjscore.vision import detector, models
    from mjscore.vision.imageio import load_image

    photo = Path(__file__).resolve().parent.parent / "samples" / "chinese-v4" / "images" / "photo_3.jpg"
    rgb = load_image(photo).rgb
    cfg = dict(models.settings(), closeup_detector=models.DETECTOR, closeup_min_tiles=100, closeup_merge=True,
               closeup_piece_area=0.7, closeup_sureness=0.9)
    monkeypatch.setattr(models, "settings", lambda *a: cfg)
    hand = detector.detect_any_aspect(rgb, closeup=False)
    whole = hand.detections[0]
    x1, y1, x2, y2 = whole.box
    ym = (y1 + y2) / 2
    halves = [detector.Detection((x1 + 1, y1 + 1, x2 - 1, ym), whole.score),
              detector.Detection((x1 + 1, ym, x2 - 1, y2 - 1), whole.score)]
    cut = detector.AspectView(hand.rgb, hand.fx, hand.fy, hand.detections[1:] + halves)
    likeness = lambda views: [[0.5 if d in halves else 0.99 for d in dets] for _, dets in views]  # noqa: E731
    merged = detector.with_closeup(rgb, cut, 320, likeness)
    boxes = [d.box for d in merged.detections]
    assert whole.box in boxes and not any(h.box in boxes for h in halves)
    assert len(boxes) == len(hand.detections)
    cfg["closeup_merge"] = False
    assert detector.with_closeup(rgb, cut, 320, likeness) is cut        # merging off: the view as it was


def test_a_close_up_is_read_again_at_the_coarse_size(monkeypatch):
    """closeup_det_size: where the first read finds fewer tiles than a hand, big at the input (here:
    four tiles of a row), the whole view search runs again at the coarser input; a hand photo is
    read at det_size only, and without the setting nothing is read twice."""
    from pathlib import Path

    from mjscore.vision import detector, models
    from mjscore.vision.classifier import read_confidence
    from mjscore.vision.imageio import load_image

    photo = Path(__file__).resolve().parent.parent / "samples" / "chinese-v4" / "images" / "photo_3.jpg"
    rgb = load_image(photo).rgb
    sizes = []
    forward = detector._forward

    def recorded(image, det_size, model=models.DETECTOR):
        sizes.append(det_size)
        return forward(image, det_size, model)

    monkeypatch.setattr(detector, "_forward", recorded)
    cfg = dict(models.settings(), closeup_det_size=160)
    monkeypatch.setattr(models, "settings", lambda *a: cfg)
    hand = detector.detect_any_aspect(rgb, tile_likeness=read_confidence)
    assert len(hand.detections) >= 14 and 160 not in sizes
    few = np.ascontiguousarray(rgb[:, :150])                          # the first four tiles of the row
    sizes.clear()
    got = detector.detect_any_aspect(few, tile_likeness=read_confidence)
    assert 320 in sizes and 160 in sizes and len(got.detections) <= 5
    cfg["closeup_coarse_unsure"] = 0.0                                 # the first read counts as sure
    sizes.clear()
    detector.detect_any_aspect(few, tile_likeness=read_confidence)
    assert 160 not in sizes
    cfg["closeup_coarse_unsure"] = 1.01                                # never sure enough
    sizes.clear()
    detector.detect_any_aspect(few, tile_likeness=read_confidence)
    assert 160 in sizes
    cfg.pop("closeup_det_size")
    sizes.clear()
    detector.detect_any_aspect(few, tile_likeness=read_confidence)
    assert 160 not in sizes
