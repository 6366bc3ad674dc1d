"""Milliseconds to score one hand, decomposition and wait search included.

Scores every single-hand worked case of ``tests/data/cases.json`` (and, separately, every
four-hand table case) through ``scoring.score_request``; prints the median per hand and
the slowest case. Runs as a script or under pytest-benchmark:

    python benchmarks/bench_scoring.py [--rounds 50]
    python -m pytest benchmarks/bench_scoring.py --benchmark-enable
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
CASES = json.loads((ROOT / "tests" / "data" / "cases.json").read_text(encoding="utf-8"))


def _requests(kind: str) -> list[tuple[str, dict]]:
    key = "hand" if kind == "hand" else "players"
    return [(c["id"], {**c["input"], "ruleset": c["ruleset"]}) for c in CASES
            if c["ruleset"] != "riichi-settlement" and key in c["input"]]


def measure(kind: str, rounds: int) -> dict:
    from mjscore.scoring import score_request
    per_case: dict[str, float] = {}
    for cid, request in _requests(kind):
        score_request(request)                                   # warm-up
        times = []
        for _ in range(rounds):
            t0 = time.perf_counter()
            score_request(request)
            times.append((time.perf_counter() - t0) * 1000)
        per_case[cid] = statistics.median(times)
    slowest = max(per_case, key=per_case.get)
    return {"kind": kind, "cases": len(per_case), "rounds": rounds,
            "median_ms": statistics.median(per_case.values()), "slowest": slowest,
            "slowest_ms": per_case[slowest]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=50)
    args = ap.parse_args()
    for kind in ("hand", "table"):
        r = measure(kind, args.rounds)
        what = "one hand" if kind == "hand" else "one four-hand table"
        print(f"{what}: median {r['median_ms']:.3f} ms over {r['cases']} cases x {r['rounds']} rounds "
              f"(slowest {r['slowest']} {r['slowest_ms']:.3f} ms)")


def test_bench_score_one_hand(benchmark):
    from mjscore.scoring import score_request
    requests = [r for _, r in _requests("hand")]

    def all_hands():
        for request in requests:
            score_request(request)

    benchmark(all_hands)


if __name__ == "__main__":
    main()
