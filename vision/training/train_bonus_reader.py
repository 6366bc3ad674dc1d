"""Train the bonus reader: a network that answers only "which flower or season is this, or is
it no bonus tile at all" (9 classes: f1..f4, j1..j4, other).

Why a network of its own (issue 17): the crop classifier reads other sets' flowers and seasons
right only ~0.5 of the time, because it learnt one picture per kind. Teaching it the cues every
set shares (corner index, 梅蘭菊竹 / 春夏秋冬) by fine-tuning did not work on CPU (its folded
norms stay frozen, and the embedding does not separate the cues: models/README.md sessions 7-8).
A network of its own, trained only on this question, can learn those cues, and at run time it
only re-weighs the bonus kinds of the crops the classifier already calls bonus-like
(``vision/bonus_reader.py``).

Training data (all from ``train_classifier.load_data``, so the same caches): the procedural
bonus faces (``bonus_faces.py``, with indexed suit faces as counter-examples), the synthetic
scenes' crops and the cleaned chinese-v4 train crops. Half of each batch is bonus tiles (a
third of them real or synthetic scene crops), half is other tiles. Chosen on chinese-v4 valid
crops and a fresh seed of the procedural faces, never on leo or the synthetic hold-out.

    python -m mjscore.vision.training.train_bonus_reader --out runs/bonus2 --epochs 12 --epoch-size 12800 --lr 1e-3
    python -m mjscore.vision.training.train_bonus_reader --out runs/bonus2 --export models/bonus_reader.onnx
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from ...datasets.paths import ART, add_data_root_option, data_path
from ..kinds import BONUS, KINDS
from .common import save_ckpt, setup_torch

OTHER = len(BONUS)                       # class 8: not a flower or season
CLASS_OF_KIND = np.array([BONUS.index(k) if k in BONUS else OTHER for k in KINDS], np.int64)


def build_reader(width: int = 24, arch: str = "lite"):
    """``lite``: the ImageNet-pretrained EfficientNet-Lite0 cut at stride 16 (as the crop
    classifier), its pooled stride-8 and stride-16 features into a 9-way head; it takes the
    classifier's own N x 3 x S x S input in [-1, 1]. ``small``: a from-scratch grey-level CNN
    (tried first: on 2 CPU cores it had not learnt the cues after 9 epochs, 0.34 on fresh faces)."""
    import torch
    from torch import nn

    if arch == "lite":
        from .effnet import LiteBackbone

        class LiteReader(nn.Module):
            def __init__(self):
                super().__init__()
                self.backbone = LiteBackbone.build(stages=5, pretrained=True)
                self.drop = nn.Dropout(0.2)
                self.head = nn.Linear(40 + 112, OTHER + 1)

            def forward(self, x):
                feats = self.backbone(x)
                f = torch.cat([feats[1].mean(dim=(2, 3)), feats[2].mean(dim=(2, 3))], 1)
                return self.head(self.drop(f))

        return LiteReader()

    def stage(cin, cout):
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
                nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    class Reader(nn.Module):
        def __init__(self):
            super().__init__()
            self.grey = nn.Conv2d(3, 1, 1, bias=False)
            self.grey.weight.data[:] = torch.tensor([0.299, 0.587, 0.114]).view(1, 3, 1, 1)
            self.grey.weight.requires_grad_(False)
            w = width
            self.body = nn.Sequential(
                nn.Conv2d(1, w, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(w), nn.ReLU(inplace=True),
                *stage(w, 2 * w), nn.MaxPool2d(2),
                *stage(2 * w, 4 * w), nn.MaxPool2d(2),
                *stage(4 * w, 8 * w),
                nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(8 * w, OTHER + 1))

        def forward(self, x):
            g = self.grey(x)
            # per-crop contrast normalisation: sets print in any ink on any ivory
            g = (g - g.mean(dim=(2, 3), keepdim=True)) / (g.std(dim=(2, 3), keepdim=True) + 0.05)
            return self.body(g)

    return Reader()


def fresh_faces(size: int, art_root: Path, n_per_kind: int = 40, seed: int = 99):
    """A check set from a seed the training never draws (upright procedural faces + negatives)."""
    from .bonus_faces import render_bonus_crops

    return render_bonus_crops(n_per_kind, size, art_root, seed=seed, negatives=0.25)


def accuracy(torch, model, x, y, augment) -> tuple[float, float, float]:
    """(bonus crops read as their kind, other crops read as other, all 9-way) on uint8 crops."""
    model.eval()
    pred = []
    rng = np.random.default_rng(0)
    with torch.no_grad():
        for i in range(0, len(y), 512):
            xb, _ = augment(torch, x[i:i + 512], np.full(len(x[i:i + 512]), -1), rng, train=False)
            pred.append(model(xb).argmax(1).numpy())
    pred, c = np.concatenate(pred), CLASS_OF_KIND[y]
    b = c < OTHER
    return float((pred == c)[b].mean()), float((pred == c)[~b].mean()), float((pred == c).mean())


def export(torch, model, out: Path, size: int) -> None:
    model.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, torch.zeros(1, 3, size, size), str(out), input_names=["crops"],
                      output_names=["bonus_logits"], dynamic_axes={"crops": {0: "n"}, "bonus_logits": {0: "n"}},
                      opset_version=17, dynamo=False)
    print(f"exported {out}", flush=True)


def main() -> None:
    from . import train_classifier as tc

    ap = argparse.ArgumentParser(description="train the bonus reader (flowers and seasons of any set)")
    ap.add_argument("--out", type=Path, default=Path("runs/bonus"))
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--epoch-size", type=int, default=16000)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--width", type=int, default=24, help="small net only")
    ap.add_argument("--arch", choices=["lite", "small"], default="lite")
    ap.add_argument("--grayscale", type=float, default=0.5, help="share of crops turned grey (lite; small is grey)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--bonus-per-kind", type=int, default=1500, help="procedural faces per kind (bonus_faces.py)")
    ap.add_argument("--export", type=Path, default=None, help="write best.pt as ONNX here and stop")
    add_data_root_option(ap)
    args = ap.parse_args()
    tc.configure(64)
    torch = setup_torch(args.threads)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.export:
        ck = torch.load(args.out / "best.pt", weights_only=False)
        model = build_reader(ck["width"], ck.get("arch", "small"))
        model.load_state_dict(ck["model"])
        export(torch, model, args.export, tc.GEOMETRY.crop_size)
        return

    art_root = data_path(ap, args.data_root, ART)
    model = build_reader(args.width, args.arch).to(memory_format=torch.channels_last)
    (tx, ty, _, src, _), (vx, vy) = tc.load_data(art_root, True, args.bonus_per_kind)
    fx, fy = fresh_faces(tc.GEOMETRY.store, art_root)
    cls = CLASS_OF_KIND[ty]
    is_b = cls < OTHER
    # half bonus, half other; bonus: 2/3 procedural faces (source 3), 1/3 scene and photo crops,
    # each kind equally; other: every source, the indexed counter-examples drawn 4x
    w = np.zeros(len(ty))
    for c in range(OTHER):
        for s_sel, share in ((src == 3, 2 / 3), (src != 3, 1 / 3)):
            sel = (cls == c) & s_sel
            if sel.any():
                w[sel] = 0.5 / OTHER * share / sel.sum()
    other = ~is_b
    wo = np.where(src[other] == 3, 4.0, 1.0)
    w[other] = 0.5 * wo / wo.sum()
    w /= w.sum()
    print(f"train crops {len(ty)} (bonus {is_b.sum()}, of them procedural {(is_b & (src == 3)).sum()}); "
          f"check: v4 valid {len(vy)}, fresh faces {len(fy)}", flush=True)

    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    steps = args.epoch_size // args.batch
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=steps * args.epochs, pct_start=0.15)
    start, best = 0, -1.0
    last = args.out / "last.pt"
    if last.exists():
        ck = torch.load(last, weights_only=False)
        model.load_state_dict(ck["model"]); opt.load_state_dict(ck["opt"]); sched.load_state_dict(ck["sched"])
        start, best = ck["epoch"] + 1, ck["best"]
        print(f"resumed at epoch {start}", flush=True)
    crit = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    for epoch in range(start, args.epochs):
        model.train()
        rng = np.random.default_rng(2000 + epoch)
        t0, run = time.time(), 0.0
        for step in range(steps):
            idx = rng.choice(len(ty), args.batch, p=w)
            xb, _ = tc.augment(torch, tx[idx], np.full(len(idx), -1), rng, grey_share=args.grayscale if args.arch == "lite" else 0.0)
            xb = xb.contiguous(memory_format=torch.channels_last)
            loss = crit(model(xb), torch.from_numpy(cls[idx]))
            opt.zero_grad(); loss.backward(); opt.step(); sched.step()
            run += loss.item()
        vb, vo, _ = accuracy(torch, model, vx, vy, tc.augment)
        fb, fo, _ = accuracy(torch, model, fx, fy, tc.augment)
        score = (vb + fb) / 2 + vo / 4        # the bonus kinds of both, and no bonus called on a suit tile
        print(f"epoch {epoch} loss {run / steps:.3f} v4 valid bonus {vb:.3f} other {vo:.4f} | "
              f"fresh faces bonus {fb:.3f} other {fo:.3f} | {time.time() - t0:.0f}s", flush=True)
        best_now = score > best
        best = max(best, score)
        save_ckpt(last, model=model.state_dict(), opt=opt.state_dict(), sched=sched.state_dict(), epoch=epoch,
                  best=best, width=args.width, arch=args.arch)
        if best_now:
            save_ckpt(args.out / "best.pt", model=model.state_dict(), epoch=epoch, score=score, width=args.width, arch=args.arch)


if __name__ == "__main__":
    main()
