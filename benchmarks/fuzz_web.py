"""Garbage requests to every route of the web app, and short bodies to a real server
(issue 14).

Part 1 sends ``--count`` requests through ``TestClient(create_app(db_path=tmp))`` to every
route the app has (read from ``app.routes``, so new routes are covered too): random
bytes, wrong content types, non-UTF-8, huge, negative and overflowing ids, deep JSON,
wrong field types, missing fields, odd unicode (lone surrogates, NUL, right-to-left). It
counts answers with status 500 and bodies that hold "Traceback" or a Python exception
class name; both must be 0.

Part 2 starts ``python -m mjscore.cli serve --port P --db F`` and sends, over raw
sockets, requests whose Content-Length is larger than the body: each must be answered
or dropped within a few seconds, and the server must answer a health check meanwhile
and afterwards.

    python benchmarks/fuzz_web.py --count 600 [--seed 1] [--no-server]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import socket
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

LEAK = re.compile(r"Traceback|File \"|\b[A-Z][A-Za-z]*(Error|Exception|Warning)\b|sqlite3\.")
CONTENT_TYPES = [None, "application/json", "text/plain", "application/x-www-form-urlencoded",
                 "multipart/form-data", "multipart/form-data; boundary=zz", "image/jpeg",
                 "application/json; charset=utf-16", "a/b; c=\xff",
                 "application/octet-stream"]
ODD_TEXT = ["", " ", "\x00", "\ud800", "\udfff", "\u202eWh", "🀄🀅", "A" * 100_000, "é" * 300,
            "[EEE] RRR 234m 88s 45s +6s", "%s%n", "'; DROP TABLE games; --", "\\", "E"]
ODD_IDS = ["0", "-1", "1", "2", str(2 ** 63 - 1), str(2 ** 63), str(2 ** 64), "9" * 60,
           "-" + "9" * 60, "1e3", "0x10", "abc", "%00", "%ff", "..%2f..%2fetc", "١", "²", " 1"]
VALID = {
    "/api/score": {"hand": "[EEE] RRR 234m 88s 45s +6s",
                   "context": {"seat": "E", "prevailing_wind": "S", "win_type": "self_drawn",
                               "ruleset": "nts-app", "lang": "nl"}},
    "/api/sessions": {"players": ["Anna", "Bram", "Cor", "Dirk"], "ruleset": "nts", "name": "x"},
    "/api/sessions/{session_id}/games": {"winner": "Anna", "hand": "[EEE] RRR 234m 88s 45s +6s",
                                         "win_type": "discard", "scores": {"Bram": 0}},
}


def odd_value(rng: random.Random, depth: int = 0):
    """A JSON value of a random type, sometimes nested, sometimes extreme."""
    choice = rng.randrange(11 if depth < 3 else 7)
    if choice == 0:
        return None
    if choice == 1:
        return rng.choice([True, False])
    if choice == 2:
        return rng.choice([0, -1, 2 ** 63, 2 ** 64 + 1, -(2 ** 70), 10 ** 300, 1.5, -0.0, 1e308])
    if choice in (3, 4, 5):
        return rng.choice(ODD_TEXT)
    if choice == 6:
        return rng.choice(["Infinity", "NaN", "1e999"])       # strings; raw forms in raw_json
    if choice in (7, 8):
        return [odd_value(rng, depth + 1) for _ in range(rng.randrange(5))]
    return {rng.choice(ODD_TEXT[:8] + ["tiles", "hand", "context", "kind", "box"]):
            odd_value(rng, depth + 1) for _ in range(rng.randrange(4))}


def mutate(template: dict, rng: random.Random):
    """A valid body with one to three fields dropped, retyped, or nested wrongly."""
    body = json.loads(json.dumps(template))
    for _ in range(rng.randint(1, 3)):
        target = body
        if isinstance(body.get("context"), dict) and rng.random() < 0.4:
            target = body["context"]
        key = rng.choice(list(target) + ["extra", "tiles"]) if target else "x"
        action = rng.randrange(3)
        if action == 0:
            target.pop(key, None)
        elif action == 1:
            target[key] = odd_value(rng)
        else:
            target[key] = [{"kind": odd_value(rng), "box": odd_value(rng),
                            "confidence": odd_value(rng), "alternatives": odd_value(rng),
                            "angle": odd_value(rng)} for _ in range(rng.randrange(1, 4))]
    return body


def raw_body(rng: random.Random, path: str) -> bytes:
    """Bytes for a body: random, non-UTF-8, deep, huge numbers, or a mutated valid body."""
    kind = rng.randrange(9)
    template = next((v for k, v in VALID.items() if k == path), {"x": 1})
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(0, 2000)))
    if kind == 1:
        return b"\xff\xfe" + json.dumps(template).encode("utf-16")
    if kind == 2:
        depth = rng.choice([100, 1000, 100_000])
        return b'{"hand": ' * 1 + b"[" * depth + b"]" * depth + b"}"
    if kind == 3:
        return b'{"hand": "x", "context": {"seat": ' + b"9" * rng.choice([20, 5000]) + b"}}"
    if kind == 4:
        return rng.choice([b"NaN", b"Infinity", b'{"scores": {"Bram": NaN}}', b"[]", b"null",
                           b'"a string"', b"{", b'{"players": ["\\ud800","b","c","d"]}',
                           b'{"hand": "\\udfff +E"}', b'{"winner": "\\u0000", "hand": "\\u0000"}'])
    return json.dumps(mutate(template, rng)).encode("utf-8", "surrogatepass")


def multipart(rng: random.Random) -> tuple[bytes, str]:
    """A multipart body with a photo field of random or truncated image bytes."""
    boundary = "fuzzboundary"
    payloads = [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 3000))),
                b"\x89PNG\r\n\x1a\n" + bytes(rng.randrange(256) for _ in range(200)),
                b"\xff\xd8\xff\xe0" + bytes(rng.randrange(256) for _ in range(200)),
                b"RIFF\x00\x00\x00\x00WEBPVP8 ", b"", b"GIF89a"]
    field = rng.choice(["photo", "photo", "file", "\xff"])
    data = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"a.jpg\"\r\n"
            f"Content-Type: image/jpeg\r\n\r\n").encode("utf-8", "surrogateescape")
    data += rng.choice(payloads)
    if rng.random() < 0.8:
        data += f"\r\n--{boundary}--\r\n".encode()
    return data, f"multipart/form-data; boundary={boundary}"


def routes(app) -> list[tuple[str, str]]:
    """(method, path template) of every route, plus a few that do not exist."""
    out = []
    for route in app.routes:
        for method in sorted(getattr(route, "methods", None) or {"GET"}):
            if method != "HEAD":
                out.append((method, route.path))
    return out + [("DELETE", "/api/sessions/{session_id}"), ("PUT", "/api/score"),
                  ("GET", "/static/{path}"), ("GET", "/nothing/{path}")]


def fill(path: str, rng: random.Random) -> str:
    return re.sub(r"\{[^}]+\}", lambda _: rng.choice(ODD_IDS + ["1", "1"]), path)


def fuzz_app(count: int, rng: random.Random) -> dict:
    from fastapi.testclient import TestClient

    from mjscore.web.app import create_app

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(db_path=Path(tmp) / "sessions.sqlite3")
        client = TestClient(app, raise_server_exceptions=False)
        client.post("/api/sessions", json=VALID["/api/sessions"])       # session 1 exists
        table = routes(app)
        totals = {"requests": 0, "status_500": 0, "leaks": 0, "by_status": {}}
        for n in range(count):
            method, template = table[n % len(table)]
            url = fill(template, rng)
            if rng.random() < 0.2:
                url += rng.choice(["?all=maybe", "?all=%ff", "?all=true&all=false", "?" + "a=1&" * 500])
            headers = {}
            if "scan" in template and rng.random() < 0.6:
                body, ctype = multipart(rng)
            else:
                body, ctype = raw_body(rng, template), rng.choice(CONTENT_TYPES)
            if ctype is not None:
                headers["content-type"] = ctype.encode("latin-1")
            if method == "GET" and rng.random() < 0.7:
                body = b""
            response = client.request(method, url, content=body, headers=headers)
            totals["requests"] += 1
            key = str(response.status_code)
            totals["by_status"][key] = totals["by_status"].get(key, 0) + 1
            text = response.content.decode("utf-8", "replace")
            if response.status_code == 500:
                totals["status_500"] += 1
                print(f"500: {method} {url[:80]} {ctype} {body[:80]!r} -> {text[:200]}")
            if LEAK.search(text) and template not in ("/docs", "/openapi.json", "/", "/static"):
                totals["leaks"] += 1
                print(f"leak: {method} {url[:80]} -> {text[:200]}")
        return totals


# -- part 2: a real server and bodies shorter than their Content-Length ----------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _health(port: int, timeout: float = 3.0) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.settimeout(timeout)
            s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            return s.recv(100).startswith(b"HTTP/1.1 200")
    except OSError:
        return False


def short_body(port: int, path: str, declared: int, sent: bytes, limit: float) -> tuple[float, bytes]:
    """Seconds until the server answers or drops a request whose body stops short."""
    start = time.perf_counter()
    with socket.create_connection(("127.0.0.1", port), timeout=limit) as s:
        s.settimeout(limit)
        s.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  f"Content-Length: {declared}\r\n\r\n".encode() + sent)
        answer = b""
        try:
            while chunk := s.recv(4096):
                answer += chunk
        except socket.timeout:
            return float("inf"), answer
    return time.perf_counter() - start, answer


def fuzz_server(limit: float = 10.0) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        port = _free_port()
        proc = subprocess.Popen([sys.executable, "-m", "mjscore.cli", "serve", "--port", str(port),
                                 "--db", str(Path(tmp) / "club.sqlite3")],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            deadline = time.time() + 60
            while not _health(port, 1.0):
                if time.time() > deadline or proc.poll() is not None:
                    raise SystemExit(f"server did not start: {proc.stderr.read().decode()[-500:]}")
                time.sleep(0.2)
            probes = [("/api/score", 1000, b'{"hand":'), ("/api/sessions", 10 ** 6, b"{"),
                      ("/api/scan", 5000, b"--x\r\n"), ("/api/score", 50, b"")]
            probes += [("/api/score", 1000, b'{"hand":')] * 12                 # many at once
            with ThreadPoolExecutor(len(probes)) as pool:
                pending = [pool.submit(short_body, port, *p, limit) for p in probes]
                time.sleep(0.5)
                health_during = _health(port)
                results = [f.result() for f in pending]
            seconds = [r[0] for r in results]
            statuses = sorted({r[1][:12].decode(errors="replace") or "dropped" for r in results})
            return {"short_body_requests": len(probes), "max_seconds": round(max(seconds), 2),
                    "answers": statuses, "health_during": health_during,
                    "health_after": _health(port),
                    "within_limit": all(s <= limit for s in seconds)}
        finally:
            proc.terminate()
            proc.wait(10)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-server", action="store_true", help="skip the real-server part")
    args = parser.parse_args()
    start = time.perf_counter()
    totals = fuzz_app(args.count, random.Random(args.seed))
    totals["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(totals))
    ok = totals["status_500"] == 0 and totals["leaks"] == 0
    if not args.no_server:
        server = fuzz_server()
        print(json.dumps(server))
        ok = ok and server["within_limit"] and server["health_during"] and server["health_after"]
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
