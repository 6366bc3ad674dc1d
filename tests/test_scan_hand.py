"""Layout -> engine Hand without notation text in between, and the error codes at the edges.

The layout's groups become the engine's own ``Hand``/``Group`` objects directly; on every
bundled scene (the synthetic scenes' true tiles and the labelled real photo) that hand equals
what the engine's parser makes of the layout's notation with the winning tile, and the
notation shown is that notation."""

from __future__ import annotations

from pathlib import Path

import pytest

from mjscore.handscan.context import WinningTileNotInHand, make_context
from mjscore.handscan.hand import hand_from_layout, score
from mjscore.handscan.pipeline import evaluate
from mjscore.scoring.notation import parse_hand
from mjscore.vision.layout import CONCEALED, group_tiles, hand_notation
from test_layout_support import place
from test_scan_photos import labelled_tiles
from typed_hand import typed_answer

ROOT = Path(__file__).resolve().parents[1]


def _scene_layouts():
    from mjscore.datasets.scene_eval import load_scenes
    out = [(s.photo.name, group_tiles(s.tiles)) for s in load_scenes(ROOT / "samples" / "synthetic")]
    out.append(("photo_3", group_tiles(labelled_tiles("photo_3"))))
    return out


SCENES = _scene_layouts()


@pytest.mark.parametrize("name,layout", SCENES, ids=[n for n, _ in SCENES])
def test_layout_hand_equals_the_parsed_notation(name, layout):
    concealed = [t for g in layout.groups if g.kind == CONCEALED for t in g.tokens]
    for winning in [None] + sorted(set(concealed)):
        laid = hand_from_layout(layout, winning)
        notation = hand_notation(layout.groups, winning)
        assert laid.notation == notation
        assert laid.hand == parse_hand(notation), (name, winning, notation)
        assert laid.layout is layout and not laid.notes


@pytest.mark.parametrize("name,layout", SCENES, ids=[n for n, _ in SCENES])
def test_layout_hand_scores_like_the_notation_through_the_json_contract(name, layout):
    concealed = [t for g in layout.groups if g.kind == CONCEALED for t in g.tokens]
    if not concealed:
        pytest.skip("no concealed tile to win on")
    ctx = make_context("S", "E", concealed[-1], "discard", "nts-app")
    laid = hand_from_layout(layout, ctx.winning_tile)
    assert score(laid.hand, ctx).to_json() == typed_answer(laid.notation, ctx)


def test_winning_tile_in_an_exposed_set_reopens_that_set():
    """DECISION: the set holding the only copy of the winning tile was laid open after the
    win: it joins the concealed part (and the note says so)."""
    layout = group_tiles(place([["EEE", "666s"], ["RRR234m88s45s"]]))
    laid = hand_from_layout(layout, "6s")
    assert laid.notes and "laid open after the win" in laid.notes[0]
    assert laid.hand == parse_hand(laid.notation)
    assert laid.hand.winning_tile == "6s" and "6s" in laid.hand.concealed
    assert laid.layout is not layout


def test_winning_tile_nowhere_is_a_typed_error_and_a_flag():
    layout = group_tiles(place([["EEE"], ["RRR234m88s45s6s"]]))
    with pytest.raises(WinningTileNotInHand):
        hand_from_layout(layout, "9p")
    res = evaluate("x.jpg", layout, make_context("S", "E", "9p", "discard"))
    assert "winning_tile_not_in_hand" in res.flags and res.score is None


def test_a_typed_hand_that_cannot_be_parsed_is_flagged_not_raised():
    layout = group_tiles(place([["EEE"], ["RRR234m88s45s6s"]]))
    res = evaluate("x.jpg", layout, make_context("S", "E", None, "discard"), hand="[EEE 234m")
    assert "bad_hand" in res.flags and "never closed" in res.warnings[-1]
    assert res.notation == "[EEE 234m" and res.score is None
