"""Riichi hand settlement (spec §16) against the 20 worked riichi cases of cases.json,
the four payment tables of §16.2 cell by cell, hand-worked extra situations (several
winners, kazoe, limits, chombo), input errors, and properties over random requests.

Expected values come from the spec (cases.json, the §16.2 tables copied below) or are
worked out by hand in the comments; none are produced by the engine itself."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjscore.scoring import score_request
from mjscore.scoring.riichi import RiichiInputError, settle_riichi_request, settlement_lines

CASES_FILE = Path(__file__).parent / "data" / "cases.json"
RIICHI_CASES = [c for c in json.loads(CASES_FILE.read_text(encoding="utf-8"))
                if c["ruleset"] == "riichi-settlement"]
SEATS = ("E", "S", "W", "N")


def test_all_twenty_riichi_cases_are_present():
    assert len(RIICHI_CASES) == 20


@pytest.mark.parametrize("case", RIICHI_CASES, ids=[c["id"] for c in RIICHI_CASES])
def test_riichi_case(case):
    answer = settle_riichi_request(case["input"])
    for key, expected in case["expected"].items():
        assert answer[key] == expected, f"{case['id']} {key}: {case['title']}"
    if "final_scores" in case["expected"]:
        assert set(answer) == {"final_scores"}
    else:
        assert set(answer) == {"deltas", "next", "payments"}


# -- §16.2 tables, copied from the spec ("-" = cannot occur) --------------------------

FU = (20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110)
TABLES = {
    "non_dealer_ron": """
        - - 1000 1300 1600 2000 2300 2600 2900 3200 3600
        - 1600 2000 2600 3200 3900 4500 5200 5800 6400 7100
        - 3200 3900 5200 6400 7700 8000 8000 8000 8000 8000
        - 6400 7700 8000 8000 8000 8000 8000 8000 8000 8000""",
    "non_dealer_tsumo": """
        - - 500/300 700/400 800/400 1000/500 1200/600 1300/700 1500/800 1600/800 1800/900
        700/400 - 1000/500 1300/700 1600/800 2000/1000 2300/1200 2600/1300 2900/1500 3200/1600 3600/1800
        1300/700 1600/800 2000/1000 2600/1300 3200/1600 3900/2000 4000/2000 4000/2000 4000/2000 4000/2000 4000/2000
        2600/1300 3200/1600 3900/2000 4000/2000 4000/2000 4000/2000 4000/2000 4000/2000 4000/2000 4000/2000 4000/2000""",
    "dealer_ron": """
        - - 1500 2000 2400 2900 3400 3900 4400 4800 5300
        - 2400 2900 3900 4800 5800 6800 7700 8700 9600 10600
        - 4800 5800 7700 9600 11600 12000 12000 12000 12000 12000
        - 9600 11600 12000 12000 12000 12000 12000 12000 12000 12000""",
    "dealer_tsumo": """
        - - 500 700 800 1000 1200 1300 1500 1600 1800
        700 - 1000 1300 1600 2000 2300 2600 2900 3200 3600
        1300 1600 2000 2600 3200 3900 4000 4000 4000 4000 4000
        2600 3200 3900 4000 4000 4000 4000 4000 4000 4000 4000""",
}


def table_cells():
    for table, text in TABLES.items():
        for han, row in enumerate(text.strip().splitlines(), start=1):
            for fu, cell in zip(FU, row.split(), strict=True):
                yield pytest.param(table, han, fu, cell, id=f"{table}-{han}han-{fu}fu")


def hand_request(table: str, han: int, fu: int) -> dict:
    winner = "E" if table.startswith("dealer") else "S"
    value = {"han": han, "fu": fu}
    if table.endswith("ron"):
        result = {"type": "ron", "discarder": "W", "winners": [{"seat": winner, **value}]}
    else:
        result = {"type": "tsumo", "winner": winner, **value}
    return {"honba": 0, "pot_before": 0, "result": result}


@pytest.mark.parametrize("table,han,fu,cell", list(table_cells()))
def test_payment_table_cell(table, han, fu, cell):
    request = hand_request(table, han, fu)
    if cell == "-":
        with pytest.raises(RiichiInputError, match="fu"):
            settle_riichi_request(request)
        return
    deltas = settle_riichi_request(request)["deltas"]
    if table == "non_dealer_ron":
        assert deltas == {"E": 0, "S": int(cell), "W": -int(cell), "N": 0}
    elif table == "dealer_ron":
        assert deltas == {"E": int(cell), "S": 0, "W": -int(cell), "N": 0}
    elif table == "non_dealer_tsumo":
        dealer, other = map(int, cell.split("/"))
        assert deltas == {"E": -dealer, "S": dealer + 2 * other, "W": -other, "N": -other}
    else:
        each = int(cell)
        assert deltas == {"E": 3 * each, "S": -each, "W": -each, "N": -each}


@pytest.mark.parametrize("han,fu,yakuman,ron,tsumo", [
    # limits of §16.1 / §16.2: non-dealer ron, non-dealer tsumo (dealer/other)
    (5, None, False, 8000, (4000, 2000)),
    (6, 30, False, 12000, (6000, 3000)),
    (7, None, False, 12000, (6000, 3000)),
    (8, None, False, 16000, (8000, 4000)),
    (10, 40, False, 16000, (8000, 4000)),
    (11, None, False, 24000, (12000, 6000)),
    (12, None, False, 24000, (12000, 6000)),
    (13, 30, False, 24000, (12000, 6000)),      # kazoe: sanbaiman under EMA, not yakuman
    (17, None, False, 24000, (12000, 6000)),
    (13, None, True, 32000, (16000, 8000)),
    (26, None, True, 32000, (16000, 8000)),      # yakuman do not stack
])
def test_limits(han, fu, yakuman, ron, tsumo):
    value = {"han": han, **({"fu": fu} if fu else {}), **({"yakuman": True} if yakuman else {})}
    ron_answer = settle_riichi_request(
        {"result": {"type": "ron", "discarder": "N", "winners": [{"seat": "W", **value}]}})
    assert ron_answer["deltas"] == {"E": 0, "S": 0, "W": ron, "N": -ron}
    tsumo_answer = settle_riichi_request({"result": {"type": "tsumo", "winner": "W", **value}})
    dealer, other = tsumo
    assert tsumo_answer["deltas"] == {"E": -dealer, "S": -other, "W": dealer + 2 * other,
                                      "N": -other}


def test_yakuman_without_han_is_accepted():
    answer = settle_riichi_request({"result": {"type": "ron", "discarder": "S",
                                               "winners": [{"seat": "E", "yakuman": True}]}})
    assert answer["deltas"]["E"] == 48000


def test_several_winners_counters_and_sticks():
    # Worked by hand (§16.3/§16.4): 1 counter, 1 old stick, West declares riichi now.
    # North discards; South 3 han 30 fu (3900 + 300) and West 1 han 40 fu (1300 + 300)
    # win. West takes his own stick back; the old stick goes to the first winner after
    # North in turn order (N -> E -> S): South. East (dealer) did not win: deal passes.
    answer = settle_riichi_request({
        "honba": 1, "pot_before": 1, "riichi_declared": ["W"],
        "result": {"type": "ron", "discarder": "N",
                   "winners": [{"seat": "W", "han": 1, "fu": 40},
                               {"seat": "S", "han": 3, "fu": 30}]}})
    assert answer["deltas"] == {"E": 0, "S": 5200, "W": 1600, "N": -5800}
    assert answer["next"] == {"dealer_stays": False, "honba": 0, "pot": 0}
    assert answer["payments"] == "N pays W 1300 + 300, N pays S 3900 + 300"


def test_several_winners_first_in_turn_order_takes_the_other_sticks():
    # West discards; North and South win. Turn order after West: N, E, S -> North takes
    # the 2 old sticks and East's new stick; South takes his own back. East is not a
    # winner, so the 2 counters go and the dealer passes.
    answer = settle_riichi_request({
        "honba": 2, "pot_before": 2, "riichi_declared": ["E", "S"],
        "result": {"type": "ron", "discarder": "W",
                   "winners": [{"seat": "S", "han": 2, "fu": 30},
                               {"seat": "N", "han": 1, "fu": 30}]}})
    # S: 2000 + 600 + own stick back (paid 1000, got 1000) = +2600
    # N: 1000 + 600 + 3 sticks = +4600; E: -1000 (his stick); W: -(2600 + 1600)
    assert answer["deltas"] == {"E": -1000, "S": 2600, "W": -4200, "N": 4600}
    assert answer["next"] == {"dealer_stays": False, "honba": 0, "pot": 0}


def test_dealer_among_several_winners_stays_and_adds_a_counter():
    # §16.6 / §17.23: dealer East and West win on North's discard, 1 counter.
    # East: 2 han 30 fu dealer ron 2900 + 300; West: 1 han 30 fu 1000 + 300.
    # Pot 1 goes to the first winner after North: East.
    answer = settle_riichi_request({
        "honba": 1, "pot_before": 1,
        "result": {"type": "ron", "discarder": "N",
                   "winners": [{"seat": "E", "han": 2, "fu": 30},
                               {"seat": "W", "han": 1, "fu": 30}]}})
    assert answer["deltas"] == {"E": 4200, "S": 0, "W": 1300, "N": -4500}
    assert answer["next"] == {"dealer_stays": True, "honba": 2, "pot": 0}


def test_tsumo_winner_who_declared_riichi_gets_his_stick_back_with_the_pot():
    # South declares riichi and wins by tsumo 1 han 30 fu + riichi... entered as 2 han
    # 30 fu: dealer 1000, others 500; with 1 old stick: +1000 +500 +500 -1000 +2000.
    answer = settle_riichi_request({
        "honba": 0, "pot_before": 1, "riichi_declared": ["S"],
        "result": {"type": "tsumo", "winner": "S", "han": 2, "fu": 30}})
    assert answer["deltas"] == {"E": -1000, "S": 3000, "W": -500, "N": -500}
    assert answer["next"] == {"dealer_stays": False, "honba": 0, "pot": 0}


def test_chombo_gives_back_this_hands_sticks_only():
    answer = settle_riichi_request({
        "honba": 3, "pot_before": 1, "riichi_declared": ["E", "S"],
        "result": {"type": "chombo", "offender": "S"}})
    assert answer["deltas"] == {seat: 0 for seat in SEATS}
    assert answer["next"] == {"dealer_stays": True, "honba": 3, "pot": 1}


def test_draw_with_two_riichi_keeps_the_sticks_on_the_table():
    # Both riichi players tenpai: +1500 each -1000 stick; the noten pay 1500 each.
    answer = settle_riichi_request({
        "honba": 0, "pot_before": 1, "riichi_declared": ["S", "N"],
        "result": {"type": "draw", "tenpai": ["S", "N"]}})
    assert answer["deltas"] == {"E": -1500, "S": 500, "W": -1500, "N": 500}
    assert answer["next"] == {"dealer_stays": False, "honba": 1, "pot": 3}


def test_game_end_three_way_tie_is_split_without_rounding():
    answer = settle_riichi_request({"game_end": {
        "scores": {"E": 25000, "S": 25000, "W": 25000, "N": 24000}, "pot": 1}})
    share = 1000 / 3
    assert answer["final_scores"]["N"] == 24000
    for seat in ("E", "S", "W"):
        assert answer["final_scores"][seat] == pytest.approx(25000 + share)


def test_game_end_without_sticks_changes_nothing():
    scores = {"E": 10000, "S": 40000, "W": 30000, "N": 20000}
    assert settle_riichi_request({"game_end": {"scores": scores, "pot": 0}}) == {
        "final_scores": scores}


# -- input errors name the field -------------------------------------------------------

GOOD_RON = {"type": "ron", "discarder": "W", "winners": [{"seat": "S", "han": 2, "fu": 30}]}


@pytest.mark.parametrize("request_,field", [
    ("not a dict", "input"),
    ({"honba": 0}, "result"),
    ({"honba": -1, "result": GOOD_RON}, "honba"),
    ({"honba": True, "result": GOOD_RON}, "honba"),
    ({"honba": 1.5, "result": GOOD_RON}, "honba"),
    ({"pot_before": "2", "result": GOOD_RON}, "pot_before"),
    ({"riichi_declared": "S", "result": GOOD_RON}, "riichi_declared"),
    ({"riichi_declared": ["S", "S"], "result": GOOD_RON}, "riichi_declared"),
    ({"riichi_declared": ["X"], "result": GOOD_RON}, "riichi_declared[0]"),
    ({"result": GOOD_RON, "ruleset": "nts"}, "ruleset"),
    ({"result": GOOD_RON, "dealer": "E"}, "dealer"),
    ({"result": {"type": "win"}}, "result.type"),
    ({"result": {"type": "ron", "discarder": "Q", "winners": []}}, "result.discarder"),
    ({"result": {"type": "ron", "discarder": "W", "winners": []}}, "result.winners"),
    ({"result": {"type": "ron", "discarder": "W",
                 "winners": [{"seat": "W", "han": 1, "fu": 30}]}}, "result.winners[0].seat"),
    ({"result": {"type": "ron", "discarder": "W",
                 "winners": [{"seat": "S", "han": 1, "fu": 30},
                             {"seat": "S", "han": 1, "fu": 30}]}}, "result.winners[1].seat"),
    ({"result": {"type": "ron", "discarder": "W",
                 "winners": [{"seat": s, "han": 1, "fu": 30} for s in "ESNE"]}},
     "result.winners"),
    ({"result": {"type": "ron", "discarder": "W",
                 "winners": [{"seat": "S", "han": 0, "fu": 30}]}}, "result.winners[0].han"),
    ({"result": {"type": "ron", "discarder": "W",
                 "winners": [{"seat": "S", "han": 3}]}}, "result.winners[0].fu"),
    ({"result": {"type": "ron", "discarder": "W",
                 "winners": [{"seat": "S", "han": 3, "fu": 35}]}}, "result.winners[0].fu"),
    ({"result": {"type": "ron", "discarder": "W",
                 "winners": [{"seat": "S", "han": 3, "fu": 20}]}}, "result.winners[0].fu"),
    ({"result": {"type": "ron", "discarder": "W",
                 "winners": [{"seat": "S", "han": 3, "fu": 30, "dora": 1}]}},
     "result.winners[0].dora"),
    ({"result": {"type": "tsumo", "winner": "S", "han": 2, "fu": 25}}, "result.fu"),
    ({"result": {"type": "tsumo", "winner": "S", "han": 2, "fu": 30, "yakuman": "yes"}},
     "result.yakuman"),
    ({"result": {"type": "tsumo", "han": 2, "fu": 30}}, "result.winner"),
    ({"result": {"type": "tsumo", "winner": "S", "han": 2, "fu": 30, "discarder": "W"}},
     "result.discarder"),
    ({"result": {"type": "draw", "tenpai": "E"}}, "result.tenpai"),
    ({"riichi_declared": ["W"], "result": {"type": "draw", "tenpai": ["E"]}}, "result.tenpai"),
    ({"result": {"type": "chombo"}}, "result.offender"),
    ({"game_end": {"scores": {"E": 1, "S": 2, "W": 3}, "pot": 0}}, "game_end.scores"),
    ({"game_end": {"scores": {"E": 1, "S": 2, "W": 3, "N": "x"}, "pot": 0}},
     "game_end.scores.N"),
    ({"game_end": {"scores": {"E": 1, "S": 2, "W": 3, "N": 4}, "pot": -1}}, "game_end.pot"),
    ({"game_end": {"scores": {"E": 1, "S": 2, "W": 3, "N": 4}}, "honba": 1}, "honba"),
])
def test_invalid_input_names_the_field(request_, field):
    with pytest.raises(RiichiInputError) as error:
        settle_riichi_request(request_)
    assert error.value.field == field
    assert str(error.value).startswith(f"{field}: ")
    if isinstance(request_, dict) and "ruleset" not in request_:           # the JSON contract answers
        assert score_request({"ruleset": "riichi-settlement", **request_}) == {
            "valid": False, "reason": error.value.code, "message": str(error.value), "field": field}


@pytest.mark.parametrize("request_, reason, message", [
    ({"result": {"type": "ron", "discarder": "W", "winners": [{"seat": "W", "han": 1, "fu": 30}]}},
     "impossible_result", "result.winners[0].seat: W cannot win on his own discard"),
    ({"result": {"type": "ron", "discarder": "W", "winners": [{"seat": "S", "han": 2, "fu": 20}]}},
     "impossible_result", "result.winners[0].fu: 20 fu only occurs on a tsumo (pinfu); a ron is at least "
                          "30 fu (seven pairs 25)"),
    ({"riichi_declared": ["W"], "result": {"type": "draw", "tenpai": ["E"]}},
     "impossible_result", "result.tenpai: W declared riichi but is not tenpai; a noten riichi at the draw is a chombo"),
    ({"honba": 10 ** 5000, "result": {"type": "chombo", "offender": "E"}},
     "syntax", "honba: <a number of 16610 bits> is more than 1000000000"),
    ({"game_end": {"scores": {"E": float("inf"), "S": 2, "W": 3, "N": 4}, "pot": 0}},
     "syntax", "game_end.scores.E: inf is not a number from -1000000000 to 1000000000"),
    ({"result": {"type": [[[["ron"]]]]}}, "syntax", "result.type: [[[[...]]]] is not one of ron, tsumo, draw, chombo"),
])
def test_refusals_say_whether_the_request_is_malformed_or_cannot_happen(request_, reason, message):
    assert score_request({"ruleset": "riichi-settlement", **request_}) == {
        "valid": False, "reason": reason, "message": message, "field": message.split(":")[0]}


# -- explanation -------------------------------------------------------------------------


def test_settlement_lines_explain_seed_example_one_in_both_languages():
    request = next(c for c in RIICHI_CASES if c["id"] == "RII-01")["input"]
    assert settlement_lines(request, "en") == [
        "South wins by ron on West's discard: 2 han 30 fu, basic points 480.",
        "West pays South 2000 + 600 for 2 counters = 2600.",
        "Result: East 0, South +2600, West −2600, North 0.",
        "Next hand: the deal passes to South; 0 counters; pot 0 riichi sticks.",
    ]
    assert settlement_lines(request, "nl")[1] == (
        "West betaalt Zuid 2000 + 600 voor 2 telstokjes (honba) = 2600.")


def test_settlement_lines_name_the_sticks_and_the_tie():
    sticks = next(c for c in RIICHI_CASES if c["id"] == "RII-17")["input"]
    assert "North takes 3 riichi sticks = 3000." in settlement_lines(sticks, "en")
    tie = next(c for c in RIICHI_CASES if c["id"] == "RII-26")["input"]
    assert settlement_lines(tie, "nl")[0] == (
        "Einde van het spel: 1 riichi-stokje (1000) verdeeld tussen Oost en Zuid, "
        "gedeeld eerste: 500 elk.")


def test_settlement_lines_refuse_an_unknown_language():
    with pytest.raises(RiichiInputError, match="lang"):
        settlement_lines(RIICHI_CASES[0]["input"], "fr")


# -- properties ----------------------------------------------------------------------

seats = st.sampled_from(SEATS)
han_fu = st.one_of(
    st.builds(lambda han, fu: {"han": han, "fu": fu}, st.integers(1, 4),
              st.sampled_from([30, 40, 50, 60, 70, 80, 90, 100, 110])),
    st.builds(lambda han: {"han": han}, st.integers(5, 20)),
    st.just({"han": 13, "yakuman": True}),
    st.just({"han": 2, "fu": 25}),
)


@st.composite
def hand_requests(draw):
    kind = draw(st.sampled_from(["ron", "tsumo", "draw", "chombo"]))
    declared = draw(st.lists(seats, unique=True))
    if kind == "ron":
        discarder = draw(seats)
        winners = draw(st.lists(st.sampled_from([s for s in SEATS if s != discarder]),
                                min_size=1, max_size=3, unique=True))
        result = {"type": "ron", "discarder": discarder,
                  "winners": [{"seat": w, **draw(han_fu)} for w in winners]}
    elif kind == "tsumo":
        value = draw(han_fu | st.just({"han": 2, "fu": 20}))
        if value.get("fu") == 25:
            value = {"han": 3, "fu": 25}
        result = {"type": "tsumo", "winner": draw(seats), **value}
    elif kind == "draw":
        tenpai = draw(st.lists(seats, unique=True))
        result = {"type": "draw", "tenpai": sorted(set(tenpai) | set(declared))}
    else:
        result = {"type": "chombo", "offender": draw(seats)}
    return {"honba": draw(st.integers(0, 12)), "pot_before": draw(st.integers(0, 8)),
            "riichi_declared": declared, "result": result}


@settings(max_examples=300, deadline=None)
@given(hand_requests())
def test_money_is_conserved_with_the_pot(request_):
    answer = settle_riichi_request(request_)
    deltas, after = answer["deltas"], answer["next"]
    assert set(deltas) == set(SEATS)
    assert sum(deltas.values()) == 1000 * (request_["pot_before"] - after["pot"])
    kind = request_["result"]["type"]
    if kind in ("ron", "tsumo"):
        assert after["pot"] == 0
        winners = ([w["seat"] for w in request_["result"]["winners"]] if kind == "ron"
                   else [request_["result"]["winner"]])
        assert all(deltas[w] > 0 for w in winners)
        assert after["dealer_stays"] == ("E" in winners)
        assert after["honba"] == (request_["honba"] + 1 if "E" in winners else 0)
    elif kind == "draw":
        assert after["pot"] == request_["pot_before"] + len(request_["riichi_declared"])
        assert after["honba"] == request_["honba"] + 1
    else:
        assert after == {"dealer_stays": True, "honba": request_["honba"],
                         "pot": request_["pot_before"]}
    assert all(line for line in settlement_lines(request_, "nl"))


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.text(max_size=3), st.integers() | st.text(max_size=3) | st.none(),
                       max_size=4),
       st.sampled_from(["ron", "tsumo", "draw", "chombo", "x"]))
def test_garbage_never_crashes_with_anything_but_an_input_error(noise, kind):
    request_ = {"result": {"type": kind, **noise}}
    try:
        settle_riichi_request(request_)
    except RiichiInputError as error:
        assert error.field


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-50000, 100000), min_size=4, max_size=4), st.integers(0, 10))
def test_game_end_hands_out_exactly_the_pot(scores, pot):
    request_ = {"game_end": {"scores": dict(zip(SEATS, scores)), "pot": pot}}
    final = settle_riichi_request(request_)["final_scores"]
    assert sum(final.values()) == pytest.approx(sum(scores) + 1000 * pot)
    top = max(scores)
    for seat, before in zip(SEATS, scores):
        if before < top:
            assert final[seat] == before
        else:
            assert final[seat] >= before
