"""Batch throughput: photos per minute through `mjscore batch` (recognizer + layout + scoring),
median over several runs.

    .venv/bin/python benchmarks/bench_batch.py [FOLDER|MANIFEST] [--runs 3] [--jobs 1 2]

Default input: ``data/scenes`` (rendered with ``python -m mjscore.datasets.scene_eval make``, with
context per scene), else the bundled synthetic scenes, else the bundled real photos. Each run writes a
fresh output file (no resume), so every photo is processed in every run. The first photo of
a fresh worker pays the model load; it is part of the figure, as it is for a user."""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mjscore.handscan.batch import ResultSink, load_jobs, run_batch  # noqa: E402
from mjscore.handscan.context import make_context  # noqa: E402


def default_source(tmp: Path) -> Path:
    """Scenes with context (``data/scenes`` from ``python -m mjscore.datasets.scene_eval make``) as a
    manifest, else the bundled synthetic scenes (recognition and grouping only)."""
    from mjscore.datasets.scene_eval import load_scenes, manifest_rows
    for folder in (ROOT / "data" / "scenes", ROOT / "samples" / "synthetic"):
        if (folder / "hands.json").exists():
            rows = manifest_rows(load_scenes(folder))
            path = tmp / "manifest.csv"
            with open(path, "w", newline="") as fh:
                writer = csv.DictWriter(fh, list(rows[0]))
                writer.writeheader()
                writer.writerows(rows)
            return path
    return ROOT / "samples" / "chinese-v4" / "images"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("source", nargs="?", type=Path)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jobs", type=int, nargs="+", default=[1])
    ap.add_argument("--recognizer", help="module:function instead of the shipped recognizer, e.g. "
                                         "mjscore.datasets.scene_eval:recognize_from_labels (layout + scoring alone)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        source = args.source or default_source(tmp)
        jobs = load_jobs(source, make_context(wind="E"))
        print(f"{len(jobs)} photos from {source}")
        for workers in args.jobs:
            rates, errors = [], 0
            for run in range(args.runs):
                out = tmp / f"run_{workers}_{run}.csv"
                start = time.perf_counter()
                summary = run_batch(jobs, ResultSink(out, restart=True), workers=workers, recognizer=args.recognizer)
                wall = time.perf_counter() - start
                rates.append(60.0 * summary.processed / wall)
                errors += summary.errors
                print(f"  jobs={workers} run {run + 1}: {summary.processed} photos in {wall:.1f} s "
                      f"= {rates[-1]:.1f} photos/min ({summary.scored} scored, {summary.errors} errors)")
            print(json.dumps({"jobs": workers, "recognizer": args.recognizer or "shipped", "photos": len(jobs), "runs": args.runs,
                              "median_photos_per_minute": round(statistics.median(rates), 1),
                              "min": round(min(rates), 1), "max": round(max(rates), 1), "errors": errors}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
