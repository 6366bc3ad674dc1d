"""Tile outlines found without a network (vision.blobs): the whole-tile proposals of close-ups."""

import cv2
import numpy as np

from mjscore.vision import detector
from mjscore.vision.blobs import tile_outlines
from mjscore.vision.detector import AspectView, Detection


def _iou(a, b):
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def _table(h=1200, w=1600, seed=0):
    rng = np.random.default_rng(seed)
    img = np.full((h, w, 3), (40, 70, 50), np.uint8)
    return np.clip(img + rng.normal(0, 6, img.shape), 0, 255).astype(np.uint8)


def _tile(img, x0, y0, w, h):
    """An ivory face with a border and three dark strips on it: what the detectors cut into pieces."""
    cv2.rectangle(img, (x0, y0), (x0 + w, y0 + h), (235, 230, 210), -1)
    cv2.rectangle(img, (x0, y0), (x0 + w, y0 + h), (120, 120, 110), 3)
    for k in range(3):
        y = y0 + h // 6 + k * h // 3
        cv2.rectangle(img, (x0 + w // 4, y), (x0 + 3 * w // 4, y + h // 8), (30, 90, 30), -1)


def test_a_lone_tile_on_a_plain_table_is_one_outline():
    img = _table()
    _tile(img, 700, 500, 160, 220)
    found = tile_outlines(img)
    assert max(_iou(b, (700, 500, 860, 720)) for b in found) > 0.85


def test_a_tile_sideways_is_found_too():
    img = _table(seed=1)
    _tile(img, 300, 400, 240, 170)
    assert max(_iou(b, (300, 400, 540, 570)) for b in tile_outlines(img)) > 0.85


def test_a_bare_table_and_a_square_give_no_tile():
    img = _table(seed=2)
    assert tile_outlines(img) == []
    cv2.rectangle(img, (500, 300), (900, 700), (235, 230, 210), -1)     # a square card: no tile's shape
    assert all(_iou(b, (500, 300, 900, 700)) < 0.5 for b in tile_outlines(img))


def test_outlines_come_in_photo_pixels_whatever_the_working_size():
    img = _table(2400, 3200, seed=3)
    _tile(img, 1400, 1000, 320, 440)
    assert max(_iou(b, (1400, 1000, 1720, 1440)) for b in tile_outlines(img)) > 0.85


# --- the outline in the recognizer (vision.detector._outlines_made_whole) -----------------------

OUTLINE = (700, 500, 860, 720)          # the tile _tile draws in the photo below
STRIPS = [(740, 537, 820, 565), (740, 610, 820, 638), (740, 683, 820, 711)]   # its rows of symbols


def _photo_and_view(boxes):
    img = _table(seed=4)
    _tile(img, *OUTLINE[:2], OUTLINE[2] - OUTLINE[0], OUTLINE[3] - OUTLINE[1])
    return img, AspectView(img, 1.0, 1.0, [Detection(b, 0.6) for b in boxes])


def _reads(piece, outline, half):
    """A stand-in for the classifier: found boxes, then outlines, then outline halves."""
    def read(views):
        return [[piece] * len(views[0][1]), [outline] * len(views[1][1]), [half] * len(views[2][1])]
    return read


def _ids(view):
    return sorted(tuple(round(v) for v in d.box) for d in view.detections)


def test_strips_of_a_lone_tile_become_its_outline(monkeypatch):
    monkeypatch.setattr(detector.models, "settings", lambda: {"closeup_join_edge": 0.01})
    img, view = _photo_and_view(STRIPS)
    out = detector._outlines_made_whole(img, view, _reads(0.5, 0.95, 0.6))
    assert len(out.detections) == 1
    assert _iou(out.detections[0].box, OUTLINE) > 0.85
    # the outline reads no surer than a strip: the strips stay
    out = detector._outlines_made_whole(img, view, _reads(0.97, 0.95, 0.6))
    assert _ids(out) == _ids(view)


def test_an_outline_whose_halves_read_surely_is_a_pair(monkeypatch):
    monkeypatch.setattr(detector.models, "settings", lambda: {"closeup_join_edge": 0.01})
    img, view = _photo_and_view(STRIPS)
    out = detector._outlines_made_whole(img, view, _reads(0.5, 0.9, 0.95))
    assert len(out.detections) == 2


def test_a_sure_tile_filling_half_the_outline_keeps_the_outline_from_swallowing_it(monkeypatch):
    monkeypatch.setattr(detector.models, "settings", lambda: {"closeup_join_edge": 0.01})
    one_half = (702, 502, 858, 608)              # the top half of the outline, read surely: a tile of a pair
    img, view = _photo_and_view([one_half])
    out = detector._outlines_made_whole(img, view, _reads(0.95, 0.97, 0.5))
    assert _ids(out) == _ids(view)
