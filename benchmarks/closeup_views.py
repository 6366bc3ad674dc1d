"""Close-up view study (issue 17): for each photo of a YOLO folder the gate calls a close-up, the
candidate views (main detector, close-up detector, main at 160 px; each with pieces joined) and
the shipped choice, each read end to end and scored, pickled for choice-rule simulations.

    python benchmarks/closeup_views.py data/eval/closeup_synth/v4-pasted /tmp/syn_pasted.pkl [--limit N]
    python benchmarks/closeup_views.py --summary /tmp/syn_pasted.pkl [...]

Why: session 16 found the best view per photo worth 0.824 tile F1 on v4 pasted against the 0.770
the likeness rule keeps; fit a better rule on the synthetic close-ups only, check it on the v4
parts, report leo. About 1-2 s per photo on 2 cores. Development only (needs a checkout)."""
from __future__ import annotations

import argparse
import pickle
import time
from pathlib import Path

import numpy as np

VIEWS = ["main", "main_j", "close", "close_j", "coarse_j", "shipped"]


def summary(paths: list[Path]) -> None:
    """Each view's tile F1 over the pickled photos, and the best view per photo's (oracle)."""
    rows = sum((pickle.loads(Path(p).read_bytes()) for p in paths), [])

    def f1(pick):
        c = g = p = 0
        for r in rows:
            v = r["views"][pick(r)] if r["gated"] else r["views"]["main"]
            c, g, p = c + v["correct"], g + v["gt"], p + v["pred"]
        return 2 * c / (g + p) if g + p else 0.0

    print("photos", len(rows), "gated", sum(r["gated"] for r in rows))
    for name in VIEWS:
        print(f"{name:10s} {f1(lambda r, n=name: n):.4f}")
    gain = lambda v: 2 * v["correct"] - v["pred"]   # noqa: E731
    print(f"{'oracle':10s} {f1(lambda r: max(r['views'], key=lambda n: gain(r['views'][n]))):.4f}")


def study(folder: Path, out: Path, limit: int | None, coarse: int) -> None:
    """Pickle every candidate view of each photo with its end-to-end score. Each view is read
    by the recognizer itself (its detection step stood in by the view), so the classifier, row
    support, confidences and straddler drop are the shipped ones."""
    from mjscore.vision import detector, models
    from mjscore.vision.classifier import read_confidence
    from mjscore.vision.closeup import needs_closeup
    from mjscore.vision.evaluate import dataset_tokens, labelled_tiles, score_photo
    from mjscore.vision.imageio import load_image
    from mjscore.vision.recognizer import recognize_image
    from mjscore.vision.yolo import image_label_pairs

    real = detector.detect_any_aspect
    cfg = models.settings()
    sample = cfg.get("view_sample", 8)
    tokens = dataset_tokens(folder)
    rows, t0 = [], time.time()
    for n, item in enumerate(image_label_pairs(folder)[:limit]):
        rgb = load_image(item.image).rgb
        h, w = rgb.shape[:2]
        gt = labelled_tiles(item, w, h, tokens)       # YOLO labels are relative: the loaded frame
        main = real(rgb, tile_likeness=read_confidence, closeup=False)
        gated = needs_closeup([d.box for d in main.detections], main.rgb.shape, cfg["det_size"])
        views = {"main": main}
        if gated:
            close = real(rgb, tile_likeness=read_confidence, model=cfg["closeup_detector"], closeup=False)
            low = real(rgb, tile_likeness=read_confidence, closeup=False, det_size=coarse)
            views.update(main_j=detector._pieces_joined(rgb, main, read_confidence),
                         close=close, close_j=detector._pieces_joined(rgb, close, read_confidence),
                         coarse_j=detector._pieces_joined(rgb, low, read_confidence),
                         shipped=detector.with_closeup(rgb, main, cfg["det_size"], read_confidence))
        res = {}
        for name, v in views.items():
            detector.detect_any_aspect = lambda *a, v=v, **k: v
            try:
                tiles = recognize_image(rgb)
            finally:
                detector.detect_any_aspect = real
            s = score_photo(gt, [(t.kind, t.confidence, t.box) for t in tiles])
            best = v.detections[:sample]
            like = read_confidence([(v.rgb, best)])[0] if best else []
            res[name] = dict(gt=s.gt, pred=s.pred, matched=s.matched, correct=s.correct, wrong=list(s.wrong),
                             like=float(np.mean(like)) if len(like) else 0.0, ndet=len(v.detections),
                             score=float(sum(d.score for d in v.detections)),
                             tiles=[(t.kind, t.confidence, t.box) for t in tiles],
                             dets=[(tuple(detector.unscale(d.box, v.fx, v.fy)), d.score) for d in v.detections],
                             shape=(w, h))
        rows.append(dict(image=str(item.image), gated=gated, views=res))
        if n % 50 == 0:
            print(n, f"{time.time() - t0:.0f}s", flush=True)
    out.write_bytes(pickle.dumps(rows))
    print("done", len(rows), f"{time.time() - t0:.0f}s")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", type=Path, nargs="+", help="FOLDER OUT.pkl, or with --summary the pickles")
    ap.add_argument("--summary", action="store_true")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--coarse", type=int, default=160, help="the coarse view's detector input (px)")
    a = ap.parse_args(argv)
    if a.summary:
        summary(a.paths)
    elif len(a.paths) != 2:
        ap.error("give FOLDER OUT.pkl")
    else:
        study(a.paths[0], a.paths[1], a.limit, a.coarse)


if __name__ == "__main__":
    main()
