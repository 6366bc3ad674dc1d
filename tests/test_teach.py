"""mjscore teach / sets / scan --set: a set taught from labelled photos reads its tiles better,
and every bad input gets a clear error with a stable code (never a wrong read)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from mjscore.cli import app
from mjscore.errors import BAD_INPUT, NOT_FOUND, UNAVAILABLE, MjscoreError

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "chinese-v4"
TEACH, HELD_OUT = ("photo_1", "photo_2", "photo_4"), "photo_3"


def odd_set(rgb: np.ndarray) -> np.ndarray:
    """A tile set no model has seen: the sample photos with their colours turned inside out."""
    return 255 - rgb


def yolo_folder(root: Path, stems, transform=odd_set) -> Path:
    (root / "images").mkdir(parents=True)
    (root / "labels").mkdir()
    shutil.copy(SAMPLES / "data.yaml", root / "data.yaml")
    for stem in stems:
        rgb = np.asarray(Image.open(SAMPLES / "images" / f"{stem}.jpg").convert("RGB"))
        Image.fromarray(transform(rgb)).save(root / "images" / f"{stem}.png")
        shutil.copy(SAMPLES / "labels" / f"{stem}.txt", root / "labels" / f"{stem}.txt")
    return root


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("teach")
    return yolo_folder(root / "teach", TEACH), yolo_folder(root / "held", [HELD_OUT])


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    d = tmp_path_factory.mktemp("data")
    mp.setenv("MJSCORE_DATA_DIR", str(d))
    yield d
    mp.undo()


@pytest.fixture(scope="module")
def taught_set(folders, data_dir):
    res = CliRunner().invoke(app, ["teach", str(folders[0]), "--name", "odd"])
    assert res.exit_code == 0, res.output
    return "odd"


def right_share(folder: Path, tile_set) -> float:
    """Share of the held-out tiles read right from their labelled boxes, with or without a set."""
    from mjscore.vision.lessons import from_folder
    from mjscore.vision.teach import mixed

    lessons, _ = from_folder(folder)
    probs = mixed(tile_set.head, lessons.feats, lessons.general) if tile_set else lessons.general
    return float((probs.argmax(1) == lessons.labels).mean())


def test_taught_set_reads_held_out_tiles_of_that_set_better(taught_set, folders):
    from mjscore.vision.sets import load_set

    tset = load_set(taught_set)
    before, after = right_share(folders[1], None), right_share(folders[1], tset)
    assert after > before, (before, after)
    assert tset.head.weight > 0


def test_scan_with_the_set_reads_the_photo(taught_set, folders):
    res = CliRunner().invoke(app, ["scan", str(folders[1] / "images" / f"{HELD_OUT}.png"), "--json", "--set", taught_set])
    assert res.exit_code == 0, res.output
    assert '"tiles"' in res.output


def test_sets_list_show_and_remove(taught_set, folders, data_dir):
    runner = CliRunner()
    assert taught_set in runner.invoke(app, ["sets", "list"]).output
    shown = runner.invoke(app, ["sets", "show", taught_set]).output
    assert "tiles per kind" in shown and "X" in shown.split("kinds missing")[1]
    # teaching again adds to the set; --replace starts over
    first = runner.invoke(app, ["teach", str(folders[1]), "--name", "odd2"])
    assert first.exit_code == 0, first.output
    again = runner.invoke(app, ["teach", str(folders[1]), "--name", "odd2"])
    n = int(first.output.split("set odd2: ")[1].split()[0])
    assert f"set odd2: {2 * n} tiles" in again.output, again.output
    fresh = runner.invoke(app, ["teach", str(folders[1]), "--name", "odd2", "--replace"])
    assert f"set odd2: {n} tiles" in fresh.output, fresh.output
    assert runner.invoke(app, ["sets", "remove", "odd2"]).exit_code == 0
    assert "odd2" not in runner.invoke(app, ["sets", "list"]).output
    assert not list((data_dir / "sets").glob("*.tmp"))


def _error(args) -> tuple[int, str]:
    res = CliRunner().invoke(app, args)
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res.exit_code, res.output


def test_bad_teaching_material_is_named(tmp_path, data_dir):
    no_labels = tmp_path / "nolabels"
    yolo_folder(no_labels, ["photo_5"], transform=lambda rgb: rgb)
    shutil.rmtree(no_labels / "labels")
    code, out = _error(["teach", str(no_labels), "--name", "x"])
    assert code == 2 and "no labelled photos" in out

    unknown = yolo_folder(tmp_path / "unknown", ["photo_5"], transform=lambda rgb: rgb)
    (unknown / "data.yaml").write_text("names: ['dragon', 'bamboo']\n")
    code, out = _error(["teach", str(unknown), "--name", "x"])
    assert code == 2 and "unknown class name 'dragon'" in out

    empty = yolo_folder(tmp_path / "empty", ["photo_5"], transform=lambda rgb: rgb)
    (empty / "labels" / "photo_5.txt").write_text("")
    code, out = _error(["teach", str(empty), "--name", "x"])
    assert code == 2 and "name no tiles" in out

    code, out = _error(["teach", str(empty)])
    assert code == 2 and "--name" in out
    code, out = _error(["teach", str(empty), "--name", "../home"])
    assert code == 2 and "set name" in out
    assert "x" not in _error(["sets", "list"])[1].split()


def test_missing_and_damaged_sets_are_refused_clearly(data_dir):
    from mjscore.vision.sets import load_set, set_path

    photo = str(SAMPLES / "images" / "photo_5.jpg")
    code, out = _error(["scan", photo, "--set", "nope"])
    assert code == 1 and "no taught set 'nope'" in out
    with pytest.raises(MjscoreError) as err:
        load_set("nope")
    assert err.value.code == NOT_FOUND

    path = set_path("broken")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"PK\x03\x04 not really a set")
    code, out = _error(["scan", photo, "--set", "broken"])
    assert code == 1 and "damaged" in out
    with pytest.raises(MjscoreError) as err:
        load_set("broken")
    assert err.value.code == UNAVAILABLE


def test_bad_set_name_code():
    from mjscore.vision.sets import check_name

    with pytest.raises(MjscoreError) as err:
        check_name("")
    assert err.value.code == BAD_INPUT
