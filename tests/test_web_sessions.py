"""The whole session through the JSON API: wins with other players' hands, scores and dead
hands, draws, riichi hands (sticks, counters, noten payments), undo, end, and every game's
history with who pays whom; bad input is a clear 4xx JSON error, in Dutch when asked.

Expected payments are worked out by hand from spec §11 (East pays and receives double)."""

from __future__ import annotations

import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from mjscore.web.app import create_app

PLAYERS = ["Anna", "Bram", "Cor", "Dirk"]


@pytest.fixture
def client(tmp_path):
    return TestClient(create_app(recognize=lambda rgb: [], db_path=tmp_path / "sessions.sqlite3"))


def new(client, ruleset="nts") -> int:
    r = client.post("/api/sessions", json={"players": PLAYERS, "ruleset": ruleset})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def test_a_win_with_other_hands_a_score_and_a_dead_hand_shows_who_pays_whom(client):
    sid = new(client)
    # SET-02's hands: Bram (S) 136 on a discard; Anna (E) 16 from her hand, Cor counted 0,
    # Dirk a dead hand (0). Bram gets 272 + 136 + 136; Anna gets 32 from Cor and Dirk each.
    r = client.post(f"/api/sessions/{sid}/games", json={
        "winner": "Bram", "hand": "[GGG] [SSS] 234m567pWh +Wh", "win_type": "discard", "seat": "S",
        "hands": {"Anna": "RRR147m258p369sWh"}, "scores": {"Cor": 0}, "dead": ["Dirk"]})
    assert r.status_code == 201, r.text
    game = r.json()["game"]
    assert game["hand_scores"] == {"Anna": 16, "Bram": 136, "Cor": 0, "Dirk": 0}
    assert game["deltas"] == {"Anna": -208, "Bram": 544, "Cor": -168, "Dirk": -168}
    assert game["payments"] == [
        {"payer": "Anna", "payee": "Bram", "amount": 272}, {"payer": "Cor", "payee": "Anna", "amount": 32},
        {"payer": "Cor", "payee": "Bram", "amount": 136}, {"payer": "Dirk", "payee": "Anna", "amount": 32},
        {"payer": "Dirk", "payee": "Bram", "amount": 136}]
    assert game["totals_after"] == game["deltas"]
    session = r.json()["session"]
    assert session["games"][0]["payments"] == game["payments"]
    assert session["seats"]["Bram"] == "E" and "Bram" in session["next"]


def test_draw_undo_end_and_history(client):
    sid = new(client, "nts-app")
    r = client.post(f"/api/sessions/{sid}/games", json={"winner": "Cor", "scores": {"Cor": 100, "Anna": 0,
                                                                                  "Bram": 0, "Dirk": 0}})
    assert r.status_code == 201, r.text
    draw = client.post(f"/api/sessions/{sid}/games", json={"draw": True}).json()
    assert draw["game"]["kind"] == "draw" and draw["game"]["payments"] == []
    assert draw["game"]["deltas"] == {p: 0 for p in PLAYERS}
    assert [g["number"] for g in draw["session"]["games"]] == [1, 2]
    undone = client.post(f"/api/sessions/{sid}/undo").json()
    assert undone["undone"] == "game 2" and undone["session"]["games_played"] == 1
    assert undone["undone_text"] == "game 2"
    ended = client.post(f"/api/sessions/{sid}/end").json()
    assert ended["finished"] is True and ended["next"] is None
    r = client.post(f"/api/sessions/{sid}/games", json={"draw": True})
    assert r.status_code == 422 and "finished" in r.json()["detail"]
    reopened = client.post(f"/api/sessions/{sid}/undo?lang=nl").json()                # undo re-opens
    assert reopened["undone"] == "reopened" and reopened["undone_text"] == "het einde van de sessie (hij is weer open)"
    history = client.get(f"/api/sessions/{sid}").json()["games"]
    assert [g["result"] for g in history][0].startswith("Cor")
    assert client.get(f"/api/sessions/{sid}?lang=nl").json()["games"][0]["payments"][0]["payee"] == "Cor"


def test_riichi_hands_sticks_counters_and_noten_payments(client):
    sid = new(client, "riichi")
    r = client.post(f"/api/sessions/{sid}/riichi", json={
        "outcome": "ron", "wins": [{"player": "Cor", "han": 3, "fu": 30}], "discarder": "Anna", "riichi": ["Cor"]})
    assert r.status_code == 201, r.text
    game = r.json()["game"]
    assert game["deltas"] == {"Anna": -3900, "Bram": 0, "Cor": 3900, "Dirk": 0}
    assert any("Anna (East) pays Cor (West) 3900" in line for line in game["explanation"])
    # a draw with only Bram tenpai: the three noten players pay him 1,000 each, a counter is added
    draw = client.post(f"/api/sessions/{sid}/riichi", json={"outcome": "draw", "tenpai": ["Bram"]}).json()
    assert draw["game"]["deltas"] == {"Anna": -1000, "Bram": 3000, "Cor": -1000, "Dirk": -1000}
    assert sum("Noten payment" in line for line in draw["game"]["explanation"]) == 3
    assert draw["session"]["state"]["honba"] == 1 and draw["session"]["round"] == {"wind": "E", "number": 2}
    dutch = client.get(f"/api/sessions/{sid}?lang=nl").json()["games"][1]["explanation"]
    assert dutch and not any("payment" in line for line in dutch)


@pytest.mark.parametrize("path, body, words", [
    ("games", {"draw": True, "winner": "Anna"}, "draw"),
    ("games", {"winner": "Zoe", "scores": {}}, "Zoe"),
    ("games", {}, "who won"),
    ("games", {"winner": "Bram", "scores": {"Bram": 5000, "Anna": 0, "Cor": 0, "Dirk": 0}}, "0 to 2000"),
    ("games", {"winner": "Bram", "scores": {"Bram": 50}}, "no hand or score"),
    ("riichi", {"outcome": "draw"}, "nts session"),
])
def test_bad_games_are_clear_422s(client, path, body, words):
    sid = new(client)
    r = client.post(f"/api/sessions/{sid}/{path}", json=body)
    assert r.status_code == 422 and words in r.json()["detail"], r.text


def test_bad_riichi_and_session_requests(client):
    sid = new(client, "riichi")
    r = client.post(f"/api/sessions/{sid}/riichi", json={"outcome": "ron", "wins": [{"player": "Cor", "han": 3, "fu": 30}]})
    assert r.status_code == 422 and "discarded" in r.json()["detail"]
    r = client.post(f"/api/sessions/{sid}/riichi", json={"outcome": "ron", "wins": [{"player": "Cor", "han": 0}]})
    assert r.status_code == 422 and isinstance(r.json()["detail"], list)
    assert client.post(f"/api/sessions/{sid}/games", json={"draw": True}).status_code == 422
    assert client.post(f"/api/sessions/{sid}/undo").status_code == 422              # no games yet
    assert client.post("/api/sessions/999/end").status_code == 404
    assert client.post("/api/sessions/1/undo?lang=xx").status_code == 422


def test_session_errors_in_dutch(client):
    nl = {"Accept-Language": "nl-NL,nl;q=0.9"}
    sid = new(client)
    r = client.post(f"/api/sessions/{sid}/games", json={"winner": "Zoe"}, headers=nl)
    assert r.json()["detail"] == "'Zoe' speelt niet mee in sessie 1 (Anna, Bram, Cor, Dirk)"
    r = client.post(f"/api/sessions/{sid}/undo", headers=nl)
    assert r.status_code == 422 and r.json()["detail"].startswith("sessie 1 (") and "terug te nemen" in r.json()["detail"]
    r = client.get("/api/sessions/42", headers=nl)
    assert r.status_code == 404 and r.json()["detail"] == "er is geen sessie 42"
    r = client.post("/api/sessions", json={"players": ["A", "A", "B", "C"]}, headers=nl)
    assert r.json()["detail"] == "spelersnamen moeten verschillen: A, A, B, C"
