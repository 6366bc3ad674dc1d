"""Where a synthetic folder's flowers and seasons are lost: right of found by the scene's tile
size and by art family (``scenes.jsonl``), and optionally a contact sheet of the misread ones.

Why (session 35): issue 17 asks for flowers and seasons of the hold-out read right >= 0.90 of
those found; whether the misses are tiles too small for any reader, faces whose only
flower-or-season cue is a caption a few pixels high, or faces a longer training would teach
decides what to train, and what figure a phone photo of a hand can expect.

    python benchmarks/bonus_breakdown.py data/eval/synth_choose --sheet /tmp/bonus_misreads.png
    python benchmarks/bonus_breakdown.py data/eval/synth_holdout      # a report set: read, never chosen on

Prints one line per size band and per art family: found, right, and how many wrong reads were
the other group's tile of the same number (``f2`` read ``j2``).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

from mjscore.scoring.tiles import is_bonus

BANDS = ((0, 24, "under 24 px"), (24, 40, "24-40 px"), (40, 80, "40-80 px"), (80, 1e9, "80 px and more"))


def band(tile_px: float) -> str:
    return next(name for lo, hi, name in BANDS if lo <= tile_px < hi)


def tally(pairs: list[tuple[str, str]], into: Counter) -> None:
    """Add one photo's (true, read) pairs of matched tiles to ``into``."""
    for true, read in pairs:
        if is_bonus(true):
            into["found"] += 1
            into["right"] += read == true
            into["same number"] += is_bonus(read) and read != true and read[1] == true[1]


def line(name: str, c: Counter) -> str:
    share = c["right"] / c["found"] if c["found"] else 0.0
    return f"{name:32s} found {c['found']:4d}  right {c['right']:4d} ({share:.3f})  same number, other group {c['same number']:3d}"


def misread_cells(photo, read_tiles, gt) -> list[np.ndarray]:
    """96 x 148 cells (the true box, then 'true>read p') of the photo's misread bonus tiles."""
    import cv2

    from mjscore.vision.boxes import iou_matrix
    from mjscore.vision.evaluate import IOU

    if not read_tiles or not gt:
        return []
    ious = iou_matrix(np.array([t.box for t in read_tiles], float), np.array([b for _, b in gt], float).reshape(-1, 4))
    img = cv2.imread(str(photo))
    cells = []
    for j, (kind, box) in enumerate(gt):
        i = int(np.argmax(ious[:, j]))
        if not is_bonus(kind) or ious[i, j] < IOU or read_tiles[i].kind == kind:
            continue
        x0, y0, x1, y1 = (int(v) for v in box)
        crop = img[max(0, y0):y1, max(0, x0):x1]
        if crop.size == 0:
            continue
        caption = np.full((20, 96, 3), 255, np.uint8)
        cv2.putText(caption, f"{kind}>{read_tiles[i].kind} {read_tiles[i].confidence:.2f}", (1, 14), 0, 0.4, (0, 0, 0), 1)
        cells.append(np.vstack([cv2.resize(crop, (96, 128)), caption]))
    return cells


def main(argv: list[str] | None = None) -> int:
    from mjscore.vision.evaluate import dataset_tokens, labelled_tiles, score_photo
    from mjscore.vision.recognizer import recognize_file
    from mjscore.vision.yolo import image_label_pairs

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", type=Path, help="a synthetic YOLO folder with scenes.jsonl")
    ap.add_argument("--sheet", type=Path, help="write a contact sheet of the misread flowers and seasons (PNG)")
    args = ap.parse_args(argv)
    scenes = {Path(s["image"]).name: s for s in map(json.loads, (args.folder / "scenes.jsonl").read_text().splitlines())}
    tokens = dataset_tokens(args.folder)
    by_band, by_art, whole, cells = defaultdict(Counter), defaultdict(Counter), Counter(), []
    for item in image_label_pairs(args.folder):
        scene = scenes[item.image.name]
        read = recognize_file(item.image)
        gt = labelled_tiles(item, read.width, read.height, tokens)
        pairs = score_photo(gt, [(t.kind, t.confidence, t.box) for t in read.tiles]).pairs
        for c in (by_band[band(scene["tile_px"])], by_art[scene["style"]["art"]], whole):
            tally(pairs, c)
        if args.sheet:
            cells += misread_cells(item.image, read.tiles, gt)
    print(line("all", whole))
    for _, _, name in BANDS:
        print(line(f"tiles {name}", by_band[name]))
    for art in sorted(by_art):
        print(line(f"art {art}", by_art[art]))
    if args.sheet and cells:
        import cv2

        blank = np.full_like(cells[0], 255)
        rows = [np.hstack(cells[k:k + 10] + [blank] * (10 - len(cells[k:k + 10]))) for k in range(0, len(cells), 10)]
        cv2.imwrite(str(args.sheet), np.vstack(rows))
        print(f"{len(cells)} misread flowers and seasons drawn in {args.sheet}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
