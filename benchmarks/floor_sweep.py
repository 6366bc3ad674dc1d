"""Tile precision, recall and F1 of a labelled folder at several report floors (issue 17,
session 26: how ``report_floor`` in recognizer.json was chosen).

    python benchmarks/floor_sweep.py data/eval/synth_choose --floors 0,0.1,0.2,0.3 [--cache data/cache/floor]

The photos are read with the shipped settings less ``report_floor`` (taken out of this
process's settings, so no tile is gone before the sweep). Each photo is read once (cached under
``--cache``, keyed by folder), then each floor is set in this process's settings and applied by
``vision.recognizer.above_floor`` itself (backs kept among a hand's tiles). The framed look's choice between two reads is made once, without the floor, so a floor's figure
here can differ from a full read with it by a photo or two. Also prints the backs read right."""
from __future__ import annotations

import argparse
import hashlib
import pickle
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def reads(folder: Path, cache: Path) -> list:
    """(labelled tiles, [(kind, confidence, box)]) of every photo of ``folder``."""
    from mjscore.vision import models
    from mjscore.vision.evaluate import dataset_tokens, image_label_pairs, labelled_tiles
    from mjscore.vision.recognizer import recognize_file

    models.settings().pop("report_floor", None)          # the cached settings: no floor in this process

    path = cache / f"tiles-{folder.name}-{hashlib.sha1(str(folder.resolve()).encode()).hexdigest()[:10]}.pkl"
    if path.exists():
        return pickle.loads(path.read_bytes())
    tokens = dataset_tokens(folder)
    rows = []
    for item in image_label_pairs(folder):
        r = recognize_file(item.image)
        rows.append((labelled_tiles(item, r.width, r.height, tokens), r.tiles))
    cache.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps(rows))
    return rows


def sweep(rows: list, floor: float) -> dict:
    from mjscore.vision import models
    from mjscore.vision.evaluate import score_photo
    from mjscore.vision.recognizer import above_floor

    models.settings()["report_floor"] = floor            # the cached settings: this floor in this process
    gt = pred = correct = backs = 0
    for truth, tiles in rows:
        s = score_photo(truth, [(t.kind, t.confidence, t.box) for t in above_floor(tiles)])
        gt, pred, correct = gt + s.gt, pred + s.pred, correct + s.correct
        backs += sum(1 for true, read in s.pairs if true == read == "X")
    p, r = correct / max(pred, 1), correct / max(gt, 1)
    return {"floor": floor, "precision": round(p, 4), "recall": round(r, 4),
            "f1": round(2 * p * r / max(p + r, 1e-9), 4), "backs_right": backs}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--floors", default="0,0.05,0.1,0.15,0.2,0.25,0.3")
    ap.add_argument("--cache", type=Path, default=Path("data/cache/floor"))
    args = ap.parse_args()
    rows = reads(args.folder, args.cache)
    for floor in (float(f) for f in args.floors.split(",")):
        print(sweep(rows, floor))


if __name__ == "__main__":
    main()
