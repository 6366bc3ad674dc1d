"""The squashed copy of a YOLO folder (``datasets.squashed``): photos squeezed along one axis
as some exporters deliver them, labels unchanged, the same files for the same seed."""

from pathlib import Path

import cv2

from mjscore.datasets.squashed import FACTORS, squash

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "chinese-v4"


def test_each_photo_is_squeezed_along_one_axis_and_its_labels_kept(tmp_path):
    assert squash(SAMPLES, tmp_path / "a", seed=30) == 5
    assert (tmp_path / "a" / "data.yaml").read_text() == (SAMPLES / "data.yaml").read_text()
    for photo in sorted((SAMPLES / "images").glob("*.jpg")):
        h, w = cv2.imread(str(photo)).shape[:2]
        sh, sw = cv2.imread(str(tmp_path / "a" / "images" / photo.name)).shape[:2]
        assert (sw == w and any(sh == h // k for k in FACTORS)) or (sh == h and any(sw == w // k for k in FACTORS))
        label = photo.stem + ".txt"
        assert (tmp_path / "a" / "labels" / label).read_text() == (SAMPLES / "labels" / label).read_text()


def test_same_seed_same_files_other_seed_other_squeezes(tmp_path):
    def shapes(out):
        return [cv2.imread(str(p)).shape for p in sorted((out / "images").glob("*.jpg"))]

    squash(SAMPLES, tmp_path / "a", seed=30)
    squash(SAMPLES, tmp_path / "b", seed=30)
    squash(SAMPLES, tmp_path / "c", seed=31)
    assert shapes(tmp_path / "a") == shapes(tmp_path / "b")
    assert shapes(tmp_path / "a") != shapes(tmp_path / "c")


def test_an_unreadable_photo_is_named(tmp_path):
    import shutil

    import pytest

    src = tmp_path / "src"
    shutil.copytree(SAMPLES, src)
    (src / "images" / "photo_0.jpg").write_bytes(b"not a jpeg")
    with pytest.raises(ValueError, match="photo_0.jpg: not a readable image"):
        squash(src, tmp_path / "out")
