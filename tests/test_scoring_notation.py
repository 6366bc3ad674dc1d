"""Tile notation (spec §1): what parses into what, what is refused and where the error points."""

from __future__ import annotations

import pytest

from mjscore.scoring import Group, Hand, NotationError, format_hand, parse_hand, score_request
from mjscore.scoring.notation import parse_group, parse_tiles


def test_seed_example_parses_into_groups_loose_tiles_and_winning_tile():
    hand = parse_hand("[EEE] RRR 234m 88s 45s +6s")
    assert hand.groups == (Group("exposed", ("E", "E", "E")),)
    assert hand.concealed == ("R", "R", "R", "2m", "3m", "4m", "8s", "8s", "4s", "5s")
    assert hand.winning_tile == "6s"
    assert hand.bonus == ()


def test_compact_runs_and_whitespace():
    assert parse_hand("1112345678999m").concealed == tuple(f"{n}m" for n in "1112345678999")
    assert parse_hand("1 2 3m").concealed == parse_hand("123 m").concealed == ("1m", "2m", "3m")
    assert parse_hand("55p").concealed == ("5p", "5p")


def test_honours_are_case_sensitive_and_white_is_two_letters():
    hand = parse_hand("S 1s W Wh WWh")
    assert hand.concealed == ("S", "1s", "W", "Wh", "W", "Wh")


def test_dutch_aliases_become_canonical_dragons():
    assert parse_hand("CCC FF P").concealed == ("R", "R", "R", "G", "G", "Wh")
    assert parse_hand("[PPP]").groups[0].tokens == ("Wh", "Wh", "Wh")


def test_group_kinds_and_canonical_order_inside_groups():
    hand = parse_hand("[432m] {X55pX} (RRR) (55s) [5555p]")
    assert [g.kind for g in hand.groups] == ["exposed", "concealed_kong", "fixed", "fixed", "exposed"]
    assert hand.groups[0].tokens == ("2m", "3m", "4m")
    assert [g.shape for g in hand.groups] == ["chow", "kong", "pung", "pair", "kong"]
    assert hand.groups[1].faces == ("5p", "5p") and hand.groups[1].tokens == ("X", "5p", "5p", "X")


def test_bonus_tiles_after_slash_and_loose_bonus_tiles():
    assert parse_hand("[WWW] 234m +7p / f1 j3").bonus == ("f1", "j3")
    assert parse_hand("RRR f2 234m").bonus == ("f2",)


@pytest.mark.parametrize("text", [
    "[EEE] RRR 234m 88s 45s +6s", "{X55pX} [234m] RRR GG Wh +Wh / f1 j3", "1112345678999m +5m",
    "(123m) (55p) 789s +9s", "[5555m] {7777p} RRRWWW3s +3s", "",
])
def test_format_round_trips(text):
    hand = parse_hand(text)
    assert parse_hand(format_hand(hand)) == hand


def test_format_writes_readable_blocks():
    assert format_hand(parse_hand("[EEE]RRR234m88s45s+6s/f1")) == "[EEE] RRR 234m 88s 45s +6s / f1"


@pytest.mark.parametrize("text, token, position", [
    ("55P", "55P", 0),                       # upper-case suit letter
    ("RRR 12 +3m", "12", 4),                 # digits without suit
    ("[EEE", "[", 0),                        # never closed
    ("RRR] 2m", "]", 3),                     # closes nothing
    ("RRR +6s 4m", "4m", 8),                 # tiles after the winning tile
    ("RRR 234m +", "+", 9),                  # + without a tile
    ("[RRR] x9m", "x9m", 6),                 # unknown letters
    ("RRR / 5m", "5m", 6),                   # only bonus tiles after /
    ("f5 RRR", "f5", 0),                     # flowers are f1..f4
    ("[RR[R]]", "[", 0),                     # nested group
    ("RRR 0m", "0", 4),                      # no tile 0
    ("RRR +f1", "f1", 5),                    # bonus tile cannot be the winning tile
    ("[] RRR", "[]", 0),                     # empty group
    ("RRR 1²m", "²", 5),                     # only ASCII digits are tile numbers (issue 14) ...
    ("١٢٣m RRR", "١", 0),                    # ... not Arabic-Indic,
    ("①23p", "①", 0),                        # circled,
    ("12𝟙s", "𝟙", 2),                        # mathematical
    ("4５6m", "５", 1),                       # or full-width digits
])
def test_errors_name_the_token_and_its_position(text, token, position):
    with pytest.raises(NotationError) as info:
        parse_hand(text)
    err = info.value
    assert (err.token, err.position) == (token, position)
    assert err.code == "syntax"
    assert f"position {position + 1}" in str(err)
    line, caret = err.caret().splitlines()
    assert line == text
    assert caret == " " * position + "^" * len(token)


def test_json_fields_use_the_same_parser_with_the_field_named():
    with pytest.raises(NotationError) as info:
        parse_group("555p", "melds[0]")
    assert "melds[0]" in str(info.value)
    with pytest.raises(NotationError):
        parse_tiles("RRR [555p]")


def test_request_with_bad_notation_answers_syntax_with_position():
    answer = score_request({"ruleset": "nts", "prevailing_wind": "E",
                            "hand": {"seat_wind": "S", "melds": ["[RRR]"], "concealed": "234m55P67p",
                                     "winning_tile": "8p", "win_type": "discard"}})
    assert answer["valid"] is False and answer["reason"] == "syntax"
    assert answer["token"] == "55P" and answer["position"] == 4
    assert "hand.concealed" in answer["message"]


def test_a_hand_is_a_plain_value():
    assert parse_hand("RRR +G") == Hand((), ("R", "R", "R"), "G", ())
