"""Properties of the scoring edges over generated input (issue 14, hypothesis): any text
through ``parse_hand`` parses or raises a ``NotationError`` with a position, every accepted
hand round-trips through ``format_hand``, and any JSON-like request tree (random, or a
worked case with a part replaced) is answered, never raised. The long runs, through the
CLI too, are ``benchmarks/fuzz_scoring.py``."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjscore.scoring import NotationError, format_hand, parse_hand, score_request

CASES = json.loads((Path(__file__).parent / "data" / "cases.json").read_text(encoding="utf-8"))
NOTATIONS = [c["input"]["hand"]["notation"] if "notation" in c["input"]["hand"] else
             " ".join([*c["input"]["hand"].get("melds", []), c["input"]["hand"].get("concealed", "")]
                      + (["+" + c["input"]["hand"]["winning_tile"]] if c["input"]["hand"].get("winning_tile") else []))
             for c in CASES if "hand" in c["input"]]
FAST = settings(max_examples=200, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])
ALPHABET = st.sampled_from(list("0123456789mpsESWNRGCFPXWhfj[]{}()+/ \t") + ["²", "١", "①", "𝟙", "５", "é", "\x00", "\n"])
REASONS = {"syntax", "invalid_meld", "face_down_tile", "too_many_copies", "duplicate_bonus_tile",
           "bonus_tiles_not_allowed", "tile_count", "no_valid_hand", "special_condition", "min_doublings",
           "impossible_result"}

notation_text = st.text(ALPHABET, max_size=30) | st.text(max_size=20)


@st.composite
def mutated_notations(draw):
    """A worked case's notation with one to three characters inserted, replaced or cut."""
    text = draw(st.sampled_from(NOTATIONS))
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(text)))
        new = draw(ALPHABET)
        text = draw(st.sampled_from([text[:i] + new + text[i:], text[:i] + new + text[i + 1:],
                                     text[:i] + text[i + 1:], text[:i]]))
    return text


def _parses_or_names_a_position(text: str) -> None:
    try:
        hand = parse_hand(text)
    except NotationError as exc:
        assert 0 <= exc.position <= len(text) and exc.code == "syntax"
        assert exc.caret().splitlines()[-1].strip().startswith("^")
        return
    assert parse_hand(format_hand(hand)) == hand


@FAST
@given(notation_text)
def test_random_text_parses_or_names_a_position(text):
    _parses_or_names_a_position(text)


@FAST
@given(mutated_notations())
def test_mutated_notation_parses_and_round_trips_or_names_a_position(text):
    _parses_or_names_a_position(text)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(10 ** 20, 10 ** 30) | st.floats()
    | st.text(max_size=10) | st.sampled_from(["E", "nts", "riichi-settlement", "mahjong", "ron", "[555p]"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["hand", "config", "result", "outcome", "players", "melds", "type", "han", "x"]) | st.text(max_size=5),
        inner, max_size=4),
    max_leaves=12)


def _paths(tree, path=()):
    yield path
    if isinstance(tree, dict):
        for k, v in tree.items():
            yield from _paths(v, path + (k,))
    elif isinstance(tree, list):
        for i, v in enumerate(tree):
            yield from _paths(v, path + (i,))


@st.composite
def mutated_requests(draw):
    """A worked case's request with one part replaced by any JSON value (or deleted)."""
    case = draw(st.sampled_from(CASES))
    request = {**copy.deepcopy(case["input"]), "ruleset": case["ruleset"]}
    path = draw(st.sampled_from([p for p in _paths(request) if p]))
    box = request
    for key in path[:-1]:
        box = box[key]
    if draw(st.booleans()) and isinstance(box, dict):
        del box[path[-1]]
    else:
        box[path[-1]] = draw(json_values)
    return request


def _answered(request) -> None:
    answer = score_request(request)
    assert isinstance(answer, dict)
    if answer.get("valid") is False:
        assert answer["reason"] in REASONS and isinstance(answer["message"], str) and answer["message"]


@FAST
@given(json_values)
def test_any_json_value_as_a_request_is_answered(request):
    _answered(request)


@FAST
@given(mutated_requests())
def test_a_worked_case_with_a_part_replaced_is_answered(request):
    _answered(request)


def test_deep_nesting_and_huge_numbers_are_answered_as_syntax():
    deep: object = "E"
    for _ in range(100_000):
        deep = [deep]
    for request in ({"ruleset": "nts", "prevailing_wind": deep, "hand": {}},
                    {"ruleset": "nts", "prevailing_wind": "E", "hand": {"seat_wind": "E", "concealed": deep}},
                    {"ruleset": "riichi-settlement", "result": {"type": deep}},
                    {"ruleset": "nts", "config": {"limit": 10 ** 5000}, "prevailing_wind": "E", "hand": {}}):
        answer = score_request(request)
        assert (answer["valid"], answer["reason"]) == (False, "syntax")
        assert len(answer["message"]) < 300


@pytest.mark.parametrize("ruleset", ["nts", "nts-app"])
def test_a_flower_as_the_json_forms_winning_tile_is_answered_not_raised(ruleset):
    # found by benchmarks/fuzz_scoring.py (session 28): the notation refuses "+f1" with its
    # position, but the JSON form's winning_tile field reached the scorer and raised KeyError
    request = {"ruleset": ruleset, "prevailing_wind": "E",
               "hand": {"seat_wind": "S", "melds": ["[555p]"], "concealed": "5p67p234mGGG9s",
                        "winning_tile": "f1", "win_type": "discard"}}
    answer = score_request(request)
    assert answer["valid"] is False and answer["reason"] == "syntax"
    assert "winning tile" in answer["message"] and "f1" in answer["message"]
