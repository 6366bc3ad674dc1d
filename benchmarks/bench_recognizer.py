"""Seconds per 12 MP phone photo, end to end (decode, detect, classify).

Makes a 4000x3000 JPEG by upscaling a bundled sample photo, reads it ``--runs`` times after
one warm-up (model loading excluded), prints the median and writes the figures to JSON.
``--size 2400x1600`` benchmarks a photo of that size instead (issue 17: a 2400x1600 hand
photo must be no slower than a 12 MP one); ``--scan`` times the whole scan, file to JSON
(``handscan.pipeline.scan_photo`` with a full context, then ``to_json``).

    python benchmarks/bench_recognizer.py [--runs 15] [--json data/bench/recognizer.json]
    python benchmarks/bench_recognizer.py --runs 7 --scan --size 2400x1600
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
    ap.add_argument("--size", default="4000x3000", help="photo size WxH (default: 12 MP)")
    ap.add_argument("--scan", action="store_true", help="the whole scan, file to JSON, not only the read")
    args = ap.parse_args()
    from PIL import Image

    from mjscore import vision
    from mjscore.handscan.context import make_context
    from mjscore.handscan.pipeline import scan_photo

    width, height = (int(v) for v in args.size.lower().split("x"))
    ctx = make_context("E", "E", "5p", "discard", "nts")

    def run(photo):
        if not args.scan:
            return vision.recognize_file(photo)
        res = scan_photo(photo, ctx)
        json.dumps(res.to_json())
        return res.read

    with tempfile.TemporaryDirectory() as tmp:
        photo = Path(tmp) / f"phone_{width}x{height}.jpg"
        Image.open(SAMPLE).convert("RGB").resize((width, height), Image.BICUBIC).save(photo, quality=92)
        run(photo)                                        # warm-up: loads the models
        seconds, stages = [], []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            read = run(photo)
            seconds.append(time.perf_counter() - t0)
            stages.append(read.timing_ms)
    what = "scan_photo + to_json (file to JSON)" if args.scan else "recognize_file"
    result = {
        "benchmark": f"{what} on a {width}x{height} JPEG ({width * height / 1e6:.1f} MP), end to end",
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
    print(f"median {result['median_seconds']:.3f} s per {width}x{height} photo ({what}) "
          f"(stages {result['median_stage_ms']}); written to {args.json}")


if __name__ == "__main__":
    main()
