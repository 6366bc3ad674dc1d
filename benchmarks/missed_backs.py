"""Why face-down tiles are missed: for each labelled back (``X``) of a YOLO folder that the
recognizer does not report (IoU under ``IOU``, matched as ``mjscore eval`` does), the detector's
heat under it and what became of the weak peak on it. Why: the backs are issue 17's weakest
kind, and whether a fix belongs to the detector (no peak), to the weak-peak rules
(``vision/row_support.py``) or to the classifier (the weak box read unsure) decides what to
train (session 28).

    python benchmarks/missed_backs.py data/eval/synth_choose
    MJSCORE_MODELS_DIR=DIR python benchmarks/missed_backs.py data/eval/synth_choose   # another models folder

Prints one line per missed back and a count per cause: a strong box found but lost later, no
weak box on it, or its weak box read ``X`` at some probability, in a row of found tiles or not,
in a run of sure backs (``weak_back_probability``, ``weak_back_run``) or not, cut by the edge."""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

import numpy as np

from mjscore.vision import models
from mjscore.vision.boxes import iou_matrix
from mjscore.vision.classifier import classify_boxes, ranked, read_confidence
from mjscore.vision.detector import STRIDE, _flip_tested, _forward, detect_any_aspect
from mjscore.vision.evaluate import IOU, dataset_tokens, labelled_tiles
from mjscore.vision.imageio import load_image
from mjscore.vision.recognizer import recognize_image
from mjscore.vision.row_support import _inside, back_runs, continues_a_row
from mjscore.vision.yolo import image_label_pairs


def heat_under(rgb: np.ndarray, boxes: list) -> list[float]:
    """The main detector's heat (flip-tested, at ``det_size``) at the centre of each box, the
    most of the 3 x 3 cells around it."""
    p = _flip_tested(_forward(rgb, models.settings()["det_size"]))
    out = []
    for b in boxes:
        x, y = int((b[0] + b[2]) / 2 * p.scale / STRIDE), int((b[1] + b[3]) / 2 * p.scale / STRIDE)
        win = p.heat[max(0, y - 1):y + 2, max(0, x - 1):x + 2]
        out.append(float(win.max()) if win.size else 0.0)
    return out


def cause(view, weak_reads, i: int, sure_runs: set) -> str:
    """What became of weak box ``i`` of ``view``."""
    kind, p = weak_reads[i]
    read = ("X >= 0.9" if p >= 0.9 else "X 0.8-0.9" if p >= 0.8 else "X < 0.8") if kind == "X" else "as a face"
    row = continues_a_row(view.weak[i].box, [d.box for d in view.detections])
    edge = not _inside(view.weak[i].box, (view.rgb.shape[1], view.rgb.shape[0]))
    return (f"weak box read {read}" + (", continues a row" if row else "")
            + (", in a run of sure backs" if i in sure_runs else "") + (", cut by the edge" if edge else ""))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", type=Path, help="labelled YOLO folder")
    args = ap.parse_args(argv)
    cfg = models.settings()
    tokens = dataset_tokens(args.folder)
    causes, total = Counter(), 0
    for item in image_label_pairs(args.folder):
        rgb = load_image(item.image).rgb
        backs = [b for k, b in labelled_tiles(item, rgb.shape[1], rgb.shape[0], tokens) if k == "X"]
        if not backs:
            continue
        total += len(backs)
        shown = np.array([t.box for t in recognize_image(rgb)], float).reshape(-1, 4)
        truth = np.array(backs, float)
        missed = [j for j in range(len(backs)) if not shown.size or iou_matrix(truth[j:j + 1], shown).max() < IOU]
        if not missed:
            continue
        view = detect_any_aspect(rgb, tile_likeness=read_confidence)
        strong = np.array([view.to_photo(d.box) for d in view.detections], float).reshape(-1, 4)
        weak = np.array([view.to_photo(d.box) for d in view.weak], float).reshape(-1, 4)
        weak_reads = [ranked(r)[0] for r in classify_boxes(view.rgb, [d.box for d in view.weak])] if view.weak else []
        sure = [i for i, (k, p) in enumerate(weak_reads) if k == "X" and p >= cfg.get("weak_back_probability", 0.9)]
        sure_runs = {sure[k] for k in back_runs([view.weak[i].box for i in sure], cfg.get("weak_back_run", 3))}
        heats = heat_under(rgb, [backs[j] for j in missed])
        for j, heat in zip(missed, heats):
            on_strong = iou_matrix(truth[j:j + 1], strong)[0] if strong.size else np.zeros(0)
            on_weak = iou_matrix(truth[j:j + 1], weak)[0] if weak.size else np.zeros(0)
            if on_strong.size and on_strong.max() >= IOU:
                why = "strong box found, lost later"
            elif not on_weak.size or on_weak.max() < IOU:
                why = "no weak box on it"
            else:
                i = int(on_weak.argmax())
                why = cause(view, weak_reads, i, sure_runs) + f" (p {weak_reads[i][1]:.2f})"
            causes[why.split(" (p ")[0]] += 1
            print(f"{item.image.name}: heat {heat:.2f}: {why}", flush=True)
    print(f"\n{args.folder}: {total} backs, {sum(causes.values())} missed")
    for why, n in causes.most_common():
        print(f"{n:4d}  {why}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
