"""What the closer look did to each photo of a folder: the first read, the search (when it ran),
each window and strip read finer, the size of that read against the size that planned it, and
whether the finer read stood. Why: the closer look (``vision/closer.py``) costs a second read;
which photos pay it, and for what, decides its gates (session 32: a lone tile in a 12 MP photo
paid five reads for strips past a window planned around pieces of itself).

    python benchmarks/closer_trace.py data/eval/closeup_big/v4-crops --jsonl /tmp/trace.jsonl
    MJSCORE_MODELS_DIR=DIR python benchmarks/closer_trace.py data/eval/v4_far_off   # another models folder

Prints one line per photo that read a window, then per folder: photos searched, windows read,
reads that stood, seconds spent in the closer look, and the percentiles of the grown ratio
(median side of the window's read over that of the boxes that planned it)."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

import mjscore.vision.recognizer as recognizer
from mjscore.vision import closer


def trace(folder: Path, glob: str = "*") -> list[dict]:
    """One record per photo of ``folder`` (or its ``images/``), read with the shipped pipeline
    while the closer look's steps are recorded."""
    images = folder / "images" if (folder / "images").is_dir() else folder
    photos = sorted(p for p in images.glob(glob) if p.suffix.lower() in (".jpg", ".jpeg", ".png", ".webp"))
    rec: dict = {}
    with_closer, best_group, read_window = recognizer.with_closer, closer.best_group, recognizer._read_window

    def traced_closer(rgb, tiles, timing, tile_set=None, finer=None):
        if finer is None:                     # a window's own read: no closer look of its own
            return with_closer(rgb, tiles, timing, tile_set, finer)
        rec["first"] = [[float(v) for v in t.box] for t in tiles]
        t0 = time.perf_counter()
        out = with_closer(rgb, tiles, timing, tile_set, finer)
        rec["closer_s"], rec["stood"] = round(time.perf_counter() - t0, 3), out is not tiles
        return out

    def traced_group(found):
        group = best_group(found)
        rec["group"] = [[float(v) for v in b] for b in group]
        return group

    def traced_window(image, window, tile_set=None):
        read = read_window(image, window, tile_set)
        rec.setdefault("windows", []).append({"window": [float(v) for v in window], "tiles": len(read),
                                              "side": float(closer.median_side([t.box for t in read])) if read else None})
        return read

    recognizer.with_closer, closer.best_group, recognizer._read_window = traced_closer, traced_group, traced_window
    out = []
    try:
        for photo in photos:
            rec.clear()
            recognizer.recognize_file(photo)
            planned = rec.get("group", rec.get("first")) or []
            side = float(closer.median_side(planned)) if planned else 0.0
            first = (rec.get("windows") or [{}])[0].get("side")
            out.append({"image": photo.name, **rec, "planned_side": side,
                        "grown": round(first / side, 2) if first and side else None})
    finally:
        recognizer.with_closer, closer.best_group, recognizer._read_window = with_closer, best_group, read_window
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", type=Path, nargs="+")
    ap.add_argument("--glob", default="*")
    ap.add_argument("--jsonl", type=Path, default=None, help="also write every record here")
    args = ap.parse_args()
    sink = args.jsonl.open("w") if args.jsonl else None
    for folder in args.folders:
        rows = trace(folder, args.glob)
        for r in rows:
            if sink:
                sink.write(json.dumps({"folder": str(folder), **r}) + "\n")
            if r.get("windows"):
                print(f"  {r['image'][:40]:40s} {'search' if 'group' in r else 'first '} "
                      f"planned {r['planned_side']:6.1f} px  windows {len(r['windows'])}  grown {r['grown']}  "
                      f"stood {r['stood']}  {r['closer_s']:.2f} s")
        grown = np.array([r["grown"] for r in rows if r["grown"]], float)
        pct = np.percentile(grown, [5, 50, 95, 100]).round(2).tolist() if len(grown) else []
        print(f"{folder}: {len(rows)} photos, searched {sum('group' in r for r in rows)}, "
              f"windows read {sum(len(r.get('windows', [])) for r in rows)}, stood {sum(bool(r.get('stood')) for r in rows)}, "
              f"closer {sum(r.get('closer_s', 0) for r in rows):.1f} s; grown p5/p50/p95/max {pct}")
    if sink:
        sink.close()


if __name__ == "__main__":
    main()
