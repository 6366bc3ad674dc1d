"""Angle agreement of the recognizer on synthetic scenes whose face angles are known.

Reads ``scenes.jsonl`` of a ``datasets/synth`` batch (per image: ``angles`` in label-line
order, degrees CCW, the same convention as ``TileRead.angle``), runs the recognizer on the
images of ``--images`` (e.g. a hold-out folder of symlinks) and counts matched tiles (IoU >= 0.5)
whose angle equals the true angle rounded to a quarter turn.

    python -m mjscore.vision.training.eval_angles --batch data/synth/train_v5 --images data/eval/synth_v5_holdout/images
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from ... import vision
from ..evaluate import IOU, iou_matrix
from ..yolo import read_boxes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--batch", type=Path, required=True)
    ap.add_argument("--images", type=Path, required=True)
    args = ap.parse_args()
    meta = {}
    for line in open(args.batch / "scenes.jsonl"):
        m = json.loads(line)
        meta[Path(m["image"]).name] = m
    agree = total = 0
    for img in sorted(args.images.iterdir()):
        m = meta.get(img.name)
        if m is None:
            continue
        gt = read_boxes(args.batch / "labels" / (img.stem + ".txt"), m["width"], m["height"])
        if len(gt) != len(m["angles"]):
            continue
        tiles = vision.recognize_file(img).tiles
        if not tiles or not gt:
            continue
        ious = iou_matrix(np.array([t.box for t in tiles]), np.array([b for _, b in gt]))
        for i, t in enumerate(tiles):
            j = int(ious[i].argmax())
            if ious[i, j] >= IOU:
                total += 1
                agree += t.angle == int(round(m["angles"][j] / 90.0)) % 4 * 90
    print(json.dumps({"matched_tiles": total, "angle_agreement": round(agree / max(total, 1), 4)}))


if __name__ == "__main__":
    main()
