"""Seconds per 12 MP phone photo, end to end (decode, detect, classify).

Makes a 4000x3000 JPEG by upscaling a bundled sample photo, reads it ``--runs`` times after
one warm-up (model loading excluded), prints the median and writes the figures to JSON.

    python benchmarks/bench_recognizer.py [--runs 15] [--json data/bench/recognizer.json]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SAMPLE = ROOT / "samples" / "chinese-v4" / "images" / "photo_4.jpg"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--json", type=Path, default=ROOT / "data" / "bench" / "recognizer.json")
    args = ap.parse_args()
    from PIL import Image

    from mjscore import vision

    with tempfile.TemporaryDirectory() as tmp:
        photo = Path(tmp) / "phone_12mp.jpg"
        Image.open(SAMPLE).convert("RGB").resize((4000, 3000), Image.BICUBIC).save(photo, quality=92)
        vision.recognize_file(photo)                      # warm-up: loads the models
        seconds, stages = [], []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            read = vision.recognize_file(photo)
            seconds.append(time.perf_counter() - t0)
            stages.append(read.timing_ms)
    result = {
        "benchmark": "recognize_file on a 4000x3000 JPEG (12 MP), end to end",
        "runs": args.runs,
        "median_seconds": round(statistics.median(seconds), 4),
        "min_seconds": round(min(seconds), 4),
        "max_seconds": round(max(seconds), 4),
        "median_stage_ms": {k: round(statistics.median(s[k] for s in stages), 1) for k in stages[0]},
        "tiles_found": len(read.tiles),
        "machine": f"{platform.machine()} {platform.processor() or ''}".strip(),
        "python": platform.python_version(),
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=1) + "\n")
    print(f"median {result['median_seconds']:.3f} s per 12 MP photo "
          f"(stages {result['median_stage_ms']}); written to {args.json}")


if __name__ == "__main__":
    main()
