"""The spec's 89 worked cases (tests/data/cases.json, a copy of shared/spec/cases.json)
through the JSON contract ``scoring.score_request``.

Every field of each case's ``expected`` object must come back with the same value (the
engine may add fields of its own, e.g. ``wait`` or ``decomposition``). The riichi cases go
through the same entry point, which hands them to ``scoring.riichi``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mjscore.scoring import score_request

DATA = Path(__file__).parent / "data" / "cases.json"
SHARED = Path("/work/shared/spec/cases.json")
CASES = json.loads(DATA.read_text(encoding="utf-8"))


def _mismatches(expected, got, path: str = "") -> list[str]:
    """Every place where ``got`` differs from ``expected`` (extra keys in ``got`` allowed)."""
    if isinstance(expected, dict):
        if not isinstance(got, dict):
            return [f"{path or '.'}: expected an object, got {got!r}"]
        out = []
        for key, value in expected.items():
            if key not in got:
                out.append(f"{path}.{key}: missing (expected {value!r})")
            else:
                out += _mismatches(value, got[key], f"{path}.{key}")
        return out
    return [] if expected == got else [f"{path}: expected {expected!r}, got {got!r}"]


def test_all_89_cases_are_bundled():
    assert len(CASES) == 89
    assert len({c["id"] for c in CASES}) == 89


def test_bundled_copy_matches_the_spec():
    if not SHARED.exists():
        pytest.skip("the shared spec is not on this machine; the bundled copy is the reference")
    assert DATA.read_bytes() == SHARED.read_bytes(), "tests/data/cases.json differs from the spec: copy it again"


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case(case):
    answer = score_request({**case["input"], "ruleset": case["ruleset"]})
    problems = _mismatches(case["expected"], answer)
    assert not problems, f"{case['id']} ({case['title']}):\n  " + "\n  ".join(problems)


def test_requests_are_not_modified():
    case = next(c for c in CASES if c["id"] == "SET-02")
    request = json.loads(json.dumps({**case["input"], "ruleset": case["ruleset"]}))
    before = json.dumps(request, sort_keys=True)
    score_request(request)
    assert json.dumps(request, sort_keys=True) == before


def test_settlement_switch_chooses_the_rule_of_section_11():
    """nts-app settles differences between every pair (DECISION 28); ``settlement=winner_takes``
    gives back the NTS rule on the same table (SET-25: S 544, W -88 instead of 528, -72)."""
    case = next(c for c in CASES if c["id"] == "SET-25")
    request = {**case["input"], "ruleset": "nts-app"}
    assert score_request(request)["settlement"] == {"E": -304, "S": 528, "W": -72, "N": -152}
    nts_rule = score_request({**request, "config": {"settlement": "winner_takes"}})["settlement"]
    assert nts_rule == {"E": -304, "S": 544, "W": -88, "N": -152}
    bad = score_request({**request, "config": {"settlement": "loser_takes"}})
    assert bad["valid"] is False and "settlement" in bad["message"]
