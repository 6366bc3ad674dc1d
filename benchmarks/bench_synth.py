"""Synthetic data generator speed: milliseconds per training scene and per hand scene
(one process, no file writing), median over seeds.  Runs as a script or under pytest-benchmark:

    python benchmarks/bench_synth.py [--count 30] [--size 640] [--art all|committed]
    python -m pytest benchmarks/bench_synth.py --benchmark-enable
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def measure(count: int, size: int, art: str) -> dict:
    from mjscore.datasets.synth.hand_scene import render_hand
    from mjscore.datasets.synth.scene import random_scene

    random_scene(0, size, art)  # warm-up: loads the art once
    scene_ms, tiles = [], 0
    for seed in range(1, count + 1):
        t0 = time.perf_counter()
        result = random_scene(seed, size, art)
        scene_ms.append((time.perf_counter() - t0) * 1000)
        tiles += len(result.labels)
    hand_ms = []
    for seed in range(1, max(2, count // 3) + 1):
        t0 = time.perf_counter()
        render_hand("[EEE] {X77pX} RRR 234m 88s 45s +6s / f1 j3", seed, size, art)
        hand_ms.append((time.perf_counter() - t0) * 1000)
    return {"scene_ms": statistics.median(scene_ms), "scene_per_s": 1000 / statistics.mean(scene_ms),
            "labels_per_scene": tiles / count, "hand_ms": statistics.median(hand_ms)}


def test_bench_random_scene(benchmark):
    from mjscore.datasets.synth.scene import random_scene

    random_scene(0, 640, "committed")
    seeds = iter(range(1, 10_000))
    benchmark(lambda: random_scene(next(seeds), 640, "committed"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=30)
    ap.add_argument("--size", type=int, default=640)
    ap.add_argument("--art", choices=["all", "committed"], default="all")
    args = ap.parse_args()
    r = measure(args.count, args.size, args.art)
    print(f"training scene {args.size}px: median {r['scene_ms']:.0f} ms, {r['scene_per_s']:.2f} scenes/s "
          f"(one process), {r['labels_per_scene']:.1f} labelled tiles/scene")
    print(f"hand scene {args.size}px: median {r['hand_ms']:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
