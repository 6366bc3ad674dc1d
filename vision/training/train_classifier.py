"""Train the tile crop classifier (43 kinds + orientation head).

Data: crops of the cleaned chinese-v4 train split (``sd1`` boxes excluded until judged),
crops rendered from the tile art (with known orientation, and face-down ``X`` backs), and
any synthetic YOLO scenes under ``data/synth`` (class names = our tokens).
Checkpoints every epoch to ``OUT/last.pt`` and resumes from it when rerun.

    python -m mjscore.vision.training.train_classifier --out runs/cls --epochs 12 [--data-root DIR]

The tile art is read from ``<data root>/art`` (``--data-root`` or ``$MJSCORE_DATA_ROOT``).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import numpy as np

from ...datasets.paths import ART, add_data_root_option, data_path
from ..crops import CROP_SIZE
from ..kinds import KINDS, KIND_INDEX
from .common import mixed_precision, name_factors, save_ckpt, setup_torch, timed_lr_factor, training_device
from .crop_source import CropGeometry, cached, crops_from_yolo, synth_folders

GEOMETRY = CropGeometry()        # set by configure (--crop-size); read by augment and load_data


def configure(crop_size: int) -> None:
    """Set the net's input side (``--crop-size``) and the cached crop side that goes with it."""
    global GEOMETRY
    GEOMETRY = CropGeometry(crop_size)


def load_data(art_root: Path, with_synth: bool = True, bonus_per_kind: int = 0):
    from .art import render_crops

    import hashlib

    clean = Path("data/clean/chinese-v4")
    suffix, g = GEOMETRY.cache_suffix, GEOMETRY
    # cache keys follow the cleaned labels, so a new cleaning pass rebuilds the crops
    digest = {split: hashlib.md5(b"".join(p.read_bytes() for p in sorted((clean / split / "labels").glob("*.txt"))))
              .hexdigest()[:8] for split in ("train", "valid")}
    rx, ry = cached(f"cls_real_train_{digest['train']}{suffix}", lambda: crops_from_yolo(clean, "train", g)[:2])
    vx, vy = cached(f"cls_real_valid_{digest['valid']}{suffix}", lambda: crops_from_yolo(clean, "valid", g)[:2])
    ax, ay = cached("cls_art_v2" + suffix, lambda: render_crops(120, g.store, art_root, seed=2))
    parts_x, parts_y, parts_o = [rx, ax], [ry, ay], [np.full(len(ry), -1), np.zeros(len(ay), np.int64)]
    parts_src = [np.zeros(len(ry), np.int64), np.ones(len(ay), np.int64)]
    parts_folder = [np.full(len(ry), ""), np.full(len(ay), "")]
    if bonus_per_kind:      # --source bonus=N: procedural flowers/seasons, upright (source 3)
        from .bonus_faces import render_bonus_crops
        bx, by = cached(f"cls_bonus_{bonus_per_kind}{suffix}", lambda: render_bonus_crops(bonus_per_kind, g.store, art_root, seed=16))
        print(f"bonus faces: {len(by)} crops", flush=True)
        parts_x.append(bx); parts_y.append(by); parts_o.append(np.zeros(len(by), np.int64))
        parts_src.append(np.full(len(by), 3)); parts_folder.append(np.full(len(by), ""))
    if with_synth:
        for folder in synth_folders():
            key = "cls_synth_" + "_".join(folder.relative_to("data/synth").parts) + f"_{len(list((folder / 'images').iterdir()))}{suffix}"
            sx, sy = cached(key, lambda f=folder: crops_from_yolo(f.parent, f.name, g, 1500)[:2])
            print(f"synth {folder}: {len(sy)} crops", flush=True)
            parts_x.append(sx); parts_y.append(sy); parts_o.append(np.full(len(sy), -1))
            parts_src.append(np.full(len(sy), 2))
            parts_folder.append(np.full(len(sy), folder.name))
    return (np.concatenate(parts_x), np.concatenate(parts_y), np.concatenate(parts_o),
            np.concatenate(parts_src), np.concatenate(parts_folder)), (vx, vy)


def augment(torch, x, orient_known, rng, train=True, grey_share: float = 0.0, device=None,
            shuffle_share: float = 0.0):
    """Batch augmentation on uint8 NHWC crops of the stored side -> float NCHW of the input side (``GEOMETRY``), plus the
    quarter turn applied (the orientation label) per sample; ``grey_share`` of the crops are
    turned grey (``--grayscale``) and ``shuffle_share`` get their colour channels permuted
    (``--channel-shuffle``: a blue wind, a black-ink dragon, a green flower of another set are
    the same kind; session 27). The random draws are numpy's; the pixel work runs on
    ``device`` (default: the CPU), so a GPU run is not held up by the augmentation."""
    import torch.nn.functional as F

    n, size = x.shape[0], GEOMETRY.crop_size
    dev = device or torch.device("cpu")

    def to_dev(a):
        return torch.from_numpy(np.asarray(a)).float().to(dev)
    t = torch.from_numpy(x).to(dev).permute(0, 3, 1, 2).float() / 255.0
    k = torch.from_numpy(rng.integers(0, 4, n)) if train else torch.zeros(n, dtype=torch.long)
    if train:
        ang = k.float() * (math.pi / 2) + torch.from_numpy(rng.normal(0, 0.12, n)).float()
        scale = torch.from_numpy(rng.uniform(0.95, 1.25, n)).float()
        stretch = torch.from_numpy(np.exp(rng.normal(0, 0.15, n))).float()
        shift = torch.from_numpy(rng.normal(0, 0.05, (n, 2))).float()
    else:
        ang = torch.zeros(n); scale = torch.ones(n); stretch = torch.ones(n); shift = torch.zeros(n, 2)
    ang, scale, stretch, shift = ang.to(dev), scale.to(dev), stretch.to(dev), shift.to(dev)
    base = size / GEOMETRY.store * scale
    cos, sin = torch.cos(ang), torch.sin(ang)
    # theta maps output coords to input coords; rotating the sampling grid by -ang turns the
    # content CCW by ang (image y axis points down).
    sx, sy = base * stretch, base / stretch
    theta = torch.zeros(n, 2, 3, device=dev)
    theta[:, 0, 0] = cos * sx
    theta[:, 0, 1] = -sin * sy
    theta[:, 1, 0] = sin * sx
    theta[:, 1, 1] = cos * sy
    theta[:, :, 2] = shift
    grid = F.affine_grid(theta, (n, 3, size, size), align_corners=False)
    out = F.grid_sample(t, grid, mode="bilinear", padding_mode="border", align_corners=False)
    if train:
        b = to_dev(rng.normal(0, 0.12, (n, 1, 1, 1)))
        c = to_dev(np.exp(rng.normal(0, 0.2, (n, 1, 1, 1))))
        col = to_dev(np.exp(rng.normal(0, 0.08, (n, 3, 1, 1))))
        mean = out.mean(dim=(1, 2, 3), keepdim=True)
        out = ((out - mean) * c + mean + b) * col
        # glare: a soft bright blob on some crops (one vectorised blob per crop, zero where none)
        g = rng.random(n) < 0.2
        if g.any():
            cy, cx = to_dev(rng.uniform(0, size, n)), to_dev(rng.uniform(0, size, n))
            r, amp = to_dev(rng.uniform(4, 14, n)), to_dev(rng.uniform(0.3, 0.8, n) * g)
            yy = torch.arange(size, device=dev).float().view(1, -1, 1)
            xx = torch.arange(size, device=dev).float().view(1, 1, -1)
            blob = torch.exp(-((yy - cy.view(-1, 1, 1)) ** 2 + (xx - cx.view(-1, 1, 1)) ** 2)
                             / (2 * r.view(-1, 1, 1) ** 2))
            out = out + (blob * amp.view(-1, 1, 1))[:, None]
        # blur some (small screenshots, out of focus)
        bl = rng.random(n) < 0.25
        if bl.any():
            idx = torch.from_numpy(np.nonzero(bl)[0]).to(dev)
            small = F.interpolate(out[idx], scale_factor=float(rng.uniform(0.35, 0.7)), mode="bilinear",
                                  align_corners=False)
            out[idx] = F.interpolate(small, size=(size, size), mode="bilinear",
                                     align_corners=False)
        # grey some: a kind must be read from its shape, since other sets print
        # the same face in other colours (a black-ink red dragon, blue man numerals)
        grey = rng.random(n) < grey_share
        if grey.any():
            idx = torch.from_numpy(np.nonzero(grey)[0]).to(dev)
            lum = (out[idx] * torch.tensor([0.299, 0.587, 0.114], device=dev).view(1, 3, 1, 1)).sum(1, keepdim=True)
            out[idx] = lum.expand(-1, 3, -1, -1)
        shuffled = rng.random(n) < shuffle_share
        if shuffled.any():
            perms = np.array([(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)])
            order = perms[np.where(shuffled, rng.integers(1, len(perms), n), 0)]   # any order but RGB
            out = out.gather(1, to_dev(order).long().view(n, 3, 1, 1).expand_as(out))
        out = out + torch.randn_like(out) * float(rng.uniform(0, 0.04))
    out = out.clamp(0, 1) * 2 - 1
    orient = torch.where(torch.from_numpy(np.asarray(orient_known)) >= 0, k, torch.full_like(k, -1))
    return out, orient.to(dev)


def predict(torch, model, vx, device=None) -> np.ndarray:
    """The kind each crop is read as (upright, no augmentation)."""
    model.eval()
    rng = np.random.default_rng(0)
    out = []
    with torch.no_grad():
        for i in range(0, len(vx), 512):
            xb, _ = augment(torch, vx[i:i + 512], np.full(len(vx[i:i + 512]), -1), rng, train=False, device=device)
            out.append(model(xb.contiguous(memory_format=torch.channels_last))[0].argmax(1).cpu().numpy())
    return np.concatenate(out) if out else np.zeros(0, np.int64)


def evaluate(torch, model, vx, vy, device=None):
    return float((predict(torch, model, vx, device) == vy).sum() / max(len(vy), 1))


def distill_loss(torch, student_logits, teacher_logits, temperature: float):
    """Hinton's distillation term: KL(teacher || student) of the softened kind distributions,
    times T^2 so its gradient keeps the scale of the hard loss's. Why (session 37): every CPU
    stage since session 27 learnt the new faces and lost a little on the seen designs' choice
    sets; tying the bank's crops to the starting network's reads keeps what it knew."""
    f = torch.nn.functional
    target = f.softmax(teacher_logits.detach() / temperature, dim=1)
    return f.kl_div(f.log_softmax(student_logits / temperature, dim=1), target,
                    reduction="batchmean") * temperature ** 2


def main() -> None:
    ap = argparse.ArgumentParser(description="train the tile crop classifier")
    ap.add_argument("--out", type=Path, default=Path("runs/cls"))
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--epoch-size", type=int, default=24000)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--width", type=int, default=32)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--no-synth", action="store_true")
    ap.add_argument("--boost", action="append", default=[], metavar="FOLDER=FACTOR",
                    help="draw the crops of one synthetic batch (folder name under data/synth) FACTOR "
                         "times as often within the synthetic share, e.g. --boost train_v11=4")
    ap.add_argument("--grayscale", type=float, default=0.0,
                    help="share of training crops turned grey (stage 13: 0.15), so faces are read by shape")
    ap.add_argument("--channel-shuffle", type=float, default=0.0, metavar="SHARE",
                    help="share of training crops whose colour channels are permuted (colour is a set's own cue)")
    ap.add_argument("--shares", default="real=0.5,art=0.1,synth=0.4",
                    help="how the draws split between real photos, rendered art and synthetic scenes "
                         "(stage 13: real=0.4,art=0.1,synth=0.5: more sets than the one real set)")
    ap.add_argument("--arch", choices=["small", "lite"], default="small",
                    help="small: CNN from scratch; lite: ImageNet EfficientNet-Lite0 (generalises to unseen sets)")
    ap.add_argument("--crop-size", type=int, default=CROP_SIZE,
                    help="input side in px (the runtime reads it from recognizer.json); 48 or 64")
    ap.add_argument("--init-onnx", type=Path, default=None,
                    help="start from the weights of an exported classifier (e.g. models/tile_classifier.onnx; "
                         "implies --arch lite); its batch norms stay frozen (nets.load_onnx_classifier)")
    ap.add_argument("--source", action="append", default=[], metavar="NAME=N",
                    help="add a generated crop source with its own share (--shares ...,bonus=S): bonus=N renders "
                         "N flower/season crops per kind with set-independent cues (vision/training/bonus_faces.py)")
    ap.add_argument("--bank", type=Path, default=None,
                    help="read every crop from a crop bank (vision/training/crop_bank.py) instead of the photos; "
                         "the bank holds no art crops: --live-bonus renders them from its faces")
    ap.add_argument("--live-varied", action="store_true",
                    help="with --live-bonus: half the live chunks are suit and honour faces of the design "
                         "grammar (datasets/synth/varied_faces.py), drawn in the same bonus share")
    ap.add_argument("--live-bonus", type=int, default=0, metavar="WORKERS",
                    help="with --bank: WORKERS processes render fresh flower/season crops all the time "
                         "(vision/training/live_bonus.py), drawn as the bonus share (--shares ...,bonus=S)")
    ap.add_argument("--distill", type=float, default=0.0, metavar="WEIGHT",
                    help="with --init-onnx: also pull the kind logits of the bank's crops (not the live ones) "
                         "towards the starting network's (a frozen copy; KL at temperature --distill-t, "
                         "times WEIGHT): learn new faces without forgetting the seen ones (session 37)")
    ap.add_argument("--distill-t", type=float, default=2.0, help="the distillation temperature")
    ap.add_argument("--device", default="auto", help="auto (a GPU when there is one), cpu or cuda")
    ap.add_argument("--time-limit", type=float, default=0.0, metavar="SECONDS",
                    help="stop after this long; the learning rate then follows the elapsed time "
                         "(warm-up, cosine), so a run of unknown speed still ends annealed")
    add_data_root_option(ap)
    args = ap.parse_args()
    boost = name_factors(args.boost)
    shares = name_factors(args.shares)
    sources = {k: int(v) for k, v in name_factors(args.source).items()}
    if set(sources) - {"bonus"}:
        ap.error(f"--source: the only generated source is bonus=N, got {args.source!r}")
    has_bonus = bool(sources) or args.live_bonus > 0
    if sorted(shares) != sorted(["art", "real", "synth"] + (["bonus"] if has_bonus else [])):
        ap.error(f"--shares: expected real=..,art=..,synth=..{',bonus=..' if has_bonus else ''}, got {args.shares!r}")
    if args.distill and not args.init_onnx:
        ap.error("--distill needs --init-onnx: the network it starts from is the teacher")
    if bool(args.live_bonus) != bool(args.bank):
        ap.error("--bank and --live-bonus go together (the workers render the art and bonus crops from the bank)")
    configure(args.crop_size)
    torch = setup_torch(args.threads)
    device = training_device(torch, args.device)
    from .nets import build_classifier

    args.out.mkdir(parents=True, exist_ok=True)
    choose: dict = {}
    if args.bank:
        from . import crop_bank
        (tx, ty, to, src, folder_of), (vx, vy), choose = crop_bank.load(args.bank)
    else:
        art_root = data_path(ap, args.data_root, ART)
        (tx, ty, to, src, folder_of), (vx, vy) = load_data(art_root, not args.no_synth, sources.get("bonus", 0))
    print(f"train crops {len(ty)} valid crops {len(vy)} per kind {np.bincount(ty, minlength=len(KINDS)).tolist()}",
          flush=True)
    live = None
    live_share = shares.get("bonus", 0.0) / sum(shares.values()) if args.live_bonus else 0.0
    if args.live_bonus:
        from .live_bonus import LiveBonus
        live = LiveBonus(args.bank, GEOMETRY.store, args.live_bonus, varied=args.live_varied)
        choose["bonus_faces"] = live.fixed_set()   # seeds the training never draws
        ax, ay = live.art_set()                      # a bank carries no art crops: render them
        tx, ty = np.concatenate([tx, ax]), np.concatenate([ty, ay])
        to = np.concatenate([to, np.zeros(len(ay), np.int64)])
        src = np.concatenate([src, np.ones(len(ay), np.int64)])
        folder_of = np.concatenate([folder_of, np.full(len(ay), "")])
        print(f"art crops rendered: {len(ay)}", flush=True)
        shares = {k: v for k, v in shares.items() if k != "bonus"}
    # per source (--shares; default real photos 50 %, art 10 %, synthetic scenes 40 %), within it rarer kinds
    # drawn more often (1 / sqrt(count))
    w = np.zeros(len(ty))
    share = {0: shares["real"], 1: shares["art"], 2: shares["synth"], 3: shares.get("bonus", 0.0)}
    for s_id in np.unique(src):
        sel = src == s_id
        counts = np.bincount(ty[sel], minlength=len(KINDS)).astype(float)
        ws = 1.0 / np.sqrt(np.maximum(counts[ty[sel]], 1))
        for name, factor in boost.items():       # --boost: one synthetic batch drawn more often
            ws[folder_of[sel] == name] *= factor
        w[sel] = ws / ws.sum() * share[int(s_id)]
    w /= w.sum()

    if args.init_onnx:
        from .nets import freeze_norms, load_onnx_classifier
        args.arch = "lite"
        model = load_onnx_classifier(args.init_onnx)
        print(f"initialised from {args.init_onnx}", flush=True)
    else:
        model = build_classifier(args.arch, args.width)
    model = model.to(device).to(memory_format=torch.channels_last)
    teacher = None
    if args.distill:
        teacher = load_onnx_classifier(args.init_onnx).to(device).to(memory_format=torch.channels_last).eval()
        for p in teacher.parameters():
            p.requires_grad_(False)

    def train_mode() -> None:
        model.train()
        if args.init_onnx:
            freeze_norms(model)     # the folded norms: identity + bias, not batch statistics
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    steps_per_epoch = args.epoch_size // args.batch
    total = steps_per_epoch * args.epochs
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=total, pct_start=0.15)
    start, best = 0, 0.0
    last = args.out / "last.pt"
    if last.exists() and not args.time_limit:
        ck = torch.load(last, weights_only=False, map_location=device)
        model.load_state_dict(ck["model"]); opt.load_state_dict(ck["opt"])
        start, best = ck["epoch"] + 1, ck.get("best", 0.0)
        if ck.get("epochs", 10) == args.epochs:
            sched.load_state_dict(ck["sched"])
        else:   # a new epoch budget (e.g. fine-tuning after the sd1 relabel): fresh one-cycle
            sched = torch.optim.lr_scheduler.OneCycleLR(
                opt, max_lr=args.lr, total_steps=steps_per_epoch * max(args.epochs - start, 1), pct_start=0.1)
        print(f"resumed at epoch {start}", flush=True)
    crit = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    crit_o = torch.nn.CrossEntropyLoss(ignore_index=-1)
    autocast = mixed_precision(torch, device)
    n_live = int(round(args.batch * live_share))
    log = []
    if start == 0:      # where the run starts from, on the same crops as every epoch after
        figures = {"valid": evaluate(torch, model, vx, vy, device),
                   **{name: evaluate(torch, model, cx, cy, device) for name, (cx, cy) in choose.items()}}
        log.append({"epoch": -1, **figures, "seconds": 0})
        print("start " + " ".join(f"{k} {v:.4f}" for k, v in figures.items()), flush=True)
    began = time.time()
    for epoch in range(start, args.epochs):
        if args.time_limit and time.time() - began > args.time_limit:
            break
        train_mode()
        rng = np.random.default_rng(1000 + epoch)
        t0, run_loss = time.time(), 0.0
        for step in range(steps_per_epoch):
            if args.time_limit:
                frac = (time.time() - began) / args.time_limit
                if frac >= 1:
                    break
                lr = args.lr * timed_lr_factor(frac)
                for g in opt.param_groups:
                    g["lr"] = lr
            idx = rng.choice(len(ty), args.batch - n_live, p=w)
            xs, ys, os_ = tx[idx], ty[idx], to[idx]
            if n_live:
                bx, by = live.take(n_live, rng)
                xs, ys = np.concatenate([xs, bx]), np.concatenate([ys, by])
                os_ = np.concatenate([os_, np.zeros(n_live, np.int64)])   # rendered upright
            xb, ob = augment(torch, xs, os_, rng, grey_share=args.grayscale, device=device,
                             shuffle_share=args.channel_shuffle)
            xb = xb.contiguous(memory_format=torch.channels_last)
            yb = torch.from_numpy(ys).to(device)
            with autocast:
                kl, ol = model(xb)
                loss = crit(kl.float(), yb)
                if (ob >= 0).any():
                    loss = loss + 0.5 * crit_o(ol.float(), ob)
                if teacher is not None:        # the bank's crops come first, the live ones after
                    with torch.no_grad():
                        taught = teacher(xb[: len(idx)])[0].float()
                    loss = loss + args.distill * distill_loss(torch, kl[: len(idx)].float(), taught, args.distill_t)
            opt.zero_grad(); loss.backward(); opt.step()
            if not args.time_limit:
                sched.step()
            run_loss += loss.item()
            if step % 50 == 0:
                extra = f" live {live.rendered}" if live else ""
                print(f"epoch {epoch} step {step}/{steps_per_epoch} loss {run_loss / (step + 1):.3f} "
                      f"{time.time() - t0:.0f}s{extra}", flush=True)
        acc = evaluate(torch, model, vx, vy, device)
        figures = {name: evaluate(torch, model, cx, cy, device) for name, (cx, cy) in choose.items()}
        best = max(best, acc)
        log.append({"epoch": epoch, "valid": acc, **figures, "seconds": round(time.time() - began)})
        print(f"epoch {epoch} done loss {run_loss / max(step, 1):.3f} valid acc {acc:.4f} "
              + " ".join(f"{k} {v:.4f}" for k, v in figures.items()) + f" {time.time() - t0:.0f}s", flush=True)
        save_ckpt(last, model=model.state_dict(), opt=opt.state_dict(), sched=sched.state_dict(),
                  epoch=epoch, best=best, acc=acc, width=args.width, epochs=args.epochs, arch=args.arch,
                  crop_size=GEOMETRY.crop_size)
        if acc >= best:
            save_ckpt(args.out / "best.pt", model=model.state_dict(), epoch=epoch, acc=acc, width=args.width,
                      arch=args.arch, crop_size=GEOMETRY.crop_size)
        (args.out / "log.json").write_text(json.dumps(log, indent=1))
    if live:
        live.close()


if __name__ == "__main__":
    main()
