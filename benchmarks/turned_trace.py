"""Which photos of a folder pay the turned read (``vision/turned.py``), and whether it was kept:
for each turned read that runs, the first read's tile count and mean sureness against the turned
read's, and the verdict of the shipped rule (``turn_margin`` surer in sum and, with
``turn_surer_each``, no less sure per tile). Why: the turned read costs one more read of the
photo; where it never wins, a gate may skip it without changing any read (session 34:
``turn_below_mean``, chosen from these traces on twelve sets).

    python benchmarks/turned_trace.py data/eval/scenes_choose data/clean/chinese-v4/valid --jsonl /tmp/turned.jsonl
    MJSCORE_MODELS_DIR=DIR python benchmarks/turned_trace.py FOLDER      # another models folder

To see the reads a gate would skip, trace with the gate off (a copy of recognizer.json without
``turn_below_mean`` under ``MJSCORE_MODELS_DIR``). Prints per folder: photos, turned reads run,
kept, the highest first-read mean among those kept, and how many runs a first-read mean of
0.90 / 0.93 / 0.95 or more would skip."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import mjscore.vision.recognizer as recognizer
from mjscore.vision import models
from mjscore.vision.turned import evidence

PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp")
SKIP_AT = (0.90, 0.93, 0.95)


def trace(folder: Path) -> list[dict]:
    """One record per photo below ``folder``: the turned reads that ran while it was read."""
    runs: list[dict] = []
    read_view = recognizer._read_view

    def traced_with_turned(rgb, tiles, timing, tile_set=None):
        def traced_read_view(image, timing_, tile_set_=None):
            other = read_view(image, timing_, tile_set_)
            runs.append({"first_n": len(tiles), "first_sum": round(evidence(tiles), 4),
                         "turned_n": len(other), "turned_sum": round(evidence(other), 4)})
            return other

        recognizer._read_view = traced_read_view
        try:
            out = with_turned(rgb, tiles, timing, tile_set)
        finally:
            recognizer._read_view = read_view
        if runs and "kept" not in runs[-1]:
            runs[-1]["kept"] = out is not tiles
        return out

    with_turned = recognizer.with_turned
    records = []
    photos = sorted(p for p in Path(folder).rglob("*") if p.suffix.lower() in PHOTO_SUFFIXES)
    recognizer.with_turned = traced_with_turned
    try:
        for photo in photos:
            runs.clear()
            recognizer.recognize_file(photo)
            records.append({"folder": str(folder), "photo": photo.name, "turned": list(runs)})
    finally:
        recognizer.with_turned = with_turned
    return records


def summary(records: list[dict]) -> str:
    """The folder's line: runs, kept, and what a first-read mean gate would skip."""
    runs = [r for rec in records for r in rec["turned"]]
    mean = [r["first_sum"] / max(r["first_n"], 1) for r in runs]
    kept = [m for r, m in zip(runs, mean) if r["kept"]]
    skips = ", ".join(f">= {at:.2f}: {sum(m >= at for m in mean)}" for at in SKIP_AT)
    top = f"{max(kept):.3f}" if kept else "-"
    return (f"{records[0]['folder'] if records else '?'}: photos {len(records)}, turned reads {len(runs)}, "
            f"kept {len(kept)} (highest first-read mean {top}); first-read mean {skips}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--jsonl", type=Path, help="also write one record per photo here")
    args = ap.parse_args()
    if not models.settings().get("turn_min_degrees"):
        raise SystemExit("the turned read is off in this recognizer.json (no turn_min_degrees)")
    out = args.jsonl.open("w") if args.jsonl else None
    for folder in args.folders:
        records = trace(folder)
        if out:
            out.writelines(json.dumps(r) + "\n" for r in records)
            out.flush()
        print(summary(records), flush=True)


if __name__ == "__main__":
    main()
