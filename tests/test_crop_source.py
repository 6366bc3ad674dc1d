"""The classifier's crop source (``vision.training.crop_source``): the stored crop geometry and
the cutting of a labelled YOLO split into crops, shared by the trainer and the bank packer."""

from pathlib import Path

import cv2
import numpy as np

from mjscore.vision.kinds import KIND_INDEX
from mjscore.vision.training.crop_source import CropGeometry, crops_from_yolo


def test_stored_side_is_a_bit_larger_than_the_input_and_names_its_cache():
    assert (CropGeometry(48).store, CropGeometry(48).cache_suffix) == (62, "")   # the original caches
    assert (CropGeometry(64).store, CropGeometry(64).cache_suffix) == (83, "_s83")
    # the stored crop shows the same surroundings at either side (more pixels, same view)
    assert abs(CropGeometry(64).store_context - CropGeometry(48).store_context) < 0.01
    assert CropGeometry(48).store_context > 1.15                  # wider than the input's own context


def _split(root: Path) -> Path:
    """One 200x100 photo with a red and a blue square, labelled 5m, unknown class, 3p."""
    (root / "valid" / "images").mkdir(parents=True)
    (root / "valid" / "labels").mkdir()
    (root / "data.yaml").write_text("names: [5m, zz, 3p]\n")
    img = np.full((100, 200, 3), 255, np.uint8)
    img[30:70, 30:70] = (0, 0, 255)          # BGR red at x 30..70
    img[30:70, 130:170] = (255, 0, 0)        # BGR blue at x 130..170
    cv2.imwrite(str(root / "valid" / "images" / "a.png"), img)
    (root / "valid" / "labels" / "a.txt").write_text(
        "0 0.25 0.5 0.2 0.4\n1 0.5 0.5 0.1 0.1\n2 0.75 0.5 0.2 0.4\n")
    return root


def test_crops_come_from_labelled_boxes_of_known_kinds_with_their_line(tmp_path):
    x, y, refs = crops_from_yolo(_split(tmp_path), "valid", CropGeometry(48))
    assert x.shape == (2, 62, 62, 3) and x.dtype == np.uint8
    assert y.tolist() == [KIND_INDEX["5m"], KIND_INDEX["3p"]]
    assert refs == ["valid/a.png:1", "valid/a.png:3"]            # line 2's class is no kind: skipped
    centre = x[:, 31, 31]
    assert centre[0].tolist() == [255, 0, 0] and centre[1].tolist() == [0, 0, 255]   # RGB, right box


def test_an_empty_choice_of_photos_gives_no_crops_of_the_stored_side(tmp_path):
    x, y, refs = crops_from_yolo(_split(tmp_path), "valid", CropGeometry(64), files=[])
    assert x.shape == (0, 83, 83, 3) and len(y) == 0 and refs == []
