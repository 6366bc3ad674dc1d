"""What one recognizer setting costs: median seconds per photo with it and without it.

Reads the photos matching ``--glob`` in a folder with the shipped settings and with the named
settings removed from ``recognizer.json`` (in memory), alternating the two ``--rounds`` times so
that a noisy shared machine weighs on both alike (one warm-up read first, model loading
excluded). Session 24 measured the zoomed look at a few small tiles with

    python benchmarks/bench_setting.py data/eval/closeup/v4-pasted/images --glob '*pair_0.05*' --limit 12 --off zoom_span
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--glob", default="*.jpg")
    ap.add_argument("--limit", type=int, default=12)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--off", action="append", required=True, help="a setting to remove (repeatable)")
    args = ap.parse_args()

    from mjscore.vision import models
    from mjscore.vision.recognizer import recognize_file

    photos = sorted(args.folder.glob(args.glob))[: args.limit]
    if not photos:
        sys.exit(f"no photos match {args.glob} in {args.folder}")
    shipped = models.settings()
    without = {k: v for k, v in shipped.items() if k not in set(args.off)}
    recognize_file(photos[0])
    times: dict[str, list[float]] = {"with": [], "without": []}
    try:
        for _ in range(args.rounds):
            for name, cfg in (("without", without), ("with", shipped)):
                models.settings = lambda cfg=cfg: cfg
                for p in photos:
                    t = time.perf_counter()
                    recognize_file(p)
                    times[name].append(time.perf_counter() - t)
    finally:
        models.settings = lambda: shipped
    for name, ts in times.items():
        print(f"{name:8s} {', '.join(args.off)}: median {statistics.median(ts):.4f} s per photo over {len(ts)} reads")


if __name__ == "__main__":
    main()
