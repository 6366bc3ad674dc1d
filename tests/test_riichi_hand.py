"""Han/fu of riichi hands from tiles (``mahjong`` library with the EMA options of spec
§16.8). Every expected value is counted by hand in the comment above the hand, using the
EMA rules: fu = 20 base, +10 closed ron, +2 tsumo (not with pinfu), sets 2/4/8/16/32,
pair of dragons/own wind/round wind +2 each, kanchan/penchan/tanki +2, round up to 10;
seven pairs 25 fu; payments from the §16.2 tables."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mjscore.scoring.riichi import RiichiInputError, han_fu_from_hand, settle_riichi_request

# Closed hand 123m 456p 234s 99p + 78m waiting on 6m/9m (two-sided), wins on 9m.
PINFU_HAND = "123m 78m 456p 99p 234s +9m"


def test_riichi_tsumo_pinfu():
    # riichi 1 + menzen tsumo 1 + pinfu 1 = 3 han; pinfu tsumo = 20 fu (no tsumo fu).
    # Non-dealer tsumo 3 han 20 fu: 1300 / 700.
    value = han_fu_from_hand(PINFU_HAND, is_tsumo=True, riichi=True, seat_wind="S")
    assert (value.han, value.fu) == (3, 20)
    assert dict(value.yaku) == {"Riichi": 1, "Menzen Tsumo": 1, "Pinfu": 1}
    assert (value.cost.main, value.cost.additional, value.cost.total) == (1300, 700, 2700)
    assert not value.yakuman and value.limit == ""


def test_riichi_pinfu_ron_is_30_fu():
    # riichi 1 + pinfu 1 = 2 han; closed ron 20 + 10 = 30 fu. Non-dealer ron: 2000.
    value = han_fu_from_hand(PINFU_HAND, riichi=True, seat_wind="W")
    assert (value.han, value.fu, value.cost.main) == (2, 30, 2000)


def test_the_same_hand_in_library_compact_form_with_win_tile_apart():
    # 13 tiles + win_tile, honours not involved; 14 tiles with the win tile among them.
    thirteen = han_fu_from_hand("123m78m456p99p234s", "9m", riichi=True, is_tsumo=True,
                                seat_wind="S")
    fourteen = han_fu_from_hand("12378 9m456p99p234s", "9m", riichi=True, is_tsumo=True,
                                seat_wind="S")
    tokens = han_fu_from_hand(["1m", "2m", "3m", "7m", "8m", "4p", "5p", "6p", "9p", "9p",
                               "2s", "3s", "4s"], "9m", True, True, "S")
    assert (thirteen.han, thirteen.fu) == (fourteen.han, fourteen.fu) == (tokens.han, tokens.fu) == (3, 20)


def test_honours_in_z_notation_and_double_east():
    # Dealer, East round: EEE is a pung completed by ron (counts open: 4 fu), pair 55s.
    # Yakuhai seat wind 1 + round wind 1 = 2 han; 30 + 4 = 34 -> 40 fu; dealer ron 3900.
    value = han_fu_from_hand("11z 123m 456p 789s 55s", "1z", seat_wind="E", round_wind="E")
    assert (value.han, value.fu, value.cost.main) == (2, 40, 3900)
    same = han_fu_from_hand("EE 123m 456p 789s 55s +E", seat_wind="E", round_wind="E")
    assert (same.han, same.fu) == (2, 40)


def test_open_tanyao_counts_under_ema():
    # Chi 234m, ron on 8p: only yaku is tanyao (open allowed in EMA 2016) = 1 han;
    # open hand without fu gets +2 -> 22 -> 30 fu. Non-dealer ron 1000.
    value = han_fu_from_hand("[234m] 567p 234s 66s 67p +8p", seat_wind="N")
    assert (value.han, value.fu, value.cost.main) == (1, 30, 1000)
    assert value.is_open and value.yaku == (("Tanyao", 1),)


def test_no_kiriage_four_han_thirty_fu_is_7700():
    # riichi + pinfu + tanyao + 1 dora (indicator 1m -> dora 2m) = 4 han 30 fu.
    # EMA: no rounding up to mangan -> non-dealer ron 7700.
    value = han_fu_from_hand("234m 456p 345s 66s 78p +6p", riichi=True, dora=["1m"],
                             seat_wind="W")
    assert (value.han, value.fu, value.limit, value.cost.main) == (4, 30, "", 7700)


def test_seven_pairs_with_dora_is_mangan():
    # riichi 1 + chiitoitsu 2 + two dora (indicator 1m -> 2m, pair of 2m) = 5 han -> mangan,
    # 25 fu. Non-dealer ron 8000.
    value = han_fu_from_hand("22m 44m 66p 88p 22s EE R +R", riichi=True, dora=["1m"],
                             seat_wind="S")
    assert (value.han, value.fu, value.limit, value.cost.main) == (5, 25, "mangan", 8000)


def test_ura_dora_needs_riichi():
    with_riichi = han_fu_from_hand(PINFU_HAND, riichi=True, ura_dora=["8p"], seat_wind="S")
    without = han_fu_from_hand("123m 78m 456p 99p 234s +9m", is_tsumo=True, ura_dora=["8p"],
                               seat_wind="S")
    assert with_riichi.han == 2 + 2          # riichi, pinfu + two ura dora (9p pair)
    assert "Ura Dora" not in dict(without.yaku)


def test_kazoe_is_sanbaiman_not_yakuman():
    # Dealer tsumo 234 234 567 567 88m, win 5m (two-sided): riichi 1, tsumo 1, pinfu 1,
    # tanyao 1, ryanpeikou 3, chinitsu 6 = 13 han. EMA: counted 13 han = sanbaiman
    # (the library default would make it yakuman). Dealer tsumo sanbaiman: 12000 each.
    value = han_fu_from_hand("22334456677 88m +5m", riichi=True, is_tsumo=True)
    assert value.han == 13 and not value.yakuman
    assert (value.limit, value.kazoe, value.basic_points) == ("sanbaiman", True, 6000)
    assert (value.cost.main, value.cost.additional, value.cost.total) == (12000, 12000, 36000)


def test_yakuman_do_not_stack():
    # Four winds + all honours + four concealed pungs with pair wait: three yakuman by
    # the library's count; EMA pays one. Non-dealer tsumo yakuman: 16000 / 8000.
    value = han_fu_from_hand("EEE SSS WWW NNN Wh +Wh", is_tsumo=True, seat_wind="W")
    assert value.yakuman and value.han == 13 and value.limit == "yakuman"
    assert {name for name, _ in value.yaku} == {"Dai Suushii", "Tsuu Iisou", "Suu Ankou Tanki"}
    assert (value.cost.main, value.cost.additional, value.cost.total) == (16000, 8000, 32000)


def test_nine_gates_with_nine_waits_is_a_single_yakuman():
    value = han_fu_from_hand("1112345678999m +5m", seat_wind="S")
    assert value.yakuman and value.han == 13 and value.cost.main == 32000


def test_thirteen_orphans_has_no_fu_and_still_settles():
    # Kokushi with the East pair, waiting on 1m only: a yakuman, the library gives 0 fu.
    value = han_fu_from_hand("9m 19p 19s EESWNWhGR +1m", seat_wind="N")
    assert value.yakuman and value.yaku == (("Kokushi Musou", 13),)
    answer = settle_riichi_request({"result": {"type": "ron", "discarder": "E", "winners": [
        {"seat": "N", "han": value.han, "fu": value.fu, "yakuman": True}]}})
    assert answer["deltas"] == {"E": -32000, "S": 0, "W": 0, "N": 32000}


def test_big_three_dragons_dealer_ron():
    value = han_fu_from_hand("RRR GGG WhWhWh 11m 23m +4m", seat_wind="E")
    assert value.yaku == (("Daisangen", 13),)
    assert value.cost.main == 48000


def test_closed_kan_with_face_down_tiles_and_rinshan():
    # {X55pX} closed kan of 5p (16 fu), riichi + tsumo + rinshan = 3 han;
    # 20 + 16 + 2 (tsumo) = 38 -> 40 fu. Dealer tsumo 3 han 40 fu: 2600 each.
    value = han_fu_from_hand("{X55pX} 234m 678s 11s 23p +4p", riichi=True, is_tsumo=True,
                             special=["rinshan"])
    assert (value.han, value.fu) == (3, 40)
    assert (value.cost.main, value.cost.total) == (2600, 7800)


def test_value_feeds_the_settlement():
    value = han_fu_from_hand(PINFU_HAND, is_tsumo=True, riichi=True, seat_wind="S")
    answer = settle_riichi_request({"honba": 1, "pot_before": 0, "riichi_declared": ["S"],
                                    "result": {"type": "tsumo", "winner": "S",
                                               **value.to_request()}})
    # 1300/700 + 100 per payer for 1 counter; South paid and took back his stick.
    assert answer["deltas"] == {"E": -1400, "S": 3000, "W": -800, "N": -800}


@pytest.mark.parametrize("hand,kwargs,words", [
    ("[234m] 567p 234s 66s 78p +9p", {}, "no yaku"),
    ("123m 456p 789s 1s 2s 3s 4s +9s", {}, "winning hand"),
    ("11111m 456p 789s 23s +4s", {}, "more than four 1m"),
    ("123m 456p 789s +1s", {}, "tiles; a winning hand has 14"),
    ("123m 456p 789s 11s 23p", {}, "win_tile: missing"),
    ("123m 456p 789s 11s 23p +4p", {"win_tile": "5p"}, "win_tile"),
    ("[123m] 456p 789s 11s 23p +4p", {"riichi": True}, "riichi needs a closed hand"),
    ("123m 456p 789s 11s 23p +4p", {"special": ["ippatsu"]}, "ippatsu needs riichi"),
    ("123m 456p 789s 11s 23p +4p", {"special": ["renhou"]}, "special: unknown renhou"),
    ("123m 406p 789s 11s 23p +4p", {}, "red fives are not used (EMA); write 5 instead of 0 (token '0' at position 7)"),
    ("123m 456P 789s 11s 23p +4p", {}, "suit letters are lowercase: write 456p (token '456P' at position 6)"),
    ("123m 456p 789s 11s [23p +4p", {}, "group opened with '[' is not closed before '+' (token '[' at position 20)"),
    ("123m 456p 789s 11s 23p +4p / f1", {}, "no flowers"),
    ("[124m] 456p 789s 11s 23p +4p", {}, "not a chi, pon or kan"),
    ("X 23m 456p 789s 11s 23p +4p", {}, "face-down"),
    ("123m 456p 789s 11s 23p +4p", {"seat_wind": "Z"}, "seat_wind"),
    ("123m 456p 789s 11s 23p +4p", {"dora": ["1m2m"]}, "dora: expected one tile"),
    ("123m 456p 789s 11s 23p 8z +4p", {}, "honours are 1z-7z (E S W N, white, green, red) (token '8z' at position 24)"),
    ("123m 456p 789s 11s 23p +4p 5z", {}, "the winning tile is written last (only / bonus tiles may follow) "
                                          "(token '5z' at position 28)"),
    ("[X555p] 456p 789s 11s 23p +4p", {}, "face-down"),
    ("{XXXX} 456p 789s 11s 23p +4p", {}, "is not a closed kan"),
])
def test_bad_hands_are_refused_with_a_reason(hand, kwargs, words):
    with pytest.raises(RiichiInputError) as error:
        han_fu_from_hand(hand, **kwargs)
    assert words in str(error.value)


# -- cross-checks against the reference library -----------------------------------------

@settings(max_examples=200, deadline=None)
@given(han=st.integers(1, 12), fu=st.sampled_from([30, 40, 50, 60, 70, 80, 90, 100, 110]),
       dealer=st.booleans(), tsumo=st.booleans(), honba=st.integers(0, 5))
def test_settlement_agrees_with_the_library_score_calculator(han, fu, dealer, tsumo, honba):
    """The library's ScoresCalculator with the EMA options (§16.8) is an independent
    implementation of §16.2 + §16.3; both must give the same payments."""
    from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
    from mahjong.hand_calculating.scores import ScoresCalculator

    options = OptionalRules(has_double_yakuman=False, kiriage=False,
                            kazoe_limit=HandConstants.KAZOE_SANBAIMAN)
    config = HandConfig(is_tsumo=tsumo, player_wind=27 if dealer else 28, tsumi_number=honba,
                        options=options)
    library = ScoresCalculator.calculate_scores(han=han, fu=fu, config=config)
    winner = "E" if dealer else "S"
    result = ({"type": "tsumo", "winner": winner, "han": han, "fu": fu} if tsumo else
              {"type": "ron", "discarder": "N", "winners": [{"seat": winner, "han": han, "fu": fu}]})
    deltas = settle_riichi_request({"honba": honba, "result": result})["deltas"]
    assert deltas[winner] == library["total"]
    if tsumo:
        assert -deltas["W"] == library["additional"] + library["additional_bonus"]
        if not dealer:
            assert -deltas["E"] == library["main"] + library["main_bonus"]
    else:
        assert -deltas["N"] == library["main"] + library["main_bonus"]


TILE_TOKENS = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + ["E", "S", "W", "N", "Wh", "G", "R"]


@settings(max_examples=150, deadline=None)
@given(tiles=st.lists(st.sampled_from(TILE_TOKENS), min_size=14, max_size=14),
       tsumo=st.booleans(), riichi=st.booleans(), seat=st.sampled_from("ESWN"))
def test_random_hands_give_a_value_or_a_named_refusal(tiles, tsumo, riichi, seat):
    try:
        value = han_fu_from_hand(tiles[:13], tiles[13], tsumo, riichi, seat, "E")
    except RiichiInputError as error:
        assert error.field in ("hand", "win_tile")
    else:
        assert value.han >= 1 and value.cost.total > 0


def _group(chow: bool, kind: int) -> list[int]:
    if chow and kind < 27:
        start = kind - kind % 9 + min(kind % 9, 6)
        return [start, start + 1, start + 2]
    return [kind] * 3


@st.composite
def complete_hands(draw):
    """Four concealed sets and a pair with at most four copies of a tile, and which of
    the fourteen tiles was the winning one."""
    groups = draw(st.lists(st.tuples(st.booleans(), st.integers(0, 33)), min_size=4, max_size=4))
    pair = draw(st.integers(0, 33))
    tiles = [k for chow, kind in groups for k in _group(chow, kind)] + [pair, pair]
    assume(all(tiles.count(k) <= 4 for k in tiles))
    win = draw(st.sampled_from(tiles))
    names = [TILE_TOKENS[k] for k in tiles]
    names.remove(TILE_TOKENS[win])
    return names, TILE_TOKENS[win]


@settings(max_examples=120, deadline=None)
@given(hand=complete_hands(), tsumo=st.booleans(), riichi=st.booleans(),
       seat=st.sampled_from("ESWN"), round_wind=st.sampled_from("ES"))
def test_complete_hands_are_valued_and_settle_consistently(hand, tsumo, riichi, seat, round_wind):
    concealed, win = hand
    try:
        value = han_fu_from_hand(concealed, win, tsumo, riichi, seat, round_wind)
    except RiichiInputError as error:       # a complete hand can only lack a yaku
        assert "no yaku" in str(error) and not (tsumo or riichi)
        return
    assert value.fu in (20, 25) or (value.fu % 10 == 0 and 30 <= value.fu <= 110) or value.yakuman
    result = ({"type": "tsumo", "winner": seat, **value.to_request()} if tsumo else
              {"type": "ron", "discarder": "N" if seat != "N" else "E",
               "winners": [{"seat": seat, **value.to_request()}]})
    deltas = settle_riichi_request({"result": result})["deltas"]
    assert deltas[seat] == value.cost.total
