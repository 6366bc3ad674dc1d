"""Rules the worked cases leave out: every limit hand, half limits, moment families,
validation codes, configuration switches, table checks, labels."""

from __future__ import annotations

import pytest

from mjscore.scoring import RULES, label, score_request, settle_scores
from mjscore.scoring.rules import ALL_RULES


def score(notation: str, seat: str = "S", wind: str = "E", win_type: str | None = "discard",
          special=(), ruleset: str = "nts", config: dict | None = None) -> dict:
    hand = {"seat_wind": seat, "notation": notation, "special": list(special)}
    if win_type:
        hand["win_type"] = win_type
    request = {"ruleset": ruleset, "prevailing_wind": wind, "hand": hand}
    if config is not None:
        request["config"] = config
    return score_request(request)


LIMIT_HANDS = [
    ("1112345678999m +5m", {}, "nine_gates", 2000),
    ("1m9m1p9p1s9sESWNRGWh +Wh", {"win_type": "self_drawn"}, "thirteen_orphans", 2000),
    ("123456789s ESW N +N", {}, "wind_snake", 1000),
    ("123456789m RGWh E +E", {}, "dragon_snake", 1000),
    ("1234567p ESWN RG +Wh", {}, "imperial_court", 1000),
    ("EE SS WW NN RR GG Wh +Wh", {}, "honour_twins", 2000),
    ("22m 33m 44m 55m 66m 88m 7m +7m", {}, "pure_twins", 1000),
    ("11m 99m EE SS WW NN R +R", {}, "very_clean_twins", 1000),
    ("22m 55m 77m 88m EE RR Wh +Wh", {}, "clean_twins", 500),
    ("22m 55p 77s 88m EE RR Wh +Wh", {}, "seven_twins", 250),
    ("[EEE] [SSS] [WWW] NNN 2m +2m", {}, "four_winds", 2000),
    ("[RRR] [GGG] WhWhWh 234m 5s +5s", {}, "three_dragons", 2000),
    ("[234s] 666s 888s GG 22s +G", {}, "jade", 2000),
    ("{2222m} {5555p} {8888s} {EEEE} 9m +9m", {}, "four_concealed_kongs", 2000),
    ("[111m] [999p] 111s 999s 9m +9m", {}, "head_and_tail", 2000),
    ("[111p] 234p 567p 999p 8p +8p", {}, "winding_snake", 1000),
    ("123m 456p 789s 234s 5m +5m", {"seat": "E", "win_type": "self_drawn", "special": ["heavenly"]},
     "heavenly_hand", 2000),
    ("123m 456p 789s 234s 5m +5m", {"special": ["earth"]}, "earth_hand", 1000),
]


@pytest.mark.parametrize("notation, kwargs, code, value", LIMIT_HANDS)
def test_every_limit_hand(notation, kwargs, code, value):
    answer = score(notation, **kwargs)
    assert answer["valid"], answer
    assert (answer["limit_hand"], answer["final"], answer["total_before_limit"]) == (code, value, value)
    assert answer["base_points"] == [] and answer["doublings"] == []


def test_all_eighteen_limit_hands_have_rules():
    limits = [r for r in RULES.values() if r.kind == "limit"]
    assert len(limits) == 18
    # every limit row is made by a hand above: no row carries a test that never applies
    assert {code for _, _, code, _ in LIMIT_HANDS} == {r.code for r in limits}


def test_limit_hand_needs_no_doublings_and_ignores_bonus_tiles():
    # jade with a green-dragon pair: one doubling only, still legal (§7 DECISION)
    assert score("[234s] [666s] 888s 234s G +G")["limit_hand"] == "jade"
    answer = score("22m 55p 77s 88m EE RR Wh +Wh / f2 j2", ruleset="nts-app")
    assert (answer["limit_hand"], answer["final"]) == ("seven_twins", 250)


def test_ordinary_score_beats_a_lower_limit_hand():
    # pure twins (1000) that also form a regular pure hand: 123 123 456 456 77m
    # = (20 + 2 + 2) x 2^(3 + 1 + 2) = 1536 (pure, four chows, hidden treasure)
    answer = score("112233m 445566m 7m +7m", win_type="self_drawn")
    assert answer["limit_hand"] is None and answer["final"] == 1536


def test_irregular_hands_must_be_fully_concealed():
    assert score("[EEE] 1m9m1p9p1s9sSWNR +Wh")["reason"] == "no_valid_hand"


def test_twins_with_four_identical_tiles_follow_the_config_switch():
    assert score("EE EE WW NN RR GG Wh +Wh")["limit_hand"] == "honour_twins"
    off = score("EE EE WW NN RR GG Wh +Wh", config={"twins_allow_duplicate_pairs": False})
    assert off["reason"] == "no_valid_hand"


def test_pe_ling_in_seven_twins():
    answer = score("22m 55p 77s 88m EE RR 1s +1p")
    assert (answer["limit_hand"], answer["final"]) == ("seven_twins", 250)


def test_pe_ling_needs_the_cake_to_close_the_pair():
    # 1p completes 111s as a pung in the pe-ling reading: not allowed
    answer = score("[RRR] [GGG] 234m 99s 11s +1p")
    assert answer["valid"] is False and answer["reason"] == "no_valid_hand"


@pytest.mark.parametrize("special, tile, code, n", [
    (["kong_replacement"], "9m", "kong_replacement", 1),
    (["kong_on_kong"], "9m", "kong_on_kong", 2),
])
def test_kong_moments(special, tile, code, n):
    answer = score(f"[RRR] {{7777m}} [3333s] 456p {tile} +{tile}", win_type="self_drawn", special=special)
    assert [code, n] in answer["doublings"]


def test_kong_on_kong_with_five_circle_counts_plum_blossom_once():
    answer = score("[RRR] {7777m} {3333s} 456p 5p +5p", win_type="self_drawn", special=["kong_on_kong"])
    assert answer["doublings"] == [["dragon_set:R", 1], ["plum_blossom", 3]]


def test_last_wall_tile_needs_a_self_draw():
    drawn = score("[RRR] 234m 345s 789p 2p +2p", win_type="self_drawn", special=["last_wall_tile"])
    assert ["last_wall_tile", 1] in drawn["doublings"]
    discard = score("[RRR] [GGG] 345s 789p 2p +2p", special=["last_wall_tile"])
    assert not any(code == "last_wall_tile" for code, _ in discard["doublings"])


def test_hidden_treasure_allows_declared_concealed_kongs():
    answer = score("{7777m} RRR 345s 789p 2p +2p", win_type="self_drawn")
    assert ["hidden_treasure", 2] in answer["doublings"]
    assert not any(c == "hidden_treasure" for c, _ in score("[7777m] RRR 345s 789p 2p +2p",
                                                            win_type="self_drawn")["doublings"])


def test_four_concealed_pungs_replace_three():
    answer = score("222m 555p 888s RRR 9p +9p", win_type="self_drawn")
    codes = [c for c, _ in answer["doublings"]]
    assert "four_concealed_pungs" in codes and "three_concealed_pungs" not in codes


def test_open_kong_counts_as_concealed_pung_only_when_switched_on():
    hand = "[5555m] {7777p} RRR 234s 3p +3p"
    assert "three_concealed_pungs" not in [c for c, _ in score(hand)["doublings"]]
    on = score(hand, config={"open_kong_counts_as_concealed_pung": True})
    assert "three_concealed_pungs" in [c for c, _ in on["doublings"]]


def test_wind_pairs_score_in_nts_but_not_in_nts_app_unless_switched():
    hand = "[RRR] [GGG] 234m 567p E +E"
    assert ["pair_seat_wind:E", 2] in score(hand, seat="E")["base_points"]
    app = score(hand, seat="E", ruleset="nts-app")["base_points"]
    assert not any(c.startswith(("pair_seat", "pair_prevailing")) for c, _ in app)
    on = score(hand, seat="E", ruleset="nts-app", config={"wind_pair_points": True})
    assert ["pair_seat_wind:E", 2] in on["base_points"]


def test_limit_and_minimum_are_switches():
    assert score("[EEE] [NNN] [RRR] WWW Wh +Wh", win_type="self_drawn", config={"limit": 1000})["final"] == 1000
    assert score("[RRR] 234m567p345s8p +8p", config={"min_doublings": 1})["final"] == 52


def test_unknown_config_switch_is_refused():
    answer = score("[RRR] [GGG] 234m 567p E +E", config={"limits": 1000})
    assert answer["reason"] == "syntax" and "limits" in answer["message"]


@pytest.mark.parametrize("notation, kwargs, reason", [
    ("[RRR] [GGG] 234m 567p +9s", {}, "tile_count"),
    ("[555p] 5p67p234mGGG9s +5p", {}, "too_many_copies"),
    ("[ESW] [RRR] 234m 88s 56p +7p", {}, "invalid_meld"),
    ("[RRf1] 234m 88s 567p 56p +7p", {"ruleset": "nts-app"}, "invalid_meld"),
    ("[XRR] 234m 88s 567p 56p +7p", {}, "invalid_meld"),
    ("{555p} [RRR] 234m 88s 67p +8p", {}, "invalid_meld"),
    ("[RRR] X234m 88s 567p 6p +7p", {}, "face_down_tile"),
    ("[RRR] 234m 88s 567p 56p +X", {}, "face_down_tile"),
    ("[RRR] [GGG] 234m 567p Wh +Wh / f1", {}, "bonus_tiles_not_allowed"),
    ("[RRR] [GGG] 234m 567p Wh +Wh / f1 f1", {"ruleset": "nts-app"}, "duplicate_bonus_tile"),
    ("[RRR] [GGG] 234m 568p Wh +Wh", {}, "no_valid_hand"),
    ("123m 456p 789s 234s 5m +5m", {"special": ["heavenly"], "win_type": "self_drawn"}, "special_condition"),
    ("123m 456p 789s 234s 5m +5m", {"seat": "E", "special": ["earth"]}, "special_condition"),
    ("123m 456p 789s 234s 5m +5m", {"special": ["earth"], "win_type": "self_drawn"}, "special_condition"),
    ("[RRR] 456p 234s 567m 5p +5p", {"special": ["kong_replacement"], "win_type": "self_drawn"},
     "special_condition"),
    ("[RRR] 234m567p345s8p +8p", {}, "min_doublings"),
])
def test_validation_codes(notation, kwargs, reason):
    answer = score(notation, **kwargs)
    assert answer["valid"] is False
    assert answer["reason"] == reason, answer
    assert answer["message"]


def test_missing_winning_tile_is_a_syntax_error():
    answer = score_request({"ruleset": "nts", "prevailing_wind": "E",
                            "hand": {"seat_wind": "S", "melds": [], "concealed": "123m456p789s234s55m",
                                     "win_type": "discard"}})
    assert answer["reason"] == "syntax" and "winning tile" in answer["message"]


def test_non_winner_hand_alone_gets_its_own_score():
    answer = score("RRR 147m258p369sWh", seat="E", win_type=None)
    assert (answer["final"], answer["base_points"]) == (16, [["pung_th_concealed:R", 8]])


def test_non_winner_with_wrong_tile_count_is_dead():
    answer = score("RRR 147m258p369sWhWh", seat="E", win_type=None)
    assert answer["valid"] and answer["dead"] and answer["final"] == 0


@pytest.mark.parametrize("concealed, code, half", [
    ("1m9m1p9p1s9sESWNRGWh", "thirteen_orphans", 1000),
    ("123456789s ESW N", "wind_snake", 500),
    ("22m55m77s99sEEWWS", "seven_twins", 125),
    ("1234567p ESWN RG", "imperial_court", 500),
])
def test_half_limit_for_a_non_winner_one_tile_away(concealed, code, half):
    answer = score(concealed, win_type=None)
    assert (answer["half_limit"], answer["final"]) == (code, half)


def test_table_with_too_many_copies_over_all_hands():
    players = {
        "S": {"melds": ["[GGG]", "[SSS]"], "concealed": "234m567pWh", "winning_tile": "Wh", "win_type": "discard"},
        "E": {"concealed": "RRR147m258p369sWh"},
        "W": {"concealed": "RRR147m258p369sWh"},
        "N": {"concealed": "369m147p258sEWNR"},
    }
    answer = score_request({"ruleset": "nts", "prevailing_wind": "E", "outcome": "mahjong", "winner": "S",
                            "players": players})
    assert answer["valid"] is False and answer["reason"] == "too_many_copies"
    assert "R appears" in answer["message"] or "Wh appears" in answer["message"]


def test_table_names_the_seat_of_an_invalid_hand():
    players = {"S": {"melds": ["[GGG]", "[SSS]"], "concealed": "234m567pWh", "winning_tile": "Wh",
                     "win_type": "discard"},
               "E": {"melds": ["[ESW]"], "concealed": "147m258p369s1m"}}
    answer = score_request({"ruleset": "nts", "prevailing_wind": "E", "outcome": "mahjong", "winner": "S",
                            "players": players})
    assert answer["reason"] == "invalid_meld" and answer["message"].startswith("E:")


def test_partial_table_scores_the_given_hands_and_settles_with_given_scores():
    players = {"S": {"melds": ["[GGG]", "[SSS]"], "concealed": "234m567pWh", "winning_tile": "Wh",
                     "win_type": "discard"}, "E": {"concealed": "RRR147m258p369sWh"}}
    answer = score_request({"ruleset": "nts", "prevailing_wind": "E", "outcome": "mahjong", "winner": "S",
                            "players": players, "given_scores": {"W": 0, "N": 2}})
    assert answer["scores"]["S"]["final"] == 136 and answer["scores"]["E"]["final"] == 16
    assert answer["settlement"] == {"E": -212, "S": 544, "W": -170, "N": -162}     # as SET-02
    no_settle = score_request({"ruleset": "nts", "prevailing_wind": "E", "outcome": "mahjong", "winner": "S",
                               "players": players})
    assert no_settle["settlement"] is None and "W, N" in no_settle["message"]


def test_east_winner_capped_collects_4000_from_each():
    assert settle_scores({"E": 2000, "S": 0, "W": 0, "N": 0}, "E") == {"E": 12000, "S": -4000, "W": -4000,
                                                                      "N": -4000}


def test_every_rule_has_both_labels_and_codes_are_unique():
    assert len(RULES) == len(ALL_RULES)
    for rule in RULES.values():
        assert rule.en and rule.nl and rule.en != rule.code
    assert label("dragon_set:R") == "Pung/kong of dragons (red)"
    assert label("pung_th_open:9s", "nl") == "Open pung van hoekstenen, winden of draken (9 bamboes)"
    assert label("unknown_code") == "unknown code"


def test_wait_counts_the_tiles_before_winning_only():
    # 111m 23m waits on 1m and 4m (and 9p): winning on the fourth 1m is not the only possible tile
    answer = score("[RRR] [GGG] 111m 23m 99p +1m")
    assert answer["wait"] == ["1m", "4m", "9p"]
    assert "only_possible_tile" not in [c for c, _ in answer["base_points"]]


def test_only_possible_tile_for_a_closed_wait():
    answer = score("[RRR] [GGG] 13m 555p 99s +2m")
    assert answer["wait"] == ["2m"] and ["only_possible_tile", 2] in answer["base_points"]


def test_typed_api_checks_the_context():
    from mjscore.scoring import Context, parse_hand, score_hand
    hand = parse_hand("[RRR] [GGG] 234m 567p Wh +Wh")
    assert score_hand(hand, Context("S", "E", "discard")).final == 272
    bad = score_hand(hand, Context("Q", "E", "discard"))
    assert (bad.valid, bad.reason) == (False, "syntax") and "'Q'" in bad.message
    assert score_hand(hand, Context("S", "E", "ron")).reason == "syntax"


def test_typed_api_refuses_a_suit_tile_among_the_bonus_tiles():
    """The parser and the JSON form refuse ``/ 2m`` with a position; a Hand built in code (the
    photo scan builds its hands so) gets the same refusal from the engine, not a 2m scored
    as if it were a flower (session 37)."""
    from mjscore.scoring import Context, parse_hand, score_hand
    from mjscore.scoring.model import Hand
    hand = parse_hand("[EEE] 234m 4588s RRR +6s / j2")
    ctx = Context("E", "E", "self_drawn")
    assert score_hand(hand, ctx, "nts-app").valid
    bad = score_hand(Hand(hand.groups, hand.concealed, hand.winning_tile, ("2m", "j2")), ctx, "nts-app")
    assert (bad.valid, bad.reason) == (False, "syntax") and "2m" in bad.message


def test_one_flower_cannot_lie_before_two_players():
    players = {"S": {"melds": ["[GGG]", "[SSS]"], "concealed": "234m567pWh", "winning_tile": "Wh",
                     "win_type": "discard", "bonus": ["f2"]},
               "E": {"concealed": "RRR147m258p369sWh", "bonus": ["f2"]}}
    answer = score_request({"ruleset": "nts-app", "prevailing_wind": "E", "outcome": "mahjong", "winner": "S",
                            "players": players})
    assert answer["reason"] == "duplicate_bonus_tile" and "S" in answer["message"]


def test_labels_of_codes_no_rule_makes_are_shown_as_written():
    """A hand-edited session record may hold any code: its label never raises."""
    assert label("x:1z") == "x (1z)"
    assert label("pung_th_open:²p", "nl").endswith("(²p)")
    assert label("chow:3m", "nl").endswith("(3 tekens)")
