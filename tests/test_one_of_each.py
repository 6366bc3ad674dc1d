"""A photo's tiles read with each flower and season at most once (vision/one_of_each.py)."""

from mjscore.vision.one_of_each import MAX_BONUS, best_assignment, one_of_each
from mjscore.vision.types import TileRead


def tile(x: float, kind: str, p: float, *alts: tuple[str, float]) -> TileRead:
    return TileRead(kind=kind, box=(x, 0.0, x + 10.0, 14.0), confidence=p, alternatives=tuple(alts))


def test_the_less_sure_of_two_same_flowers_takes_its_runner_up():
    sure = tile(0, "f1", 0.9, ("j1", 0.05))
    unsure = tile(20, "f1", 0.5, ("f3", 0.3), ("j1", 0.1))
    out = one_of_each([sure, unsure, tile(40, "5p", 0.95)])
    assert [t.kind for t in out] == ["f1", "f3", "5p"]
    assert out[1].confidence == 0.3                          # still unsure: the review asks
    assert out[1].alternatives == (("f1", 0.5), ("j1", 0.1))
    assert out[0] is sure


def test_a_chain_of_runner_ups_is_followed():
    # f2 is taken by the sure tile, so the clash of the two f1 moves the other f1 on to j4
    a = tile(0, "f1", 0.6, ("f2", 0.3))
    b = tile(20, "f1", 0.55, ("f2", 0.4), ("j4", 0.05))
    c = tile(40, "f2", 0.9)
    assert [t.kind for t in one_of_each([a, b, c])] == ["f1", "j4", "f2"]


def test_a_tile_may_leave_the_bonus_kinds():
    a = tile(0, "j2", 0.8)
    b = tile(20, "j2", 0.4, ("1s", 0.35))
    assert [t.kind for t in one_of_each([a, b])] == ["j2", "1s"]


def test_photos_without_a_clash_or_with_too_many_bonus_reads_are_left_as_read():
    plain = [tile(0, "f1", 0.6, ("f2", 0.3)), tile(20, "f2", 0.5), tile(40, "1m", 0.9), tile(60, "1m", 0.9)]
    assert one_of_each(plain) == plain
    crowded = [tile(20 * i, "f1", 0.5, ("f2", 0.4)) for i in range(MAX_BONUS + 1)]
    assert one_of_each(crowded) == crowded


def test_no_way_out_keeps_the_reading():
    clash = [tile(0, "f1", 0.9), tile(20, "f1", 0.8)]          # no runner-ups to move to
    assert best_assignment([[("f1", 0.9)], [("f1", 0.8)]]) is None
    assert one_of_each(clash) == clash
