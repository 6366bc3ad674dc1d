"""The recognizer's pure parts: crops, box NMS, angle choice, image loading guards."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from mjscore.vision.classifier import KindRead, angle_for, ranked
from mjscore.vision.crops import CROP_SIZE, square_crop, to_tensor
from mjscore.vision.detector import nms
from mjscore.vision.imageio import load_image
from mjscore.vision.kinds import KINDS


def test_square_crop_centres_the_box_and_keeps_its_aspect():
    img = np.zeros((200, 300, 3), np.uint8)
    img[50:150, 100:160] = (255, 0, 0)            # a 60x100 "tile"
    crop = square_crop(img, (100, 50, 160, 150))
    assert crop.shape == (CROP_SIZE, CROP_SIZE, 3)
    c = CROP_SIZE // 2
    assert tuple(crop[c, c]) == (255, 0, 0)
    red = crop[..., 0] > 128
    rows, cols = np.nonzero(red.any(1))[0], np.nonzero(red.any(0))[0]
    assert (rows.max() - rows.min()) > 1.4 * (cols.max() - cols.min())   # still taller than wide


def test_square_crop_outside_the_image_is_grey():
    crop = square_crop(np.zeros((50, 50, 3), np.uint8), (40, 40, 60, 60))
    assert tuple(crop[-1, -1]) == (128, 128, 128) and tuple(crop[0, 0]) == (0, 0, 0)


def test_big_tiles_are_area_averaged_not_aliased():
    stripes = np.zeros((1000, 1000, 3), np.uint8)
    stripes[:, ::2] = 255                          # 1 px stripes average to mid grey
    crop = square_crop(stripes, (0, 0, 1000, 1000))
    assert abs(float(crop[10:-10, 10:-10].mean()) - 127.5) < 20


def test_to_tensor_layout_and_range():
    x = to_tensor(np.full((2, 48, 48, 3), 255, np.uint8))
    assert x.shape == (2, 3, 48, 48) and x.dtype == np.float32 and np.allclose(x, 1.0)


def test_nms_keeps_best_of_overlapping_boxes():
    boxes = np.array([[0, 0, 10, 10], [1, 0, 11, 10], [20, 0, 30, 10]], float)
    keep = nms(boxes, np.array([0.5, 0.9, 0.7]), 0.6)
    assert keep.tolist() == [1, 2]


def _read(orient):
    p = np.zeros(len(KINDS)); p[KINDS.index("5p")] = 0.7; p[KINDS.index("6p")] = 0.2; p[0] = 0.1
    return KindRead(p, np.array(orient, float))


def test_angle_uses_box_shape_then_orientation_head():
    upright_box, sideways_box = (0, 0, 30, 40), (0, 0, 40, 30)
    assert angle_for(_read([0.1, 0.6, 0.3, 0.0]), upright_box) == 180   # head says 90: impossible
    assert angle_for(_read([0.6, 0.1, 0.0, 0.3]), sideways_box) == 270
    assert angle_for(_read([0.1, 0.2, 0.6, 0.1]), (0, 0, 30, 31)) == 180  # square box: head decides


def test_ranked_gives_best_kind_then_alternatives():
    (kind, p), alts = ranked(_read([1, 0, 0, 0]))
    assert (kind, p) == ("5p", 0.7)
    assert [k for k, _ in alts] == ["6p", KINDS[0]]


def test_load_image_decodes_big_jpeg_downscaled(tmp_path):
    path = tmp_path / "big.jpg"
    Image.new("RGB", (4000, 3000), (200, 30, 30)).save(path, quality=80)
    img = load_image(path)
    assert (img.width, img.height) == (4000, 3000)
    assert 1000 <= img.rgb.shape[1] < 2000 and img.rgb.shape[1] / 4000 == pytest.approx(img.scale)


def test_load_image_small_png_is_untouched(tmp_path):
    path = tmp_path / "shot.png"
    Image.new("RGB", (320, 200), (1, 2, 3)).save(path)
    img = load_image(path)
    assert img.scale == 1.0 and img.rgb.shape == (200, 320, 3) and tuple(img.rgb[0, 0]) == (1, 2, 3)


def test_median_aspect_is_orientation_free_and_flags_stretched_boxes():
    from mjscore.vision.training.eval_by_aspect import median_aspect

    tiles = np.array([[0, 0, 30, 40], [0, 0, 40, 30], [0, 0, 30, 40]], float)   # 3:4 upright and sideways
    assert abs(median_aspect(tiles) - 4 / 3) < 1e-9
    squashed = tiles * [1, 1 / 6, 1, 1 / 6]                                      # photo squashed 6x in height
    assert median_aspect(squashed) > 2.2
    assert median_aspect(np.zeros((0, 4))) == 1.0


def test_flip_test_detection_sees_a_mirrored_photo_the_same_way():
    """With the flip test (``det_flip``) the heat map is the mean of the photo's and its mirror's,
    so the mirrored photo yields the same peaks with the same scores, mirrored (box centres can
    differ by the sub-cell offset, which comes from the unflipped pass only)."""
    from pathlib import Path

    from PIL import Image

    from mjscore.vision import models
    from mjscore.vision.detector import detect

    assert models.settings().get("det_flip") is True
    photo = Path(__file__).resolve().parents[1] / "samples" / "chinese-v4" / "images" / "photo_2.jpg"
    rgb = np.asarray(Image.open(photo).convert("RGB"))
    w = rgb.shape[1]
    plain = detect(rgb)
    mirrored = detect(np.ascontiguousarray(rgb[:, ::-1]))
    assert len(plain) == len(mirrored) >= 10
    cell = 4 * w / 320                                  # one stride-4 cell at the 320 px input
    # each peak's partner: the mirrored detection whose centre, mirrored back, lies nearest
    back = np.array([(w - (b.box[0] + b.box[2]) / 2, (b.box[1] + b.box[3]) / 2) for b in mirrored])
    partners = set()
    for a in plain:
        centre = np.array([(a.box[0] + a.box[2]) / 2, (a.box[1] + a.box[3]) / 2])
        j = int(np.argmin(np.abs(back - centre).max(axis=1)))
        partners.add(j)
        assert np.abs(back[j] - centre).max() <= cell
        assert abs(a.score - mirrored[j].score) < 1e-4
    assert len(partners) == len(plain)                  # one partner each


def test_name_factor_options_parse_lists_and_repeats_and_reject_junk():
    import pytest

    from mjscore.vision.training.common import name_factors

    assert name_factors(["train_v10=4", "train_v9=2"]) == {"train_v10": 4.0, "train_v9": 2.0}
    assert name_factors("real=0.4, art=0.1,synth=0.5") == {"real": 0.4, "art": 0.1, "synth": 0.5}
    assert name_factors("") == {}
    for bad in ("X4", "X=four"):
        with pytest.raises(ValueError):
            name_factors(bad)


def test_detector_close_up_views_frame_one_tile_big_and_keep_it_whole():
    """--zoom-in views (issue 17): the tiles of a whole-hand photo become big in the view, the
    framed tile stays whole in view, and zoom_in=0 draws exactly the old views."""
    from mjscore.vision.training.train_detector import random_view

    img = np.full((512, 512, 3), 100, np.uint8)
    boxes = np.array([[100 + i * 34, 200, 134 + i * 34, 245] for i in range(10)], np.float32)
    old, zoomed = [], []
    for seed in range(60):
        v0, b0, _ = random_view(img, boxes, np.random.default_rng(seed), 320)
        v1, b1, _ = random_view(img, boxes, np.random.default_rng(seed), 320, zoom_in=0.0)
        assert np.array_equal(v0, v1) and np.array_equal(b0, b1)
        v, b, _ = random_view(img, boxes, np.random.default_rng(seed), 320, zoom_in=1.0, max_zoom=5.0)
        assert len(b) >= 1 and (b >= 0).all() and (b <= 320).all()
        old.append(np.median(b0[:, 3] - b0[:, 1]) if len(b0) else 0)
        zoomed.append(np.max(b[:, 3] - b[:, 1]))
    assert np.median(zoomed) > 2.5 * np.median(old)
    assert max(zoomed) <= 0.8 * 320 + 1     # never bigger than the view can hold whole
