"""The held-out face design ("--art unseen"): every kind is drawn on any machine, no other art
choice can reach it, choosing it changes nothing else in a scene, and folders rendered in it
are refused by the training and fitting code (the unseen-set proxy stays unseen)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mjscore.datasets.synth.art import ART_CHOICES, HELD_OUT_MARK, UNSEEN_ART
from mjscore.datasets.synth.fonts import FONT_DIRS_ENV
from mjscore.datasets.synth.generate import main as generate_main
from mjscore.datasets.synth.procedural import draw_glyph
from mjscore.datasets.synth.style import make_style, style_for_art
from mjscore.datasets.synth.unseen_faces import draw_unseen_glyph
from mjscore.vision.kinds import KINDS
from mjscore.vision.training.common import HeldOutFolder, image_files

BUNDLED_CASES = Path(__file__).parent / "data" / "cases.json"
FACE_KINDS = [k for k in KINDS if k != "X"]


@pytest.mark.parametrize("kind", FACE_KINDS)
def test_every_kind_is_drawn_without_any_font(kind, monkeypatch):
    monkeypatch.setenv(FONT_DIRS_ENV, "")
    glyph = draw_unseen_glyph(kind, np.random.default_rng(7), cjk=None, latin=None)
    assert glyph.shape == (128, 96, 4)
    assert (glyph[..., 3] > 128).sum() > 150, f"{kind}: almost nothing drawn"


def test_the_design_is_not_the_procedural_one():
    for kind in ("3p", "5s", "1s", "f2", "j3", "Wh"):
        a = draw_unseen_glyph(kind, np.random.default_rng(1)).astype(int)
        b = draw_glyph(kind, np.random.default_rng(1)).astype(int)
        assert np.abs(a - b).mean() > 10, kind


def test_no_other_art_choice_draws_the_held_out_design():
    for art in [a for a in ART_CHOICES if a != UNSEEN_ART]:
        names = {style_for_art(np.random.default_rng(seed), art).name for seed in range(200)}
        assert UNSEEN_ART not in names, art
    assert {style_for_art(np.random.default_rng(s), UNSEEN_ART).name for s in range(20)} == {UNSEEN_ART}


def test_choosing_the_held_out_design_changes_nothing_else_in_the_scene():
    for seed in range(10):
        plain, held = np.random.default_rng(seed), np.random.default_rng(seed)
        a, b = make_style(plain, ()), make_style(held, (), unseen=True)
        assert plain.random() == held.random()          # the same numbers were drawn
        assert (a.back_colour, a.dims, a.corner_index, a.radius) == (b.back_colour, b.dims, b.corner_index, b.radius)
        assert not np.array_equal(a.texture("5p"), b.texture("5p"))


def test_a_batch_in_the_held_out_design_is_marked_and_refused_by_training(tmp_path, capsys):
    out = tmp_path / "unseen"
    assert generate_main(["--out", str(out), "--count", "2", "--seed", "3", "--size", "192", "--art", "unseen"]) == 0
    assert (out / HELD_OUT_MARK).is_file()
    assert len(list((out / "images").glob("*.jpg"))) == 2
    with pytest.raises(HeldOutFolder, match="held out of all training"):
        image_files(out)

    from mjscore.vision.training.fit_calibration import main as fit_calibration_main
    with pytest.raises(SystemExit, match="held out of all training"):
        fit_calibration_main([str(out), "--dry-run"])

    plain = tmp_path / "plain"
    assert generate_main(["--out", str(plain), "--count", "1", "--seed", "3", "--size", "192", "--art", "committed"]) == 0
    assert not (plain / HELD_OUT_MARK).exists()
    assert len(image_files(plain)) == 1


def test_hands_in_the_held_out_design_are_marked(tmp_path):
    from mjscore.datasets.scene_eval import make_scenes

    entries = make_scenes(tmp_path / "hands", 1, BUNDLED_CASES, seed=3, size=320, art=UNSEEN_ART)
    assert len(entries) == 1 and (tmp_path / "hands" / entries[0]["image"]).is_file()
    assert (tmp_path / "hands" / HELD_OUT_MARK).is_file()


def test_a_simplified_form_is_used_only_where_the_font_draws_it():
    from mjscore.datasets.synth.unseen_faces import _cn

    assert _cn("發", True, None) == "發"       # Pillow's own font draws no CJK: keep the traditional form
    assert _cn("發", False, None) == "發"
    assert _cn("中", True, None) == "中"       # no simplified form


def test_a_hand_set_in_the_held_out_design_is_marked(tmp_path):
    from mjscore.datasets.synth.hand_set import main as hand_set_main

    out = tmp_path / "set"
    assert hand_set_main(["--out", str(out), "--cases", str(BUNDLED_CASES), "--variants", "1",
                          "--size", "240", "--art", "unseen"]) == 0
    assert (out / HELD_OUT_MARK).is_file()
