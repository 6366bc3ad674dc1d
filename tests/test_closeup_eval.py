"""The lone-tile and close-up evaluation set builder (datasets/closeup_eval.py): labels of
crops and pasted scenes stay right, stretched sources are restored, and the report rows."""

from pathlib import Path

import cv2
import numpy as np

from mjscore.datasets import closeup_eval as ce
from mjscore.vision.yolo import image_label_pairs, read_boxes, read_names

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "chinese-v4"


def test_crop_labels_keep_clip_or_ignore_by_share_inside():
    tiles = [ce.Tile("5p", (0, 0, 10, 10)), ce.Tile("E", (20, 0, 30, 10)), ce.Tile("G", (50, 0, 60, 10))]
    out = ce._crop_labels(tiles, 2, 0, 25, 10)
    # 80 % of the first inside -> kept, clipped; half of the second -> ignored (?); third outside -> gone
    assert out == [ce.Tile("5p", (0, 0, 8, 10)), ce.Tile(None, (18, 0, 23, 10))]


def test_restore_aspect_scales_a_squashed_photo_back_to_tile_shape():
    image = np.zeros((100, 200, 3), np.uint8)
    squashed = [ce.Tile("1m", (10 * i, 0, 10 * i + 20, 10)) for i in range(3)]     # h/w 0.5
    out, tiles = ce.restore_aspect(image, squashed)
    assert out.shape[:2] == (280, 200)                       # y stretched 1.4 / 0.5 = 2.8x
    h, w = tiles[0].box[3] - tiles[0].box[1], tiles[0].box[2] - tiles[0].box[0]
    assert abs(h / w - ce.TILE_ASPECT) < 1e-6
    normal = [ce.Tile("1m", (0, 0, 10, 14))]
    assert ce.restore_aspect(image, normal)[0] is image      # tile-shaped photos stay as they are


def test_paste_puts_the_patch_at_the_asked_width_with_its_box():
    rng = np.random.default_rng(0)
    patch = np.full((40, 30, 3), 250, np.uint8)
    scene, tiles = ce.paste(patch, [ce.Tile("2s", (0, 0, 30, 40))], 0.2, "plain", rng)
    assert scene.shape[:2] == ce.CANVAS
    x0, y0, x1, y1 = tiles[0].box
    assert abs((x1 - x0) - 0.2 * ce.CANVAS[1]) < 1.5
    inner = scene[int(y0) + 2:int(y1) - 2, int(x0) + 2:int(x1) - 2]
    assert inner.min() >= 240                                # the pasted tile is where its box says


def test_build_source_writes_yolo_folders_the_evaluator_reads(tmp_path):
    counts = ce.build_source("v4", SAMPLES, tmp_path, seed=3)
    assert counts["crops"] > 0 and counts["pasted"] > 0
    for part in ("v4-crops", "v4-pasted"):
        folder = tmp_path / part
        assert read_names(folder) == ce.NAMES
        items = image_label_pairs(folder)
        assert len(items) == counts[part.split("-")[1]]
        for item in items:
            img = cv2.imread(str(item.image))
            boxes = read_boxes(item.labels, img.shape[1], img.shape[0])
            assert boxes, item.image
            for cls, (x0, y0, x1, y1) in boxes:
                assert 0 <= cls < len(ce.NAMES)
                assert -1 <= x0 < x1 <= img.shape[1] + 1 and -1 <= y0 < y1 <= img.shape[0] + 1
    again = tmp_path / "again"
    ce.build_source("v4", SAMPLES, again, seed=3)            # deterministic: same labels again
    for a, b in zip(sorted((tmp_path / "v4-pasted" / "labels").iterdir()),
                    sorted((again / "v4-pasted" / "labels").iterdir())):
        assert a.read_text() == b.read_text()


def test_report_rows_of_image_names():
    assert ce.groups_of("0003_photo_k7") == ["k7"]
    assert ce.groups_of("0001_photo_single_0.05_felt") == ["single 0.05", "on plain"]
    assert ce.groups_of("0001_photo_pair_0.50_stone") == ["pair 0.50", "on patterned"]
