"""The session database as a file on disk, looked at before and around SQLite.

Why: SQLite is forgiving where it should not be for a score sheet. It takes a 0-byte
file for a new empty database, reads a file cut short by a byte without a word from
``quick_check``, and plays back any ``-wal`` file lying next to the database. So the
file is checked here with plain reads (``problem``, ``size_problem``) and only ever
created whole (``create_atomically``): a path shows up as a complete, migrated
database, or not at all. Nothing here writes to an existing file.
"""

from __future__ import annotations

import os
import struct
import tempfile
from pathlib import Path
from typing import Callable

MAGIC = b"SQLite format 3\x00"
HEADER_BYTES = 100
JOURNAL_MAGIC = bytes.fromhex("d9d505f920a163d7")


def side_file(path: Path, suffix: str) -> Path:
    """``path`` with SQLite's side-file suffix (``-wal``, ``-shm``, ``-journal``)."""
    return path.with_name(path.name + suffix)


def _header(path: Path) -> bytes:
    with open(path, "rb") as f:
        return f.read(HEADER_BYTES)


def problem(path: Path) -> str | None:
    """What makes an existing ``path`` unusable before SQLite opens it, or None.

    Raises ``OSError`` when the file cannot be read at all (permissions)."""
    if path.is_dir():
        return "it is a folder, not a database file"
    if not path.is_file():
        return "it is not a regular file"
    header = _header(path)
    if not header:
        return "the file is empty (0 bytes)"
    if len(header) < HEADER_BYTES or not header.startswith(MAGIC):
        return "the file does not start like a SQLite database"
    if header[18:20] == b"\x02\x02":
        return "the file is in write-ahead-log mode, which mjscore never uses"
    if header[18:20] != b"\x01\x01":
        return "its header is damaged (file format bytes)"
    if side_file(path, "-wal").exists():
        return (f"a write-ahead log {side_file(path, '-wal').name} lies next to it "
                "(left by another program)")
    return None


def page_size(header: bytes) -> int:
    size = struct.unpack(">H", header[16:18])[0]
    return 65536 if size == 1 else size


def size_problem(path: Path) -> str | None:
    """A file whose length does not match its own header (cut short, or bytes added).

    Call it while holding a SQLite read lock: then no writer is half-way a commit."""
    header = _header(path)
    size = path.stat().st_size
    pages = page_size(header)
    if pages < 512 or pages & (pages - 1):
        return f"the header gives an impossible page size ({pages})"
    if size % pages:
        return f"the file is cut off or padded: {size} bytes is not a whole number of {pages}-byte pages"
    counted, changes, valid_for = (struct.unpack(">I", header[o:o + 4])[0] for o in (28, 24, 92))
    if counted and changes == valid_for and counted * pages != size:
        return (f"the file is {size // pages} pages long but its header says {counted}: "
                "it was cut short or added to")
    return None


def hot_journal(path: Path) -> bool:
    """A rollback journal left by a writer that was killed: SQLite plays it back."""
    journal = side_file(path, "-journal")
    try:
        with open(journal, "rb") as f:
            return f.read(len(JOURNAL_MAGIC)) == JOURNAL_MAGIC
    except OSError:
        return False


def create_atomically(path: Path, build: Callable[[Path], None]) -> bool:
    """Make ``path`` by building a database in a temporary file next to it and linking it
    into place, so no other process ever sees a half-made file. False when another
    process made ``path`` first (theirs is kept)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".new", dir=path.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        tmp.unlink()                              # SQLite makes the file itself
        build(tmp)
        try:
            os.link(tmp, path)
        except FileExistsError:
            return False
        except OSError:                           # no hard links here (FAT, some shares)
            if path.exists():
                return False
            os.replace(tmp, path)
        return True
    finally:
        for leftover in (tmp, side_file(tmp, "-journal")):
            try:
                leftover.unlink()
            except FileNotFoundError:
                pass
