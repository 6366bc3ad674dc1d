"""What a taught set costs: seconds to teach ~270 labelled tiles, and a photo's reading time
with the set and without (medians of ``--runs``, the two interleaved so load drifts hit both).

Teaching material: the 5 bundled chinese-v4 photos, also mirrored and turned 180 degrees
(labels moved with them), in a temporary YOLO folder; sets go to a temporary data folder.

    python benchmarks/bench_teach.py [--runs 11] [--json data/bench/teach.json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SAMPLES = ROOT / "samples" / "chinese-v4"


def teaching_folder(root: Path) -> Path:
    """The sample photos as they are, mirrored and turned half round, with their labels."""
    import numpy as np
    from PIL import Image

    (root / "images").mkdir(parents=True)
    (root / "labels").mkdir()
    shutil.copy(SAMPLES / "data.yaml", root / "data.yaml")
    moves = {"": (lambda a: a, lambda x, y: (x, y)), "_mirror": (lambda a: a[:, ::-1], lambda x, y: (1 - x, y)),
             "_turned": (lambda a: a[::-1, ::-1], lambda x, y: (1 - x, 1 - y))}
    for img in sorted((SAMPLES / "images").glob("*.jpg")):
        rgb = np.asarray(Image.open(img).convert("RGB"))
        rows = [line.split() for line in (SAMPLES / "labels" / f"{img.stem}.txt").read_text().splitlines() if line.split()]
        for tag, (pixels, point) in moves.items():
            Image.fromarray(np.ascontiguousarray(pixels(rgb))).save(root / "images" / f"{img.stem}{tag}.png")
            lines = [" ".join([r[0], *map(str, point(float(r[1]), float(r[2]))), r[3], r[4]]) for r in rows]
            (root / "labels" / f"{img.stem}{tag}.txt").write_text("\n".join(lines) + "\n")
    return root


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--json", type=Path, default=ROOT / "data" / "bench" / "teach.json")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["MJSCORE_DATA_DIR"] = str(Path(tmp) / "data")
        from mjscore.vision.lessons import from_folder
        from mjscore.vision.recognizer import recognize_file
        from mjscore.vision.sets import load_set, save_set, taught

        folder = teaching_folder(Path(tmp) / "teach")
        photo = SAMPLES / "images" / "photo_4.jpg"
        recognize_file(photo)                                   # warm-up: loads the models
        t0 = time.perf_counter()
        lessons, photos = from_folder(folder)
        save_set(taught("bench", lessons, (str(folder),)))
        teach_s = time.perf_counter() - t0
        tset = load_set("bench")
        recognize_file(photo, tile_set=tset)
        plain, with_set = [], []
        for _ in range(args.runs):
            for out, kw in ((plain, {}), (with_set, {"tile_set": tset})):
                t = time.perf_counter()
                recognize_file(photo, **kw)
                out.append(time.perf_counter() - t)
    p, s = statistics.median(plain), statistics.median(with_set)
    result = {"teach_tiles": int(len(lessons.labels)), "teach_photos": photos, "teach_seconds": round(teach_s, 2),
              "runs": args.runs, "scan_median_seconds": round(p, 4), "scan_with_set_median_seconds": round(s, 4),
              "overhead": round(s / p - 1, 4)}
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=1) + "\n")
    print(f"teach {result['teach_tiles']} tiles from {photos} photos: {teach_s:.1f} s; scan median {p:.3f} s, "
          f"with the set {s:.3f} s ({100 * (s / p - 1):+.1f} %); written to {args.json}")


if __name__ == "__main__":
    main()
