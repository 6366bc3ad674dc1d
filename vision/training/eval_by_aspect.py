"""Recognizer figures split by how stretched each photo is (median aspect of its labelled boxes).

Some dataset exporters squash photos to a square; chinese-v4 valid holds 39 such photos, up to
15:1. This splits ``mjscore eval``'s figures into stretched (median box aspect > ``--limit``) and
ordinary photos, so the cost of each is visible.

    python -m vision.training.eval_by_aspect data/clean/chinese-v4/valid [--limit 2.2]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from vision.evaluate import score_photo
from vision.kinds import token_for_dataset_name
from vision.recognizer import recognize_file
from vision.yolo import image_label_pairs, read_boxes, read_names


def median_aspect(boxes: np.ndarray) -> float:
    """Median of max(w/h, h/w) over the boxes (1.0 without boxes)."""
    if not len(boxes):
        return 1.0
    w, h = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    return float(np.median(np.maximum(w / np.maximum(h, 1e-9), h / np.maximum(w, 1e-9))))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--limit", type=float, default=2.2)
    args = ap.parse_args()
    names = read_names(args.folder)
    tokens = [None if n == "?" else token_for_dataset_name(n) for n in names]
    groups = {"stretched": np.zeros(5, int), "ordinary": np.zeros(5, int)}   # photos gt pred matched correct
    for item in image_label_pairs(args.folder):
        read = recognize_file(item.image)
        gt = [(tokens[c] if c < len(tokens) else None, b)
              for c, b in read_boxes(item.labels, read.width, read.height)] if item.labels else []
        s = score_photo(gt, [(t.kind, t.confidence, t.box) for t in read.tiles])
        key = "stretched" if median_aspect(np.array([b for _, b in gt]).reshape(-1, 4)) > args.limit else "ordinary"
        groups[key] += [1, s.gt, s.pred, s.matched, s.correct]
    for key, (photos, g, p, m, c) in groups.items():
        print(f"{key}: {photos} photos, {g} tiles: detection recall {m / max(g, 1):.3f} precision {m / max(p, 1):.3f}"
              f"  classification {c / max(m, 1):.3f}  tile F1 {2 * c / max(g + p, 1):.3f}")


if __name__ == "__main__":
    main()
