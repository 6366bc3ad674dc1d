"""Review and correction as pure functions (no terminal), context parsing, hand notation split."""

from __future__ import annotations

import pytest

from mjscore.handscan.context import ContextError, make_context
from mjscore.handscan.review import ReviewError, apply_command, apply_fixes, state_from_layout
from test_layout_support import place
from mjscore.vision.layout import BONUS, CONCEALED, EXPOSED, group_tiles


@pytest.fixture
def state():
    # tile numbers: 1-3 EEE (exposed), 4-14 RRR 234m 88s 456s (concealed)
    lay = group_tiles(place([["EEE"], ["RRR234m88s456s"]]))
    return state_from_layout(lay, make_context("E", "S", None, "self"))


def run(state, *commands):
    for c in commands:
        state, _ = apply_command(state, c)
    return state


def test_fix_tiles_by_number(state):
    new, msg = apply_command(state, "9=5m, 12=4p")
    assert msg == "tile 9 = 5m, tile 12 = 4p"
    assert new.layout.notation == "[EEE] 235m 4p 5688s RRR"
    assert new.tiles[8].confidence == 1.0 and new.corrected == {8, 11}
    assert state.layout.notation == "[EEE] 234m 45688s RRR"       # the old state is untouched


def test_fix_accepts_dutch_letters_and_rejects_unknown_kinds(state):
    assert run(state, "4=C").tiles[3].kind == "R"
    with pytest.raises(ReviewError, match="'5z' is not a tile kind"):
        apply_command(state, "4=5z")
    with pytest.raises(ReviewError, match="there is no tile 15"):
        apply_command(state, "15=5p")


def test_move_tiles_between_groups_and_into_new_sets(state):
    new = run(state, "move 4 to new", "move 5 to 1", "move 6 to 1")
    # R moved alone becomes a one-tile exposed group, then R R join the East group
    assert new.layout.groups[0].tokens == ["E", "E", "E", "R", "R"]
    assert [g.kind for g in new.layout.groups] == [EXPOSED, EXPOSED, CONCEALED]
    back = run(new, "move 4 to concealed", "move 5 to concealed", "move 6 to concealed")
    assert back.layout.notation == state.layout.notation


def test_group_kind_change_and_bonus(state):
    new = run(state, "group 1 concealed")
    assert new.layout.melds == [] and len(new.layout.concealed) == 14
    new = run(state, "add f3")
    assert new.layout.groups[-1].kind == BONUS and new.layout.bonus == ["f3"]
    with pytest.raises(ReviewError, match="write: group 2 exposed"):
        apply_command(state, "group 1 sideways")


def test_delete_and_add_tiles_renumber(state):
    new = run(state, "del 1")
    assert len(new.tiles) == 13 and new.layout.groups[0].tokens == ["E", "E"]
    new = run(new, "add E to 1")
    assert new.layout.melds == ["[EEE]"] and new.tiles[-1].box == (0.0, 0.0, 0.0, 0.0)


def test_context_commands(state):
    new = run(state, "win 6s", "discard", "seat w", "wind N", "ruleset nts-app", "special last_wall_tile")
    ctx = new.context
    assert (ctx.winning_tile, ctx.win_type, ctx.seat, ctx.wind, ctx.ruleset, ctx.special) == \
        ("6s", "discard", "W", "N", "nts-app", ("last_wall_tile",))
    assert run(new, "special last_wall_tile").context.special == ()       # toggles off
    with pytest.raises(ReviewError, match="not a tile"):
        apply_command(state, "win 10p")
    with pytest.raises(ReviewError, match="not a wind"):
        apply_command(state, "seat X")


def test_hand_override_undo_and_done(state):
    new = run(state, "hand [EEE] RRR 234m 88s 45s +6s")
    assert new.hand == "[EEE] RRR 234m 88s 45s +6s"
    assert run(new, "hand").hand is None
    assert run(new, "undo").hand is None
    with pytest.raises(ReviewError, match="never closed"):
        apply_command(state, "hand [EEE RRR")
    with pytest.raises(ReviewError, match="nothing to undo"):
        apply_command(state, "undo")
    assert run(state, "").done and run(state, "done").done
    with pytest.raises(ReviewError, match="unknown command"):
        apply_command(state, "frobnicate 3")


def test_help_lists_the_commands(state):
    _, text = apply_command(state, "help")
    assert "move 7 to 2" in text and "3=5p" in text


def test_apply_fixes_keeps_grouping_and_reasons():
    lay = group_tiles(place([["EEE"], ["RRR234m88s456s"]]))
    fixed = apply_fixes(lay, "9=5m;12=4p")
    assert fixed.notation == "[EEE] 235m 4p 5688s RRR"
    assert fixed.groups[0].reason == lay.groups[0].reason
    with pytest.raises(ContextError, match="no tile 40"):
        apply_fixes(lay, "40=5p")
    with pytest.raises(ContextError, match="write fixes as"):
        apply_fixes(lay, "three=5p")


def test_a_tile_laid_aside_fixed_to_a_suit_tile_joins_the_concealed_part():
    """``--fix`` on a flower laid aside that is really 7p: the bonus group keeps only bonus
    tiles, so the hand scored is the one its notation shows (and the parser reads it)."""
    from mjscore.scoring.notation import parse_hand

    lay = group_tiles(place([["EEE"], ["RRR234m88s45s"], ["f1", "j2"]]))
    assert lay.notation == "[EEE] 234m 4588s RRR / f1 j2"
    fixed = apply_fixes(lay, "15=6s")                      # the j2 was the missing 6s
    assert fixed.notation == "[EEE] 234m 45688s RRR / f1"
    assert [g.kind for g in fixed.groups] == [EXPOSED, CONCEALED, BONUS] and fixed.bonus == ["f1"]
    assert parse_hand(fixed.notation).bonus == ("f1",)
    back = apply_fixes(fixed, "15=j2")                     # and a concealed tile fixed to a season is laid aside
    assert back.notation == lay.notation and back.bonus == ["f1", "j2"]


def test_typed_hand_is_read_by_the_engines_parser_in_its_context():
    """A typed hand becomes the engine's Hand (groups kept, the fixed group too); its +tile
    fills in the context, a context tile fills in the hand, and the two must agree."""
    from mjscore.handscan.context import engine_context
    from mjscore.handscan.hand import hand_from_text
    from mjscore.scoring.model import Context
    from mjscore.scoring.notation import NotationError, parse_hand

    ctx = make_context("E", "S", None, "self_drawn", "nts-app", ["last_wall_tile"])
    hand, ctx2 = hand_from_text("[EEE] {X55pX} (RRR) 234m 88s 45s +6s / f1 j3", ctx)
    assert hand == parse_hand("[EEE] {X55pX} (RRR) 234m 88s 45s +6s / f1 j3")
    assert ctx2.winning_tile == "6s" and ctx.winning_tile is None
    assert engine_context(ctx2) == Context("E", "S", "self_drawn", frozenset({"last_wall_tile"}))
    hand, _ = hand_from_text("RRR 234m 88s 456s", ctx.with_(winning_tile="6s"))
    assert hand.winning_tile == "6s"
    with pytest.raises(ContextError, match="the hand says \\+6s"):
        hand_from_text("RRR 234m 88s 45s +6s", ctx.with_(winning_tile="9s"))
    with pytest.raises(NotationError, match="only one \\+winning tile"):
        hand_from_text("123m +4m +5m", ctx)


@pytest.mark.parametrize("kwargs,message", [
    ({"seat": "Q"}, "seat 'Q' is not a wind"),
    ({"winning_tile": "0p"}, "winning tile '0p' is not a tile"),
    ({"win_type": "stolen"}, "win type 'stolen'"),
    ({"ruleset": "riichi"}, "ruleset 'riichi'"),
    ({"special": ["lucky"]}, "special 'lucky'"),
])
def test_bad_context_values_are_named(kwargs, message):
    with pytest.raises(ContextError, match=message):
        make_context(**kwargs)


def test_context_aliases():
    ctx = make_context("south", "e", "P", "tsumo", "NTS-APP", "kong-replacement")
    assert (ctx.seat, ctx.wind, ctx.winning_tile, ctx.win_type, ctx.ruleset, ctx.special) == \
        ("S", "E", "Wh", "self_drawn", "nts-app", ("kong_replacement",))
    assert ctx.missing() == [] and make_context().missing() == ["seat", "prevailing wind", "winning tile", "win type"]
