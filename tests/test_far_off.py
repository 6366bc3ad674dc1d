"""Hands laid far off (``datasets.far_off``): each photo pasted, shrunk, into a 4000 x 3000 table
photo, its labels moved with it, the same files for the same seed."""

from pathlib import Path

import cv2
import numpy as np

from mjscore.datasets.far_off import FRAME, SCALES, far_off

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "chinese-v4"


def _rows(path: Path) -> list[list[float]]:
    return [[float(v) for v in line.split()] for line in path.read_text().splitlines() if line.strip()]


def test_photos_are_pasted_small_and_their_labels_follow(tmp_path):
    assert far_off(SAMPLES, tmp_path / "a", seed=30) == 5
    width, height = FRAME
    for photo in sorted((SAMPLES / "images").glob("*.jpg")):
        src = cv2.imread(str(photo))
        out = cv2.imread(str(tmp_path / "a" / "images" / photo.name))
        assert out.shape[:2] == (height, width)
        before, after = _rows(SAMPLES / "labels" / (photo.stem + ".txt")), _rows(tmp_path / "a" / "labels" / (photo.stem + ".txt"))
        assert [r[0] for r in after] == [r[0] for r in before]
        # every box shrinks by one of the scales, the same for all boxes of the photo
        s = after[0][3] * width / (before[0][3] * src.shape[1])
        assert min(abs(s - k) for k in SCALES) < 0.01, s
        for b, a in zip(before, after):
            assert abs(a[3] * width - b[3] * src.shape[1] * s) < 0.5 and abs(a[4] * height - b[4] * src.shape[0] * s) < 0.5
        # the pixels under the first box are the source tile's, shrunk
        cx, cy, bw, bh = after[0][1] * width, after[0][2] * height, after[0][3] * width, after[0][4] * height
        patch = out[int(cy - bh / 4):int(cy + bh / 4), int(cx - bw / 4):int(cx + bw / 4)]
        scx, scy, sbw, sbh = before[0][1] * src.shape[1], before[0][2] * src.shape[0], before[0][3] * src.shape[1], before[0][4] * src.shape[0]
        source = src[int(scy - sbh / 4):int(scy + sbh / 4), int(scx - sbw / 4):int(scx + sbw / 4)]
        assert abs(float(patch.mean()) - float(source.mean())) < 12


def test_same_seed_same_files(tmp_path):
    far_off(SAMPLES, tmp_path / "a", seed=30)
    far_off(SAMPLES, tmp_path / "b", seed=30)
    for f in sorted((tmp_path / "a" / "labels").glob("*.txt")):
        assert f.read_text() == (tmp_path / "b" / "labels" / f.name).read_text()
    a = cv2.imread(str(next((tmp_path / "a" / "images").glob("*.jpg"))))
    b = cv2.imread(str(tmp_path / "b" / "images" / next((tmp_path / "a" / "images").glob("*.jpg")).name))
    assert np.array_equal(a, b)
