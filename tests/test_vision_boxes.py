"""vision.boxes: the one IoU / NMS / rescaling every step uses."""

import numpy as np
import pytest

from mjscore.vision.boxes import centre, iou, iou_matrix, nms, rescale, size, unscale


def test_iou_of_real_tile_boxes():
    # two neighbouring tiles of a row (40 x 54 px, touching) and a second box on the first
    a, b, twin = (100.0, 200.0, 140.0, 254.0), (140.0, 200.0, 180.0, 254.0), (104.0, 203.0, 142.0, 256.0)
    assert iou(a, a) == pytest.approx(1.0)
    assert iou(a, b) == 0.0
    inter = (140 - 104) * (254 - 203)
    assert iou(a, twin) == pytest.approx(inter / (40 * 54 + 38 * 53 - inter))
    assert iou((0, 0, 10, 10), (5, 0, 15, 10)) == pytest.approx(1 / 3)


def test_iou_matrix_matches_pairwise_iou_and_handles_empty_sets():
    boxes = np.array([(100, 200, 140, 254), (140, 200, 180, 254), (104, 203, 142, 256)], float)
    m = iou_matrix(boxes, boxes)
    assert m.shape == (3, 3)
    assert m[0, 2] == pytest.approx(iou(boxes[0], boxes[2])) and m[0, 2] == m[2, 0]
    assert iou_matrix(boxes[:0], boxes).shape == (0, 3)
    assert iou_matrix(boxes, np.zeros((0, 4))).shape == (3, 0)


def test_nms_keeps_the_best_of_overlapping_boxes_and_drops_a_peak_inside_a_tile():
    boxes = np.array([(100, 200, 140, 254),      # a tile
                      (103, 202, 141, 255),      # a second peak on it (IoU 0.86)
                      (140, 200, 180, 254),      # the next tile
                      (150, 210, 170, 240)],     # a small peak inside the next tile (IoU 0.28)
                     float)
    scores = np.array([0.9, 0.8, 0.7, 0.6])
    assert list(nms(boxes, scores, 0.6)) == [0, 2, 3]                        # IoU alone keeps the small one
    assert list(nms(boxes, scores, 0.6, containment=0.7)) == [0, 2]          # it lies wholly inside a better box
    scores[3] = 0.75                                                           # a better small box hides no tile:
    assert list(nms(boxes, scores, 0.6, containment=0.7)) == [0, 3, 2]       # containment is of the worse box


def test_nms_agrees_with_opencv_where_it_can_do_the_job():
    """Plain IoU suppression gives OpenCV's answer; we keep our own for ``containment``."""
    cv2 = pytest.importorskip("cv2")
    rng = np.random.default_rng(7)
    for _ in range(50):
        xy, wh = rng.uniform(0, 300, (25, 2)), rng.uniform(20, 60, (25, 2))
        boxes, scores = np.hstack([xy, xy + wh]), rng.uniform(0.3, 1.0, 25)
        theirs = cv2.dnn.NMSBoxes([[float(x1), float(y1), float(x2 - x1), float(y2 - y1)] for x1, y1, x2, y2 in boxes],
                                  scores.tolist(), 0.0, 0.6)
        assert list(nms(boxes, scores, 0.6)) == list(np.array(theirs).reshape(-1))


def test_centre_and_size():
    assert centre((100.0, 200.0, 140.0, 254.0)) == (120.0, 227.0)
    assert size((100.0, 200.0, 140.0, 254.0)) == (40.0, 54.0)


def test_rescale_and_unscale():
    assert rescale((10.0, 20.0, 30.0, 40.0), 2.0) == (20.0, 40.0, 60.0, 80.0)
    assert rescale((10.0, 20.0, 30.0, 40.0), 0.5, 2.0) == (5.0, 40.0, 15.0, 80.0)
    assert unscale((5.0, 40.0, 15.0, 80.0), 0.5, 2.0) == (10.0, 20.0, 30.0, 40.0)


def _row_of(n: int, w: float = 30.0, h: float = 40.0, gap: float = 0.0):
    return [(i * (w + gap), 0.0, i * (w + gap) + w, h) for i in range(n)]


def test_straddlers_drops_a_tile_sized_box_across_two_surer_tiles():
    from mjscore.vision.boxes import straddlers

    row = _row_of(4)
    across = (45.0, 0.0, 75.0, 40.0)                 # half on tile 1, half on tile 2
    boxes = np.array(row + [across])
    assert straddlers(boxes, np.array([0.9, 0.9, 0.9, 0.9, 0.8]), cover=0.75).tolist() == [4]
    # surer than the tiles it lies across: kept (the tiles would be the doubtful ones)
    assert straddlers(boxes, np.array([0.7, 0.7, 0.7, 0.7, 0.8]), cover=0.75).tolist() == []
    # a row with gaps between its tiles: a box between two covers too little of itself
    spaced = np.array(_row_of(4, gap=20.0) + [(35.0, 0.0, 65.0, 40.0)])
    assert straddlers(spaced, np.array([0.9] * 4 + [0.8]), cover=0.75).tolist() == []


def test_straddlers_keeps_a_whole_tile_found_with_its_pieces():
    from mjscore.vision.boxes import straddlers

    whole = (0.0, 0.0, 60.0, 80.0)
    pieces = [(0.0, 0.0, 60.0, 42.0), (0.0, 38.0, 60.0, 80.0)]   # each about half of it
    boxes = np.array([whole] + pieces)
    assert straddlers(boxes, np.array([0.6, 0.9, 0.9]), cover=0.75).tolist() == []


def test_straddlers_keeps_the_tiles_of_a_steeply_tilted_row():
    from mjscore.vision.boxes import straddlers

    # bounds of tiles 45 degrees off the axis, touching along the row: each tile's two
    # neighbours cover most of its bounds, but they are two pitches apart
    row = [(i * 28.0, i * 28.0, i * 28.0 + 70.0, i * 28.0 + 70.0) for i in range(6)]
    scores = np.array([0.95, 0.7, 0.95, 0.7, 0.95, 0.7])
    assert straddlers(np.array(row), scores, cover=0.75).tolist() == []


def test_the_recognizer_drops_straddlers_only_with_the_setting(monkeypatch):
    from mjscore.vision import recognizer
    from mjscore.vision.types import TileRead

    row = [TileRead("R", b, 0.95) for b in _row_of(3)] + [TileRead("R", (15.0, 0.0, 45.0, 40.0), 0.9)]
    monkeypatch.setattr(recognizer.models, "settings", lambda: {})
    assert recognizer.without_straddlers(row) == row
    monkeypatch.setattr(recognizer.models, "settings", lambda: {"straddle_cover": 0.75})
    assert recognizer.without_straddlers(row) == row[:3]
