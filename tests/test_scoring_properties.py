"""Properties of the engine over generated input (hypothesis): settlements balance,
the order of concealed tiles never matters, notation round-trips, random hands never crash."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjscore.scoring import Group, Hand, format_hand, parse_hand, score_request, settle_scores
from mjscore.scoring.api import hand_to_json
from mjscore.scoring.notation import canonical_group
from mjscore.scoring.tiles import BONUS, TILES

SEATS = ("E", "S", "W", "N")
CODES = {"syntax", "invalid_meld", "face_down_tile", "too_many_copies", "duplicate_bonus_tile",
         "bonus_tiles_not_allowed", "tile_count", "no_valid_hand", "special_condition", "min_doublings"}
CASES = json.loads((Path(__file__).parent / "data" / "cases.json").read_text(encoding="utf-8"))
SINGLE = [c for c in CASES if "hand" in c["input"] and c["expected"].get("valid")]
FAST = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example,
                                       HealthCheck.filter_too_much])

tiles = st.sampled_from(TILES)
winds = st.sampled_from(SEATS)


# -- settlement ----------------------------------------------------------------------------

@FAST
@given(st.dictionaries(winds, st.integers(0, 2000), min_size=4, max_size=4), winds)
def test_every_settlement_sums_to_zero(scores, winner):
    deltas = settle_scores(scores, winner)
    assert sum(deltas.values()) == 0
    assert deltas[winner] >= 0
    assert deltas[winner] == scores[winner] * (6 if winner == "E" else 4)


@FAST
@given(st.dictionaries(winds, st.integers(0, 2000), min_size=4, max_size=4), winds, st.sets(winds))
def test_table_requests_balance_and_dead_hands_never_receive(scores, winner, dead):
    given_scores = {s: (0 if s in dead and s != winner else v) for s, v in scores.items()}
    answer = score_request({"ruleset": "nts", "prevailing_wind": "E", "outcome": "mahjong", "winner": winner,
                            "given_scores": given_scores})
    assert sum(answer["settlement"].values()) == 0
    for seat in dead - {winner}:
        assert answer["settlement"][seat] <= 0


# -- complete hands and shuffling -----------------------------------------------------------

@st.composite
def complete_hands(draw):
    """A hand of four sets and a pair (some sets exposed), with a winning tile from the hand."""
    counts = [0] * 34
    parts: list[tuple[str, list[int]]] = []
    while len(parts) < 5:
        kind = "pair" if len(parts) == 4 else draw(st.sampled_from(["pung", "chow", "kong"]))
        if kind == "chow":
            t = 9 * draw(st.integers(0, 2)) + draw(st.integers(0, 6))
            tiles_ = [t, t + 1, t + 2]
        else:
            t = draw(st.integers(0, 33))
            tiles_ = [t] * {"pung": 3, "kong": 4, "pair": 2}[kind]
        if any(counts[x] + tiles_.count(x) > 4 for x in set(tiles_)):
            continue
        for x in tiles_:
            counts[x] += 1
        parts.append((kind, tiles_))
    groups, loose = [], []
    for kind, tiles_ in parts:
        if kind == "kong":
            groups.append(Group(draw(st.sampled_from(["exposed", "concealed_kong"])),
                                tuple(TILES[x] for x in tiles_)))
        elif kind != "pair" and draw(st.booleans()):
            groups.append(Group("exposed", tuple(TILES[x] for x in tiles_)))
        else:
            loose += [TILES[x] for x in tiles_]
    win = loose.pop(draw(st.integers(0, len(loose) - 1)))
    return Hand(tuple(groups), tuple(loose), win, ())


def _request(hand: Hand, seat: str, wind: str, win_type: str, ruleset: str = "nts") -> dict:
    return {"ruleset": ruleset, "prevailing_wind": wind,
            "hand": {**hand_to_json(hand), "seat_wind": seat, "win_type": win_type}}


def _summary(answer: dict) -> tuple:
    if not answer["valid"]:
        return (answer["reason"], sorted(map(tuple, answer.get("base_points", []))),
                sorted(map(tuple, answer.get("doublings", []))))
    return (answer["final"], answer["total_before_limit"], answer["limit_hand"],
            sorted(map(tuple, answer["base_points"])), sorted(map(tuple, answer["doublings"])))


@FAST
@given(complete_hands(), winds, winds, st.sampled_from(["self_drawn", "discard"]), st.randoms())
def test_shuffling_concealed_tiles_never_changes_the_score(hand, seat, wind, win_type, rnd):
    first = score_request(_request(hand, seat, wind, win_type))
    assert first["valid"] or first["reason"] == "min_doublings"
    loose = list(hand.concealed)
    rnd.shuffle(loose)
    shuffled = Hand(hand.groups, tuple(loose), hand.winning_tile, hand.bonus)
    assert _summary(score_request(_request(shuffled, seat, wind, win_type))) == _summary(first)


@FAST
@given(st.sampled_from(SINGLE), st.randoms())
def test_shuffling_the_worked_cases_keeps_their_score(case, rnd):
    request = json.loads(json.dumps({**case["input"], "ruleset": case["ruleset"]}))
    hand = parse_hand(request["hand"]["concealed"])
    loose = list(hand.concealed)
    rnd.shuffle(loose)
    request["hand"]["concealed"] = format_hand(Hand((), tuple(loose)))
    answer = score_request(request)
    assert answer["final"] == case["expected"]["final"]
    assert sorted(map(tuple, answer["base_points"])) == sorted(map(tuple, case["expected"]["base_points"]))


@FAST
@given(complete_hands(), winds, winds, st.sampled_from(["self_drawn", "discard", "robbed_kong"]))
def test_valid_scores_are_consistent(hand, seat, wind, win_type):
    answer = score_request(_request(hand, seat, wind, win_type))
    if answer["valid"] and answer["limit_hand"] is None:
        assert answer["base_total"] == sum(p for _, p in answer["base_points"])
        assert answer["doublings_total"] == sum(n for _, n in answer["doublings"]) >= 2
        assert answer["total_before_limit"] == answer["base_total"] * 2 ** answer["doublings_total"]
        assert answer["final"] == min(answer["total_before_limit"], 2000)
        assert sum(1 for d in answer["decomposition"] if d.endswith("*")) == 1


# -- notation round trip -----------------------------------------------------------------

@st.composite
def any_hands(draw):
    """Any hand the notation can express, sensible or not."""
    groups = []
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["exposed", "concealed_kong", "fixed"]))
        toks = draw(st.lists(st.sampled_from(TILES + ("X",) + BONUS), min_size=1, max_size=4))
        groups.append(Group(kind, canonical_group(kind, toks)))
    loose = draw(st.lists(st.sampled_from(TILES + ("X",)), max_size=14))
    win = draw(st.none() | st.sampled_from(TILES + ("X",)))
    bonus = draw(st.lists(st.sampled_from(BONUS), max_size=4))
    return Hand(tuple(groups), tuple(loose), win, tuple(bonus))


@FAST
@given(any_hands())
def test_format_then_parse_round_trips(hand):
    text = format_hand(hand)
    assert parse_hand(text) == hand
    assert format_hand(parse_hand(text)) == text


# -- random hands never crash ------------------------------------------------------------------

@FAST
@given(st.lists(tiles, min_size=14, max_size=14), winds, winds,
       st.sampled_from(["self_drawn", "discard", "robbed_kong"]), st.sampled_from(["nts", "nts-app"]),
       st.lists(st.sampled_from(["last_wall_tile", "kong_replacement", "kong_on_kong", "heavenly", "earth"]),
                max_size=2, unique=True))
def test_random_14_tile_hands_never_crash(drawn, seat, wind, win_type, ruleset, special):
    hand = Hand((), tuple(drawn[:13]), drawn[13], ())
    request = _request(hand, seat, wind, win_type, ruleset)
    request["hand"]["special"] = special
    answer = score_request(request)
    assert answer["valid"] is True or answer["reason"] in CODES, answer
    if answer["valid"]:
        assert 0 < answer["final"] <= 2000


@FAST
@given(st.text(alphabet="123456789mpsESWNRGWhCFPXfj[]{}()+/ ", max_size=40))
def test_random_notation_parses_or_names_a_token(text):
    from mjscore.scoring import NotationError
    try:
        parse_hand(text)
    except NotationError as err:
        assert 0 <= err.position <= len(text)
        assert err.caret().splitlines()[0] == text


@FAST
@given(complete_hands(), winds, winds, st.sampled_from(["self_drawn", "discard"]), st.randoms())
def test_full_tables_from_one_wall_balance(hand, winner, wind, win_type, rnd):
    """A winner plus three non-winners dealt from what is left of the wall."""
    from mjscore.scoring.validate import tile_indices
    wall = [t for t in range(34) for _ in range(4)]
    for t in tile_indices(hand):
        wall.remove(t)
    rnd.shuffle(wall)
    players = {winner: {**hand_to_json(hand), "win_type": win_type}}
    for k, seat in enumerate(s for s in SEATS if s != winner):
        players[seat] = {"concealed": "".join(TILES[t] for t in wall[13 * k:13 * k + 13])}
    answer = score_request({"ruleset": "nts", "prevailing_wind": wind, "outcome": "mahjong",
                            "winner": winner, "players": players})
    if answer["valid"]:
        assert sum(answer["settlement"].values()) == 0
        assert all(0 <= s["final"] <= 2000 for s in answer["scores"].values())
    else:
        assert answer["reason"] == "min_doublings"
