"""The classifier alone: how often it reads the kind right on the labelled (true) boxes of
folders, with the runtime's crops and quarter turns, no detector. Why: a classifier change is
judged apart from the detector's misses and the layout (issue 17, session 12).

    python benchmarks/true_box_reads.py data/clean/chinese-v4/valid data/eval/synth_holdout data/scenes
    MJSCORE_MODELS_DIR=runs/m20 python benchmarks/true_box_reads.py ...      # another models folder

A folder is a YOLO folder (data.yaml + images/ + labels/) or a hand-scene folder with
``hands.json`` (``scene_eval make``). Prints, per folder, tiles, share read right, and the
same for flowers and seasons and for face-down backs."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from mjscore.scoring.tiles import BACK, BONUS
from mjscore.vision.classifier import classify_boxes
from mjscore.vision.evaluate import dataset_tokens, labelled_tiles
from mjscore.vision.kinds import KINDS
from mjscore.vision.yolo import image_label_pairs

def _rgb(path: Path):
    img = cv2.imread(str(path))
    return None if img is None else cv2.cvtColor(img, cv2.COLOR_BGR2RGB)


def labelled_photos(folder: Path):
    """(RGB image, [(kind, box)]) of every labelled photo of ``folder``, each read once."""
    if (folder / "hands.json").exists():
        for hand in json.loads((folder / "hands.json").read_text()):
            rgb = _rgb(folder / (hand.get("image") or hand["file"]))
            if rgb is not None:
                yield rgb, [(t["kind"], tuple(t["box"])) for t in hand["tiles"]]
        return
    tokens = dataset_tokens(folder)
    for item in image_label_pairs(folder):
        rgb = _rgb(item.image)
        if rgb is not None:
            yield rgb, [(k, b) for k, b in labelled_tiles(item, rgb.shape[1], rgb.shape[0], tokens) if k]


def true_box_reads(folder: Path) -> tuple[list[str], list[str]]:
    """(true kinds, kinds read) of every labelled tile of ``folder``."""
    truth, read = [], []
    for rgb, tiles in labelled_photos(folder):
        if not tiles:
            continue
        reads = classify_boxes(rgb, [b for _, b in tiles])
        truth += [k for k, _ in tiles]
        read += [KINDS[int(np.argmax(r.probs))] for r in reads]
    return truth, read


def share(truth: list[str], read: list[str], keep) -> str:
    pairs = [(t, r) for t, r in zip(truth, read) if keep(t)]
    return f"{sum(t == r for t, r in pairs) / len(pairs):.4f} of {len(pairs)}" if pairs else "-"


def confusions(truth: list[str], read: list[str]) -> list[tuple[tuple[str, str], int]]:
    """Misreads (true kind, kind read) with their counts, most common first."""
    return Counter((t, r) for t, r in zip(truth, read) if t != r).most_common()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", type=Path, nargs="+")
    ap.add_argument("--confusions", type=int, default=0, metavar="N",
                    help="also print the N most common misreads (true -> read: count) of each folder")
    args = ap.parse_args(argv)
    for folder in args.folders:
        truth, read = true_box_reads(folder)
        print(f"{folder}: all {share(truth, read, lambda t: True)}; flowers/seasons "
              f"{share(truth, read, lambda t: t in BONUS)}; backs {share(truth, read, lambda t: t == BACK)}")
        if args.confusions:
            print("  " + ", ".join(f"{t} -> {r}: {n}" for (t, r), n in confusions(truth, read)[:args.confusions]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
