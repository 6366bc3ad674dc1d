"""Worked hands with flowers and seasons added (datasets/bonus_hands.py): each case is a valid
nts-app hand whose expected final is the engine's on the true hand, in the spec's case layout."""

import json
from pathlib import Path

from mjscore.datasets.bonus_hands import BONUS_KINDS, bonus_cases
from mjscore.handscan.context import make_context
from typed_hand import typed_answer

SPEC = json.loads((Path(__file__).parent / "data" / "cases.json").read_text(encoding="utf-8"))


def test_bonus_cases_carry_flowers_and_the_engines_final_for_their_seat():
    cases = bonus_cases(SPEC, 30, seed=3)
    assert len(cases) == 30 and len({c["id"] for c in cases}) == 30
    seats = set()
    for c in cases:
        hand = c["input"]["hand"]
        bonus = c["notation"].split(" / ")[1].split()
        assert c["ruleset"] == "nts-app" and 1 <= len(bonus) <= 4 and set(bonus) <= set(BONUS_KINDS)
        ctx = make_context(hand["seat_wind"], c["input"]["prevailing_wind"], hand["winning_tile"],
                           hand["win_type"], "nts-app", hand.get("special", []))
        answer = typed_answer(c["notation"], ctx)
        assert answer["valid"] and answer["final"] == c["expected"]["final"]
        seats.add(hand["seat_wind"])
    assert len(seats) > 1                                    # the seat is drawn, so own flowers vary
    assert bonus_cases(SPEC, 30, seed=3) == cases            # reproducible from the seed
