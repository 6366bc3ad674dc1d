"""Damaged session files through every `mjscore session` command (issue 14).

Makes a real session database with the CLI (nts, riichi and nts-app sessions with
games), damages copies of it in a fixed catalogue of ways (cut short at several points,
0 bytes, random bytes, records of the wrong JSON shape, a setup without start_points,
wrong or foreign schema, a folder, unreadable, a WAL leftover, ...) plus ``--count N``
random damages, and runs every session command on a fresh copy of each. It checks:
no traceback, the documented exit status (3 for a damaged or foreign file, 1 for a
newer schema or an unreadable file), the file named in the message, and the sha256 of
the file and of its -wal/-shm/-journal side files the same before and after. A random
damage that leaves a sound database may be used normally; then only the read commands
must leave it unchanged.

    python benchmarks/fuzz_sessions.py --count 40 [--seed 1] [--subprocess]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PLAYERS = "Anna,Bram,Cor,Dirk"
SIDES = ("-wal", "-shm", "-journal")
READS = ("show", "list", "export")
DAMAGED, REFUSED_FILE = 3, 1          # exit statuses documented in docs/session.md

SETUP = [
    ["new", "--players", PLAYERS, "--ruleset", "nts", "--name", "club"],
    ["hand", "--winner", "Bram", "--hand", "[GGG] [SSS] 234m567pWh +Wh", "--discard",
     "--hand-of", "Anna=RRR147m258p369sWh", "--hand-of", "Cor=369m147p258sEWNR",
     "--hand-of", "Dirk=NN258m369p147s99m"],
    ["hand", "--winner", "Cor", "--score-of", "Cor=136", "--score-of", "Anna=8",
     "--score-of", "Bram=0", "--score-of", "Dirk=0", "--dead", "Dirk"],
    ["hand", "--draw"],
    ["new", "--players", "A,B,C,D", "--ruleset", "riichi"],
    ["hand", "--winner", "A", "--han", "3", "--fu", "30", "--ron-from", "B", "--riichi", "A"],
    ["hand", "--draw", "--tenpai", "A"],
    ["end"],
    ["new", "--players", "W,X,Y,Z", "--ruleset", "nts-app", "--seats-by-dice", "--seed", "3"],
    ["hand", "--winner", "X", "--score-of", "X=20", "--score-of", "W=0", "--score-of", "Y=0",
     "--score-of", "Z=0"],
]


def commands(out_dir: Path) -> list[list[str]]:
    """Every command of `mjscore session --help`, with arguments that work on the sound file."""
    return [
        ["new", "--players", "P,Q,R,S"],
        ["hand", "--draw"],
        ["hand", "--session", "1", "--winner", "Bram", "--score-of", "Bram=20",
         "--score-of", "Anna=0", "--score-of", "Cor=0", "--score-of", "Dirk=0"],
        ["show"], ["show", "--session", "1", "--game", "1"], ["show", "--session", "2"],
        ["list"], ["undo"], ["undo", "--session", "1"], ["end"],
        ["export", "--csv"], ["export", "--json", "--session", "2"],
        ["export", "--json", "--out", str(out_dir / "out.json")],
    ]


class Runner:
    """Runs `mjscore session ...` in-process (CliRunner) or as a real process."""

    def __init__(self, use_subprocess: bool):
        self.use_subprocess = use_subprocess
        if not use_subprocess:
            from typer.testing import CliRunner

            from mjscore.cli import app
            self.runner, self.app = CliRunner(), app

    def __call__(self, args: list[str], db: Path) -> tuple[int, str, bool]:
        """(exit status, stdout + stderr, traceback seen)."""
        full = ["session", *args, "--db", str(db)]
        if self.use_subprocess:
            proc = subprocess.run([sys.executable, "-m", "mjscore.cli", *full],
                                  capture_output=True, text=True, errors="replace", timeout=120)
            text = proc.stdout + proc.stderr
            return proc.returncode, text, "Traceback" in text
        result = self.runner.invoke(self.app, full)
        crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
        text = result.stdout + result.stderr
        if crashed:
            import traceback

            text += "".join(traceback.format_exception(result.exception))[-600:]
        return result.exit_code, text, crashed or "Traceback" in text


# -- damages ----------------------------------------------------------------------------

def _sql(path: Path, *statements: str, params=()) -> None:
    conn = sqlite3.connect(path)
    for statement in statements:
        conn.execute(statement, params if "?" in statement else ())
    conn.commit()
    conn.close()


def _cut(size):
    return lambda p: p.write_bytes(p.read_bytes()[:size(p.stat().st_size)])


def _record(sql: str, value: str):
    return lambda p: _sql(p, sql, params=(value,))


def _game(value: str):
    return _record("UPDATE games SET record_json = ? WHERE session_id = 1 AND number = 2", value)


def _setup(value: str):
    return _record("UPDATE sessions SET setup_json = ? WHERE id = 1", value)


def _game_without(key: str):
    def damage(p: Path) -> None:
        conn = sqlite3.connect(p)
        record = json.loads(conn.execute(
            "SELECT record_json FROM games WHERE session_id = 1 AND number = 1").fetchone()[0])
        record.pop(key)
        conn.execute("UPDATE games SET record_json = ? WHERE session_id = 1 AND number = 1",
                     (json.dumps(record),))
        conn.commit()
        conn.close()
    return damage


def _patch(offset: int, data: bytes):
    def damage(p: Path) -> None:
        raw = bytearray(p.read_bytes())
        raw[offset:offset + len(data)] = data
        p.write_bytes(bytes(raw))
    return damage


def _side(suffix: str, data: bytes):
    return lambda p: Path(str(p) + suffix).write_bytes(data)


def _folder(p: Path) -> None:
    p.unlink()
    p.mkdir()
    (p / "notes.txt").write_text("not a database")


def _unreadable(p: Path) -> None:
    p.chmod(0)


def _wal_mode(p: Path) -> None:
    conn = sqlite3.connect(p)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.close()


def _random_setup_without_start(p: Path) -> None:
    conn = sqlite3.connect(p)
    setup = json.loads(conn.execute("SELECT setup_json FROM sessions WHERE id = 1").fetchone()[0])
    del setup["start_points"]
    conn.execute("UPDATE sessions SET setup_json = ? WHERE id = 1", (json.dumps(setup),))
    conn.commit()
    conn.close()


def catalogue(rng: random.Random) -> list[tuple[str, object, int]]:
    """(name, damage(path), the exit status every command must give)."""
    noise = bytes(rng.randrange(256) for _ in range(8192))
    return [
        ("empty file (0 bytes)", lambda p: p.write_bytes(b""), DAMAGED),
        ("cut by one byte", _cut(lambda n: n - 1), DAMAGED),
        ("cut by one page", _cut(lambda n: n - 4096), DAMAGED),
        ("cut in half", _cut(lambda n: n // 2), DAMAGED),
        ("cut to the header (100 bytes)", _cut(lambda n: 100), DAMAGED),
        ("cut to 10 bytes", _cut(lambda n: 10), DAMAGED),
        ("random bytes", lambda p: p.write_bytes(noise), DAMAGED),
        ("random bytes behind the SQLite magic",
         lambda p: p.write_bytes(b"SQLite format 3\x00" + noise), DAMAGED),
        ("odd bytes added", lambda p: p.write_bytes(p.read_bytes() + b"\x00" * 17), DAMAGED),
        ("a page of zeros added", lambda p: p.write_bytes(p.read_bytes() + b"\x00" * 4096),
         DAMAGED),
        ("impossible page size", _patch(16, b"\x03\x00"), DAMAGED),
        ("file format bytes damaged", _patch(18, b"\x07\x07"), DAMAGED),
        ("game record is not JSON", _game("{not json"), DAMAGED),
        ("game record is a list", _game("[1, 2, 3]"), DAMAGED),
        ("game record is a number", _game("42"), DAMAGED),
        ("game deltas are text", _game(json.dumps({"number": 2, "deltas": "lots"})), DAMAGED),
        ("game without seats", _game_without("seats"), DAMAGED),
        ("game without state_after", _game_without("state_after"), DAMAGED),
        ("game record nested 100000 deep", _game("[" * 100000 + "]" * 100000), DAMAGED),
        ("game record with a 5000-digit number", _game('{"number": ' + "9" * 5000 + "}"),
         DAMAGED),
        ("game record as non-UTF-8 bytes", lambda p: _sql(
            p, "UPDATE games SET record_json = ? WHERE session_id = 1 AND number = 1",
            params=(b"\xff\xfe{}",)), DAMAGED),
        ("setup without start_points", _random_setup_without_start, DAMAGED),
        ("setup is null", _setup("null"), DAMAGED),
        ("setup is a string", _setup('"four players"'), DAMAGED),
        ("end of the wrong shape",
         _record("UPDATE sessions SET end_json = ? WHERE id = 2", "[1, 2]"), DAMAGED),
        ("unknown ruleset", _record("UPDATE sessions SET ruleset = ? WHERE id = 1", "chess"),
         DAMAGED),
        ("a player missing", lambda p: _sql(
            p, "DELETE FROM players WHERE session_id = 1 AND position = 3"), DAMAGED),
        ("a game number missing", lambda p: _sql(
            p, "DELETE FROM games WHERE session_id = 1 AND number = 1"), DAMAGED),
        ("schema of a newer mjscore", lambda p: _sql(p, "UPDATE schema_version SET version = 99"),
         REFUSED_FILE),
        ("schema_version with two rows", lambda p: _sql(
            p, "INSERT INTO schema_version VALUES (1)"), DAMAGED),
        ("schema_version as text", lambda p: _sql(p, "UPDATE schema_version SET version = 'one'"),
         DAMAGED),
        ("no schema_version (another program's file)", lambda p: _sql(
            p, "DROP TABLE schema_version"), DAMAGED),
        ("games table missing", lambda p: _sql(p, "DROP TABLE games"), DAMAGED),
        ("games table of another shape", lambda p: _sql(
            p, "DROP TABLE games", "CREATE TABLE games (x TEXT)"), DAMAGED),
        ("a folder", _folder, DAMAGED),
        ("WAL leftover (random -wal)", _side("-wal", noise[:4096]), DAMAGED),
        ("WAL leftover (-wal and -shm)",
         lambda p: (_side("-wal", b"")(p), _side("-shm", noise[:32768 // 4])(p)), DAMAGED),
        ("database in WAL mode", _wal_mode, DAMAGED),
    ] + ([("unreadable (chmod 000)", _unreadable, REFUSED_FILE)] if os.geteuid() != 0 else [])


def random_damage(rng: random.Random, n: int):
    """One random damage (the same every time it is applied): a cut, changed bytes, or a
    record of a random wrong shape."""
    kind = rng.choice(["cut", "flip", "record", "setup"])
    seed = rng.random()
    values = ["null", "true", "[]", "{}", '"x"', "-1", "1e999", '{"number": 1}',
              json.dumps({"seats": [], "deltas": {}}), "[" * 50, '{"deltas": {"Anna": "x"}}']
    if kind == "cut":
        return f"random cut #{n}", _cut(lambda size: random.Random(seed).randrange(1, size))
    if kind == "flip":
        def flip(p: Path) -> None:
            rng = random.Random(seed)
            raw = bytearray(p.read_bytes())
            for _ in range(rng.randint(1, 16)):
                raw[rng.randrange(len(raw))] = rng.randrange(256)
            p.write_bytes(bytes(raw))
        return f"random bytes changed #{n}", flip
    if kind == "record":
        return f"random game record #{n}", _game(rng.choice(values))
    return f"random setup #{n}", _setup(rng.choice(values))


# -- checks -----------------------------------------------------------------------------

def digest(path: Path) -> dict[str, str]:
    """sha256 of the file (a folder: of its listing) and of each side file that exists."""
    out = {}
    for p in [path] + [Path(str(path) + s) for s in SIDES]:
        if p.is_dir():
            out[p.name] = hashlib.sha256("\n".join(sorted(os.listdir(p))).encode()).hexdigest()
        elif p.exists():
            try:
                out[p.name] = hashlib.sha256(p.read_bytes()).hexdigest()
            except PermissionError:
                st = p.stat()
                out[p.name] = f"unreadable {st.st_size} {st.st_mtime_ns}"
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=20, help="random damages besides the catalogue")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--subprocess", action="store_true", help="run each command as a real process")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    run = Runner(args.subprocess)
    work = Path(tempfile.mkdtemp(prefix="fuzz_sessions_"))
    started = time.perf_counter()
    try:
        sound = work / "sound.sqlite3"
        for step in SETUP:
            status, text, crashed = run(step, sound)
            if status != 0 or crashed:
                print(f"setup step failed: {step}: {text}")
                return 2
        cases = catalogue(rng) + [(*random_damage(rng, i + 1), None) for i in range(args.count)]
        totals = {"files": 0, "runs": 0, "tracebacks": 0, "wrong_status": 0, "changed": 0,
                  "unnamed": 0, "reported_damaged": 0, "used_normally": 0}
        for number, (name, damage, expected) in enumerate(cases):
            totals["files"] += 1
            statuses = set()
            for cmd in commands(work):
                case_dir = work / f"case{number}"
                db = case_dir / "sessions.sqlite3"
                case_dir.mkdir()
                shutil.copy(sound, db)
                damage(db)
                before = digest(db)
                status, text, crashed = run(cmd, db)
                after = digest(db)
                totals["runs"] += 1
                statuses.add(status)
                problems = []
                if crashed:
                    totals["tracebacks"] += 1
                    problems.append("traceback")
                if expected is not None and status != expected:
                    totals["wrong_status"] += 1
                    problems.append(f"exit {status}, documented {expected}")
                elif expected is None and status not in (0, 1, 2, DAMAGED):
                    totals["wrong_status"] += 1
                    problems.append(f"exit {status}")
                must_keep = expected is not None or status == DAMAGED or cmd[0] in READS
                if must_keep and before != after:
                    totals["changed"] += 1
                    problems.append("file changed")
                if status == DAMAGED and str(db) not in text:
                    totals["unnamed"] += 1
                    problems.append("file not named")
                if problems:
                    print(f"FAIL {name}: session {' '.join(cmd)}: {', '.join(problems)}\n"
                          f"     {text.strip()[-500:]}")
                shutil.rmtree(case_dir, ignore_errors=True)
            totals["reported_damaged" if DAMAGED in statuses else "used_normally"] += 1
            print(f"{name:48s} exit {sorted(statuses)}")
        totals["seconds"] = round(time.perf_counter() - started, 1)
        print(json.dumps(totals))
        failed = totals["tracebacks"] + totals["wrong_status"] + totals["changed"] + totals["unnamed"]
        print(f"{totals['files']} damaged files, {totals['runs']} command runs: "
              f"{totals['tracebacks']} tracebacks, {totals['wrong_status']} wrong exit statuses, "
              f"{totals['changed']} files changed, {totals['unnamed']} messages without the file")
        return 1 if failed else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
