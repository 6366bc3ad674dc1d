"""Seconds per hand for the layout step and the hand search, on the recognizer's own reads.

Why: when the tiles as read make no valid hand, the scan searches the nearby readings
(``handscan/alternatives.py``) and lays each changed reading out again (``vision/layout``); on
a photo of many small blocks that once took a minute (session 40). The recognizer's time is
``bench_recognizer.py``'s; this one times what comes after it. Each photo of a scene folder
(``python -m mjscore.datasets.scene_eval make``, with its contexts) is read once by the
recognizer, then laid out, scored and searched ``--runs`` times; prints the median, 90th
percentile and slowest hand (the median of its runs) and the slowest photos.

    python benchmarks/bench_hand_search.py data/eval/scenes_unseen [--runs 3] [--limit 100]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mjscore.datasets.scene_eval import _result, load_scenes  # noqa: E402
from mjscore.handscan.pipeline import read_photo  # noqa: E402
from mjscore.vision.layout import group_tiles  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path, help="a scene folder (hands.json with contexts)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--limit", type=int, default=None, help="the first N photos only")
    args = ap.parse_args(argv)
    scenes = load_scenes(args.folder)[:args.limit]
    reads = {s.photo: read_photo(s.photo) for s in scenes}          # the recognizer, once per photo
    per_hand = []
    for s in scenes:
        runs = []
        for _ in range(args.runs):
            t = time.perf_counter()
            _result(s, group_tiles(reads[s.photo].tiles), alternatives=True)
            runs.append(time.perf_counter() - t)
        per_hand.append((statistics.median(runs), s.photo.name))
    times = sorted(t for t, _ in per_hand)
    print(f"{len(scenes)} hands of {args.folder}, layout + score + hand search, median of {args.runs} runs each:")
    print(f"  median {1000 * statistics.median(times):.1f} ms, 90th percentile "
          f"{1000 * times[int(0.9 * (len(times) - 1))]:.1f} ms, slowest {1000 * times[-1]:.1f} ms, "
          f"all {sum(times):.2f} s")
    for t, name in sorted(per_hand, reverse=True)[:3]:
        print(f"  {name}: {1000 * t:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
