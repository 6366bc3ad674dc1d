"""The decomposition search (§15), wait sets and the irregular limit rows on their own."""

from __future__ import annotations

from mjscore.scoring.config import resolve
from mjscore.scoring.decompose import arrangements, counts_of, wait_set
from mjscore.scoring.limits import irregular_limit, irregular_wait
from mjscore.scoring.notation import parse_hand
from mjscore.scoring.tiles import INDEX, TILES


CFG = resolve("nts")


def irregular(c):
    row = irregular_limit(c, "nts", CFG)
    return row.code if row else None


def irregular_waits(c):
    row = irregular_wait(c, "nts", CFG)
    return row.code if row else None


def counts(text: str) -> list[int]:
    return counts_of([INDEX[t] for t in parse_hand(text).concealed])


def shown(arr) -> list[str]:
    return [f"{shape}:{TILES[t]}" for shape, t in arr]


def test_pungs_and_chows_are_both_found():
    found = [shown(a) for a in arrangements(counts("11122233m456m99m 3m"), 4, True)]
    assert ["pung:1m", "pung:2m", "pung:3m", "chow:4m", "pair:9m"] in found
    assert ["chow:1m", "chow:1m", "chow:1m", "chow:4m", "pair:9m"] in found
    assert len(found) == len({tuple(a) for a in found})                # each arrangement once


def test_nine_gates_has_many_readings_and_waits_on_every_tile():
    c13 = counts("1112345678999m")
    assert [TILES[t] for t in wait_set(c13, 4, True, list(c13), irregular)] == [f"{n}m" for n in range(1, 10)]
    c13[INDEX["5m"]] += 1
    assert irregular(c13) == "nine_gates"
    assert len(arrangements(c13, 4, True)) >= 1


def test_wrong_tile_total_has_no_arrangement():
    assert arrangements(counts("123m456p789s11p"), 4, True) == []


def test_kinds_held_four_times_are_no_wait():
    # 1111m + three chows: only a fifth 1m (111m + 11m) would complete it, and there is none
    c13 = counts("1111m 456p 789s 123s")
    assert wait_set(c13, 4, True, list(c13)) == []
    assert [TILES[t] for t in wait_set(c13, 4, True, [0] * 34)] == ["1m"]


def test_half_limit_detection():
    assert irregular_waits(counts("1m9m1p9p1s9sESWNRGWh")) == "thirteen_orphans"
    assert irregular_waits(counts("22m55m77s99sEEWWS")) == "seven_twins"
    assert irregular_waits(counts("123m456p789s1234s")) is None
