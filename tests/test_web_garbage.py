"""Garbage to the JSON API is a 4xx with a clean JSON error, never a 500 or exception text;
a body shorter than its Content-Length is answered 408 without holding the server
(benchmarks/fuzz_web.py sends many more)."""

from __future__ import annotations

import re
import socket
import sqlite3
import threading
import time

import pytest
from fastapi.testclient import TestClient

from mjscore.web.app import create_app

LEAK = re.compile(r"Traceback|\b[A-Z][A-Za-z]*(Error|Exception)\b")
PLAYERS = ["Anna", "Bram", "Cor", "Dirk"]


@pytest.fixture
def client(tmp_path):
    client = TestClient(create_app(db_path=tmp_path / "s.sqlite3"), raise_server_exceptions=False)
    assert client.post("/api/sessions", json={"players": PLAYERS}).status_code == 201
    return client


def clean(response, status: int) -> dict:
    assert response.status_code == status, response.text
    assert not LEAK.search(response.text), response.text
    return response.json()


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x", "application/json"])
def test_a_body_that_is_not_utf8_is_422(client, content_type):
    headers = {"content-type": content_type} if content_type else {}
    body = clean(client.post("/api/score", content=b"\xff\xfe\x00 not text", headers=headers), 422)
    assert body["detail"] and all(set(d) == {"loc", "msg", "type"} for d in body["detail"])


@pytest.mark.parametrize("session_id", [str(2 ** 63), str(2 ** 64), "9" * 40, "-" + "9" * 40, "0"])
def test_session_ids_past_64_bits_are_not_found(client, session_id):
    assert "no session" in clean(client.get(f"/api/sessions/{session_id}"), 404)["detail"]
    game = {"winner": "Anna", "hand": "[EEE] RRR 234m 88s 45s +6s"}
    clean(client.post(f"/api/sessions/{session_id}/games", json=game), 404)


def test_lone_surrogates_are_refused_or_escaped(client):
    raw = b'{"players": ["\\ud800", "b", "c", "d"]}'
    detail = clean(client.post("/api/sessions", content=raw,
                               headers={"content-type": "application/json"}), 422)["detail"]
    assert "not valid text" in detail
    answer = client.post("/api/score", content=b'{"hand": "\\udfff +E"}',
                         headers={"content-type": "application/json"})
    assert answer.status_code < 500 and not LEAK.search(answer.text)


def test_an_unexpected_failure_says_nothing_about_the_exception(tmp_path, monkeypatch):
    from mjscore.web import services

    def broken(*_args, **_kwargs):
        raise KeyError("secret internals")

    monkeypatch.setattr(services.WebServices, "list_sessions", broken)
    client = TestClient(create_app(db_path=tmp_path / "s.sqlite3"), raise_server_exceptions=False)
    response = client.get("/api/sessions")
    assert response.status_code == 500
    assert "secret" not in response.text and "KeyError" not in response.text


def test_a_damaged_database_is_503_and_left_alone(tmp_path):
    db = tmp_path / "s.sqlite3"
    client = TestClient(create_app(db_path=db), raise_server_exceptions=False)
    assert client.post("/api/sessions", json={"players": PLAYERS}).status_code == 201
    conn = sqlite3.connect(db)
    conn.execute("UPDATE games SET record_json = '[]'")             # no games: nothing changes
    conn.execute("UPDATE sessions SET setup_json = '{\"rounds\": 4}'")
    conn.commit()
    conn.close()
    before = db.read_bytes()
    for method, url, body in [("GET", "/api/sessions", None), ("GET", "/api/sessions/1", None),
                              ("POST", "/api/sessions", {"players": PLAYERS}),
                              ("POST", "/api/sessions/1/games",
                               {"winner": "Anna", "hand": "[EEE] RRR 234m 88s 45s +6s"})]:
        detail = clean(client.request(method, url, json=body), 503)["detail"]
        assert "start_points" in detail and str(db) in detail
    assert db.read_bytes() == before


def test_a_body_shorter_than_its_length_is_408_and_the_server_stays_up(tmp_path):
    import uvicorn

    app = create_app(db_path=tmp_path / "s.sqlite3", body_idle_seconds=0.5)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.time() + 20
        while not server.started:
            assert time.time() < deadline, "server did not start"
            time.sleep(0.05)
        start = time.perf_counter()
        with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
            conn.sendall(b"POST /api/score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                         b"\r\nContent-Length: 1000\r\n\r\n{\"hand\":")
            answer = b""
            while chunk := conn.recv(4096):                  # the server closes the connection
                answer += chunk
        assert time.perf_counter() - start < 3
        assert answer.startswith(b"HTTP/1.1 408") and b"stopped arriving" in answer
        with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
            conn.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            assert conn.recv(100).startswith(b"HTTP/1.1 200")
    finally:
        server.should_exit = True
        thread.join(10)
