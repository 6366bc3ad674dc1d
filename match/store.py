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
- a file that is not a sound sessions database is reported (``DamagedStore``) and never
  written: it is checked on disk (``dbfile``) and under a read lock before any write.
A game is stored as one JSON document (``record_json``), read back whole; its shape is
checked by ``records``.
"""

from __future__ import annotations

import json
import sqlite3
from urllib.parse import quote
from datetime import datetime, timezone
from pathlib import Path

from ..errors import BAD_DATABASE, UnavailableError
from . import dbfile
from .schema import MIGRATIONS, SCHEMA_VERSION, expected_columns

SQLITE_INT_MIN, SQLITE_INT_MAX = -2 ** 63, 2 ** 63 - 1


class StoreError(UnavailableError):
    """The database cannot be used (busy, newer schema, unwritable); message is for people."""


class DamagedStore(StoreError):
    """The file is not a usable sessions database (damaged, cut short, empty, another
    program's); it is reported and left exactly as it is."""

    code = BAD_DATABASE


def default_db_path() -> Path:
    """Where sessions live unless ``--db`` says otherwise."""
    import platformdirs

    return Path(platformdirs.user_data_dir("mjscore")) / "sessions.sqlite3"


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def damaged_message(path: Path, detail: str) -> str:
    return (f"the session database {path} is damaged or not a database ({detail}); "
            "it was left untouched. Keep a copy, and use --db with another path to start afresh.")


def _connect(target: str, uri: bool = False) -> sqlite3.Connection:
    return sqlite3.connect(target, isolation_level=None, timeout=10, uri=uri)


def _uri(path: Path, mode: str) -> str:
    return f"file:{quote(str(path.absolute()))}?mode={mode}"


MODES = ("create", "write", "read")


class Store:
    """Sessions and games in one SQLite file. Rows come back as plain dicts.

    ``mode``: ``create`` (read-write, a missing file is made), ``write`` (read-write, a
    missing file is not made) or ``read`` (read-only connection). Without ``create`` a
    missing file reads as an empty database kept in memory. An existing file is checked
    (``dbfile``, then ``quick_check`` and the schema under a read lock) before it is
    opened for writing, so a file that is not a sessions database is never changed."""

    def __init__(self, path: Path | str, mode: str = "create"):
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}")
        self.path = Path(path)
        self.mode = mode
        self.in_memory = False
        if not self.path.exists() and not self.path.is_symlink():
            if mode != "create":
                self.in_memory = True
                self.conn = _connect(":memory:")
                self._migrate()
                return
            self._create()
        self.conn = self._open_existing()

    # -- opening --------------------------------------------------------------------

    def _create(self) -> None:
        def build(tmp: Path) -> None:
            conn = _connect(str(tmp))
            try:
                self.conn = conn
                self._migrate()
            finally:
                conn.close()

        try:
            dbfile.create_atomically(self.path, build)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot create the session database {self.path}: {exc}") from exc

    def _open_existing(self) -> sqlite3.Connection:
        try:
            detail = dbfile.problem(self.path)
        except OSError as exc:
            raise StoreError(f"cannot read the session database {self.path}: "
                             f"{exc.strerror or exc}") from exc
        if detail:
            raise DamagedStore(damaged_message(self.path, detail))
        if dbfile.hot_journal(self.path):
            self._recover()
        conn = self._checked_connection()
        if self.mode == "read":
            return conn
        conn.close()
        try:
            conn = _connect(_uri(self.path, "rw"), uri=True)
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("PRAGMA synchronous = FULL")
            self.conn = conn
            self._migrate()
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            conn.close()
            raise StoreError(f"cannot open the session database {self.path} for writing: "
                             f"{exc}") from exc
        except StoreError:
            conn.close()
            raise
        return conn

    def _recover(self) -> None:
        """Let SQLite play back the journal of a writer that was killed (its own crash
        recovery): the half-written game is dropped, the confirmed ones stay."""
        try:
            conn = _connect(_uri(self.path, "rw"), uri=True)
            try:
                conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            finally:
                conn.close()
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            raise DamagedStore(damaged_message(self.path, f"crash recovery failed: {exc}")) from exc

    def _checked_connection(self) -> sqlite3.Connection:
        """A read-only connection to a file that passed every check, made under one read
        lock so that no writer can be half-way a commit while the file is measured."""
        try:
            conn = _connect(_uri(self.path, "ro"), uri=True)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the session database {self.path}: {exc}") from exc
        try:
            conn.execute("BEGIN")
            conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            detail = dbfile.size_problem(self.path)
            if detail is None:
                check = conn.execute("PRAGMA quick_check").fetchone()[0]
                detail = None if check == "ok" else check
            if detail is None:
                self.conn = conn
                self._check_schema()
            conn.execute("COMMIT")
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            conn.close()
            raise DamagedStore(damaged_message(self.path, str(exc))) from exc
        except (StoreError, OSError):
            conn.close()
            raise
        if detail:
            conn.close()
            raise DamagedStore(damaged_message(self.path, detail))
        return conn

    def _check_schema(self) -> None:
        """schema_version and the tables of that version, column for column."""
        tables = {row[0] for row in self.conn.execute(
            "SELECT name FROM sqlite_master WHERE type='table'")}
        if "schema_version" not in tables:
            raise DamagedStore(f"{self.path} is a SQLite file of another program "
                               "(no schema_version table); it was left untouched")
        rows = self.conn.execute("SELECT version FROM schema_version").fetchall()
        if len(rows) != 1 or not isinstance(rows[0][0], int) or rows[0][0] < 1:
            raise DamagedStore(damaged_message(self.path, "its schema_version table is damaged"))
        current = rows[0][0]
        if current > SCHEMA_VERSION:
            raise StoreError(f"{self.path} was written by a newer mjscore (schema {current}, "
                             f"this version knows {SCHEMA_VERSION}); update mjscore")
        if current == SCHEMA_VERSION:
            for table, columns in expected_columns().items():
                found = [c[1] for c in self.conn.execute(f"PRAGMA table_info({table})")]
                if found != columns:
                    raise DamagedStore(damaged_message(
                        self.path, f"table {table} is missing or has other columns"))

    def close(self) -> None:
        self.conn.close()

    # -- schema ---------------------------------------------------------------------

    def _migrate(self) -> None:
        tables = {row[0] for row in self.conn.execute(
            "SELECT name FROM sqlite_master WHERE type='table'")}
        current = 0
        if "schema_version" in tables:
            current = self.conn.execute("SELECT version FROM schema_version").fetchone()[0]
        for version in range(current + 1, SCHEMA_VERSION + 1):
            with self._write():
                if version == 1:
                    self.conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
                    self.conn.execute("INSERT INTO schema_version VALUES (0)")
                for statement in MIGRATIONS[version].split(";"):
                    if statement.strip():
                        self.conn.execute(statement)
                self.conn.execute("UPDATE schema_version SET version = ?", (version,))

    def schema_version(self) -> int:
        return self._one("SELECT version FROM schema_version")[0]

    # -- reading --------------------------------------------------------------------

    def _rows(self, sql: str, params: tuple = ()) -> list[tuple]:
        """Every row of a query; SQLite's complaints about the file become DamagedStore."""
        try:
            return self.conn.execute(sql, params).fetchall()
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            raise DamagedStore(damaged_message(self.path, str(exc))) from exc

    def _one(self, sql: str, params: tuple = ()) -> tuple | None:
        rows = self._rows(sql, params)
        return rows[0] if rows else None

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
        """The session row with its players and parsed setup and end; None when there is no
        such session (also for an id SQLite cannot even hold)."""
        if not SQLITE_INT_MIN <= session_id <= SQLITE_INT_MAX:
            return None
        row = self._one(
            "SELECT id, name, ruleset, created_at, setup_json, ended_at, end_json "
            "FROM sessions WHERE id = ?", (session_id,))
        if row is None:
            return None
        players = [r[0] for r in self._rows(
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
        return [r[0] for r in self._rows(sql + " ORDER BY id")]

    def sessions_named(self, name: str) -> list[int]:
        return [r[0] for r in self._rows(
            "SELECT id FROM sessions WHERE name = ? ORDER BY id", (name,))]

    def game_count(self, session_id: int) -> int:
        return self._one("SELECT COUNT(*) FROM games WHERE session_id = ?", (session_id,))[0]

    def set_end(self, session_id: int, end: dict | None) -> None:
        """Mark a session finished (``end`` = how it ended) or open again (``None``)."""
        with self._write():
            self.conn.execute(
                "UPDATE sessions SET ended_at = ?, end_json = ? WHERE id = ?",
                (now_iso() if end is not None else None,
                 json.dumps(end) if end is not None else None, session_id))

    # -- games ----------------------------------------------------------------------

    def games(self, session_id: int) -> list[dict]:
        return [self._load(r[0], f"session {session_id} game {r[1]}") for r in self._rows(
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

    def _load(self, text: str, what: str):
        """Parsed JSON of one stored document (its shape is checked by ``records``)."""
        try:
            return json.loads(text)
        except (TypeError, ValueError, RecursionError) as exc:
            raise DamagedStore(damaged_message(self.path, f"the stored data of {what} is not "
                                               f"JSON: {str(exc)[:80]}")) from exc


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
