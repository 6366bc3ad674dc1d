"""Retrain the crop classifier's kind head (the last layer, 256 -> 43) on the embeddings the
shipped network already computes, and write it back into the ONNX file.

Why the head alone: on sets the classifier never saw, most errors are among the flowers and
seasons and between them and suit tiles (each set draws its own pictures), while the
features below the head already separate a great deal (a taught set, ``vision/teach.py``,
reads well from the same embeddings). A new head fitted on many more kinds of bonus faces
(procedural pictures, characters and corner indices, every art family) plus the real photos
costs minutes on a CPU instead of hours for the whole network, keeps the embedding (so taught
sets stay valid) and keeps the orientation head bit-identical.

Fit: multinomial logistic regression from the shipped head's weights, cross-entropy with
class-balanced weights, plus ``--l2`` times the squared distance to the shipped weights (a
pull towards what the real photos taught). Each labelled tile gives its crop in four quarter
turns (the runtime averages the four, ``cls_turns``), with a small random box jitter.

Art families named by ``--hold-out-art`` (``scenes.jsonl`` ``style.art`` of the synthetic
batches) are left out of the fit, so their figures are an honest proxy for an unseen set.

    python -m mjscore.vision.training.train_kind_head \\
        --train data/clean/chinese-v4/train data/synth/replay_v14 data/synth_heads/bonus_v15 \\
        --check data/clean/chinese-v4/valid data/eval/synth_holdout \\
        --hold-out-art cache:xmahjongg-real --out runs/head15/tile_classifier.onnx
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from ...datasets.synth.generate import art_families
from ..kinds import BONUS_MASK, KINDS

TURNS = (0, 1, 2, 3)


def embeddings(folder: Path, rng: np.random.Generator, limit: int | None = None, jitter: float = 0.06,
               skip_art=(), only_art=()) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """(N x 256 embeddings, N kind indices, N art names) of every labelled tile of a YOLO folder,
    each in four quarter turns. Tiles of unknown kind (``?``) and leo's cut-off tiles are skipped."""
    from ..classifier import _crops, classify_crops
    from ..evaluate import dataset_tokens, labelled_tiles
    from ..imageio import load_image
    from ..yolo import image_label_pairs

    tokens = dataset_tokens(folder)
    arts = art_families(folder)
    feats, labels, names = [], [], []
    for item in image_label_pairs(folder)[:limit]:
        art = arts.get(item.image.stem, "real")
        if art in skip_art or (only_art and art not in only_art):
            continue
        rgb = load_image(item.image).rgb
        tiles = [(k, b) for k, b in labelled_tiles(item, rgb.shape[1], rgb.shape[0], tokens) if k is not None]
        if not tiles:
            continue
        boxes = []
        for _, (x1, y1, x2, y2) in tiles:
            w, h = x2 - x1, y2 - y1
            d = rng.normal(0, jitter, 4) * np.array([w, h, w, h])
            boxes.append((x1 + d[0], y1 + d[1], x2 + d[2], y2 + d[3]))
        crops = _crops(rgb, boxes)
        for k in TURNS:
            reads = classify_crops(np.ascontiguousarray(np.rot90(crops, k, axes=(1, 2))), embed=True)
            feats += [r.embedding[0] for r in reads]
            labels += [KINDS.index(kind) for kind, _ in tiles]
            names += [art] * len(tiles)
    return np.array(feats, np.float32).reshape(-1, 256), np.array(labels, int), names


def head_weights(onnx_path: Path) -> tuple[np.ndarray, np.ndarray]:
    import onnx
    from onnx import numpy_helper

    init = {i.name: i for i in onnx.load(str(onnx_path)).graph.initializer}
    return numpy_helper.to_array(init["kind.weight"]).copy(), numpy_helper.to_array(init["kind.bias"]).copy()


def write_head(onnx_path: Path, out: Path, w: np.ndarray, b: np.ndarray) -> None:
    """A copy of the ONNX classifier with the kind head's weights replaced (nothing else changes)."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(onnx_path))
    for init in model.graph.initializer:
        if init.name == "kind.weight":
            init.CopyFrom(numpy_helper.from_array(w.astype(np.float32), "kind.weight"))
        elif init.name == "kind.bias":
            init.CopyFrom(numpy_helper.from_array(b.astype(np.float32), "kind.bias"))
    out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(out))


def fit_head(x: np.ndarray, y: np.ndarray, w0: np.ndarray, b0: np.ndarray, *, l2: float = 1e-3,
             epochs: int = 30, lr: float = 0.05, batch: int = 512, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Balanced cross-entropy + l2 * ||W - W0||^2, Adam on mini-batches (numpy only)."""
    rng = np.random.default_rng(seed)
    w, b = w0.astype(np.float64).copy(), b0.astype(np.float64).copy()
    counts = np.bincount(y, minlength=len(KINDS)).astype(float)
    cw = np.where(counts > 0, counts.sum() / np.maximum(counts, 1) / max(1, (counts > 0).sum()), 0.0)
    cw = np.clip(cw, 0.2, 5.0)
    m = [np.zeros_like(w), np.zeros_like(b)]
    v = [np.zeros_like(w), np.zeros_like(b)]
    t = 0
    for _ in range(epochs):
        order = rng.permutation(len(y))
        for i in range(0, len(y), batch):
            idx = order[i:i + batch]
            xb, yb = x[idx].astype(np.float64), y[idx]
            z = xb @ w.T + b
            z -= z.max(1, keepdims=True)
            p = np.exp(z)
            p /= p.sum(1, keepdims=True)
            p[np.arange(len(yb)), yb] -= 1
            p *= cw[yb][:, None] / cw[yb].sum()
            gw = p.T @ xb + 2 * l2 * (w - w0)
            gb = p.sum(0)
            t += 1
            for j, (param, g) in enumerate(((w, gw), (b, gb))):
                m[j] = 0.9 * m[j] + 0.1 * g
                v[j] = 0.999 * v[j] + 0.001 * g * g
                param -= lr * (m[j] / (1 - 0.9 ** t)) / (np.sqrt(v[j] / (1 - 0.999 ** t)) + 1e-8)
    return w.astype(np.float32), b.astype(np.float32)


def accuracy(x: np.ndarray, y: np.ndarray, w: np.ndarray, b: np.ndarray) -> dict:
    """Accuracy per crop and turn (the runtime then averages the four turns, which only helps),
    overall and on flowers/seasons."""
    z = x @ w.T + b
    p = np.exp(z - z.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    pred = p.argmax(1)
    right = pred == y
    bonus = BONUS_MASK[y]
    return {"n": int(len(y)), "accuracy": round(float(right.mean()), 4) if len(y) else None,
            "bonus_n": int(bonus.sum()),
            "bonus_accuracy": round(float(right[bonus].mean()), 4) if bonus.any() else None}


def main(argv: list[str] | None = None) -> int:
    from .. import models

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--train", type=Path, nargs="+", required=True, help="labelled YOLO folders to fit on")
    ap.add_argument("--check", type=Path, nargs="*", default=[], help="labelled YOLO folders to report on")
    ap.add_argument("--hold-out-art", action="append", default=[], help="art family kept out of the fit")
    ap.add_argument("--limit", type=int, default=1500, help="images per training folder")
    ap.add_argument("--l2", type=float, default=1e-3)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--cache", type=Path, default=Path("data/cache/head"))
    ap.add_argument("--out", type=Path, required=True, help="where the classifier with the new head goes")
    args = ap.parse_args(argv)
    src = models.MODELS_DIR / models.CLASSIFIER
    w0, b0 = head_weights(src)
    rng = np.random.default_rng(15)
    args.cache.mkdir(parents=True, exist_ok=True)

    def cached(folder: Path, tag: str, **kw):
        path = args.cache / (folder.as_posix().strip("/").replace("/", "_") + f"_{tag}.npz")
        if path.exists():
            d = np.load(path, allow_pickle=True)
            return d["x"], d["y"], list(d["a"])
        x, y, a = embeddings(folder, rng, **kw)
        np.savez(path, x=x, y=y, a=np.array(a, object))
        return x, y, a

    parts = [cached(f, "train", limit=args.limit, skip_art=tuple(args.hold_out_art)) for f in args.train]
    x = np.concatenate([p[0] for p in parts]); y = np.concatenate([p[1] for p in parts])
    print(f"fit on {len(y)} crops (4 turns each tile), held out: {args.hold_out_art or 'none'}", flush=True)
    w, b = fit_head(x, y, w0, b0, l2=args.l2, epochs=args.epochs)
    print("train", "shipped", accuracy(x, y, w0, b0), "new", accuracy(x, y, w, b))
    for folder in args.check:
        cx, cy, ca = cached(folder, "check", jitter=0.0)
        ca = np.array(ca)
        print(folder, "shipped", accuracy(cx, cy, w0, b0), "new", accuracy(cx, cy, w, b))
        for art in args.hold_out_art:
            sel = ca == art
            if sel.any():
                print(f"  held-out art {art}: shipped", accuracy(cx[sel], cy[sel], w0, b0),
                      "new", accuracy(cx[sel], cy[sel], w, b))
    write_head(src, args.out, w, b)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
