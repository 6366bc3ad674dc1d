"""Seconds per 12 MP phone photo, end to end (decode, detect, classify).

Makes a 4000x3000 JPEG by upscaling a bundled sample photo, reads it ``--runs`` times after
one warm-up (model loading excluded), prints the median and writes the figures to JSON.
``--size 2400x1600`` benchmarks a photo of that size instead (issue 17: a 2400x1600 hand
photo must be no slower than a 12 MP one); ``--scan`` times the whole scan, file to JSON
(``handscan.pipeline.scan_photo``, then ``to_json``).

The scan's context is the photo's own context file (``photo_3.json`` beside the README's sample
photo, the default with ``--scan``), so the hand as read is the hand the photo shows and the
benchmark times what a user's scan costs. Decision (session 29): until then a fixed context (won
on 5p) made every hand invalid, so the scan timed the hand search's proposals as well, and how
many it laid out depended on the size the photo was shrunk to; a photo without a context file
still gets that fixed context (``--photo`` with any other photo: worst case, an invalid hand).
``recognize_file`` alone keeps ``photo_4.jpg`` by default, the photo of the earlier figures.

``--without KEY[,KEY...]`` prices recognizer.json settings: each run is paired with one made
in the same process with those settings left out (the two alternate, so the machine's drift
hits both), and the median of the paired differences is reported beside both medians.

    python benchmarks/bench_recognizer.py [--runs 15] [--json data/bench/recognizer.json]
    python benchmarks/bench_recognizer.py --runs 7 --scan --size 2400x1600
    python benchmarks/bench_recognizer.py --runs 25 --scan --without cls_unsure_contexts
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
SAMPLES = ROOT / "samples" / "chinese-v4" / "images"
READ_SAMPLE = SAMPLES / "photo_4.jpg"          # recognize_file: the photo of every earlier figure
SCAN_SAMPLE = SAMPLES / "photo_3.jpg"          # --scan: the README's sample, with its context file
FALLBACK_CONTEXT = ("E", "E", "5p", "discard", "nts")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--json", type=Path, default=ROOT / "data" / "bench" / "recognizer.json")
    ap.add_argument("--size", default="4000x3000", help="photo size WxH (default: 12 MP)")
    ap.add_argument("--scan", action="store_true", help="the whole scan, file to JSON, not only the read")
    ap.add_argument("--photo", type=Path, help="photo to upscale (default: photo_4, or photo_3 with --scan)")
    ap.add_argument("--without", default="", metavar="KEY[,KEY...]",
                    help="also time each run without these recognizer.json settings, paired")
    args = ap.parse_args()
    from PIL import Image

    from mjscore import vision
    from mjscore.vision import models
    from mjscore.handscan.context import make_context, read_sidecar, sidecar_path
    from mjscore.handscan.pipeline import scan_photo

    width, height = (int(v) for v in args.size.lower().split("x"))
    sample = args.photo or (SCAN_SAMPLE if args.scan else READ_SAMPLE)
    sidecar = sidecar_path(sample)
    fields = read_sidecar(sidecar) if sidecar else None
    ctx = make_context(**fields) if fields else make_context(*FALLBACK_CONTEXT)
    context_name = sidecar.name if fields else "fixed: E E won on 5p, discard, nts"

    scanned = {}

    def run(photo):
        if not args.scan:
            return vision.recognize_file(photo)
        res = scan_photo(photo, ctx)
        json.dumps(res.to_json())
        scanned.update(valid=res.valid, final=res.final, alternatives=len(res.alternatives))
        return res.read

    with tempfile.TemporaryDirectory() as tmp:
        photo = Path(tmp) / f"phone_{width}x{height}.jpg"
        Image.open(sample).convert("RGB").resize((width, height), Image.BICUBIC).save(photo, quality=92)
        shipped = models.settings
        dropped = [k for k in args.without.split(",") if k]
        unknown = [k for k in dropped if k not in shipped()]
        if unknown:
            raise SystemExit(f"--without: {unknown[0]!r} is not a setting of recognizer.json")
        lighter = {k: v for k, v in shipped().items() if k not in dropped}

        def timed(settings=None):
            if settings is not None:
                models.settings = lambda *a, **k: settings
            try:
                t0 = time.perf_counter()
                read = run(photo)
                return time.perf_counter() - t0, read
            finally:
                models.settings = shipped
        timed()                                           # warm-up: loads the models
        seconds, stages, without = [], [], []
        for _ in range(args.runs):
            if dropped:
                without.append(timed(lighter)[0])
            t, read = timed()
            seconds.append(t)
            stages.append(read.timing_ms)
    what = "scan_photo + to_json (file to JSON)" if args.scan else "recognize_file"
    result = {
        "benchmark": f"{what} on a {width}x{height} JPEG ({width * height / 1e6:.1f} MP), end to end",
        "photo": sample.name,
        "context": context_name if args.scan else None,
        "scan": scanned or None,          # what the scan came to: a valid hand, or how many proposals
        "runs": args.runs,
        "median_seconds": round(statistics.median(seconds), 4),
        "min_seconds": round(min(seconds), 4),
        "max_seconds": round(max(seconds), 4),
        "median_stage_ms": {k: round(statistics.median(s[k] for s in stages), 1) for k in stages[0]},
        "tiles_found": len(read.tiles),
        "without": {"settings": dropped, "median_seconds": round(statistics.median(without), 4),
                    "median_paired_difference": round(statistics.median(
                        [a - b for a, b in zip(seconds, without)]), 4)} if dropped else None,
        "machine": f"{platform.machine()} {platform.processor() or ''}".strip(),
        "python": platform.python_version(),
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=1) + "\n")
    print(f"median {result['median_seconds']:.3f} s per {width}x{height} photo ({what}) "
          f"(stages {result['median_stage_ms']}){'; scan ' + str(scanned) if scanned else ''}; "
          f"written to {args.json}")
    if dropped:
        w = result["without"]
        print(f"without {', '.join(dropped)}: median {w['median_seconds']:.3f} s; "
              f"median paired difference (with - without) {w['median_paired_difference'] * 1000:+.1f} ms")


if __name__ == "__main__":
    main()
