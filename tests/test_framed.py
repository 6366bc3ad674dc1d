"""A close-up read again inside a border of its own colour (vision.framed, recognizer.with_framed)."""

import numpy as np

from mjscore.vision import recognizer
from mjscore.vision.framed import back_in_photo, framed
from mjscore.vision.types import TileRead


def _photo():
    rgb = np.full((300, 200, 3), (30, 120, 60), np.uint8)
    rgb[100:250, 20:180] = (240, 235, 220)               # a tile filling the frame's width
    return rgb


def test_the_border_is_the_photos_own_colour_and_the_photo_sits_inside_unchanged():
    rgb = _photo()
    image, pad, scale = framed(rgb, 0.25)
    assert pad == 75 and scale == 1.0 and image.shape == (450, 350, 3)
    assert (image[pad:pad + 300, pad:pad + 200] == rgb).all()
    assert tuple(image[0, 0]) == (30, 120, 60) and tuple(image[-1, -1]) == (30, 120, 60)


def test_boxes_come_back_in_photo_pixels_cut_to_the_photo():
    assert back_in_photo((95, 175, 255, 325), 75, (200, 300)) == (20.0, 100.0, 180.0, 250.0)
    # a tile the frame cut, found whole, reaching 20 px into the border: cut at the edge
    assert back_in_photo((55, 175, 255, 325), 75, (200, 300)) == (0.0, 100.0, 180.0, 250.0)
    # a box mostly on the border is the border's
    assert back_in_photo((0, 0, 90, 90), 75, (200, 300)) is None
    assert back_in_photo((0, 0, 70, 70), 75, (200, 300)) is None


def _settings(monkeypatch, **cfg):
    monkeypatch.setattr(recognizer.models, "settings", lambda: cfg)


def _reads_in_frame(reads, seen):
    def read_view(image, timing, tile_set=None):
        seen.append(image.shape)
        return reads
    return read_view


def test_the_framed_read_stands_when_it_is_surer_in_sum(monkeypatch):
    _settings(monkeypatch, pad_share=0.25)
    first = [TileRead("1p", (20, 100, 60, 140), 0.3)]          # a piece of the tile
    whole = [TileRead("6p", (95, 175, 255, 325), 0.9)]         # the whole tile, in the framed photo
    seen = []
    monkeypatch.setattr(recognizer, "_read_view", _reads_in_frame(whole, seen))
    out = recognizer.with_framed(_photo(), first, {})
    assert seen == [(450, 350, 3)]
    assert [(t.kind, t.box) for t in out] == [("6p", (20.0, 100.0, 180.0, 250.0))]


def test_the_first_read_stands_when_the_framed_one_is_not_surer(monkeypatch):
    _settings(monkeypatch, pad_share=0.25)
    first = [TileRead("6p", (20, 100, 180, 250), 0.9)]
    monkeypatch.setattr(recognizer, "_read_view", _reads_in_frame([TileRead("6p", (95, 175, 255, 325), 0.8)], []))
    assert recognizer.with_framed(_photo(), first, {}) == first


def test_a_hand_photo_or_no_setting_is_never_read_again(monkeypatch):
    seen = []
    monkeypatch.setattr(recognizer, "_read_view", _reads_in_frame([], seen))
    hand = [TileRead("1m", (10 * i, 0, 10 * i + 9, 12), 0.9) for i in range(14)]
    _settings(monkeypatch, pad_share=0.25)
    assert recognizer.with_framed(_photo(), hand, {}) == hand
    _settings(monkeypatch)
    assert recognizer.with_framed(_photo(), [], {}) == []
    assert seen == []


def test_a_big_photo_is_shrunk_first_and_its_boxes_come_back_at_full_size():
    rgb = np.zeros((3000, 4000, 3), np.uint8)
    image, pad, scale = framed(rgb, 0.25, max_px=1200)
    assert max(image.shape[:2]) == 1200 and scale == 0.2 and pad == 200
    # a tile at (1000, 500)-(1500, 1200) of the photo is at (400, 300)-(500, 440) in the framed image
    assert back_in_photo((400, 300, 500, 440), pad, (4000, 3000), scale) == (1000.0, 500.0, 1500.0, 1200.0)


def test_unsure_junk_in_the_framed_photo_does_not_beat_an_empty_read(monkeypatch):
    _settings(monkeypatch, pad_share=0.25)
    junk = [TileRead("5s", (95 + 20 * i, 175, 110 + 20 * i, 195), 0.3) for i in range(5)]
    monkeypatch.setattr(recognizer, "_read_view", _reads_in_frame(junk, []))
    assert recognizer.with_framed(_photo(), [], {}) == []


def test_reads_are_compared_by_the_tiles_they_would_report(monkeypatch):
    """Under ``report_floor`` a tile is not reported, so it does not make a read surer: five
    boxes at 0.15 beside a tile at 0.55 lose to the first read's tile at 0.6; with no floor
    the same framed read wins by its sum."""
    first = [TileRead("6p", (20, 100, 180, 250), 0.6)]
    framed_read = [TileRead("6p", (95, 175, 255, 325), 0.55)] + [
        TileRead("1p", (95 + 30 * i, 330, 120 + 30 * i, 360), 0.15) for i in range(5)]
    monkeypatch.setattr(recognizer, "_read_view", _reads_in_frame(framed_read, []))
    _settings(monkeypatch, pad_share=0.25, report_floor=0.2)
    assert recognizer.with_framed(_photo(), first, {}) == first
    _settings(monkeypatch, pad_share=0.25)
    assert [t.confidence for t in recognizer.with_framed(_photo(), first, {})] == [0.55] + [0.15] * 5
