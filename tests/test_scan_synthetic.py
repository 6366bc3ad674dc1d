"""The bundled synthetic hand scenes (``samples/synthetic/`` + ``hands.json``, rendered by the
scene generator): photo in -> exact hand notation and final score out.

On the scenes' true tiles (their label boxes) the layout step and the engine must give the
true hand and the same score as the hand typed in; with the shipped recognizer the whole
pipeline runs on the JPEGs themselves."""

from __future__ import annotations

from pathlib import Path

import pytest

from mjscore.handscan.context import make_context
from mjscore.handscan.pipeline import evaluate, scan_photo
from mjscore.scoring.notation import parse_hand
from typed_hand import typed_answer
from mjscore.datasets.scene_eval import canonical, load_scenes
from mjscore.vision.layout import group_tiles

ROOT = Path(__file__).resolve().parents[1]
SCENES = load_scenes(ROOT / "samples" / "synthetic")
BY_NAME = {s.photo.name: s for s in SCENES}
# A declared concealed kong laid with all four faces up looks exactly like an exposed kong:
# the photo can only be read as one (lay its outer tiles face down, or fix it in the review).
FACE_UP_KONG = {"two_kongs_rack.jpg": ("{1111s}", "[1111s]")}


def _readable_truth(scene) -> str:
    """The true hand as the photo can show it."""
    old, new = FACE_UP_KONG.get(scene.photo.name, ("", ""))
    return scene.notation.replace(old, new) if old else scene.notation


def _as_laid(notation: str) -> tuple:
    """A hand with its winning tile back among the concealed tiles (as the photo shows it)."""
    melds, concealed, winning, bonus = canonical(notation)
    from mjscore.vision.layout import sort_key
    return melds, tuple(sorted(concealed + ((winning,) if winning else ()), key=sort_key)), None, bonus


def _context(notation: str):
    return make_context("E", "S", parse_hand(notation).winning_tile, "self_drawn", "nts-app")


def test_bundled_scenes_cover_the_layouts():
    assert len(SCENES) >= 18
    assert sum(name.startswith("kong_bonus_") for name in BY_NAME) == 12
    assert all(s.photo.exists() and s.tiles for s in SCENES)


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_true_tiles_group_into_the_true_hand(name):
    scene = BY_NAME[name]
    layout = group_tiles(scene.tiles)
    assert canonical(layout.notation) == _as_laid(_readable_truth(scene)), layout.notation


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_true_tiles_score_like_the_hand_typed_in(name):
    scene = BY_NAME[name]
    truth = _readable_truth(scene)
    ctx = _context(truth)
    res = evaluate(name, group_tiles(scene.tiles), ctx)
    typed = typed_answer(truth, ctx)
    assert res.valid == typed["valid"], (res.notation, res.score, typed)
    if typed["valid"]:
        assert res.final == typed["final"]
    else:
        assert res.score.reason == typed["reason"]


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_photo_to_hand_end_to_end(name):
    """The whole pipeline on the JPEG with the shipped recognizer: the exact hand and its
    score, or, where the recognizer misreads, a result that says so (doubtful tiles, layout
    notes or no valid hand): never a wrong hand presented as certain. (The session-5 recognizer
    reads 7 of the 18 exactly, see the floor below; the accuracy figures come from
    ``python -m mjscore.datasets.scene_eval``.)"""
    scene = BY_NAME[name]
    truth = _readable_truth(scene)
    ctx = _context(truth)
    res = scan_photo(scene.photo, ctx)
    assert res.error is None and res.layout.tiles
    if canonical(res.layout.notation) == _as_laid(truth):
        typed = typed_answer(truth, ctx)
        assert res.valid == typed["valid"] and res.final == typed.get("final")
    else:
        assert res.low_confidence or res.warnings or not res.valid, (res.notation, res.flags)


def test_bundled_scenes_read_exactly_floor():
    """Photo in, exact hand out: with the session-5 models 7 of the 18 bundled scenes read
    exactly (the turned all-concealed hand, the upside-down photo with an exposed kong and a
    sideways chow, and 5 of the 12 kong-and-bonus scenes, fixed before they were read), and
    their scores equal the typed-in hand's. Among them are hands with exposed sets and a hand
    with a declared concealed kong laid with face-down ends plus bonus tiles."""
    exact = []
    for name, scene in sorted(BY_NAME.items()):
        truth = _readable_truth(scene)
        ctx = _context(truth)
        res = scan_photo(scene.photo, ctx)
        if canonical(res.layout.notation) == _as_laid(truth):
            typed = typed_answer(truth, ctx)
            assert res.valid == typed["valid"] and res.final == typed.get("final"), name
            exact.append(name)
    assert len(exact) >= 7, exact
    assert any(canonical(BY_NAME[n].notation)[0] for n in exact), "one read exactly has exposed sets"
    kong_and_bonus = [n for n in exact if "{X" in BY_NAME[n].notation and canonical(BY_NAME[n].notation)[3]]
    assert kong_and_bonus, "one read exactly has a face-down concealed kong and bonus tiles"
