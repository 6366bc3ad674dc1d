"""The training design grammar (datasets/synth/varied_faces.py, vision/training/varied_crops.py): every suit and honour kind is
drawn, crops carry the kind they show, and a machine without CJK fonts still gets the pip,
stick and white-dragon faces (characters and honours need a font that draws them)."""

from __future__ import annotations

from collections import Counter

import numpy as np

from mjscore.datasets.synth.fonts import FONT_DIRS_ENV
from mjscore.datasets.synth.procedural import face_family
from mjscore.vision.kinds import KINDS
from mjscore.datasets.synth.varied_faces import SUIT_HONOUR, varied_face
from mjscore.vision.training.varied_crops import render_varied_crops


def test_every_pip_and_stick_kind_is_drawn_from_several_designs():
    for kind in [k for k in SUIT_HONOUR if face_family(k) in ("p", "s")]:
        faces = [varied_face(kind, np.random.default_rng(seed), ()) for seed in range(6)]
        assert all(f.shape == (128, 96, 4) and (f[..., 3] > 128).sum() > 100 for f in faces), kind
        inks = {tuple(f[..., :3][f[..., 3] > 200].mean(axis=0).astype(int) // 40) for f in faces}
        assert len(inks) >= 3, f"{kind}: the designs hardly differ"


def test_crops_without_cjk_fonts_are_the_kinds_that_need_none(monkeypatch):
    monkeypatch.setenv(FONT_DIRS_ENV, "")
    x, y = render_varied_crops(2, 48, seed=4)
    counts = Counter(KINDS[i] for i in y)
    assert set(counts) == {k for k in SUIT_HONOUR if face_family(k) in ("p", "s")} | {"Wh"}
    assert set(counts.values()) == {2}
    assert x.shape == (len(y), 48, 48, 3) and x.dtype == np.uint8
    assert x.std() > 10


def test_scene_batches_draw_the_grammar_only_when_asked():
    from mjscore.datasets.synth.style import style_for_art

    varied = [style_for_art(np.random.default_rng(s), "varied") for s in range(60)]
    assert any(st.name == "varied" for st in varied)
    assert "varied" not in {style_for_art(np.random.default_rng(s), "all").name for s in range(60)}
    st = next(st for st in varied if st.name == "varied")
    for kind in ("3p", "8s", "5m", "E", "Wh", "f2"):
        assert st.texture(kind).shape[2] == 4 and st.texture(kind)[..., :3].std() > 5, kind
