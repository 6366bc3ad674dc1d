"""The detector bank that carries the detector's training photos to a lent GPU machine
(``vision.training.det_bank``) and the training views made from them in worker processes
(``train_detector.Views``). No torch, no data outside the test's own folder."""

from pathlib import Path

import cv2
import numpy as np

from mjscore.vision.training import det_bank
from mjscore.vision.training.det_bank import SIDE, letterbox
from mjscore.vision.training.train_detector import Views


def _yolo_folder(root: Path, sizes: list[tuple[int, int]]) -> list[np.ndarray]:
    """A YOLO folder of smooth photos (w x h), each with two light 'tiles' on a dark table;
    the boxes in photo pixels."""
    (root / "images").mkdir(parents=True)
    (root / "labels").mkdir()
    boxes = []
    for i, (w, h) in enumerate(sizes):
        img = np.full((h, w, 3), 40, np.uint8)
        b = np.array([[0.1 * w, 0.2 * h, 0.3 * w, 0.6 * h], [0.5 * w, 0.3 * h, 0.7 * w, 0.8 * h]], np.float32)
        for x1, y1, x2, y2 in b.astype(int):
            img[y1:y2, x1:x2] = (230, 220, 200)
        cv2.imwrite(str(root / "images" / f"{i:03d}.jpg"), img)
        lines = [f"0 {(x1 + x2) / 2 / w} {(y1 + y2) / 2 / h} {(x2 - x1) / w} {(y2 - y1) / h}" for x1, y1, x2, y2 in b]
        (root / "labels" / f"{i:03d}.txt").write_text("\n".join(lines) + "\n")
        boxes.append(b)
    return boxes


def test_bank_round_trip_keeps_letterboxed_photos_and_their_boxes(tmp_path):
    real = _yolo_folder(tmp_path / "real", [(640, 480), (300, 600), (800, 800)])
    _yolo_folder(tmp_path / "train_v26", [(640, 640), (640, 360)])
    det_bank.pack(tmp_path / "bank", {"real": (tmp_path / "real", 1, None),
                                      "train_v26": (tmp_path / "train_v26", 2, None)})
    parts = det_bank.load(tmp_path / "bank")
    assert sorted(parts) == ["real", "train_v26"]
    x, boxes = parts["real"]
    assert x.shape == (3, SIDE, SIDE, 3) and len(boxes) == 3
    for (w, h), b, got in zip([(640, 480), (300, 600), (800, 800)], real, boxes):
        assert np.allclose(got, b * SIDE / max(w, h), atol=1e-3)      # letterboxed pixels
    # the photo comes back where its boxes say: light inside the first box, grey letterbox beside it
    x1, y1, x2, y2 = boxes[1][0].astype(int)
    assert x[1, y1 + 5:y2 - 5, x1 + 5:x2 - 5].mean() > 180
    assert abs(int(x[1, SIDE // 2, SIDE - 10].mean()) - 114) < 6     # 300 x 600: padded on the right
    assert len(parts["train_v26"][1]) == 1                              # every 2nd photo


def test_views_are_a_pure_function_of_epoch_and_index_and_keep_tiles_inside():
    img, s = letterbox(np.full((400, 600, 3), 60, np.uint8))
    box = np.array([[100, 100, 160, 180]], np.float32) * s
    sets = [(img[None], [box])]
    v = Views(sets, np.array([1.0]), [(0, 0)], 320, 0.5, 5.0, epoch=3, n=10)
    a, b = v[4], v[4]
    assert all(np.array_equal(p, q) for p, q in zip(a, b))
    assert not np.array_equal(v[5][0], a[0])
    view, hm, wh, off, mask, weight, set_index = a
    assert set_index == 0                                                 # which set it came from (--distill-skip)
    assert view.shape == (320, 320, 3) and hm.shape == (1, 80, 80) and wh.shape == (2, 80, 80)
    assert mask.sum() <= 1 and hm.max() <= 1 and (weight >= mask).all()
    assert len(v) == 10
