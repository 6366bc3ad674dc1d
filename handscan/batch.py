"""Score a folder or a manifest of photos: one result row per photo, written as it finishes.

- Context per photo comes from a CSV or JSON manifest (columns below; a folder means every
  image in it, with the context given on the command line).
- Rows are appended (CSV, JSON Lines) or the JSON array is rewritten atomically after every
  photo, so a crash loses nothing that was finished; a second run skips rows already in
  the output (``retry_errors`` redoes the failed ones). A row is known by its manifest
  line (entry) and photo (:func:`row_key`): one photo listed twice with another context is
  two rows.
- A bad photo or a bad manifest row (no photo, a bad value, a broken CSV line, a JSON entry
  that is not an object) becomes a row with ``error``; it never stops the batch.
- The manifest and the output are read with the ``csv`` module (quoted newlines and U+2028
  in file names stay inside their field).
- ``jobs > 1`` runs photos in worker processes (each loads the recognizer once).

Manifest columns (header names are case-insensitive; spaces, dashes and underscores alike):
``photo`` (required; relative to the manifest), ``table``, ``round``, ``seat``, ``wind``
(prevailing), ``win_type``, ``winning_tile``, ``player``, and optionally ``ruleset``,
``special``, ``hand`` (notation that replaces the photo's grouping).
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..errors import InputError
from .context import ContextError, ScanContext, make_context
from .outputs import write_json

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp", ".bmp", ".tif", ".tiff", ".heic", ".heif", ".avif"}
COLUMNS = ["photo", "table", "round", "seat", "player", "wind", "win_type", "winning_tile", "ruleset",
           "tiles", "hand", "valid", "reason", "final", "limit_hand", "flags", "min_confidence",
           "alternatives", "warnings", "error", "seconds", "path", "row"]
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
        photos = sorted(p for p in source.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())
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

def run_job(job: Job, recognizer: str | None = None, threshold: float = 0.6) -> dict:
    """One output row. Never raises: every failure becomes the row's ``error``."""
    start = time.perf_counter()
    row = {c: "" for c in COLUMNS}
    row.update(photo=job.photo, path=job.path, row=job.row, **{k: v for k, v in job.meta.items() if k in COLUMNS})
    if job.error:
        row.update(error=job.error, flags="bad_manifest_row")
        return row
    try:
        from .pipeline import load_recognizer, scan_photo
        res = scan_photo(job.path, job.context, recognize=load_recognizer(recognizer), hand=job.hand,
                         threshold=threshold)
        ctx = res.context
        tiles = res.tiles
        row.update(
            seat=ctx.seat or "", wind=ctx.wind or "", win_type=ctx.win_type or "",
            winning_tile=ctx.winning_tile or "", ruleset=ctx.ruleset,
            tiles=len(tiles) if not res.error else "",
            hand=res.notation or "", valid="" if res.score is None else str(res.valid).lower(),
            reason="" if res.score is None or res.valid else res.score.reason or "",
            final="" if res.final is None else res.final,
            limit_hand=(res.score.limit_hand if res.valid else None) or "",
            flags=";".join(res.flags), error=res.error or "",
            min_confidence=f"{min(t.confidence for t in tiles):.3f}" if tiles else "",
            alternatives=" | ".join(f"{a.notation} = {a.final}" for a in res.alternatives),
            warnings=" | ".join(res.warnings),
        )
    except Exception as exc:                                 # last line of defence: keep going
        row.update(error=f"{type(exc).__name__}: {exc}", flags="crashed")
    row["seconds"] = f"{time.perf_counter() - start:.3f}"
    return row


def _init_worker(threads: int) -> None:
    """A worker's share of the cores, and its end when the batch is killed (SIGKILL leaves
    the workers orphaned, waiting on a queue that never closes: they would linger)."""
    import threading

    os.environ["MJSCORE_ORT_THREADS"] = str(threads)
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _worker(args):
    job, recognizer, threshold = args
    return run_job(job, recognizer, threshold)


# ----------------------------------------------------------------------------- output

class ResultSink:
    """Append-as-you-go output; ``done`` holds the resume keys already present."""

    def __init__(self, path: str | Path, *, restart: bool = False, retry_errors: bool = False):
        self.path = Path(path)
        self.format = {".csv": "csv", ".json": "json", ".jsonl": "jsonl"}.get(self.path.suffix.lower())
        if self.format is None:
            raise ManifestError(f"--out {self.path}: use a .csv, .json or .jsonl file")
        self.rows: list[dict] = [] if restart else self._existing()
        if retry_errors:
            self.rows = [r for r in self.rows if not r.get("error")]
        self.done = {row_key(r) for r in self.rows}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._rewrite()                       # normalise (drops retried rows, half-written lines)

    def _existing(self) -> list[dict]:
        if not self.path.exists() or self.path.stat().st_size == 0:
            return []
        text = self.path.read_text(encoding="utf-8", errors="replace")
        try:
            if self.format == "csv":
                records = read_csv_records(text)
                if records and not text.endswith("\n"):
                    records.pop()                             # a row cut off by a crash
                return [r for _, r in records if isinstance(r, dict) and r.get("photo")
                        and None not in r and None not in r.values()]
            if self.format == "json":
                data = json.loads(text)
                return data.get("results", []) if isinstance(data, dict) else data
            rows = []
            for line in text.split("\n"):                  # not splitlines: U+2028 is inside a row
                if not line.strip():
                    continue
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError:
                    pass                                      # a line cut off by a crash
            return rows
        except (json.JSONDecodeError, csv.Error) as exc:
            raise ManifestError(f"cannot resume from {self.path}: {exc} (use --restart to overwrite it)")

    def _rewrite(self) -> None:
        if self.format == "json":
            write_json(self.path, self.rows)
            return
        tmp = self.path.with_name(self.path.name + ".tmp")
        with open(tmp, "w", newline="", encoding="utf-8") as fh:
            if self.format == "csv":
                writer = csv.DictWriter(fh, COLUMNS, extrasaction="ignore")
                writer.writeheader()
                writer.writerows(self.rows)
            else:
                for r in self.rows:
                    fh.write(json.dumps(r, ensure_ascii=False) + "\n")
        os.replace(tmp, self.path)

    def add(self, row: dict) -> None:
        self.rows.append(row)
        self.done.add(row_key(row))
        if self.format == "json":
            write_json(self.path, self.rows)
            return
        with open(self.path, "a", newline="", encoding="utf-8") as fh:
            if self.format == "csv":
                csv.DictWriter(fh, COLUMNS, extrasaction="ignore").writerow(row)
            else:
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
            fh.flush()
            os.fsync(fh.fileno())


@dataclass
class Summary:
    total: int = 0
    skipped: int = 0
    scored: int = 0          # valid hand with a final score
    invalid: int = 0         # scored but not a valid hand
    unscored: int = 0        # read, but context missing (or recognizer-only)
    errors: int = 0
    flagged: int = 0
    seconds: float = 0.0

    @property
    def processed(self) -> int:
        return self.scored + self.invalid + self.unscored + self.errors

    @property
    def photos_per_minute(self) -> float:
        return 60.0 * self.processed / self.seconds if self.seconds > 0 else 0.0

    def add(self, row: dict) -> None:
        if row.get("error"):
            self.errors += 1
        elif row.get("valid") == "true":
            self.scored += 1
        elif row.get("valid") == "false":
            self.invalid += 1
        else:
            self.unscored += 1
        if row.get("flags") and not row.get("error"):
            self.flagged += 1

    def text(self) -> str:
        return (f"{self.processed} photos in {self.seconds:.1f} s ({self.photos_per_minute:.1f}/min): "
                f"{self.scored} scored, {self.invalid} invalid hands, {self.unscored} not scored "
                f"(context missing), {self.errors} errors, {self.flagged} flagged for checking"
                + (f"; {self.skipped} already in the output, skipped" if self.skipped else ""))


def run_batch(jobs: list[Job], sink: ResultSink, *, workers: int = 1, recognizer: str | None = None,
              threshold: float = 0.6, progress: Callable[[dict], None] | None = None) -> Summary:
    """Run the jobs not yet in the sink; rows go to the sink as each photo finishes."""
    summary = Summary(total=len(jobs))
    todo = []
    seen: set[str] = set()
    for job in jobs:
        if job.key in sink.done or job.key in seen:
            summary.skipped += 1
            continue
        seen.add(job.key)
        todo.append(job)
    start = time.perf_counter()

    def finish(row: dict) -> None:
        sink.add(row)
        summary.add(row)
        if progress:
            progress(row)

    if workers <= 1 or len(todo) <= 1:
        for job in todo:
            finish(run_job(job, recognizer, threshold))
    else:
        # each worker's onnxruntime gets its share of the cores, not all of them (on 2 cores two
        # workers with 2 threads each ran at 260 photos/min against 400 for one worker)
        threads = max(1, (os.cpu_count() or 1) // workers)
        with ProcessPoolExecutor(max_workers=workers, initializer=_init_worker, initargs=(threads,)) as pool:
            futures = {pool.submit(_worker, (job, recognizer, threshold)): job for job in todo}
            for fut in as_completed(futures):
                job = futures[fut]
                try:
                    row = fut.result()
                except Exception as exc:                    # a worker died (out of memory, ...)
                    row = {c: "" for c in COLUMNS}
                    row.update(photo=job.photo, path=job.path, row=job.row, error=f"worker failed: {exc}",
                               flags="crashed")
                finish(row)
    summary.seconds = time.perf_counter() - start
    return summary


def failed_rows(jobs: list[Job], sink: ResultSink) -> list[dict]:
    """The output rows of ``jobs`` that hold an error, from this run and earlier ones: a
    resumed batch fails (exit status 1) as the fresh one did."""
    keys = {job.key for job in jobs}
    return [r for r in sink.rows if r.get("error") and row_key(r) in keys]
