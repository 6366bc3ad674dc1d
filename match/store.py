"""SQLite storage of sessions and their games (stdlib ``sqlite3``).

Why it looks like this:
- one file, by default ``platformdirs.user_data_dir("mjscore")/sessions.sqlite3``;
  ``--db PATH`` overrides it;
- every write (a new session, one game, an undo, an end) is one ``BEGIN IMMEDIATE``
  transaction, so a crash or a second terminal never leaves half a game behind, and a
  confirmed game is on disk (rollback journal, ``synchronous=FULL``);
- a ``schema_version`` table and an ordered list of migrations, so later versions can
  change the schema without losing old matches; a file written by a newer version is
  refused rather than damaged;
- a file that is not a database, or fails SQLite's quick check, is reported and left
  untouched (``StoreError``), never recreated.
A game is stored as one JSON document (``record_json``): the record is read back as a
whole and its shape can grow without schema changes.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

from ..errors import UnavailableError

SCHEMA_VERSION = 1

_MIGRATIONS: dict[int, str] = {
    1: """
    CREATE TABLE sessions (
        id          INTEGER PRIMARY KEY,
        name        TEXT NOT NULL,
        ruleset     TEXT NOT NULL,
        created_at  TEXT NOT NULL,
        setup_json  TEXT NOT NULL,
        ended_at    TEXT,
        end_json    TEXT
    );
    CREATE TABLE players (
        session_id  INTEGER NOT NULL REFERENCES sessions(id),
        position    INTEGER NOT NULL,
        name        TEXT NOT NULL,
        PRIMARY KEY (session_id, position),
        UNIQUE (session_id, name)
    );
    CREATE TABLE games (
        session_id  INTEGER NOT NULL REFERENCES sessions(id),
        number      INTEGER NOT NULL,
        recorded_at TEXT NOT NULL,
        record_json TEXT NOT NULL,
        PRIMARY KEY (session_id, number)
    );
    """,
}


class StoreError(UnavailableError):
    """The database cannot be used (corrupt, newer schema, unwritable); message is for people."""


def default_db_path() -> Path:
    """Where sessions live unless ``--db`` says otherwise."""
    import platformdirs

    return Path(platformdirs.user_data_dir("mjscore")) / "sessions.sqlite3"


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class Store:
    """Sessions and games in one SQLite file. Rows come back as plain dicts."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        if self.path.exists() and self.path.is_dir():
            raise StoreError(f"{self.path} is a folder, not a database file")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.conn = sqlite3.connect(self.path, isolation_level=None, timeout=10)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open the session database {self.path}: {exc}") from exc
        try:
            self.conn.execute("PRAGMA foreign_keys = ON")
            self.conn.execute("PRAGMA synchronous = FULL")
            check = self.conn.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise StoreError(self._corrupt_message(check))
            self._migrate()
        except sqlite3.DatabaseError as exc:
            self.conn.close()
            raise StoreError(self._corrupt_message(str(exc))) from exc
        except StoreError:
            self.conn.close()
            raise

    def _corrupt_message(self, detail: str) -> str:
        return (f"the session database {self.path} is damaged or not a database ({detail}); "
                "it was left untouched. Keep a copy, and use --db with another path to start afresh.")

    def close(self) -> None:
        self.conn.close()

    # -- schema ---------------------------------------------------------------------

    def _migrate(self) -> None:
        tables = {row[0] for row in self.conn.execute(
            "SELECT name FROM sqlite_master WHERE type='table'")}
        if tables and "schema_version" not in tables:
            raise StoreError(f"{self.path} is a SQLite file of another program "
                             "(no schema_version table); it was left untouched")
        current = 0
        if "schema_version" in tables:
            row = self.conn.execute("SELECT version FROM schema_version").fetchone()
            current = row[0] if row else 0
        if current > SCHEMA_VERSION:
            raise StoreError(f"{self.path} was written by a newer mjscore (schema {current}, "
                             f"this version knows {SCHEMA_VERSION}); update mjscore")
        for version in range(current + 1, SCHEMA_VERSION + 1):
            with self._write():
                if version == 1:
                    self.conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
                    self.conn.execute("INSERT INTO schema_version VALUES (0)")
                for statement in _MIGRATIONS[version].split(";"):
                    if statement.strip():
                        self.conn.execute(statement)
                self.conn.execute("UPDATE schema_version SET version = ?", (version,))

    def schema_version(self) -> int:
        return self.conn.execute("SELECT version FROM schema_version").fetchone()[0]

    # -- transactions ---------------------------------------------------------------

    def _write(self) -> "_Transaction":
        return _Transaction(self.conn)

    # -- sessions -------------------------------------------------------------------

    def create_session(self, name: str, ruleset: str, players: list[str], setup: dict) -> int:
        with self._write():
            cur = self.conn.execute(
                "INSERT INTO sessions (name, ruleset, created_at, setup_json) VALUES (?, ?, ?, ?)",
                (name, ruleset, now_iso(), json.dumps(setup)))
            session_id = cur.lastrowid
            self.conn.executemany(
                "INSERT INTO players (session_id, position, name) VALUES (?, ?, ?)",
                [(session_id, pos, player) for pos, player in enumerate(players)])
        return session_id

    def session(self, session_id: int) -> dict | None:
        row = self.conn.execute(
            "SELECT id, name, ruleset, created_at, setup_json, ended_at, end_json "
            "FROM sessions WHERE id = ?", (session_id,)).fetchone()
        if row is None:
            return None
        players = [r[0] for r in self.conn.execute(
            "SELECT name FROM players WHERE session_id = ? ORDER BY position", (session_id,))]
        return {
            "id": row[0], "name": row[1], "ruleset": row[2], "created_at": row[3],
            "setup": self._load(row[4], f"session {row[0]}"),
            "ended_at": row[5],
            "end": self._load(row[6], f"session {row[0]}") if row[6] else None,
            "players": players,
        }

    def session_ids(self, open_only: bool = False) -> list[int]:
        sql = "SELECT id FROM sessions"
        if open_only:
            sql += " WHERE ended_at IS NULL"
        return [r[0] for r in self.conn.execute(sql + " ORDER BY id")]

    def sessions_named(self, name: str) -> list[int]:
        return [r[0] for r in self.conn.execute(
            "SELECT id FROM sessions WHERE name = ? ORDER BY id", (name,))]

    def game_count(self, session_id: int) -> int:
        return self.conn.execute(
            "SELECT COUNT(*) FROM games WHERE session_id = ?", (session_id,)).fetchone()[0]

    def set_end(self, session_id: int, end: dict | None) -> None:
        """Mark a session finished (``end`` = how it ended) or open again (``None``)."""
        with self._write():
            self.conn.execute(
                "UPDATE sessions SET ended_at = ?, end_json = ? WHERE id = ?",
                (now_iso() if end is not None else None,
                 json.dumps(end) if end is not None else None, session_id))

    # -- games ----------------------------------------------------------------------

    def games(self, session_id: int) -> list[dict]:
        return [self._load(r[0], f"session {session_id} game {r[1]}") for r in self.conn.execute(
            "SELECT record_json, number FROM games WHERE session_id = ? ORDER BY number",
            (session_id,))]

    def append_game(self, session_id: int, number: int, record: dict,
                    end: dict | None = None) -> None:
        """Store game ``number`` (and, when it ends the match, the end) in one transaction.

        Refuses when another writer got there first (the number is no longer next)."""
        with self._write():
            count = self.conn.execute(
                "SELECT COUNT(*) FROM games WHERE session_id = ?", (session_id,)).fetchone()[0]
            if count + 1 != number:
                raise StoreError(f"session {session_id} changed meanwhile (it has {count} games "
                                 f"now); show it again and re-enter the game")
            self.conn.execute(
                "INSERT INTO games (session_id, number, recorded_at, record_json) VALUES (?, ?, ?, ?)",
                (session_id, number, now_iso(), json.dumps(record)))
            if end is not None:
                self.conn.execute(
                    "UPDATE sessions SET ended_at = ?, end_json = ? WHERE id = ?",
                    (now_iso(), json.dumps(end), session_id))

    def delete_last_game(self, session_id: int, number: int) -> None:
        """Remove game ``number`` (which must be the last) and re-open the session."""
        with self._write():
            count = self.conn.execute(
                "SELECT COUNT(*) FROM games WHERE session_id = ?", (session_id,)).fetchone()[0]
            if count != number:
                raise StoreError(f"session {session_id} changed meanwhile; nothing was undone")
            self.conn.execute("DELETE FROM games WHERE session_id = ? AND number = ?",
                              (session_id, number))
            self.conn.execute("UPDATE sessions SET ended_at = NULL, end_json = NULL WHERE id = ?",
                              (session_id,))

    @staticmethod
    def _load(text: str, what: str) -> dict:
        try:
            return json.loads(text)
        except (TypeError, json.JSONDecodeError) as exc:
            raise StoreError(f"the stored data of {what} is damaged ({exc})") from exc


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any error."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def __enter__(self) -> None:
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise StoreError(f"the session database is busy or read-only ({exc})") from exc

    def __exit__(self, exc_type, exc, tb) -> bool:
        if exc_type is None:
            try:
                self.conn.execute("COMMIT")
            except sqlite3.Error as err:
                self.conn.execute("ROLLBACK")
                raise StoreError(f"could not save to the session database ({err})") from err
        else:
            self.conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error) and not isinstance(exc, StoreError):
                raise StoreError(f"could not save to the session database ({exc})") from exc
        return False
