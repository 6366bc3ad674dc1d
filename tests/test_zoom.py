"""A few small tiles far from the camera are looked at again up close (``vision.zoom``,
``vision.detector.with_zoom``): the window around them is detected again at the normal input
size and its boxes, mapped back to the photo, replace the first look's inside the window."""

import numpy as np

from mjscore.vision import detector
from mjscore.vision.detector import Detection
from mjscore.vision.zoom import inside, joined, zoom_window

# one 40 x 60 tile found of a pair laid far away in a 1600 x 1200 photo
FOUND = (800, 600, 840, 660)


def test_the_window_is_centred_on_the_tiles_and_span_tile_sides_wide():
    assert zoom_window([FOUND], (1200, 1600), span=10, max_share=0.5) == (520, 330, 1120, 930)
    # near the corner it is cut by the frame, not moved
    assert zoom_window([(10, 10, 50, 70)], (1200, 1600), span=10, max_share=0.5) == (0, 0, 330, 340)
    # tiles spread over the photo: the window would be most of it, so no zoom
    spread = [FOUND, (100, 100, 140, 160), (1500, 1100, 1540, 1160)]
    assert zoom_window(spread, (1200, 1600), span=10, max_share=0.5) is None
    assert zoom_window([], (1200, 1600), span=10, max_share=0.5) is None


def test_zoomed_boxes_win_inside_the_window_and_nothing_is_lost():
    window = (520, 330, 1120, 930)
    first = [Detection(FOUND, 0.6), Detection((1500, 100, 1540, 160), 0.7)]
    near = [Detection((798, 601, 840, 661), 0.9), Detection((841, 600, 882, 661), 0.8)]
    assert inside(FOUND, window) and not inside(first[1].box, window)
    assert joined(first, near, window) == near + [first[1]]
    assert joined(first, [], window) == first          # the zoom found nothing: the first look stands


def test_with_zoom_detects_the_window_and_maps_its_boxes_back(monkeypatch):
    seen = {}

    def fake_detect(rgb, det_size=None, model=None):
        seen["shape"], seen["det_size"] = rgb.shape, det_size
        # the pair, in the window's pixels
        return [Detection((280, 270, 320, 330), 0.9), Detection((321, 270, 362, 330), 0.85)], []

    monkeypatch.setattr(detector, "detect_with_weak", fake_detect)
    monkeypatch.setattr(detector.models, "settings", lambda: {"zoom_span": 10, "zoom_tile_px": 20, "det_size": 320})
    rgb = np.zeros((1200, 1600, 3), np.uint8)
    dets, _ = detector.with_zoom(rgb, [Detection(FOUND, 0.6)], [])
    assert seen == {"shape": (600, 600, 3), "det_size": 320}
    assert [d.box for d in dets] == [(800, 600, 840, 660), (841, 600, 882, 660)]


def test_no_zoom_for_big_tiles_many_tiles_or_when_off(monkeypatch):
    def no_call(*a, **k):
        raise AssertionError("zoomed although it should not")

    monkeypatch.setattr(detector, "detect_with_weak", no_call)
    rgb = np.zeros((1200, 1600, 3), np.uint8)
    one = [Detection(FOUND, 0.6)]
    monkeypatch.setattr(detector.models, "settings", lambda: {"det_size": 320})
    assert detector.with_zoom(rgb, one, [])[0] == one                                   # off
    cfg = {"zoom_span": 10, "zoom_tile_px": 20, "det_size": 320}
    monkeypatch.setattr(detector.models, "settings", lambda: cfg)
    big = [Detection((400, 300, 600, 600), 0.9)]                                        # 60 px at the input
    assert detector.with_zoom(rgb, big, [])[0] == big
    row = [Detection((100 + 45 * i, 600, 140 + 45 * i, 660), 0.9) for i in range(14)]    # a whole hand
    assert detector.with_zoom(rgb, row, [])[0] == row


def _far_hand(name: str, scale: float):
    """A bundled chinese-v4 photo pasted, scaled, into a 4000 x 3000 table photo (a hand laid
    far from the camera), with the kinds its labels hold."""
    from collections import Counter
    from pathlib import Path

    import cv2

    from mjscore.vision.evaluate import dataset_tokens, labelled_tiles
    from mjscore.vision.yolo import image_label_pairs

    folder = Path(__file__).resolve().parent.parent / "samples" / "chinese-v4"
    item = next(i for i in image_label_pairs(folder) if i.image.name == name)
    truth = Counter(k for k, _ in labelled_tiles(item, 640, 640, dataset_tokens(folder)))
    src = cv2.cvtColor(cv2.imread(str(item.image)), cv2.COLOR_BGR2RGB)
    small = cv2.resize(src, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    canvas = np.full((3000, 4000, 3), (40, 90, 60), np.uint8)
    canvas[1200:1200 + small.shape[0], 1500:1500 + small.shape[1]] = small
    return canvas, truth


def _kinds_right(rgb, truth) -> int:
    from collections import Counter

    from mjscore.vision import recognize_image

    return sum((Counter(t.kind for t in recognize_image(rgb)) & truth).values())


def test_a_whole_hand_far_off_is_looked_at_up_close(monkeypatch):
    """photo_4's 26 tiles in a 4000 x 3000 photo are ~3 px at the 320 px input and ~12 at the
    finer pass: the zoomed look, allowed up to ``zoom_max_tiles`` 60 since session 30 (a hand,
    not only a pair), reads them at ~4x. Measured: 25 of 26 kinds right, 22 with at most 10."""
    from mjscore.vision import models

    rgb, truth = _far_hand("photo_4.jpg", 1.0)
    assert models.settings()["zoom_max_tiles"] >= 26
    assert _kinds_right(rgb, truth) >= 24
    shipped = models.settings()
    monkeypatch.setattr(models, "settings", lambda: {**shipped, "zoom_max_tiles": 10})
    assert _kinds_right(rgb, truth) <= 23


def test_a_big_photo_whose_first_pass_finds_nothing_is_weighed_by_its_finer_pass(monkeypatch):
    """``view_plain_fine`` (session 30, vision.detector._judged_plain): photo_2 at 3/4 size in a
    4000 x 3000 photo has no box at the 320 px input; a squeezed copy with a chance box used to
    be chosen and the finer pass ran there. Weighed by its own finer pass the plain view is kept:
    measured 24 of 25 kinds right, 14 without. Pictures under the bound (exports, screenshots,
    which an exporter may have stretched) keep the old choice."""
    from mjscore.vision import models

    rgb, truth = _far_hand("photo_2.jpg", 0.75)
    shipped = models.settings()
    assert 640 < shipped["view_plain_fine"] <= 3000
    assert _kinds_right(rgb, truth) >= 22
    monkeypatch.setattr(models, "settings", lambda: {**shipped, "view_plain_fine": 0})
    assert _kinds_right(rgb, truth) <= 16
    monkeypatch.setattr(models, "settings", lambda: {**shipped, "view_plain_fine": 4001})   # over the photo's side
    assert _kinds_right(rgb, truth) <= 16
