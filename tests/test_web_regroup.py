"""The page's sets through the API: /api/score keeps the groups it is sent, /api/regroup
applies one set edit with the review's commands, the engine's sets come back pinned to the
photo's tiles; bad edits are clear 4xx JSON errors (English and Dutch).

Recognition is :class:`BundledPhotoRecognizer` (photo_3's own labels), so the groups and
scores are known: the whole hand is one concealed block plus the flowers and seasons."""

from __future__ import annotations

import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from test_web_support import HAND_CONTEXT, HAND_PHOTO, BundledPhotoRecognizer
from mjscore.web.app import create_app

CTX = dict(HAND_CONTEXT, winning_tile="6s")


def engine(hand: str) -> int:
    from mjscore.handscan.context import make_context
    from typed_hand import typed_answer

    answer = typed_answer(hand, make_context(CTX["seat"], CTX["prevailing_wind"], None, CTX["win_type"], CTX["ruleset"]))
    assert answer["valid"]
    return answer["final"]


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return TestClient(create_app(recognize=BundledPhotoRecognizer(),
                                 db_path=tmp_path_factory.mktemp("w") / "s.sqlite3"))


@pytest.fixture(scope="module")
def scan(client):
    r = client.post("/api/scan", files={"photo": ("a.jpg", HAND_PHOTO.read_bytes(), "image/jpeg")})
    assert r.status_code == 200
    return r.json()


def regroup(client, scan, edit, groups=None, tiles=None, headers=None):
    return client.post("/api/regroup", json={"tiles": tiles or scan["tiles"], "edit": edit,
                                             "groups": groups if groups is not None else scan["layout"]["groups"]},
                       headers=headers or {})


def score(client, tiles, groups):
    r = client.post("/api/score", json={"tiles": tiles, "groups": groups, "context": CTX})
    assert r.status_code == 200, r.text
    return r.json()


def reds(scan) -> list[int]:
    return [t["number"] for t in scan["tiles"] if t["kind"] == "R"]


def test_the_engine_sets_are_pinned_to_photo_tiles(client, scan):
    out = score(client, scan["tiles"], scan["layout"]["groups"])
    assert out["final"] == engine("RRR 1112345557s +6s / f1 f2 j1 j2 j4")
    sets = out["sets"]
    assert [s["notation"] for s in sets] == [p.rstrip("*") for p in out["breakdown"]["decomposition"]]
    from mjscore.web.sets_view import tokens
    for s in sets:                                      # every set's tiles are the tiles it names
        assert sorted(scan["tiles"][n - 1]["kind"] for n in s["tiles"]) == sorted(tokens(s["notation"]))
    assert len({n for s in sets for n in s["tiles"]}) == 14  # each concealed tile in one set
    assert sum(s["winning"] for s in sets) == 1
    red = next(s for s in sets if s["notation"] == "(RRR)")
    assert sorted(red["tiles"]) == reds(scan)


def test_split_off_an_open_set_then_mark_it_concealed_again(client, scan):
    r = regroup(client, scan, {"op": "split", "group": 1, "tiles": reds(scan)})
    assert r.status_code == 200, r.text
    after = r.json()
    groups = after["layout"]["groups"]
    assert [g["kind"] for g in groups] == ["exposed", "concealed", "bonus"]
    assert groups[0]["notation"] == "[RRR]" and sorted(groups[0]["tiles"]) == reds(scan)
    assert after["before"] == list(range(1, 20))                   # no tile added or dropped
    opened = score(client, after["tiles"], groups)
    assert opened["final"] == engine("[RRR] 1112345557s +6s / f1 f2 j1 j2 j4")
    assert opened["final"] < engine("RRR 1112345557s +6s / f1 f2 j1 j2 j4")
    back = regroup(client, scan, {"op": "kind", "group": 1, "kind": "concealed"}, groups=groups).json()
    assert [g["kind"] for g in back["layout"]["groups"]] == ["concealed", "bonus"]
    assert score(client, back["tiles"], back["layout"]["groups"])["final"] == engine("RRR 1112345557s +6s / f1 f2 j1 j2 j4")


def test_move_merge_add_and_remove(client, scan):
    first_red = reds(scan)[0]
    moved = regroup(client, scan, {"op": "move", "tile": first_red, "to": "new"}).json()
    groups = moved["layout"]["groups"]
    assert groups[0] == {**groups[0], "kind": "exposed", "tiles": [first_red]}
    merged = regroup(client, scan, {"op": "merge", "group": 1, "to": 2}, groups=groups).json()
    assert [g["kind"] for g in merged["layout"]["groups"]] == ["concealed", "bonus"]
    added = regroup(client, scan, {"op": "add", "kind": "f3"}).json()    # a flower goes with the bonus tiles
    assert added["before"][-1] is None and added["tiles"][-1]["kind"] == "f3"
    assert 20 in next(g for g in added["layout"]["groups"] if g["kind"] == "bonus")["tiles"]
    removed = regroup(client, scan, {"op": "remove", "tile": 1}).json()
    assert len(removed["tiles"]) == 18 and removed["before"] == list(range(2, 20))


def test_a_hand_entered_tile_by_tile_without_a_photo(client):
    """The tile picker: no photo, tiles added one by one (no box), then scored."""
    tiles, groups = [], []
    for kind in "R R R 1s 1s 1s 2s 3s 4s 5s 5s 6s 7s 5s f1 f2 j1 j2 j4".split():
        r = client.post("/api/regroup", json={"tiles": tiles, "groups": groups, "edit": {"op": "add", "kind": kind}})
        assert r.status_code == 200, r.text
        tiles, groups = r.json()["tiles"], r.json()["layout"]["groups"]
    assert all(t["box"] == [0, 0, 0, 0] for t in tiles)
    out = score(client, tiles, groups)
    assert out["valid"] and out["final"] == engine("RRR 1112345557s +6s / f1 f2 j1 j2 j4")


@pytest.mark.parametrize("edit, words", [
    ({"op": "move", "tile": 99, "to": "new"}, "no tile 99"),
    ({"op": "kind", "group": 7, "kind": "exposed"}, "no group 7"),
    ({"op": "kind", "group": 1, "kind": "pung"}, "pung"),
    ({"op": "add", "kind": "9z"}, "not a tile kind"),
    ({"op": "split", "group": 2, "tiles": [1]}, "split"),
    ({"op": "merge", "group": 1, "to": 1}, "another set"),
])
def test_bad_edits_are_clear_422s(client, scan, edit, words):
    r = regroup(client, scan, edit)
    assert r.status_code == 422 and words in r.json()["detail"], r.text
    assert "Traceback" not in r.text


def test_bad_edits_and_groups_in_dutch(client, scan):
    nl = {"Accept-Language": "nl"}
    r = regroup(client, scan, {"op": "move", "tile": 99, "to": "new"}, headers=nl)
    assert r.status_code == 422 and r.json()["detail"] == "er is geen steen 99 (de stenen zijn genummerd 1-19)"
    r = client.post("/api/score", json={"tiles": scan["tiles"], "context": CTX,
                                        "groups": [{"kind": "exposed", "tiles": [1, 1]}]}, headers=nl)
    assert r.status_code == 422 and r.json()["detail"] == "steen 1 zit in twee sets"
    r = client.post("/api/regroup", json={"tiles": scan["tiles"], "edit": {"op": "shuffle"}}, headers=nl)
    assert r.status_code == 422 and r.json()["detail"][0]["msg"] == "is geen van de toegestane waarden"
    # the layout's reasons come back in Dutch
    r = client.post("/api/score", json={"tiles": scan["tiles"], "groups": scan["layout"]["groups"],
                                        "context": dict(CTX, lang="nl")})
    reasons = [g["reason"] for g in r.json()["layout"]["groups"]]
    assert reasons[0] == "het grootste blok van 14 stenen in de rij"
    assert all("tile" not in reason for reason in reasons)


def test_groups_out_of_range_or_of_an_unknown_kind_are_refused(client, scan):
    r = client.post("/api/score", json={"tiles": scan["tiles"], "context": CTX,
                                        "groups": [{"kind": "concealed", "tiles": [0]}]})
    assert r.status_code == 422 and "no tile 0" in r.json()["detail"]
    r = client.post("/api/score", json={"tiles": scan["tiles"], "context": CTX,
                                        "groups": [{"kind": "pair", "tiles": [1]}]})
    assert r.status_code == 422 and isinstance(r.json()["detail"], list)
