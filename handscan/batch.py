"""Score a folder or a manifest of photos: one result row per photo, written as it finishes.

- What to score comes from :mod:`handscan.manifest` (a folder, or a CSV / JSON manifest).
- Rows are appended (CSV, JSON Lines) or the JSON array is rewritten atomically after every
  photo, so a crash loses nothing that was finished; a second run skips rows already in
  the output (``retry_errors`` redoes the failed ones), known by :func:`row_key`.
- A bad photo or a bad manifest row becomes a row with ``error``; it never stops the batch.
- ``jobs > 1`` runs photos in worker processes (each loads the recognizer once).
"""

from __future__ import annotations

import csv
import json
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .manifest import COLUMNS, Job, ManifestError, load_jobs, read_csv_records, row_key
from .outputs import write_json

__all__ = ["COLUMNS", "Job", "ManifestError", "ResultSink", "Summary", "failed_rows", "load_jobs",
           "row_key", "run_batch", "run_job"]


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
            proposed_hand=res.proposal.notation if res.proposal else "",
            proposed_final="" if res.proposal is None else res.proposal.final,
            proposed_changes=res.proposal.change if res.proposal else "",
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
