"""The turned read of tilted rows (vision.turned, vision.recognizer.with_turned)."""

import math
from pathlib import Path

import numpy as np
import pytest

from mjscore.vision import recognizer, turned
from mjscore.vision.types import TileRead


def _row(degrees: float, n: int = 6, pitch: float = 40.0):
    """Boxes (30 x 40) of ``n`` tiles whose centres run ``degrees`` off the x axis (y down)."""
    a = math.radians(degrees)
    out = []
    for i in range(n):
        cx, cy = 300 + i * pitch * math.cos(a), 200 + i * pitch * math.sin(a)
        out.append((cx - 15, cy - 20, cx + 15, cy + 20))
    return out


@pytest.mark.parametrize("deg", [0.0, 8.0, 25.0, 40.0, -30.0])
def test_tilt_from_boxes_follows_the_row(deg):
    assert turned.tilt_from_boxes(_row(deg)) == pytest.approx(deg, abs=0.5)


def test_tilt_is_taken_modulo_a_quarter_turn():
    # a column of tiles is as level as a row; a row at 70 degrees is one at -20
    assert turned.tilt_from_boxes(_row(90.0)) == pytest.approx(0.0, abs=0.5)
    assert turned.tilt_from_boxes(_row(70.0)) == pytest.approx(-20.0, abs=0.5)
    assert turned.tilt_from_boxes(_row(0.0, n=2)) is None


def test_tilt_from_edges_reads_a_drawn_tilted_bar():
    import cv2
    img = np.full((400, 400, 3), 90, np.uint8)
    box = cv2.boxPoints(((200, 200), (300, 60), 30.0)).astype(np.int32)    # 30 degrees clockwise as shown
    cv2.fillPoly(img, [box], (240, 240, 230))
    assert turned.tilt_from_edges(img) == pytest.approx(30.0, abs=3)
    assert turned.row_tilt(img, []) == pytest.approx(30.0, abs=3)          # too few boxes: the edges decide


def test_turn_lays_the_row_level_and_boxes_come_back_round_the_tiles():
    deg = 35.0
    rgb = np.zeros((480, 640, 3), np.uint8)
    turn = turned.turn_for(rgb, deg)
    boxes = _row(deg)
    pts = np.array([((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in boxes])
    moved = pts @ turn.forward[:, :2].T + turn.forward[:, 2]
    assert np.ptp(moved[:, 1]) < 1.0                        # level on the turned canvas
    w, h = turn.size
    corners = np.array([[0, 0], [640, 0], [0, 480], [640, 480]]) @ turn.forward[:, :2].T + turn.forward[:, 2]
    assert corners.min() >= -1 and (corners[:, 0] <= w + 1).all() and (corners[:, 1] <= h + 1).all()
    # a box on the turned canvas comes back as the bounds of its corners, inside the photo
    x, y = moved[2]
    back = turned.box_back((x - 15, y - 20, x + 15, y + 20), turn, (640, 480))
    cx, cy = pts[2]
    assert back[0] < cx < back[2] and back[1] < cy < back[3]
    assert (back[2] - back[0]) > 30 and (back[3] - back[1]) > 40   # bounds of a tilted box are larger
    assert turned.turned_image(rgb, turn).shape == (h, w, 3)


def test_face_angles_turn_back_to_quarter_turns():
    turn = turned.turn_for(np.zeros((100, 100, 3), np.uint8), 40.0)
    tiles = [TileRead("1m", (40, 40, 60, 60), 0.9, angle=0), TileRead("2m", (10, 10, 30, 30), 0.9, angle=90)]
    back = turned.tiles_back(tiles, turn, (100, 100))
    # upright on a canvas turned 40 degrees counter-clockwise: 40 degrees clockwise in the photo
    assert {t.kind: t.angle for t in back} == {"1m": 0, "2m": 90}
    assert turned.tiles_back([TileRead("1m", (40, 40, 60, 60), 0.9, angle=0)],
                             turned.turn_for(np.zeros((100, 100, 3), np.uint8), -60.0), (100, 100))[0].angle == 90


def _stub_reads(monkeypatch, second, tilt):
    calls = []

    def read_view(rgb, timing, tile_set=None):
        calls.append(rgb.shape)
        return second
    monkeypatch.setattr(recognizer, "_read_view", read_view)
    monkeypatch.setattr(turned, "row_tilt", lambda rgb, boxes: tilt)
    return calls


def test_with_turned_is_off_without_the_setting(monkeypatch):
    first = [TileRead("1m", (0, 0, 10, 10), 0.5)]
    calls = _stub_reads(monkeypatch, [TileRead("2m", (0, 0, 10, 10), 0.9)] * 5, 40.0)
    monkeypatch.setattr(recognizer.models, "settings", lambda: {})
    assert recognizer.with_turned(np.zeros((50, 50, 3), np.uint8), first, {}) is first
    assert calls == []


def test_with_turned_keeps_the_surer_read(monkeypatch):
    rgb = np.zeros((60, 80, 3), np.uint8)
    first = [TileRead("1m", (5, 5, 15, 20), 0.6)]
    surer = [TileRead("2m", (30, 30, 40, 45), 0.9), TileRead("3m", (42, 30, 52, 45), 0.9)]
    monkeypatch.setattr(recognizer.models, "settings", lambda: {"turn_min_degrees": 12, "turn_margin": 1.1})
    # rows nearly level: not read again
    calls = _stub_reads(monkeypatch, surer, 5.0)
    assert recognizer.with_turned(rgb, first, {}) is first and calls == []
    # tilted, and the turned read finds more: kept, in photo pixels
    calls = _stub_reads(monkeypatch, surer, 30.0)
    timing = {}
    got = recognizer.with_turned(rgb, first, timing)
    assert sorted(t.kind for t in got) == ["2m", "3m"]
    assert len(calls) == 1 and calls[0][0] > 60 and "turned" in timing
    assert all(0 <= t.box[0] < t.box[2] <= 80 and 0 <= t.box[1] < t.box[3] <= 60 for t in got)
    # tilted, but the turned read is no surer: the first read stays
    calls = _stub_reads(monkeypatch, [TileRead("2m", (30, 30, 40, 45), 0.62)], 30.0)
    assert recognizer.with_turned(rgb, first, {}) is first and len(calls) == 1


def test_boxes_kept_takes_the_first_reads_box_round_one_tile_alone():
    first = [TileRead("1m", (0, 0, 30, 40), 0.8),          # an upright tile found alone
             TileRead("2m", (40, 0, 100, 40), 0.5)]        # one box round two tiles
    back = [TileRead("1m", (-4, -5, 34, 45), 0.9),          # its turned box, too big
            TileRead("2m", (42, 2, 68, 38), 0.9), TileRead("3m", (72, 2, 98, 38), 0.9),
            TileRead("4m", (200, 0, 230, 40), 0.9)]         # found only by the turned read
    got = turned.boxes_kept(back, first)
    assert [t.box for t in got] == [(0.0, 0.0, 30.0, 40.0), (42, 2, 68, 38), (72, 2, 98, 38), (200, 0, 230, 40)]
    assert [t.kind for t in got] == ["1m", "2m", "3m", "4m"] and all(t.confidence == 0.9 for t in got)


FACES = Path(__file__).resolve().parents[1] / "datasets" / "art" / "faces" / "commons-uni"


def _laid_out(degrees: float, kinds=("1m", "5p", "E", "7s", "R", "9m")):
    """A table photo of upright tiles (committed art) whose centres run ``degrees`` off the x
    axis, each tile upright, and their boxes."""
    import cv2
    img = np.full((480, 640, 3), (40, 110, 60), np.uint8)
    boxes = []
    a = math.radians(degrees)
    for i, kind in enumerate(kinds):
        face = cv2.cvtColor(cv2.imread(str(FACES / f"{kind}.png"), cv2.IMREAD_UNCHANGED)[..., :3], cv2.COLOR_BGR2RGB)
        face = cv2.resize(face, (round(face.shape[1] * 60 / face.shape[0]), 60), interpolation=cv2.INTER_AREA)
        face = cv2.copyMakeBorder(face, 2, 2, 2, 2, cv2.BORDER_CONSTANT, value=(60, 60, 60))
        h, w = face.shape[:2]
        x, y = int(120 + i * 70 * math.cos(a) - w / 2), int(150 + i * 70 * math.sin(a) - h / 2)
        img[y:y + h, x:x + w] = face
        boxes.append((x, y, x + w, y + h))
    return img, boxes


def _photo_turned(img, boxes, degrees: float):
    """The photo turned ``degrees`` clockwise as shown, and the bounds of its tiles' boxes."""
    turn = turned.turn_for(img, -degrees)
    onto = turned.Turn(turn.degrees, turn.back, turn.forward, (img.shape[1], img.shape[0]))
    out = turned.turned_image(img, turn)
    return out, [turned.box_back(b, onto, (out.shape[1], out.shape[0])) for b in boxes]


def test_upright_tiles_along_a_slanted_line_are_not_tiles_turned():
    img, boxes = _laid_out(13.0)
    assert turned.tilt_from_boxes(boxes) == pytest.approx(13.0, abs=1.0)     # the row is slanted
    assert turned.tiles_tilt(img, boxes) == pytest.approx(0.0, abs=2.0)       # its tiles are not
    assert not turned.tiles_turned_with_rows(img, boxes, 13.0, 12)


@pytest.mark.parametrize("deg", [30.0, -20.0, 40.0])
def test_tiles_of_a_turned_photo_lie_as_their_rows(deg):
    img, boxes = _photo_turned(*_laid_out(0.0), deg)
    rows = turned.tilt_from_boxes(boxes)
    assert rows == pytest.approx(deg, abs=1.0)
    assert turned.tiles_tilt(img, boxes) == pytest.approx(deg, abs=3.0)
    assert turned.tiles_turned_with_rows(img, boxes, rows, 12)


def test_quarter_gap_takes_directions_modulo_a_quarter_turn():
    assert turned.quarter_gap(44.0, -44.0) == pytest.approx(2.0)
    assert turned.quarter_gap(-28.0, 16.0) == pytest.approx(44.0)
    assert turned.quarter_gap(10.0, 10.0) == 0.0


def test_with_turned_leaves_upright_tiles_on_a_slanted_line_alone(monkeypatch):
    img, boxes = _laid_out(13.0)
    first = [TileRead("1m", b, 0.6) for b in boxes]
    calls = []
    monkeypatch.setattr(recognizer, "_read_view", lambda rgb, timing, tile_set=None: calls.append(1) or
                        [TileRead("2m", b, 0.95) for b in boxes])
    monkeypatch.setattr(recognizer.models, "settings", lambda: {"turn_min_degrees": 12, "turn_margin": 1.1,
                                                                "turn_tiles_tilted": True})
    assert recognizer.with_turned(img, first, {}) is first and calls == []
    # a level row in a photo turned 30 degrees: its tiles lie as its rows, so it is read turned
    img, boxes = _photo_turned(*_laid_out(0.0), 30.0)
    first = [TileRead("1m", b, 0.6) for b in boxes]
    assert recognizer.with_turned(img, first, {}) is not first and calls == [1]


def test_with_turned_needs_a_row_when_tiles_must_lie_turned(monkeypatch):
    # a tile or two on a patterned table: the photo's edges are the table's, not the tiles'
    rgb = np.zeros((60, 80, 3), np.uint8)
    first = [TileRead("1m", (5, 5, 15, 20), 0.6), TileRead("2m", (20, 5, 30, 20), 0.6)]
    calls = _stub_reads(monkeypatch, [TileRead("2m", (30, 30, 40, 45), 0.9)] * 4, 30.0)
    monkeypatch.setattr(recognizer.models, "settings", lambda: {"turn_min_degrees": 12, "turn_tiles_tilted": True})
    assert recognizer.with_turned(rgb, first, {}) is first and recognizer.with_turned(rgb, [], {}) == []
    assert calls == []
    # without the setting the photo's edges decide, as before
    monkeypatch.setattr(recognizer.models, "settings", lambda: {"turn_min_degrees": 12})
    assert recognizer.with_turned(rgb, first, {}) is not first and len(calls) == 1


def test_small_tiles_of_a_photo_with_finer_pixels_are_left_to_the_closer_look(monkeypatch):
    rgb = np.zeros((300, 400, 3), np.uint8)
    small = [TileRead("1m", (10 + 12 * i, 10, 20 + 12 * i, 24), 0.3) for i in range(5)]     # 14 px tiles
    turned_calls = []
    monkeypatch.setattr(recognizer, "_read_view", lambda rgb, timing, tile_set=None: list(small))
    monkeypatch.setattr(recognizer, "with_turned", lambda rgb, tiles, timing, tile_set=None:
                        turned_calls.append(len(tiles)) or tiles)
    monkeypatch.setattr(recognizer, "with_framed", lambda rgb, tiles, timing, tile_set=None: tiles)
    monkeypatch.setattr(recognizer, "with_closer", lambda rgb, tiles, timing, tile_set=None, finer=None: tiles)
    monkeypatch.setattr(recognizer.models, "settings", lambda: {"closer_tile_px": 40, "turn_min_degrees": 12})
    recognizer._read_tiles(rgb, {}, None, finer=lambda window, factor: None)
    assert turned_calls == []                          # the closer look reads them again, finer
    recognizer._read_tiles(rgb, {}, None, finer=None)
    assert turned_calls == [5]                         # no finer pixels: the turned read may
    recognizer._read_tiles(rgb, {}, None, finer=None, turn=False)
    assert turned_calls == [5]                         # a window of the closer look: never


def test_a_window_of_the_closer_look_is_not_read_turned(monkeypatch):
    seen = []
    monkeypatch.setattr(recognizer, "_read_tiles", lambda image, timing, tile_set=None, finer=None, turn=True:
                        seen.append(turn) or [TileRead("1m", (0, 0, 20, 30), 0.9)])
    got = recognizer._read_window(np.zeros((200, 200, 3), np.uint8), (0, 0, 100, 100))
    assert seen == [False] and got[0].box == (0.0, 0.0, 10.0, 15.0)


def test_a_turned_read_that_cuts_tiles_in_two_is_not_kept(monkeypatch):
    """A sum of confidences rewards a read that finds each tile twice, less surely: with
    ``turn_surer_each`` the turned read must also be as sure per tile (a synthetic close-up of
    bamboo tiles came back as eight halves, 0.51 each, against four tiles at 0.96)."""
    rgb = np.zeros((60, 80, 3), np.uint8)
    first = [TileRead("4s", (5 + 12 * i, 5, 15 + 12 * i, 20), 0.95) for i in range(4)]
    halves = [TileRead("2s", (5 + 6 * i, 5, 10 + 6 * i, 20), 0.55) for i in range(8)]      # 4.4 > 1.1 * 3.8
    settings = {"turn_min_degrees": 12, "turn_margin": 1.1}
    monkeypatch.setattr(recognizer.models, "settings", lambda: settings)
    _stub_reads(monkeypatch, halves, 30.0)
    assert recognizer.with_turned(rgb, first, {}) is not first          # the sum alone takes it
    settings["turn_surer_each"] = True
    assert recognizer.with_turned(rgb, first, {}) is first
    surer = [TileRead("4s", (5 + 12 * i, 5, 15 + 12 * i, 20), 0.97) for i in range(5)]  # one more tile, as sure
    _stub_reads(monkeypatch, surer, 30.0)
    assert recognizer.with_turned(rgb, first, {}) is not first


def test_a_first_read_that_is_sure_already_is_not_read_turned(monkeypatch):
    """``turn_below_mean``: where the first read's tiles average that sure, no turned read runs
    (a turned read kept there would have to find more tiles, each as sure)."""
    rgb = np.zeros((60, 80, 3), np.uint8)
    sure = [TileRead("4s", (5 + 12 * i, 5, 15 + 12 * i, 20), 0.95) for i in range(4)]
    unsure = [TileRead("4s", (5 + 12 * i, 5, 15 + 12 * i, 20), 0.6) for i in range(4)]
    more = [TileRead("4s", (5 + 10 * i, 5, 13 + 10 * i, 20), 0.97) for i in range(6)]
    monkeypatch.setattr(recognizer.models, "settings", lambda: {
        "turn_min_degrees": 12, "turn_margin": 1.1, "turn_surer_each": True, "turn_below_mean": 0.93})
    calls = _stub_reads(monkeypatch, more, 30.0)
    assert recognizer.with_turned(rgb, sure, {}) is sure and calls == []
    got = recognizer.with_turned(rgb, unsure, {})
    assert len(calls) == 1 and got is not unsure and len(got) == 6
