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


def test_a_scene_folder_is_laid_far_off_with_its_true_boxes(tmp_path):
    """A hand scene (``hands.json``, as datasets/scene_eval.py renders them): the render pasted at
    one of ``SCENE_SCALES``, each true box moved onto the same pixels; the rest of the scene kept."""
    import json

    from mjscore.datasets.far_off import SCENE_SCALES

    src = tmp_path / "scenes"
    src.mkdir()
    render = np.zeros((720, 960, 3), np.uint8)
    render[:] = (30, 120, 40)
    render[300:420, 400:500] = (250, 250, 250)                       # one white tile
    cv2.imwrite(str(src / "scene_000.png"), render)
    scene = {"image": "scene_000.png", "notation": "EEE", "final": 8,
             "tiles": [{"kind": "E", "box": [400.0, 300.0, 500.0, 420.0], "angle": 0}]}
    (src / "hands.json").write_text(json.dumps([scene]))
    assert far_off(src, tmp_path / "far", seed=31) == 1
    [moved] = json.loads((tmp_path / "far" / "hands.json").read_text())
    assert moved["image"] == "scene_000.jpg" and moved["notation"] == "EEE" and moved["final"] == 8
    x0, y0, x1, y1 = moved["tiles"][0]["box"]
    s = (x1 - x0) / 100
    assert min(abs(s - k) for k in SCENE_SCALES) < 1e-6 and abs((y1 - y0) - 120 * s) < 0.2
    out = cv2.imread(str(tmp_path / "far" / "scene_000.jpg"))
    assert out.shape[:2] == (FRAME[1], FRAME[0])
    inner = out[int(y0 + 3):int(y1 - 3), int(x0 + 3):int(x1 - 3)]
    assert inner.mean() > 230                                          # the tile's pixels are under its box
