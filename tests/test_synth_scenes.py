"""Synthetic training scenes: deterministic per seed, exact labels, balanced kinds, YOLO output.
Uses only the art committed in the repository (``art="committed"``)."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

from mjscore.datasets.synth.generate import generate, main as generate_main
from mjscore.datasets.synth.geometry import TileDims
from mjscore.datasets.synth.procedural import draw_glyph
from mjscore.datasets.synth.scene import random_placements, random_scene
from mjscore.vision.kinds import KINDS


def test_same_seed_gives_the_same_image_and_labels():
    a = random_scene(7, 256, art="committed")
    b = random_scene(7, 256, art="committed")
    assert np.array_equal(a.image, b.image)
    assert a.labels == b.labels
    c = random_scene(8, 256, art="committed")
    assert not np.array_equal(a.image, c.image)


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_labels_lie_inside_the_image_and_name_real_kinds(seed):
    scene = random_scene(seed, 320, art="committed")
    h, w = scene.image.shape[:2]
    assert scene.image.dtype == np.uint8 and scene.image.shape == (320, 320, 3)
    assert scene.labels, "every scene shows at least one labelled tile"
    for lab in scene.labels:
        x0, y0, x1, y1 = lab.box
        assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h
        assert lab.kind in KINDS
        assert 0.35 <= lab.visible <= 1.0


def test_kinds_are_balanced_including_bonus_tiles_and_backs():
    counts: Counter[str] = Counter()
    dims = TileDims()
    for seed in range(400):
        placements, _ = random_placements(np.random.default_rng(seed), dims)
        counts.update(p.kind for p in placements if not p.is_prop)
    mean = sum(counts.values()) / len(KINDS)
    assert set(counts) == set(KINDS)
    for kind in KINDS:
        assert 0.5 * mean <= counts[kind] <= 1.7 * mean, (kind, counts[kind], mean)
    # flowers, seasons and backs as frequent as the other kinds on average
    special = np.mean([counts[k] for k in ["f1", "f2", "f3", "f4", "j1", "j2", "j3", "j4", "X"]])
    assert special >= 0.7 * mean


def test_labelled_tile_is_where_its_face_is_drawn():
    """The pixels inside a label differ from the bare table: the box is on a tile."""
    scene = random_scene(11, 320, art="committed")
    big = max(scene.labels, key=lambda lab: (lab.box[2] - lab.box[0]) * (lab.box[3] - lab.box[1]))
    x0, y0, x1, y1 = (int(v) for v in big.box)
    inside = scene.image[y0:y1, x0:x1].reshape(-1, 3).std(0).mean()
    assert inside > 5


def test_generate_writes_a_yolo_dataset(tmp_path):
    out = tmp_path / "synth"
    generate(out, count=3, seed=5, size=192, art="committed", progress=False)
    images = sorted((out / "images").glob("*.jpg"))
    labels = sorted((out / "labels").glob("*.txt"))
    assert [p.stem for p in images] == ["000000", "000001", "000002"]
    assert [p.stem for p in labels] == ["000000", "000001", "000002"]
    yaml = (out / "data.yaml").read_text()
    assert f"nc: {len(KINDS)}" in yaml and "42: 'X'" in yaml and "0: '1m'" in yaml
    metas = [json.loads(line) for line in (out / "scenes.jsonl").read_text().splitlines()]
    assert len(metas) == 3
    for meta, lab in zip(metas, labels):
        rows = [line.split() for line in lab.read_text().splitlines()]
        assert len(rows) == meta["labelled"] == len(meta["kinds"])
        for row, kind in zip(rows, meta["kinds"]):
            cls, xc, yc, w, h = int(row[0]), *map(float, row[1:])
            assert KINDS[cls] == kind
            assert 0 < w <= 1 and 0 < h <= 1 and xc - w / 2 >= -2e-6 and xc + w / 2 <= 1 + 2e-6
            assert yc - h / 2 >= -2e-6 and yc + h / 2 <= 1 + 2e-6
    # the same seed writes the same labels again
    again = tmp_path / "again"
    generate(again, count=3, seed=5, size=192, art="committed", progress=False)
    assert [p.read_text() for p in labels] == [p.read_text() for p in sorted((again / "labels").glob("*.txt"))]


def test_generate_cli_rejects_bad_arguments(capsys):
    with pytest.raises(SystemExit) as exc:
        generate_main(["--out", "x", "--count", "0"])
    assert exc.value.code == 2
    assert "--count" in capsys.readouterr().err


@pytest.mark.parametrize("kind", [k for k in KINDS if k != "X"])
def test_procedural_faces_draw_every_kind_without_cjk_font(kind):
    glyph = draw_glyph(kind, np.random.default_rng(0), cjk=None, latin=None)
    assert glyph.shape == (128, 96, 4)
    if kind != "Wh":  # a blank white dragon is a real design
        assert (glyph[..., 3] > 0).sum() > 50


def test_optional_art_in_a_cache_folder_is_picked_up(tmp_path):
    """install_art.sh output (``<cache>/faces/<set>/<kind>.png``) joins the committed sets;
    kinds the set lacks are completed procedurally, so every kind still renders."""
    import cv2

    from mjscore.datasets.synth.art import load_face_sets
    from mjscore.datasets.synth.style import make_style

    face = np.zeros((128, 96, 4), np.uint8)
    cv2.rectangle(face, (20, 20), (76, 108), (0, 0, 255, 255), -1)
    (tmp_path / "faces" / "toy").mkdir(parents=True)
    cv2.imwrite(str(tmp_path / "faces" / "toy" / "5p.png"), face)
    (tmp_path / "faces" / "toy" / "ignored.png").write_bytes(b"")  # not a kind: skipped
    sets = load_face_sets(str(tmp_path))
    names = [s.name for s in sets]
    assert "cache:toy" in names and "fluffystuff" in names and "commons-uni" in names
    toy = next(s for s in sets if s.name == "cache:toy")
    assert toy.kinds() == ["5p"]
    for seed in range(40):
        style = make_style(np.random.default_rng(seed), sets)
        if style.name == "cache:toy":
            break
    else:
        pytest.fail("the cached set is never chosen")
    five = style.texture("5p")
    red = (five[..., 0] > 150) & (five[..., 1] < 80) & (five[..., 2] < 80)
    assert red.sum() > 500  # the toy's red block is on the face
    assert style.texture("f3").shape == five.shape  # missing kinds drawn procedurally


def test_missing_optional_art_is_skipped_with_a_message(tmp_path, capsys):
    from mjscore.datasets.synth import extract_art

    extract_art.kmahjongg(tmp_path, tilesets=tmp_path / "none")
    extract_art.gnome(tmp_path)
    extract_art.xmahjongg(tmp_path)
    out = capsys.readouterr().out
    assert "gnome-mahjongg" in out and "xmahjongg" in out and "kmahjongg" in out
    assert not (tmp_path / "faces").exists() or not any((tmp_path / "faces").iterdir())


def test_generate_cli_names_an_unwritable_output(tmp_path, capsys):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    assert generate_main(["--out", str(blocker / "sub"), "--count", "1", "--art", "committed"]) == 2
    assert "cannot write the dataset" in capsys.readouterr().err


@pytest.mark.parametrize("azimuth, expected", [(0.0, "5p"), (180.0, "X")])
def test_a_standing_tile_seen_from_behind_is_a_back(azimuth, expected):
    from mjscore.datasets.synth.geometry import Camera, Placement
    from mjscore.datasets.synth.art import face_sets_for
    from mjscore.datasets.synth.compose import render_scene
    from mjscore.datasets.synth.style import make_style

    rng = np.random.default_rng(3)
    style = make_style(rng, face_sets_for("committed"))
    row = [Placement("5p", x * 1.02, 0.0, "stand") for x in range(3)]
    cam = Camera((1.0, 0.0, 0.6), 35.0, azimuth, 12.0)
    scene = render_scene(row, rng, 320, style=style, camera=cam, tile_px=60, effects=0.0)
    assert [lab.kind for lab in scene.labels] == [expected] * 3


def test_standing_layout_is_asked_for_by_name_and_seen_from_low_in_front():
    """``--layouts standing``: loose standing rows photographed from low in front (5-45 deg);
    every labelled tile lies inside the image and the default mix never draws the layout
    (batches ask for it by name)."""
    scenes = [random_scene(seed, 320, art="committed", layout="standing") for seed in range(4)]
    for scene in scenes:
        assert scene.meta["layout"] == "standing"
        assert 5 <= scene.meta["camera"]["elevation"] <= 45
        assert scene.labels
        for lab in scene.labels:
            x0, y0, x1, y1 = lab.box
            assert 0 <= x0 < x1 <= 320 and 0 <= y0 < y1 <= 320
    kinds = {random_placements(np.random.default_rng(s), TileDims())[1] for s in range(300)}
    assert "standing" not in kinds and {"rows", "rack", "scatter", "grid"} <= kinds


def test_generate_cli_rejects_an_unknown_layout(capsys):
    with pytest.raises(SystemExit):
        generate_main(["--out", "x", "--layouts", "standing,lying"])
    assert "unknown layout 'lying'" in capsys.readouterr().err


def test_favoured_kinds_come_more_often_and_the_mix_is_restored():
    """``generate --favour X=4,Wh=3`` (a batch aimed at what the detector misses): single-tile
    layouts draw those kinds about that much more often; afterwards the balanced mix is back."""
    from mjscore.datasets.synth.layouts import favour_kinds, layout_scatter

    def counts() -> Counter:
        c: Counter[str] = Counter()
        for seed in range(150):
            c.update(p.kind for p in layout_scatter(np.random.default_rng(seed), TileDims()))
        return c

    balanced = counts()
    try:
        favour_kinds({"X": 4, "Wh": 3})
        favoured = counts()
    finally:
        favour_kinds(None)
    share = lambda c, k: c[k] / sum(c.values())  # noqa: E731
    assert share(favoured, "X") > 2.5 * share(balanced, "X")
    assert share(favoured, "Wh") > 2 * share(balanced, "Wh")
    assert counts() == balanced


def test_generate_cli_rejects_a_bad_favour(capsys):
    with pytest.raises(SystemExit):
        generate_main(["--out", "x", "--favour", "X=4,Q=2"])
    assert "'Q' is not a kind" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        generate_main(["--out", "x", "--favour", "X"])
    assert "expected KIND=FACTOR" in capsys.readouterr().err
