"""A damaged session file is reported by every `mjscore session` command (exit 3, the
file named) and left byte for byte as it was, side files included; a missing file is
made by `new` only (benchmarks/fuzz_sessions.py does the same with many more files)."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mjscore.cli import app

PLAYERS = "Anna,Bram,Cor,Dirk"
COMMANDS = [["new", "--players", "P,Q,R,S"], ["hand", "--draw"], ["show"],
            ["show", "--game", "1"], ["list"], ["undo"], ["end"], ["export", "--csv"]]


def run(db: Path, *args: str):
    result = CliRunner().invoke(app, ["session", *args, "--db", str(db)])
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    assert "Traceback" not in result.output
    return result


def digest(db: Path) -> dict:
    files = [db] + [db.with_name(db.name + s) for s in ("-wal", "-shm", "-journal")]
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in files if p.is_file()}


@pytest.fixture(scope="module")
def sound(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("sound") / "sessions.sqlite3"
    assert run(db, "new", "--players", PLAYERS).exit_code == 0
    assert run(db, "hand", "--winner", "Bram", "--score-of", "Bram=20", "--score-of", "Anna=0",
               "--score-of", "Cor=0", "--score-of", "Dirk=0").exit_code == 0
    return db


def _sql(statement: str, value=None):
    def damage(db: Path) -> None:
        conn = sqlite3.connect(db)
        conn.execute(statement, () if value is None else (value,))
        conn.commit()
        conn.close()
    return damage


def _setup_without_start(db: Path) -> None:
    conn = sqlite3.connect(db)
    setup = json.loads(conn.execute("SELECT setup_json FROM sessions").fetchone()[0])
    del setup["start_points"]
    conn.execute("UPDATE sessions SET setup_json = ?", (json.dumps(setup),))
    conn.commit()
    conn.close()


DAMAGES = {
    "empty": (lambda db: db.write_bytes(b""), "empty (0 bytes)"),
    "cut by one byte": (lambda db: db.write_bytes(db.read_bytes()[:-1]), "cut off"),
    "record of the wrong shape": (_sql("UPDATE games SET record_json = ?", '{"number": 1}'),
                                  "'seats' is missing"),
    "record is a list": (_sql("UPDATE games SET record_json = ?", "[1, 2]"), "should be an object"),
    "setup without start_points": (_setup_without_start, "'start_points' is missing"),
    "WAL leftover": (lambda db: db.with_name(db.name + "-wal").write_bytes(b"\x00" * 999),
                     "write-ahead log"),
    "foreign schema": (_sql("DROP TABLE schema_version"), "another program"),
}


@pytest.mark.parametrize("name", list(DAMAGES))
def test_every_command_reports_a_damaged_file_and_leaves_it_alone(sound, tmp_path, name):
    damage, words = DAMAGES[name]
    for args in COMMANDS:
        db = tmp_path / "sessions.sqlite3"
        for old in tmp_path.iterdir():
            old.unlink()
        shutil.copy(sound, db)
        damage(db)
        before = digest(db)
        result = run(db, *args)
        assert result.exit_code == 3, (args, result.output)
        assert str(db) in result.stderr and words in result.stderr, (args, result.stderr)
        assert "left untouched" in result.stderr
        assert digest(db) == before, args


def test_a_missing_file_is_made_by_new_only(tmp_path):
    db = tmp_path / "club" / "sessions.sqlite3"
    assert "no sessions yet" in run(db, "list").stdout
    for args in (["show"], ["hand", "--draw"], ["undo"], ["end"], ["export", "--json"]):
        result = run(db, *args)
        assert result.exit_code == 1 and "no" in result.stderr and "session" in result.stderr
    assert run(db, "new", "--players", "Anna,Anna,Cor,Dirk").exit_code == 1     # refused first
    assert not db.exists() and not db.parent.exists()
    assert run(db, "new", "--players", PLAYERS).exit_code == 0
    assert [p.name for p in db.parent.iterdir()] == ["sessions.sqlite3"]      # no temp left


def test_ids_and_names_sqlite_cannot_hold_are_just_not_found(sound):
    for ref in ("99999999999999999999999", "²", "\udcff"):
        result = run(sound, "show", "--session", ref)
        assert result.exit_code == 1 and "session" in result.stderr


def test_a_player_name_that_is_not_utf8_is_refused_before_the_file_is_made(tmp_path):
    db = tmp_path / "s.sqlite3"
    result = run(db, "new", "--players", "Anna,Bram,Cor,\udcff")
    assert result.exit_code == 1 and "not valid text" in result.stderr
    assert not db.exists()


def test_reads_open_the_file_read_only(sound, tmp_path):
    db = tmp_path / "sessions.sqlite3"
    shutil.copy(sound, db)
    db.chmod(0o444)
    try:
        for args in (["show"], ["list"], ["export", "--csv"]):
            assert run(db, *args).exit_code == 0, args
    finally:
        db.chmod(0o644)
