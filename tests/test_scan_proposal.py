"""Read the hand, not only the tiles: when the tiles as read make no valid hand, the most
probable valid reading among the runner-ups is proposed, scored and flagged (handscan.alternatives)."""

import math
from pathlib import Path

from PIL import Image

from mjscore.handscan.alternatives import MISSED_COST, find_alternatives, tile_additions, tile_edits
from mjscore.handscan.batch import run_job
from mjscore.handscan.context import make_context
from mjscore.handscan.manifest import Job
from mjscore.handscan.pipeline import evaluate
from mjscore.handscan.render import result_text
from mjscore.vision.layout import group_tiles
from mjscore.vision.types import PhotoRead, TileRead
from test_layout_support import place
from typed_hand import typed_answer

CTX = ("E", "S", "6s", "self_drawn", "nts-app")


def _plum_read_as_bamboo() -> list[TileRead]:
    """APP-001 with the plum flower laid beside the exposed pung, read 1s at 0.47, f1 runner-up."""
    tiles = place([["EEE", "1s"], ["RRR234m88s45s6s"]])
    i = next(k for k, t in enumerate(tiles) if t.kind == "1s")
    t = tiles[i]
    tiles[i] = TileRead("1s", t.box, 0.47, (("f1", 0.31), ("2s", 0.05)), t.angle)
    return tiles


def test_a_flower_read_as_a_suit_tile_is_proposed_as_the_flower_and_scored():
    res = evaluate("p.jpg", group_tiles(_plum_read_as_bamboo()), make_context(*CTX))
    assert not res.valid and res.score.reason == "invalid_meld"        # the read: an exposed [1s]
    assert "proposed_reading" in res.flags and res.final is None        # the read stays the read
    p = res.proposal
    assert p.notation == "[EEE] 234m 4588s RRR +6s / f1"
    assert p.changes[0] == "tile 4 read as f1 instead of 1s"
    check = typed_answer(p.notation, make_context(*CTX))
    assert check["valid"] and p.final == check["final"] == 304
    assert abs(p.likelihood - 0.31 / 0.47) < 1e-6                       # the odds of the change
    # the next most probable reading (the tile is no tile at all) is less likely
    assert res.alternatives[1].likelihood < p.likelihood
    assert res.to_json()["proposal"]["notation"] == p.notation


def test_the_proposal_is_shown_with_its_changes_and_how_to_accept_it_in_both_languages():
    res = evaluate("p.jpg", group_tiles(_plum_read_as_bamboo()), make_context(*CTX))
    text = result_text(res)
    assert "PROPOSED READING" in text and "- tile 4 read as f1 instead of 1s" in text
    assert '--hand "[EEE] 234m 4588s RRR +6s / f1"' in text and "= 304" in text
    nl = result_text(evaluate("p.jpg", group_tiles(_plum_read_as_bamboo()), make_context(*CTX, lang="nl")))
    assert "VOORGESTELDE LEZING" in nl and "steen 4 gelezen als f1 in plaats van 1s" in nl
    assert "stenen opnieuw ingedeeld" in nl and "voorgesteld, een geldige lezing" in nl


def test_the_most_probable_change_is_tried_first():
    tiles = place([["5555p"], ["4s5p6sRRRGGG9s9s"]])
    t = tiles[5]
    tiles[5] = TileRead("5p", t.box, 0.41, (("5s", 0.33), ("3p", 0.1)), t.angle)   # a fifth 5p
    layout = group_tiles(tiles)
    edits = tile_edits(layout)
    assert edits[0].index == 5 and edits[0].kind == "5s"          # over-counted kind, best odds first
    best = find_alternatives(layout, make_context("S", "E", "9s", "discard", "nts"))[0]
    assert best.notation == "[5555p] 4569s RRR GGG +9s"


def test_a_batch_row_carries_the_proposal_with_its_flag(tmp_path: Path):
    photo = tmp_path / "hand.jpg"
    Image.new("RGB", (1800, 1400), (30, 110, 60)).save(photo)
    tiles = _plum_read_as_bamboo()

    def recognize(path):
        return PhotoRead(str(path), 1800, 1400, tiles)

    row = run_job(Job("hand.jpg", str(photo), context=make_context(*CTX)), recognize)
    assert row["valid"] == "false" and row["final"] == ""
    assert "proposed_reading" in row["flags"].split(";")
    assert row["proposed_hand"] == "[EEE] 234m 4588s RRR +6s / f1" and row["proposed_final"] == 304
    assert row["proposed_changes"].startswith("tile 4 read as f1 instead of 1s")


def test_the_web_score_answer_carries_the_proposal_the_page_offers(tmp_path):
    from fastapi.testclient import TestClient

    from mjscore.web.app import create_app

    client = TestClient(create_app(recognize=lambda rgb, tile_set=None: [], db_path=tmp_path / "s.sqlite3"))
    tiles = [dict(t.to_json(), number=i + 1) for i, t in enumerate(_plum_read_as_bamboo())]
    ctx = {"seat": "E", "prevailing_wind": "S", "winning_tile": "6s", "win_type": "self_drawn",
           "ruleset": "nts-app"}
    r = client.post("/api/score", json={"tiles": tiles, "context": ctx})
    assert r.status_code == 200, r.text
    body = r.json()
    assert not body["valid"] and "proposed_reading" in body["flags"]
    assert body["proposal"]["notation"] == "[EEE] 234m 4588s RRR +6s / f1" and body["proposal"]["final"] == 304
    # the page's one tap types the proposal as the hand: it scores as proposed
    again = client.post("/api/score", json={"tiles": tiles, "hand": body["proposal"]["notation"], "context": ctx})
    assert again.json()["valid"] and again.json()["final"] == 304
    words = client.get("/api/words?lang=nl").json()
    assert "Deze lezing gebruiken" in str(words)


def test_a_winning_tile_the_detector_missed_is_proposed_as_added():
    """NTS-013 (pe-ling, 168) with the winning 1p not found: one tile short, and 1p is the only
    kind that completes the hand with the context's winning tile."""
    layout = group_tiles(place([["RRR"], ["GGG"], ["234m567p1s"]]))
    ctx = make_context("S", "E", "1p", "discard", "nts")
    res = evaluate("p.jpg", layout, ctx)
    assert not res.valid and "proposed_reading" in res.flags
    p = res.proposal
    assert p.notation == "[RRR] [GGG] 234m 567p 1s +1p" and p.final == 168
    assert p.changes == ["a tile may be missing: 1p added (the only kind that completes the hand)"]
    assert abs(p.likelihood - math.exp(-MISSED_COST)) < 1e-9
    nl = result_text(evaluate("p.jpg", layout, make_context("S", "E", "1p", "discard", "nts", lang="nl")))
    assert "misschien ontbreekt een steen: 1p toegevoegd" in nl


def test_a_missed_tile_that_several_kinds_could_be_names_them_and_splits_the_odds():
    """The same hand read with the 1s missed instead: 1s (pe-ling) and 1p (a pair of 1p) both
    complete it, so each is half as likely as one sure completion."""
    layout = group_tiles(place([["RRR"], ["GGG"], ["234m567p1p"]]))
    alts = find_alternatives(layout, make_context("S", "E", "1p", "discard", "nts"))
    added = {a.notation: a for a in alts if a.changes[0].startswith("a tile may be missing")}
    assert set(added) == {"[RRR] [GGG] 234m 567p 1s +1p", "[RRR] [GGG] 234m 1567p +1p"}
    one = added["[RRR] [GGG] 234m 567p 1s +1p"]
    assert one.changes == ["a tile may be missing: 1s added (also possible: 1p)"]
    assert abs(one.likelihood - math.exp(-MISSED_COST) / 2) < 1e-9


def test_a_face_down_kong_read_as_three_tiles_gets_its_fourth_back():
    """{XNNX} with one back missed reads [NNX] (an exposed set with a back: no hand)."""
    layout = group_tiles(place([["NNX"], ["234m567p345s88m"]]))
    assert [k for _, k in tile_additions(layout)] == ["X"]
    alts = find_alternatives(layout, make_context("N", "N", "8m", "discard", "nts"))
    assert alts[0].notation == "{NNXX} 2348m 567p 345s +8m"        # a concealed kong of North
    check = typed_answer("{XNNX} 234m 567p 345s 8m +8m", make_context("N", "N", "8m", "discard", "nts"))
    assert alts[0].final == check["final"] == 224
    assert alts[0].changes == ["a tile may be missing: X added (the only kind that completes the hand)"]


def test_touching_kongs_with_one_back_missed_get_it_back():
    """Four declared kongs laid touching the pair, the last one's second back missed (seed-2
    hand scene_032): the kongs are cut out of the row and the fourth back is proposed."""
    layout = group_tiles(place([["99mX22mXX55pXX88sXXEE"]], rotate=-29))
    ctx = make_context("S", "E", "9m", "discard", "nts")
    alts = find_alternatives(layout, ctx)
    assert alts[0].notation == "{X22mX} {X55pX} {X88sX} {XEEX} 9m +9m"
    check = typed_answer("{X22mX} {X55pX} {X88sX} {XEEX} 9m +9m", ctx)
    assert alts[0].final == check["final"] == 2000


def test_a_hand_with_every_tile_gets_no_added_tile():
    assert tile_additions(group_tiles(_plum_read_as_bamboo())) == []


def test_under_nts_a_suit_tile_read_as_a_flower_is_proposed_as_its_runner_up():
    # 222m 555p 888s RRR 99p, one 2m read f2 (its runner-ups j2, then 2m): under nts a flower
    # makes the hand invalid before anything else, and it is the misread that the search mends
    tiles = place([["222m555p888sRRR99p"]])
    t = tiles[1]
    tiles[1] = TileRead("f2", t.box, 0.34, (("j2", 0.26), ("2m", 0.158)), t.angle)
    ctx = make_context("E", "S", "8s", "self_drawn", "nts")
    res = evaluate("p.jpg", group_tiles(tiles), ctx)
    assert not res.valid and res.score.reason == "bonus_tiles_not_allowed"
    assert "flowers/seasons only score under --ruleset nts-app" in res.warnings   # the hint stays
    assert "proposed_reading" in res.flags and res.final is None
    p = res.proposal
    assert p.notation == "222m 55599p 88s RRR +8s"
    assert p.changes[0] == "tile 2 read as 2m instead of f2"
    assert p.final == typed_answer(p.notation, ctx)["final"]


def test_under_nts_a_surely_read_flower_is_not_argued_away():
    tiles = place([["222m555p888sRRR99p"], ["f1"]])            # a real plum flower laid apart
    res = evaluate("p.jpg", group_tiles(tiles), make_context("E", "S", "8s", "self_drawn", "nts"))
    assert res.score.reason == "bonus_tiles_not_allowed" and res.proposal is None


def test_a_bonus_tile_is_never_proposed_as_a_suit_tile_left_among_the_flowers():
    """Two j2 laid aside (a second copy: no valid hand). Reading one as its runner-up 2m puts a
    15th tile in the hand, not a 2m among the bonus tiles scored as a flower (session 37: such a
    proposal was scored and its notation refused by the parser); the next runner-up, j3, is it."""
    from mjscore.scoring.notation import parse_hand
    from mjscore.scoring.tiles import BONUS

    tiles = place([["EEE"], ["RRR234m88s45s6s"], ["j2", "j2"]])
    t = tiles[-1]
    tiles[-1] = TileRead("j2", t.box, 0.5, (("2m", 0.3), ("j3", 0.1)), t.angle)
    ctx = make_context("E", "S", "6s", "self_drawn", "nts-app")
    res = evaluate("p.jpg", group_tiles(tiles), ctx)
    assert not res.valid and res.score.reason == "duplicate_bonus_tile"
    assert res.proposal.notation == "[EEE] 234m 4588s RRR +6s / j2 j3"
    assert res.proposal.changes[0] == "tile 16 read as j3 instead of j2"
    for alt in res.alternatives:
        hand = parse_hand(alt.notation)
        assert all(b in BONUS for b in hand.bonus)
        assert alt.final == typed_answer(alt.notation, ctx)["final"]


def _dragon_pung_read_as_flowers() -> list[TileRead]:
    """[EEE] [GGG] 234m 88s 45s 6s with the set's green dragon glyph unknown to the classifier:
    each copy of the exposed pung read ``f2`` at 0.6, ``G`` its runner-up at 0.25."""
    tiles = place([["EEE", "GGG"], ["234m88s45s6s"]])
    for i, t in enumerate(tiles):
        if t.kind == "G":
            tiles[i] = TileRead("f2", t.box, 0.6, (("G", 0.25), ("f3", 0.1)), t.angle)
    return tiles


def test_copies_of_one_kind_misread_alike_are_proposed_back_together_where_they_lie():
    layout = group_tiles(_dragon_pung_read_as_flowers())
    assert layout.notation == "[EEE] 234m 45688s / f2 f2 f2"       # three changes: beyond two tile edits
    res = evaluate("p.jpg", layout, make_context("E", "S", "6s", "self_drawn", "nts"))
    assert not res.valid and "proposed_reading" in res.flags
    p = res.proposal
    # laid apart in the top row, the pung is exposed (the layout step's grouping), not concealed
    assert p.notation == "[EEE] [GGG] 234m 4588s +6s"
    assert p.changes == ["tiles 4, 5, 6 read as G instead of f2", "tiles grouped again"]
    assert abs(p.likelihood - 0.25 / 0.6) < 1e-6                   # one glyph: the odds of one copy
    check = typed_answer(p.notation, make_context("E", "S", "6s", "self_drawn", "nts"))
    assert check["valid"] and p.final == check["final"]
    nl = result_text(evaluate("p.jpg", layout, make_context("E", "S", "6s", "self_drawn", "nts", lang="nl")))
    assert "stenen 4, 5, 6 gelezen als G in plaats van f2" in nl


def test_copies_changed_together_only_to_a_kind_every_copy_has_as_runner_up():
    tiles = _dragon_pung_read_as_flowers()
    i = next(k for k, t in enumerate(tiles) if t.kind == "f2")
    tiles[i] = TileRead("f2", tiles[i].box, 0.6, (("f3", 0.3),), tiles[i].angle)   # this copy never says G
    edits = [e for e in tile_edits(group_tiles(tiles)) if len(e.indices) > 1]
    assert [(e.kind, len(e.indices)) for e in edits] == [("f3", 3)]
