"""What a batch is asked to do: the photos of a folder, or the rows of a CSV / JSON manifest,
each with its context, as :class:`Job` objects.

A row is known by its manifest line (entry) and photo (:func:`row_key`), so one photo listed
twice with another context is two jobs. A bad row (no photo, a bad value, a broken CSV line,
a JSON entry that is not an object) becomes a job that carries its problem: it is recorded as
a failed row and never stops the batch. CSV is read with the ``csv`` module, so quoted
newlines and U+2028 in file names stay inside their field.

Manifest columns (header names are case-insensitive; spaces, dashes and underscores alike):
``photo`` (required; relative to the manifest), ``table``, ``round``, ``seat``, ``wind``
(prevailing), ``win_type``, ``winning_tile``, ``player``, and optionally ``ruleset``,
``special``, ``hand`` (notation that replaces the photo's grouping).
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError
from .context import ContextError, ScanContext, make_context

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp", ".bmp", ".tif", ".tiff", ".heic", ".heif", ".avif"}
COLUMNS = ["photo", "table", "round", "seat", "player", "wind", "win_type", "winning_tile", "ruleset",
           "tiles", "hand", "valid", "reason", "final", "limit_hand", "flags", "min_confidence",
           "alternatives", "proposed_hand", "proposed_final", "proposed_changes",
           "warnings", "error", "seconds", "path", "row"]
_ALIASES = {
    "photo": "photo", "image": "photo", "file": "photo", "path": "photo", "filename": "photo",
    "table": "table", "tafel": "table",
    "round": "round", "game": "round", "hand_no": "round", "ronde": "round",
    "seat": "seat", "seat_wind": "seat", "own_wind": "seat",
    "wind": "wind", "prevailing_wind": "wind", "prevailing": "wind", "round_wind": "wind",
    "win_type": "win_type", "wintype": "win_type", "win": "win_type", "how": "win_type",
    "winning_tile": "winning_tile", "winning": "winning_tile", "win_tile": "winning_tile",
    "player": "player", "players": "player", "player_name": "player", "player_names": "player", "name": "player",
    "ruleset": "ruleset", "rules": "ruleset", "special": "special", "hand": "hand",
}


class ManifestError(InputError):
    """The manifest as a whole cannot be read (a single bad row is a row error instead)."""


@dataclass
class Job:
    photo: str                       # as written in the manifest / found in the folder
    path: str                        # absolute path
    meta: dict = field(default_factory=dict)     # table, round, seat, player, ...
    context: ScanContext | None = None
    hand: str | None = None
    error: str | None = None         # a row that cannot be run (bad context value)
    row: str = ""                    # manifest line (CSV) or entry (JSON); "" for a folder

    @property
    def key(self) -> str:
        """The resume key: manifest row and photo (see :func:`row_key`)."""
        return f"{self.row}|{self.path}"


def row_key(row: dict) -> str:
    """The resume key of an output row, as :attr:`Job.key`."""
    return f"{row.get('row') or ''}|{row.get('path') or row.get('photo')}"


def _key(name: str) -> str:
    return _ALIASES.get(re.sub(r"[\s\-]+", "_", name.strip().lower()), "")


def read_csv_records(text: str) -> list[tuple[int, dict | str]]:
    """``(first line, record)`` for each CSV record of ``text`` (a header line first);
    a record the csv module cannot parse is ``(line, error text)``. Quoted newlines and
    U+2028 stay inside their field (the text is not split into lines first)."""
    reader = csv.DictReader(io.StringIO(text, newline=""))
    out: list[tuple[int, dict | str]] = []
    line = 1
    while True:
        try:
            record = next(reader)
        except StopIteration:
            return out
        except csv.Error as exc:
            out.append((line + 1, f"cannot read this CSV line: {exc}"))
            line = max(reader.line_num, line + 1)            # the reader skips the rest of it
            continue
        out.append((line + 1, record))
        line = reader.line_num


def _rows_from_manifest(path: Path) -> list[tuple[int, dict | str]]:
    """``(line or entry number, raw row)``; a row that cannot be a row is its error text."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise ManifestError(f"cannot read manifest {path}: {exc}")
    if path.suffix.lower() == ".json":
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise ManifestError(f"manifest {path} is not valid JSON: {exc}")
        if isinstance(data, dict):
            data = data.get("photos") or data.get("rows") or data.get("hands")
        if not isinstance(data, list):
            raise ManifestError(f"manifest {path}: expected a list of objects (or {{\"photos\": [...]}})")
        return [(n, r if isinstance(r, dict) else f"expected an object, got {type(r).__name__}")
                for n, r in enumerate(data, start=1)]
    try:
        header = next(csv.reader(io.StringIO(text, newline="")), [])
    except csv.Error as exc:
        raise ManifestError(f"cannot read the header line of manifest {path}: {exc}")
    if header and not any(_key(k or "") == "photo" for k in header):
        raise ManifestError(f"manifest {path} has no photo column (columns: {', '.join(header)})")
    return read_csv_records(text)


def _text(v) -> str:
    """A manifest cell as text: None is empty, a JSON list is joined."""
    if v is None:
        return ""
    return (", ".join("" if x is None else str(x) for x in v) if isinstance(v, list) else str(v)).strip()


def load_jobs(source: str | Path, defaults: ScanContext) -> list[Job]:
    """Jobs from a folder of images or a CSV/JSON manifest. Bad rows become jobs with
    ``error`` (reported in the output), a missing source raises ManifestError."""
    source = Path(source)
    if source.is_dir():
        photos = sorted(folder_photos(source))
        return [Job(str(p), str(p.resolve()), {}, defaults) for p in photos]
    if not source.is_file():
        raise ManifestError(f"no such folder or manifest: {source}")
    if source.suffix.lower() not in (".csv", ".json", ".tsv"):
        raise ManifestError(f"{source}: a manifest is a .csv or .json file (or give a folder of photos)")
    where_word = "entry" if source.suffix.lower() == ".json" else "line"
    jobs = []
    for n, raw in _rows_from_manifest(source):
        where = f"manifest {where_word} {n}"
        try:
            jobs.append(_job(source, n, raw, where, defaults))
        except Exception as exc:                          # noqa: BLE001 - a broken row, never the batch
            jobs.append(_bad_row(source, n, {}, where, f"cannot read this row ({type(exc).__name__}: {exc})"))
    return jobs


def folder_photos(folder: Path) -> list[Path]:
    """The photos of a folder (by suffix; not its subfolders), in no set order."""
    return [p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file()]


MANIFEST_NAME = "manifest.csv"
# the columns an organiser fills in, in the order a scorer reads them off the table
TEMPLATE_COLUMNS = ["photo", "table", "round", "seat", "player", "wind", "win_type", "winning_tile", "ruleset",
                    "special", "hand"]


def write_template(folder: Path, force: bool = False) -> tuple[Path, int]:
    """Write ``folder/manifest.csv``: one row per photo in the order they were taken (file
    modification time, then name), the context cells empty for a spreadsheet. An existing
    manifest is someone's filled-in work, so it is kept unless ``force``. Returns the path
    and the number of photos."""
    from ..errors import WriteError
    folder = Path(folder)
    if not folder.is_dir():
        raise ManifestError(f"no such folder: {folder}")
    target = folder / MANIFEST_NAME
    if target.exists() and not force:
        raise ManifestError(f"{target} already exists (it may be filled in): use --force to write a new one")
    photos = sorted(folder_photos(folder), key=lambda p: (p.stat().st_mtime, p.name))
    if not photos:
        raise ManifestError(f"no photos in {folder}")
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(TEMPLATE_COLUMNS)
    writer.writerows([p.name] + [""] * (len(TEMPLATE_COLUMNS) - 1) for p in photos)
    try:
        target.write_text(out.getvalue(), encoding="utf-8", newline="")
    except OSError as exc:
        raise WriteError(f"cannot write {target}: {exc.strerror or exc}")
    return target, len(photos)


def _bad_row(source: Path, n: int, row: dict, where: str, problem: str) -> Job:
    meta = {k: row.get(k, "") for k in _META}
    return Job(row.get("photo") or f"<{where}>", f"<{source.resolve()}#{n}>", meta, None,
               error=f"{where}: {problem}", row=str(n))


_META = ("table", "round", "seat", "player", "wind", "win_type", "winning_tile")


def _job(source: Path, n: int, raw: dict | str, where: str, defaults: ScanContext) -> Job:
    """The job of one manifest row (``raw`` is the row's error text when it is broken)."""
    if isinstance(raw, str):
        return _bad_row(source, n, {}, where, raw)
    row = {}
    for k, v in raw.items():
        key = _key(_text(k))
        if key:
            row[key] = _text(v)
    photo = row.get("photo", "")
    if not photo:
        return _bad_row(source, n, row, where, "no photo given")
    if "\0" in photo:
        return _bad_row(source, n, row, where, f"the photo name {photo!r} holds a NUL character")
    path = str((Path(photo) if Path(photo).is_absolute() else source.parent / photo).resolve())
    meta = {k: row.get(k, "") for k in _META}
    try:
        ctx = make_context(seat=row.get("seat") or defaults.seat, wind=row.get("wind") or defaults.wind,
                           winning_tile=row.get("winning_tile") or defaults.winning_tile,
                           win_type=row.get("win_type") or defaults.win_type,
                           ruleset=row.get("ruleset") or defaults.ruleset,
                           special=row.get("special") or list(defaults.special), lang=defaults.lang)
    except ContextError as exc:
        return Job(photo, path, meta, None, error=f"{where}: {exc}", row=str(n))
    return Job(photo, path, meta, ctx, row.get("hand") or None, row=str(n))


# ----------------------------------------------------------------------------- one photo
