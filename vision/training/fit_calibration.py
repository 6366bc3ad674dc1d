"""Fit the confidence calibration (``vision.calibration``) on a labelled YOLO folder and
store it in recognizer.json.

    python -m mjscore.vision.training.fit_calibration data/eval/synth_v5_holdout --check data/clean/chinese-v4/valid

Fitted on the synthetic hold-out (never trained on, not a real evaluation set); ``--check``
folders only get a reliability table (predicted vs observed rate per confidence bin).
Runtime dependencies only (no torch)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from .. import models
from ..calibration import fit_platt, fit_temperature, kind_probabilities, tile_probability
from ..kinds import BONUS_MASK, KINDS
from .common import HeldOutFolder, refuse_held_out


def collect(folder: Path, limit: int | None = None) -> dict[str, np.ndarray]:
    """Per detection of the shipped recognizer: raw detection score, raw kind probabilities,
    whether it matches a labelled box (IoU >= 0.5) and that box's kind index (-1: none/ignored)."""
    from ..evaluate import IOU, dataset_tokens, iou_matrix, labelled_tiles
    from ..imageio import load_image
    from ..recognizer import detect_and_classify
    from ..yolo import image_label_pairs

    tokens = dataset_tokens(folder)
    scores, probs, matched, truth = [], [], [], []
    for item in image_label_pairs(folder)[:limit]:
        rgb = load_image(item.image).rgb
        gt = labelled_tiles(item, rgb.shape[1], rgb.shape[0], tokens)
        view, reads = detect_and_classify(rgb)
        if not view.detections:
            continue
        boxes = np.array([view.to_photo(d.box) for d in view.detections])
        ious = iou_matrix(boxes, np.array([b for _, b in gt], float).reshape(-1, 4))
        for i, (det, read) in enumerate(zip(view.detections, reads)):
            j = int(np.argmax(ious[i])) if ious.shape[1] else -1
            hit = j >= 0 and ious[i, j] >= IOU
            if hit and gt[j][0] is None:
                continue                                    # an ignored ("?") box: no verdict
            scores.append(det.score); probs.append(read.probs); matched.append(hit)
            truth.append(KINDS.index(gt[j][0]) if hit else -1)
    return {"score": np.array(scores), "probs": np.array(probs), "matched": np.array(matched),
            "truth": np.array(truth)}


def reliability(confidence: np.ndarray, right: np.ndarray, edges=(0, .3, .5, .6, .7, .8, .9, .95, 1.01)) -> list[str]:
    lines = []
    for lo, hi in zip(edges[:-1], edges[1:]):
        sel = (confidence >= lo) & (confidence < hi)
        if sel.any():
            lines.append(f"  {lo:.2f}-{min(hi, 1):.2f}: {sel.sum():5d} tiles, mean confidence "
                         f"{confidence[sel].mean():.3f}, right {right[sel].mean():.3f}")
    ece = sum(abs(confidence[s].mean() - right[s].mean()) * s.sum()
              for lo, hi in zip(edges[:-1], edges[1:]) if (s := (confidence >= lo) & (confidence < hi)).any())
    lines.append(f"  expected calibration error {ece / max(len(confidence), 1):.3f}")
    return lines


def tile_confidence(data: dict, platt, temperature, bonus_temperature=None) -> tuple[np.ndarray, np.ndarray]:
    """(confidence of each tile's top kind, whether box and kind are right)."""
    p = kind_probabilities(data["probs"], temperature, bonus_temperature, BONUS_MASK)
    top = p.argmax(1)
    conf = tile_probability(data["score"], platt) * p.max(1)
    return conf, data["matched"] & (top == data["truth"])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", type=Path, help="labelled YOLO folder to fit on")
    ap.add_argument("--check", type=Path, action="append", default=[], help="folders to report on")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--dry-run", action="store_true", help="report only; leave recognizer.json as it is")
    args = ap.parse_args(argv)
    for folder in [args.folder] + args.check:
        if not (folder / "images").is_dir():
            raise SystemExit(f"fit_calibration: {folder} is not a YOLO folder (no images/ in it)")
    try:
        refuse_held_out(args.folder)
    except HeldOutFolder as exc:
        raise SystemExit(f"fit_calibration: {exc}")

    fit = collect(args.folder, args.limit)
    platt = fit_platt(fit["score"], fit["matched"])
    on_tiles = fit["matched"] & (fit["truth"] >= 0)
    temperature = fit_temperature(fit["probs"][on_tiles], fit["truth"][on_tiles])
    # the reads whose top kind is a flower or season, on their own (vision.calibration)
    read_bonus = on_tiles & BONUS_MASK[fit["probs"].argmax(1) if len(fit["probs"]) else np.zeros(0, int)]
    bonus_t = (fit_temperature(fit["probs"][read_bonus], fit["truth"][read_bonus])
               if read_bonus.sum() >= 20 else None)
    print(f"fitted on {args.folder} ({len(fit['score'])} detections): det_calibration "
          f"[{platt[0]:.3f}, {platt[1]:.3f}], cls_temperature {temperature:.3f}, bonus_temperature "
          f"{'none (fewer than 20 bonus reads)' if bonus_t is None else f'{bonus_t:.3f} ({read_bonus.sum()} reads)'}")
    for folder, data in [(args.folder, fit)] + [(f, collect(f, args.limit)) for f in args.check]:
        for label, (pl, t, bt) in (("raw (score x probability)", (None, None, None)),
                                   ("calibrated", (platt, temperature, bonus_t))):
            conf, right = tile_confidence(data, pl, t, bt)
            print(f"{folder} {label}:")
            print("\n".join(reliability(conf, right)))
            bonus = BONUS_MASK[data["probs"].argmax(1)] if len(data["probs"]) else np.zeros(0, bool)
            if bonus.any():
                print(f"  read as flower/season: {bonus.sum()} tiles, wrong {(~right[bonus]).sum()}, "
                      f"wrong with confidence >= 0.6: {((~right[bonus]) & (conf[bonus] >= 0.6)).sum()}")
    if not args.dry_run:
        path = models.MODELS_DIR / models.SETTINGS
        if not path.exists():
            raise SystemExit(f"fit_calibration: {path} is missing (export the models first)")
        cfg = json.loads(path.read_text())
        cfg["det_calibration"] = [round(platt[0], 4), round(platt[1], 4)]
        cfg["cls_temperature"] = round(temperature, 4)
        if bonus_t is not None:
            cfg["bonus_temperature"] = round(bonus_t, 4)
        path.write_text(json.dumps(cfg, indent=1) + "\n")
        print(f"written to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
