"""``benchmarks/bonus_breakdown.py``: the counts behind "where the flowers and seasons are lost"
(session 35), from the (true, read) pairs that ``vision.evaluate.score_photo`` matches."""

from __future__ import annotations

from collections import Counter

from mjscore.benchmarks.bonus_breakdown import band, line, tally
from mjscore.vision.evaluate import score_photo


def test_tally_counts_bonus_tiles_found_right_and_swapped_groups():
    gt = [("f2", (0, 0, 10, 14)), ("j3", (20, 0, 30, 14)), ("j4", (40, 0, 50, 14)), ("5p", (60, 0, 70, 14)),
          ("f1", (80, 0, 90, 14))]                                  # f1 is missed: not found
    reads = [("f2", 0.9, (0, 0, 10, 14)), ("f3", 0.5, (20, 0, 30, 14)), ("j1", 0.4, (40, 0, 50, 14)),
             ("f4", 0.6, (60, 0, 70, 14))]                          # a suit tile read as a flower is not counted
    counts = Counter()
    tally(score_photo(gt, reads).pairs, counts)
    assert counts == Counter({"found": 3, "right": 1, "same number": 1})
    assert line("all", counts).split()[:6] == ["all", "found", "3", "right", "1", "(0.333)"]


def test_size_bands_cover_every_size_once():
    assert [band(px) for px in (8, 23.9, 24, 39.9, 40, 79.9, 80, 4000)] == \
        ["under 24 px"] * 2 + ["24-40 px"] * 2 + ["40-80 px"] * 2 + ["80 px and more"] * 2
