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
