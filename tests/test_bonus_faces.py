"""The flower/season crop source (``vision.training.bonus_faces``) and the font coverage check
it picks its CJK fonts with. Hermetic: ``MJSCORE_FONT_DIRS=""`` leaves only Pillow's built-in
Latin font, so no CJK character can be drawn and every face must still carry its index."""

from __future__ import annotations

import numpy as np
import pytest

from mjscore.datasets.synth import fonts
from mjscore.datasets.synth import procedural as P
from mjscore.vision.kinds import KINDS
from mjscore.vision.training import bonus_faces


@pytest.fixture(autouse=True)
def no_machine_fonts(monkeypatch):
    monkeypatch.setenv(fonts.FONT_DIRS_ENV, "")


def test_covers_tells_drawn_characters_from_the_missing_glyph_box():
    assert fonts.covers(None, "1234")
    assert not fonts.covers(None, "梅")
    assert not fonts.covers(None, "12梅")          # one missing character is enough
    assert fonts.fonts_covering("梅蘭菊竹") == ()   # no folder searched


def _ink(face: np.ndarray) -> np.ndarray:
    return face[..., 3] > 128


def test_a_bonus_face_without_cjk_fonts_still_draws_its_index_in_a_corner():
    rng = np.random.default_rng(3)
    for kind in bonus_faces.BONUS_KINDS:
        for _ in range(6):
            face = bonus_faces.bonus_face(kind, rng, cjk=(), latin=(None,))
            assert face.shape == (P.H, P.W, 4)
            ink = _ink(face)
            corners = [ink[:P.H // 4, :P.W // 3], ink[:P.H // 4, -P.W // 3:], ink[-P.H // 4:, :P.W // 3],
                       ink[-P.H // 4:, -P.W // 3:]]
            assert any(c.sum() > 10 for c in corners), f"{kind}: no index drawn in any corner"


def test_bonus_faces_differ_by_index_not_only_by_picture():
    """The same random draws with another index give another face (the digit changes)."""
    a = bonus_faces.bonus_face("f1", np.random.default_rng(7), cjk=(), latin=(None,))
    b = bonus_faces.bonus_face("f2", np.random.default_rng(7), cjk=(), latin=(None,))
    assert (a != b).any()


def test_render_bonus_crops_labels_and_counter_examples(tmp_path):
    """tmp_path holds no SVG art: the committed PNG faces give the rows and counter-examples."""
    x, y = bonus_faces.render_bonus_crops(3, 40, tmp_path, seed=1, negatives=0.5)
    assert x.shape == (3 * 8 + 12, 40, 40, 3) and x.dtype == np.uint8
    labels = [KINDS[i] for i in y]
    assert labels[:24] == [k for k in bonus_faces.BONUS_KINDS for _ in range(3)]
    assert all(k not in bonus_faces.BONUS_KINDS and k != "X" for k in labels[24:])
    again, _ = bonus_faces.render_bonus_crops(3, 40, tmp_path, seed=1, negatives=0.5)
    assert (again == x).all()                      # a seed gives the same crops


def test_indexed_face_prints_the_number_of_a_suit_tile():
    rng = np.random.default_rng(0)
    face = np.zeros((120, 90, 4), np.uint8)        # an empty face: only the index has ink
    out = bonus_faces.indexed_face(face, "7m", rng, (None,))
    assert _ink(out)[:P.H // 4].sum() > 10 and _ink(out)[P.H // 4:].sum() == 0
