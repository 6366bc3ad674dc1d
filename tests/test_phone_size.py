"""Close-ups at a phone camera's size (``datasets.phone_size``): each photo scaled to 4000 px on
its long side as a JPEG, its labels unchanged (YOLO boxes are fractions of the frame)."""

from pathlib import Path

import cv2

from mjscore.datasets.phone_size import LONG_SIDE, phone_sized

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "chinese-v4"


def test_photos_are_scaled_to_phone_size_and_keep_their_labels(tmp_path):
    assert phone_sized(SAMPLES, tmp_path / "big") == 5
    for photo in sorted((SAMPLES / "images").glob("*.jpg")):
        src, big = cv2.imread(str(photo)), cv2.imread(str(tmp_path / "big" / "images" / photo.name))
        assert max(big.shape[:2]) == LONG_SIDE
        assert abs(big.shape[0] / big.shape[1] - src.shape[0] / src.shape[1]) < 0.01
        small = cv2.resize(big, (src.shape[1], src.shape[0]), interpolation=cv2.INTER_AREA)
        assert abs(small.astype(float) - src.astype(float)).mean() < 6      # the same picture
        label = photo.stem + ".txt"
        assert (tmp_path / "big" / "labels" / label).read_text() == (SAMPLES / "labels" / label).read_text()
