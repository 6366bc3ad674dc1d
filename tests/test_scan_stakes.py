"""A flower or season whose kind decides the score is questioned unless read surely
(handscan.stakes): a season read as the player's own flower must not double the score unflagged."""

from mjscore.handscan.context import make_context
from mjscore.handscan.pipeline import evaluate
from mjscore.scoring.messages import say
from mjscore.handscan.stakes import STAKES_CONFIDENCE, score_stakes
from mjscore.vision.layout import group_tiles
from mjscore.vision.types import TileRead
from test_layout_support import place
from typed_hand import typed_answer

HAND = [["EEE", "f1"], ["RRR234m88s45s6s"]]      # APP-001 with one flower laid aside


def _read(kind: str, confidence: float, runner_ups: tuple) -> list[TileRead]:
    tiles = place(HAND)
    i = next(k for k, t in enumerate(tiles) if t.kind == "f1")
    t = tiles[i]
    tiles[i] = TileRead(kind, t.box, confidence, runner_ups, t.angle)
    return tiles


def _ctx(seat: str):
    return make_context(seat, "E", "6s", "self_drawn", "nts-app")


def test_an_unsure_flower_whose_runner_up_is_the_own_season_is_flagged_with_both_finals():
    tiles = _read("f1", 0.80, (("j2", 0.15), ("1s", 0.02)))
    res = evaluate("p.jpg", group_tiles(tiles), _ctx("S"))
    as_read = typed_answer("[EEE] 234m 4588s RRR +6s / f1", _ctx("S"))["final"]
    as_season = typed_answer("[EEE] 234m 4588s RRR +6s / j2", _ctx("S"))["final"]
    assert res.valid and res.final == as_read and as_season == 2 * as_read   # the own season doubles
    n = next(i for i, t in enumerate(res.tiles) if t.kind == "f1") + 1
    assert f"score_depends_on:{n}" in res.flags
    assert any(f"tile {n} (f1, 0.80) decides the score: final {as_read} as f1, {as_season} as j2" in w
               for w in res.warnings)
    assert res.low_confidence == []                  # 0.80: the ordinary review would not ask
    warning = next(w for w in res.warnings if "decides the score" in w)
    assert say(warning, "nl") == (f"steen {n} (f1, 0.80) bepaalt de score: eindscore {as_read} als f1, "
                                  f"{as_season} als j2; controleer hem")


def test_a_surely_read_flower_is_not_questioned():
    tiles = _read("f1", STAKES_CONFIDENCE + 0.02, (("j2", 0.05),))
    res = evaluate("p.jpg", group_tiles(tiles), _ctx("S"))
    assert res.valid and not any(f.startswith("score_depends_on") for f in res.flags)


def test_a_runner_up_that_scores_the_same_or_is_ruled_out_is_not_asked_about():
    # seat W: neither f1 nor f2 is the player's own, so either reading scores the same
    same = evaluate("p.jpg", group_tiles(_read("f1", 0.7, (("f2", 0.25),))), _ctx("W"))
    assert same.valid and not any(f.startswith("score_depends_on") for f in same.flags)
    # a rival so unlikely (under 1:20 against the read) is not worth the question
    far = score_stakes(group_tiles(_read("f1", 0.8, (("j2", 0.03),))), _ctx("S"), same.final)
    assert far == []


def test_a_rival_kind_that_makes_no_valid_hand_is_no_rival():
    tiles = place([["EEE", "f1", "j2"], ["RRR234m88s45s6s"]])
    i = next(k for k, t in enumerate(tiles) if t.kind == "f1")
    t = tiles[i]
    tiles[i] = TileRead("f1", t.box, 0.7, (("j2", 0.25),), t.angle)     # a second j2 is impossible
    res = evaluate("p.jpg", group_tiles(tiles), _ctx("S"))
    assert res.valid and not any(f.startswith("score_depends_on") for f in res.flags)
