"""Fit the confidence model (``vision.calibration``: a logistic model over how each tile sits
in its photo) and store it in recognizer.json as ``confidence_model``.

    python -m mjscore.vision.training.fit_confidence_model --fit data/eval/synth_choose \
        --fit data/eval/closeup_synth --check data/eval/closeup/v4-pasted ... [--dry-run]

Fitted only on synthetic folders no model was trained or chosen on (DECISION: never on an
evaluation set, so the close-up, leo and hold-out figures stay honest); ``--check`` folders
get the before/after figures: the share of wrong tiles shown with confidence >= 0.6 (the
review does not ask about them), the share of right tiles under 0.6 (the review asks for
nothing), and the expected calibration error. The reads of each folder are cached under
``data/cache/confidence`` (keyed by folder and models), so refits are instant. Runtime
dependencies only (no torch)."""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

import numpy as np

from .. import models
from ..calibration import CONTEXT_FEATURES, REVIEW_CONFIDENCE, fit_logistic, model_confidence
from ..kinds import KINDS
from .common import HeldOutFolder, refuse_held_out

CACHE = Path("data/cache/confidence")
NAMES = tuple(CONTEXT_FEATURES)


def _key(folder: Path) -> str:
    h = hashlib.sha1(str(folder.resolve()).encode())
    for f in sorted(models.MODELS_DIR.glob("*.onnx")) + [models.MODELS_DIR / models.SETTINGS]:
        cfg = f.read_bytes()
        if f.suffix == ".json":          # the model being fitted must not change the reads' key
            d = json.loads(cfg); d.pop("confidence_model", None); cfg = json.dumps(d, sort_keys=True).encode()
        h.update(hashlib.sha1(cfg).digest())
    return h.hexdigest()[:16]


def _raw_read(rgb: np.ndarray, plain_cfg: dict) -> dict | None:
    """One read of a photo as the recognizer makes it before the confidence model: boxes in the
    photo's pixels, the features of each (in the frame they were found in), the plain confidence
    and the calibrated kind probabilities; and the confidences as shipped (with the model in
    recognizer.json), which decide, as at run time, whether the framed read stands."""
    from ..reading import calibrated, context_inputs
    from ..recognizer import detect_and_classify

    view, reads = detect_and_classify(rgb)
    if not view.detections:
        return None
    cal = calibrated(view, reads, plain_cfg)
    return {"features": context_inputs(view, cal.kind_probs, NAMES), "plain": cal.confidence,
            "probs": cal.kind_probs, "shipped": calibrated(view, reads).confidence,
            "boxes": np.array([view.to_photo(d.box) for d in view.detections], float)}


def _with_framed(rgb: np.ndarray, first: dict | None, cfg: dict) -> dict | None:
    """``first``, or the read of the photo framed by its own colour where the recognizer would
    take that one (vision.recognizer.with_framed: fewer than ``closeup_min_tiles`` tiles, a
    higher summed confidence of the tiles above ``report_floor``, a tile read >= MIN_READ).
    DECISION (session 26): the fit follows the read the user is shown; before, the framed
    read's tiles were left out. Every tile of that read is fitted on, those under the floor
    too (the model decides which fall under it). A refit with them was measured and not
    shipped (models/README.md, session 26)."""
    from ..closeup import few_tiles
    from ..framed import back_in_photo, framed, framed_wins

    share = cfg.get("pad_share")
    if not share or (first is not None and not few_tiles(len(first["plain"]))):
        return first
    h, w = rgb.shape[:2]
    image, pad, scale = framed(rgb, share, cfg.get("pad_max_px"))
    other = _raw_read(image, cfg)
    if other is None:
        return first
    back = [back_in_photo(b, pad, (w, h), scale) for b in other["boxes"]]
    keep = np.array([b is not None for b in back])
    if not keep.any():
        return first
    other = {k: v[keep] for k, v in other.items()}
    other["boxes"] = np.array([b for b in back if b is not None], float)
    floor = cfg.get("report_floor") or 0.0          # the reads compared by the tiles they would report

    def shown(read):
        return 0.0 if read is None else float(read["shipped"][read["shipped"] >= floor].sum())
    return other if framed_wins(shown(first), shown(other), float(other["shipped"].max())) else first


def collect(folder: Path, limit: int | None = None) -> dict[str, np.ndarray]:
    """Every tile the recognizer reports in ``folder``'s photos (the framed second look
    included, as the recognizer takes it): its features (all of ``CONTEXT_FEATURES``), the
    plain confidence (score x probability), whether box and kind are right (matched as
    vision.evaluate does: by confidence, IoU >= 0.5, ignored boxes left out), and the photo
    it is in."""
    from ..boxes import iou_matrix
    from ..evaluate import IOU, dataset_tokens, labelled_tiles
    from ..imageio import load_image
    from ..yolo import image_label_pairs

    path = CACHE / f"{folder.name}-{_key(folder)}-{limit or 'all'}-framed.npz"
    if path.exists():
        return dict(np.load(path))
    plain_cfg = {k: v for k, v in models.settings().items() if k != "confidence_model"}
    tokens = dataset_tokens(folder)
    feats, plain, right, photo = [], [], [], []
    for n, item in enumerate(image_label_pairs(folder)[:limit]):
        rgb = load_image(item.image).rgb
        gt = labelled_tiles(item, rgb.shape[1], rgb.shape[0], tokens)
        read = _with_framed(rgb, _raw_read(rgb, plain_cfg), plain_cfg)
        if read is None:
            continue
        ious = iou_matrix(read["boxes"], np.array([b for _, b in gt], float).reshape(-1, 4))
        used = np.zeros(len(gt), bool)
        for i in np.argsort(-read["plain"]):
            cand = np.where(~used & (ious[i] >= IOU))[0] if len(gt) else np.array([], int)
            ok = False
            if cand.size:
                j = cand[np.argmax(ious[i, cand])]
                used[j] = True
                if gt[j][0] is None:
                    continue                                  # an ignored ("?") box: no verdict
                ok = KINDS[int(np.argmax(read["probs"][i]))] == gt[j][0]
            feats.append(read["features"][i]); plain.append(read["plain"][i]); right.append(ok); photo.append(n)
    data = {"features": np.array(feats).reshape(-1, len(NAMES)), "plain": np.array(plain),
            "right": np.array(right, bool), "photo": np.array(photo)}
    CACHE.mkdir(parents=True, exist_ok=True)
    np.savez(path, **data)
    return data


def figures(confidence: np.ndarray, right: np.ndarray) -> dict:
    """Wrong tiles shown sure, right tiles flagged, expected calibration error (10 bins)."""
    wrong = ~right
    edges = np.linspace(0, 1.0001, 11)
    ece = sum(abs(confidence[s].mean() - right[s].mean()) * s.sum()
              for lo, hi in zip(edges[:-1], edges[1:]) if (s := (confidence >= lo) & (confidence < hi)).any())
    return {"tiles": int(len(right)), "wrong": int(wrong.sum()),
            "wrong_shown_sure": round(float((confidence[wrong] >= REVIEW_CONFIDENCE).mean()) if wrong.any() else 0.0, 3),
            "right_flagged": round(float((confidence[right] < REVIEW_CONFIDENCE).mean()) if right.any() else 0.0, 3),
            "ece": round(float(ece / max(len(right), 1)), 3)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fit", type=Path, action="append", required=True, help="labelled YOLO folder to fit on")
    ap.add_argument("--check", type=Path, action="append", default=[], help="folders to report on")
    ap.add_argument("--features", default=",".join(NAMES), help="comma-separated subset of the features")
    ap.add_argument("--l2", type=float, default=1e-3)
    ap.add_argument("--limit", type=int)
    ap.add_argument("--dry-run", action="store_true", help="report only; leave recognizer.json as it is")
    args = ap.parse_args(argv)
    names = tuple(args.features.split(","))
    unknown = [n for n in names if n not in NAMES]
    if unknown:
        ap.error(f"unknown features {unknown}; known: {', '.join(NAMES)}")
    cols = [NAMES.index(n) for n in names]
    for folder in args.fit + args.check:
        if not (folder / "images").is_dir() and not any(folder.glob("*/images")):
            ap.error(f"{folder} is not a YOLO folder (no images/ in it or its splits)")
    for folder in args.fit:
        try:
            refuse_held_out(folder)
        except HeldOutFolder as exc:
            ap.error(str(exc))

    fit = [collect(f, args.limit) for f in args.fit]
    X = np.vstack([d["features"][:, cols] for d in fit]); y = np.concatenate([d["right"] for d in fit])
    weights = fit_logistic(X, y, args.l2)
    print(f"fitted on {len(y)} tiles ({(~y).sum()} wrong) of {', '.join(map(str, args.fit))}")
    for n, w in zip(names + ("bias",), weights):
        print(f"  {n:12s} {w:+.3f}")
    print(f"{'folder':40s} {'':6s} tiles wrong  wrong>=0.6  right<0.6   ECE")
    for folder, data in list(zip(args.fit, fit)) + [(f, collect(f, args.limit)) for f in args.check]:
        model = np.minimum(data["plain"], model_confidence(data["features"][:, cols], weights))   # as read
        for label, conf in (("plain", data["plain"]), ("model", model)):
            r = figures(conf, data["right"])
            print(f"{str(folder):40s} {label:6s} {r['tiles']:5d} {r['wrong']:5d}  {r['wrong_shown_sure']:9.3f}  "
                  f"{r['right_flagged']:9.3f}  {r['ece']:.3f}")
    if not args.dry_run:
        path = models.MODELS_DIR / models.SETTINGS
        cfg = json.loads(path.read_text())
        cfg["confidence_model"] = {"features": list(names), "weights": [round(w, 4) for w in weights]}
        path.write_text(json.dumps(cfg, indent=1) + "\n")
        print(f"written to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
