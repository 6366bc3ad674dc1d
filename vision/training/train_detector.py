"""Train the class-agnostic CenterNet tile detector.

Data: every box of the cleaned chinese-v4 train split (kind ignored, ``?`` boxes included)
plus synthetic YOLO scenes under ``data/synth`` when present. Random scale (incl. small
tiles), aspect stretch (the v4 images are stretched), quarter turns, flips, colour jitter,
random 320 px crops. Checkpoints every epoch to ``OUT/last.pt`` and resumes from it.

On a lent GPU (session 19): ``--bank DIR`` reads the photos from a detector bank
(``det_bank.py``) instead of ``data/clean``, ``--workers N`` makes the augmented views in N
processes, ``--time-limit S`` ends the run after S seconds with the learning rate following
the clock (``common.timed_lr_factor``) and keeps the weights of the half-way point too
(``OUT/half.pt``); ``vision/training/device_detector.sh`` is the exact command.

    python -m mjscore.vision.training.train_detector --out runs/det --epochs 20
    python -m mjscore.vision.training.train_detector --init-onnx models/tile_detector.onnx --out runs/det14 ...
"""

from __future__ import annotations

import argparse
import math
import os
import time
from pathlib import Path

import numpy as np

from . import det_bank
from .clutter import paste_clutter
from .common import (image_files, mixed_precision, name_factors, save_ckpt, setup_torch, timed_lr_factor,
                     training_device)
from .det_bank import SIDE, letterboxed_photos

CACHE = Path("data/cache")
STRIDE = 4


def load_split(folder: Path, split: str, name: str, max_images: int | None = None):
    """(images N x SIDE x SIDE x 3, list of box arrays in cached pixels), cached as npz."""
    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / f"det_{name}.npz"
    if path.exists():
        d = np.load(path, allow_pickle=True)
        return d["x"], list(d["b"])
    xs, bs = [], []
    for lb, boxes in letterboxed_photos(folder / split, image_files(folder / split)[:max_images]):
        xs.append(lb)
        bs.append(boxes)
    x = np.stack(xs)
    b = np.empty(len(bs), object)
    b[:] = bs
    tmp = path.with_name(path.stem + f".{os.getpid()}.tmp.npz")   # runs side by side may build it at once
    np.savez(tmp, x=x, b=b)
    tmp.replace(path)
    return x, bs


def random_view(img, boxes, rng, out: int, zoom_in: float = 0.0, max_zoom: float = 5.0, clutter: float = 0.0):
    """Augmented ``out`` x ``out`` view of a cached image and its boxes. With probability
    ``zoom_in`` the view is a close-up instead: scale log-uniform in [1.3, ``max_zoom``], framed
    on one random tile (at 5x a tile of a whole-hand photo fills a third to half of the view),
    so that lone tiles big in the frame are learnt from real photos (issue 17). With probability
    ``clutter`` things that are not tiles (``clutter.py``: book spines, printed sheets) are
    pasted beside the tiles before the light and blur are changed, so they look as taken alike."""
    import cv2

    stretch = math.exp(rng.normal(0, 0.2))
    zoomed = None          # the tile a close-up is framed on
    if zoom_in > 0 and len(boxes) and rng.random() < zoom_in:
        b = boxes[int(rng.integers(len(boxes)))]
        top = min(max_zoom, 0.8 * out / max(b[2] - b[0], b[3] - b[1], 1.0))   # the tile stays in view
        if top > 1.3:
            zoomed = b
    if zoomed is not None:
        scale = math.exp(rng.uniform(math.log(1.3), math.log(top)))
    else:
        scale = math.exp(rng.uniform(math.log(0.3), math.log(1.3)))
    sx, sy = scale * stretch, scale / stretch
    k = int(rng.integers(4))
    flip = rng.random() < 0.5
    # image -> scaled
    a = np.array([[sx, 0, 0], [0, sy, 0], [0, 0, 1]], np.float64)
    if flip:
        a = np.array([[-1, 0, SIDE * sx], [0, 1, 0], [0, 0, 1]]) @ a
    wh = np.array([SIDE * sx, SIDE * sy])
    for _ in range(k):   # quarter turn: (x, y) -> (y, W - x)
        a = np.array([[0, 1, 0], [-1, 0, wh[0]], [0, 0, 1]]) @ a
        wh = wh[::-1]
    if zoomed is not None:   # the chosen tile's centre lands in the middle half of the view
        b = zoomed
        c = a[:2, :2] @ np.array([(b[0] + b[2]) / 2, (b[1] + b[3]) / 2]) + a[:2, 2]
        tx, ty = rng.uniform(0.25, 0.75, 2) * out - c
    else:
        tx = rng.uniform(min(0, out - wh[0]), max(0, out - wh[0]))
        ty = rng.uniform(min(0, out - wh[1]), max(0, out - wh[1]))
    a = np.array([[1, 0, tx], [0, 1, ty], [0, 0, 1]]) @ a
    fill = tuple(int(v) for v in rng.integers(0, 256, 3))
    view = cv2.warpAffine(img, a[:2], (out, out), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=fill)
    if len(boxes):
        pts = np.stack([boxes[:, [0, 1]], boxes[:, [2, 1]], boxes[:, [0, 3]], boxes[:, [2, 3]]], 1)
        pts = pts @ a[:2, :2].T + a[:2, 2]
        nb = np.concatenate([pts.min(1), pts.max(1)], 1)
        area = (nb[:, 2] - nb[:, 0]) * (nb[:, 3] - nb[:, 1])
        cb = np.clip(nb, 0, out)
        carea = (cb[:, 2] - cb[:, 0]).clip(0) * (cb[:, 3] - cb[:, 1]).clip(0)
        keep = carea > 0.5 * area
        partial = (carea > 0) & ~keep
        boxes_out, ignore = cb[keep], cb[partial]
    else:
        boxes_out, ignore = np.zeros((0, 4)), np.zeros((0, 4))
    if clutter > 0 and rng.random() < clutter:
        view = paste_clutter(view, np.concatenate([boxes_out, ignore]), rng, int(rng.integers(1, 4)))
    # photometric
    v = view.astype(np.float32)
    v = (v - v.mean()) * math.exp(rng.normal(0, 0.25)) + v.mean() + rng.normal(0, 20)
    v = v * np.exp(rng.normal(0, 0.08, 3))
    if rng.random() < 0.3:
        v += rng.normal(0, rng.uniform(2, 10), v.shape)
    if rng.random() < 0.2:   # blur / low resolution
        f = rng.uniform(0.3, 0.7)
        small = cv2.resize(v, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        v = cv2.resize(small, (out, out), interpolation=cv2.INTER_LINEAR)
    return np.clip(v, 0, 255).astype(np.uint8), boxes_out, ignore


def targets(boxes, ignore, out: int):
    """Heatmap (1 x H x W), size/offset targets and their mask at stride 4."""
    g = out // STRIDE
    hm = np.zeros((g, g), np.float32)
    wh = np.zeros((2, g, g), np.float32)
    off = np.zeros((2, g, g), np.float32)
    mask = np.zeros((g, g), np.float32)
    ys, xs = np.mgrid[0:g, 0:g]
    for x1, y1, x2, y2 in boxes:
        w, h = x2 - x1, y2 - y1
        if w < 2 or h < 2:
            continue
        cx, cy = (x1 + x2) / 2 / STRIDE, (y1 + y2) / 2 / STRIDE
        ix, iy = min(int(cx), g - 1), min(int(cy), g - 1)
        sx, sy = max(w / STRIDE / 6, 0.7), max(h / STRIDE / 6, 0.7)
        gauss = np.exp(-((xs - ix) ** 2 / (2 * sx * sx) + (ys - iy) ** 2 / (2 * sy * sy)))
        np.maximum(hm, gauss, out=hm)
        wh[:, iy, ix] = np.log(w / STRIDE), np.log(h / STRIDE)
        off[:, iy, ix] = cx - ix, cy - iy
        mask[iy, ix] = 1
    weight = np.ones((g, g), np.float32)
    for x1, y1, x2, y2 in ignore:   # tiles cut off by the crop: neither positive nor negative
        weight[int(y1 / STRIDE):int(math.ceil(y2 / STRIDE)), int(x1 / STRIDE):int(math.ceil(x2 / STRIDE))] = 0
    np.maximum(weight, mask, out=weight)
    return hm[None], wh, off, mask, weight


def focal_loss(torch, logit, gt, weight):
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos = gt.eq(1).float()
    neg = (1 - pos) * weight
    pos_loss = torch.log(p) * (1 - p) ** 2 * pos
    neg_loss = torch.log(1 - p) * p ** 2 * negative_weight(gt) * neg
    return -(pos_loss.sum() + neg_loss.sum()) / pos_count(torch, gt)


def negative_weight(gt):
    """(1 - target)^4: how much a cell counts as "no tile here" (CenterNet's focal loss), none at
    a labelled centre and little beside one. ``distill_loss`` weighs its term the same way."""
    return (1 - gt) ** 4


def pos_count(torch, gt):
    """The number of tile centres in a batch's heat targets (at least 1): what the focal loss
    divides by."""
    return gt.eq(1).float().sum().clamp(min=1)


def distill_loss(torch, student, teacher, keep, n, targets=None):
    """The detector's distillation term (session 38): per cell, the Bernoulli KL of the
    starting network's heat against the student's, plus the L1 of its sizes and offsets
    weighted by that heat, over the views ``keep`` marks (B), divided by ``n`` as the focal loss
    is. Why: a CPU stage on racks of backs learnt them and lost other tiles (det31, session 21);
    tying the views of the sets it already reads to its own heat keeps what it knew, as
    ``train_classifier --distill`` does for the kinds. ``student``/``teacher``: (heat logits,
    sizes, offsets).

    ``targets`` (session 39, ``--distill-labels``): the views' heat targets (B, 1, H, W). Each
    cell's term is then weighted by (1 - target)^4, the focal loss's own weight for its
    negatives: nothing at a labelled centre, little beside one, all of it where the labels
    are silent. Why: distilled as above, a back the teacher under-fires on in a kept view is
    taught as faint by the teacher and as a tile by the labels, and det38 learnt the backs at
    half the plain rate; with the labels first the term can cover every view, racks too.
    (Raising the teacher's heat to the labels' Gaussian bumps was tried first and dropped: it
    asks for bumps as wide as the targets, which the focal loss never does, and the term came
    out ten times the focal loss.)"""
    s_hm, s_wh, s_off = student
    t_hm, t_wh, t_off = (t.detach() for t in teacher)
    k = keep.float()[:, None, None, None]     # no view kept: both sums are 0
    if targets is not None:
        k = k * negative_weight(targets)
    f = torch.nn.functional
    p_t = torch.sigmoid(t_hm).clamp(1e-4, 1 - 1e-4)
    kl = (f.binary_cross_entropy_with_logits(s_hm, p_t, reduction="none")
          - f.binary_cross_entropy(p_t, p_t, reduction="none"))
    w = p_t * k
    boxes = ((torch.abs(s_wh - t_wh) + torch.abs(s_off - t_off)) * w).sum() / w.sum().clamp(min=1)
    return (kl * k).sum() / n + boxes


def freeze_stem(model, blocks: int) -> list:
    """Freeze the backbone stem and its first ``blocks`` blocks; the frozen modules."""
    bb = model.backbone
    frozen = [bb._conv_stem, bb._bn0, *bb._blocks[:blocks]]
    for m in frozen:
        for p in m.parameters():
            p.requires_grad = False
    return frozen


def synth_sets():
    root = Path("data/synth")
    if not root.exists():
        return []
    return sorted(p.parent for p in root.rglob("data.yaml") if (p.parent / "images").exists())


class Views:
    """Training views drawn from the photo sets: item ``k`` of ``epoch`` is one augmented view
    and its targets, a pure function of (epoch, k), so that worker processes (``--workers``)
    make exactly the views the main process would."""

    def __init__(self, sets, weights, pool, size: int, zoom_in: float, max_zoom: float, epoch: int, n: int,
                 clutter: float = 0.0):
        self.sets, self.weights, self.pool, self.clutter = sets, weights, pool, clutter
        self.size, self.zoom_in, self.max_zoom, self.epoch, self.n = size, zoom_in, max_zoom, epoch, n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, k: int):
        rng = np.random.default_rng((500 + self.epoch, k))
        si, j = self.pool[int(rng.choice(len(self.pool), p=self.weights))]
        v, bx, ig = random_view(self.sets[si][0][j], self.sets[si][1][j], rng, self.size,
                                self.zoom_in, self.max_zoom, self.clutter)
        return (v, *targets(bx, ig, self.size), si)


def main() -> None:
    ap = argparse.ArgumentParser(description="train the CenterNet tile detector")
    ap.add_argument("--out", type=Path, default=Path("runs/det"))
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--epoch-size", type=int, default=1800)
    ap.add_argument("--size", type=int, default=320)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--no-synth", action="store_true")
    ap.add_argument("--arch", choices=["centernet", "centernet-folded", "lite"], default="centernet",
                    help="centernet: small net from scratch; lite: ImageNet EfficientNet-Lite0 + FPN; "
                         "centernet-folded: batch norms folded into the convs (what --init-onnx gives)")
    ap.add_argument("--init-onnx", type=Path, default=None,
                    help="start from the weights of an exported detector (e.g. models/tile_detector.onnx; "
                         "implies --arch centernet-folded) instead of from scratch")
    ap.add_argument("--freeze", type=int, default=3,
                    help="lite only: the stem and this many first backbone blocks stay frozen "
                         "(the stride-2/4 ones cost most to train on a CPU and are generic)")
    ap.add_argument("--boost", action="append", default=[], metavar="FOLDER=FACTOR",
                    help="draw a synthetic batch (folder name under data/synth, or bank part) FACTOR times "
                         "as often, e.g. --boost train_v8=4 when fine-tuning on a new kind of scene")
    ap.add_argument("--zoom-in", type=float, default=0.0,
                    help="share of views that are close-ups framed on one tile, zoomed 1.3x to --max-zoom "
                         "(lone tiles big in the frame; session 12: 0.3 for the close-up detector)")
    ap.add_argument("--max-zoom", type=float, default=5.0)
    ap.add_argument("--clutter", type=float, default=0.0,
                    help="share of views with things that are not tiles pasted in (clutter.py; session 19: 0.5)")
    ap.add_argument("--real-share", type=float, default=0.5,
                    help="share of the views cut from the real photos (chinese-v4 train)")
    ap.add_argument("--bank", type=Path, default=None,
                    help="read the photos from a detector bank (det_bank.py) instead of data/clean; "
                         "synthetic folders under data/synth still join")
    ap.add_argument("--workers", type=int, default=0, help="processes making the augmented views")
    ap.add_argument("--device", default="auto", help="auto (a GPU when there is one), cpu or cuda")
    ap.add_argument("--distill", type=float, default=0.0, metavar="W",
                    help="weight of the distillation term (distill_loss): the views of every set not named "
                         "by --distill-skip are also tied to the --init-onnx network's heat and boxes")
    ap.add_argument("--distill-skip", default="", metavar="NAME,...",
                    help="sets (bank parts or data/synth folder names) learnt from their labels only, "
                         "e.g. the new racks of backs")
    ap.add_argument("--distill-labels", action="store_true",
                    help="distillation weighted as the focal loss weighs its negatives, (1 - target)^4 "
                         "(distill_loss targets; session 39): none at labelled tile centres, so no set need be skipped")
    ap.add_argument("--time-limit", type=float, default=0.0, metavar="SECONDS",
                    help="stop after this many seconds, learning rate by the clock (warm-up + cosine); "
                         "the weights at half the time are kept as OUT/half.pt")
    args = ap.parse_args()
    if args.distill and not args.init_onnx:
        ap.error("--distill needs --init-onnx: the network it starts from is the teacher")
    if args.distill_labels and not args.distill:
        ap.error("--distill-labels weighs the distillation term: give --distill W too")
    boost = name_factors(args.boost)
    torch = setup_torch(args.threads)
    device = training_device(torch, args.device)
    from .nets import build_detector

    args.out.mkdir(parents=True, exist_ok=True)
    names = ["real"]
    if args.bank:
        parts = det_bank.load(args.bank)
        sets = [parts.pop("real")]
        names += sorted(parts)
        sets += [parts[n] for n in sorted(parts)]
        for n in names[1:]:
            print(f"bank {n}: {len(sets[names.index(n)][1])} images", flush=True)
    else:
        sets = [load_split(Path("data/clean/chinese-v4"), "train", "real_train")]
    if not args.no_synth:
        for folder in synth_sets():
            key = "synth_" + "_".join(folder.relative_to("data/synth").parts) + f"_{len(list((folder / 'images').iterdir()))}"
            sets.append(load_split(folder.parent, folder.name, key, 1500))
            names.append(folder.name)
            print(f"synth {folder}: {len(sets[-1][1])} images", flush=True)
    set_boost = [1.0] + [boost.get(n, 1.0) for n in names[1:]]
    pool = [(i, j) for i, (sx, _) in enumerate(sets) for j in range(len(sx))]
    # real photos keep --real-share of each epoch (default half), the rest spread over the other photos
    wts = np.array([1.0 if i == 0 else 0.0 for i, _ in pool])
    n_real = wts.sum()
    n_syn = len(pool) - n_real
    if n_syn:
        wts[wts == 0] = n_real / n_syn * (1 - args.real_share) / args.real_share
    wts *= np.array([set_boost[i] for i, _ in pool])
    wts /= wts.sum()
    print(f"detector images: {len(pool)}", flush=True)

    if args.init_onnx:
        from .nets import load_onnx_detector
        args.arch = "centernet-folded"
        model = load_onnx_detector(args.init_onnx)
        print(f"initialised from {args.init_onnx}", flush=True)
    else:
        model = build_detector(args.arch)
    model = model.to(device).to(memory_format=torch.channels_last)
    teacher, skip = None, None
    if args.distill:
        import copy
        teacher = copy.deepcopy(model).eval()
        for q in teacher.parameters():
            q.requires_grad_(False)
        skipped = {n for n in args.distill_skip.split(",") if n}
        unknown = skipped - set(names)
        if unknown:
            raise SystemExit(f"--distill-skip: no set named {sorted(unknown)} (sets: {names})")
        skip = torch.tensor([n in skipped for n in names], device=device)
        print(f"distilling on {[n for n in names if n not in skipped]} at weight {args.distill}", flush=True)
    frozen = freeze_stem(model, args.freeze) if args.arch == "lite" else []
    backbone = [p for n, p in model.named_parameters() if p.requires_grad and n.startswith("backbone.")]
    rest = [p for n, p in model.named_parameters() if p.requires_grad and not n.startswith("backbone.")]
    # pretrained features move at a third of the head's rate
    groups = ([{"params": backbone, "lr": args.lr / 3}] if backbone else []) + [{"params": rest}]
    max_lr = [g.get("lr", args.lr) for g in groups]
    opt = torch.optim.AdamW(groups, lr=args.lr, weight_decay=1e-4)
    steps = args.epoch_size // args.batch
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=max_lr, total_steps=steps * args.epochs,
                                                pct_start=0.1)
    start = 0
    last = args.out / "last.pt"
    if last.exists() and not args.time_limit:
        ck = torch.load(last, weights_only=False, map_location=device)
        model.load_state_dict(ck["model"]); opt.load_state_dict(ck["opt"])
        start = ck["epoch"] + 1
        if ck.get("epochs", 20) == args.epochs:
            sched.load_state_dict(ck["sched"])
        else:   # a new epoch budget: a fresh one-cycle over the epochs that are left
            sched = torch.optim.lr_scheduler.OneCycleLR(
                opt, max_lr=max_lr, total_steps=steps * max(args.epochs - start, 1), pct_start=0.05)
        print(f"resumed at epoch {start}", flush=True)
    autocast = mixed_precision(torch, device)
    began, half_saved = time.time(), False
    for epoch in range(start, args.epochs):
        if args.time_limit and time.time() - began > args.time_limit:
            break
        model.train()
        for m in frozen:
            m.eval()   # frozen layers keep their ImageNet batch-norm statistics
        views = Views(sets, wts, pool, args.size, args.zoom_in, args.max_zoom, epoch, steps * args.batch,
                      args.clutter)
        loader = torch.utils.data.DataLoader(views, batch_size=args.batch, num_workers=args.workers,
                                             pin_memory=device.type == "cuda", drop_last=True)
        t0, tot, step = time.time(), np.zeros(4), 0
        for step, (imgs, hm_t, wh_t, off_t, m_t, w_t, set_index) in enumerate(loader):
            if args.time_limit:
                frac = (time.time() - began) / args.time_limit
                if frac >= 1:
                    break
                if frac >= 0.5 and not half_saved:
                    save_ckpt(args.out / "half.pt", model=model.state_dict(), epoch=epoch, arch=args.arch)
                    half_saved = True
                for g, top in zip(opt.param_groups, max_lr):
                    g["lr"] = top * timed_lr_factor(frac)
            xb = imgs.to(device, non_blocking=True).permute(0, 3, 1, 2).float() * (2 / 255) - 1
            xb = xb.contiguous(memory_format=torch.channels_last)
            hm_t, wh_t, off_t = (t.to(device, non_blocking=True) for t in (hm_t, wh_t, off_t))
            m_t = m_t.to(device, non_blocking=True)[:, None]
            w_t = w_t.to(device, non_blocking=True)[:, None]
            with autocast:
                p_hm, p_wh, p_off = model(xb)
            p_hm, p_wh, p_off = p_hm.float(), p_wh.float(), p_off.float()
            l_hm = focal_loss(torch, p_hm, hm_t, w_t)
            n = m_t.sum().clamp(min=1)
            l_wh = (torch.abs(p_wh - wh_t) * m_t).sum() / n
            l_off = (torch.abs(p_off - off_t) * m_t).sum() / n
            loss = l_hm + l_wh + l_off
            l_kd = torch.zeros((), device=device)
            if teacher is not None:
                with torch.no_grad(), autocast:
                    t_out = teacher(xb)
                keep = ~skip[set_index.to(device)]
                l_kd = distill_loss(torch, (p_hm, p_wh, p_off), tuple(t.float() for t in t_out),
                                    keep, pos_count(torch, hm_t), hm_t if args.distill_labels else None)
                loss = loss + args.distill * l_kd
            opt.zero_grad(); loss.backward(); opt.step()
            if not args.time_limit:
                sched.step()
            tot += [l_hm.item(), l_wh.item(), l_off.item(), l_kd.item()]
            if step % 20 == 0:
                a = tot / (step + 1)
                print(f"epoch {epoch} step {step}/{steps} hm {a[0]:.3f} wh {a[1]:.3f} off {a[2]:.3f} "
                      f"kd {a[3]:.3f} {time.time() - t0:.0f}s", flush=True)
        save_ckpt(last, model=model.state_dict(), opt=opt.state_dict(), sched=sched.state_dict(), epoch=epoch,
                  epochs=args.epochs, arch=args.arch)
        print(f"epoch {epoch} done {tot / max(step + 1, 1)} {time.time() - t0:.0f}s", flush=True)


if __name__ == "__main__":
    main()
