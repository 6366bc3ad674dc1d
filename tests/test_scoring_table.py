"""The rules table decides (spec §5-§8): every code the engine answers is a row of
``scoring.rules``, a changed or added row changes the score of real hands through the public
API, and the row's labels are the only wording of a scoring line (CLI and web alike)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from mjscore.scoring import label, rules, score_request
from mjscore.scoring.rules import ALL_RULES, RULES, WINNER, Rule
from mjscore.scoring import reasons

CASES = json.loads((Path(__file__).parent / "data" / "cases.json").read_text())


def score(notation: str, win_type: str | None = "discard", seat: str = "S", special=()) -> dict:
    hand = {"seat_wind": seat, "notation": notation, "special": list(special)}
    if win_type:
        hand["win_type"] = win_type
    return score_request({"ruleset": "nts", "prevailing_wind": "E", "hand": hand})


def answers() -> list[dict]:
    """Every single-hand answer of the worked cases (table cases give one per seat)."""
    out = []
    for case in CASES:
        request = {**case["input"], "ruleset": case["ruleset"]}
        if case["ruleset"] == "riichi-settlement":
            continue
        answer = score_request(request)
        out += list(answer.get("scores", {}).values()) or [answer]
    return out


def change_row(monkeypatch, table: str, code: str, **changes) -> None:
    """Replace one row of one table (and the code index) for this test only."""
    row = dataclasses.replace(RULES[code], **changes)
    rows = tuple(row if r.code == code else r for r in getattr(rules, table))
    monkeypatch.setattr(rules, table, rows)
    monkeypatch.setitem(RULES, code, row)


def test_every_code_the_engine_answers_is_a_row_of_the_table():
    kinds = {"base_points": "base", "doublings": "doubling", "limit_hand": "limit", "half_limit": "limit"}
    seen = set()
    for answer in answers():
        for field in ("base_points", "doublings"):
            for code, value in answer.get(field) or []:
                row = RULES[code.partition(":")[0]]
                assert (row.kind, row.value) == (kinds[field], value), code
                seen.add(row.code)
        for field in ("limit_hand", "half_limit"):
            if answer.get(field):
                assert RULES[answer[field]].kind == "limit", answer[field]
                seen.add(answer[field])
    assert len(seen) > 40            # the worked cases reach most of the table


@pytest.mark.parametrize("table, code, hand, kwargs, before, after", [
    ("IRREGULAR_LIMITS", "seven_twins", "22m 55p 77s 88m EE RR Wh +Wh", {}, 250, 400),
    ("IRREGULAR_LIMITS", "thirteen_orphans", "1m9m1p9p1s9sESWNRGWh +Wh", {}, 2000, 1200),
    ("REGULAR_LIMITS", "winding_snake", "[111p] 234p 567p 999p 8p +8p", {}, 1000, 1500),
    ("SPECIAL_LIMITS", "earth_hand", "123m 456p 789s 234s 5m +5m", {"special": ["earth"]}, 1000, 1800),
])
def test_one_row_value_changes_the_limit_score(monkeypatch, table, code, hand, kwargs, before, after):
    assert (score(hand, **kwargs)["limit_hand"], score(hand, **kwargs)["final"]) == (code, before)
    change_row(monkeypatch, table, code, value=after)
    answer = score(hand, **kwargs)
    assert (answer["limit_hand"], answer["final"], answer["total_before_limit"]) == (code, after, after)


def test_one_row_value_changes_the_half_limit_of_a_non_winner(monkeypatch):
    hand = "1m9m1p9p1s9sESWNRGWh"
    assert (score(hand, win_type=None)["half_limit"], score(hand, win_type=None)["final"]) == ("thirteen_orphans", 1000)
    change_row(monkeypatch, "IRREGULAR_LIMITS", "thirteen_orphans", value=1600)
    assert score(hand, win_type=None)["final"] == 800


def test_the_highest_row_counts_so_a_value_change_can_change_the_limit_hand(monkeypatch):
    hand = "11m 99m EE SS WW NN R +R"           # very clean twins (1000) and also seven twins (250)
    assert score(hand)["limit_hand"] == "very_clean_twins"
    change_row(monkeypatch, "IRREGULAR_LIMITS", "seven_twins", value=1500)
    assert (score(hand)["limit_hand"], score(hand)["final"]) == ("seven_twins", 1500)


def test_a_row_whose_test_fails_is_no_limit_hand(monkeypatch):
    change_row(monkeypatch, "IRREGULAR_LIMITS", "thirteen_orphans", test=lambda c, cfg: False)
    assert score("1m9m1p9p1s9sESWNRGWh +Wh")["reason"] == "no_valid_hand"


def test_a_base_row_value_changes_the_points(monkeypatch):
    hand = "[RRR] [GGG] 234m 567p 5s +5s"
    before = score(hand)
    change_row(monkeypatch, "GROUP_BASE", "pung_th_open", value=10)
    after = score(hand)
    assert ["pung_th_open:R", 10] in after["base_points"]
    assert after["base_total"] == before["base_total"] + 2 * 6          # two open dragon pungs


def test_adding_one_row_adds_a_limit_hand(monkeypatch):
    """A new irregular limit (knitted 147m 258p 369s and five honours) is one row: the engine
    finds it, waits on it, scores it and names it, without a line of engine code."""
    knitted = (0, 3, 6, 10, 13, 16, 20, 23, 26)
    row = Rule("knitted", "limit", 800, WINNER, "Knitted hand", "Gebreide hand",
               lambda c, cfg: all(c[i] == 1 for i in knitted) and sum(c[27:]) == 5 and max(c[27:]) == 1)
    hand = "147m 258p 369s ESWN +R"
    assert score(hand)["reason"] == "no_valid_hand"
    monkeypatch.setattr(rules, "IRREGULAR_LIMITS", rules.IRREGULAR_LIMITS + (row,))
    monkeypatch.setitem(RULES, "knitted", row)
    answer = score(hand)
    assert (answer["limit_hand"], answer["final"]) == ("knitted", 800)
    assert "R" in answer["wait"]
    assert (label("knitted"), label("knitted", "nl")) == ("Knitted hand", "Gebreide hand")


def test_the_web_page_names_every_scoring_line_as_the_table_does():
    assert not set(reasons.REASONS) & set(RULES)          # the reason names hold no rule labels of their own
    for row in ALL_RULES:
        assert reasons.label(row.code, "en") == label(row.code, "en") == row.en
        assert reasons.label(row.code, "nl") == label(row.code, "nl") == row.nl
    assert reasons.label("dragon_set:R", "nl") == "Pung/kong draken (rood)"
    assert reasons.label("min_doublings", "nl") == "minder dan 2 verdubbelingen"
