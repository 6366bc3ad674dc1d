"""The sessions database's schema: its version and the ordered migrations that build it.
A later version adds a migration here; :mod:`match.store` applies them and refuses files
written by a newer version."""

from __future__ import annotations

import sqlite3

SCHEMA_VERSION = 1

MIGRATIONS: dict[int, str] = {
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


def expected_columns() -> dict[str, list[str]]:
    """Table -> columns of the current schema, read from the migrations themselves."""
    conn = sqlite3.connect(":memory:")
    for version in range(1, SCHEMA_VERSION + 1):
        conn.executescript(MIGRATIONS[version])
    out = {t: [c[1] for c in conn.execute(f"PRAGMA table_info({t})")]
           for (t,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    conn.close()
    return out
