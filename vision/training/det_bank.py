"""A detector bank: the detector's training photos packed small enough to travel to a lent GPU.

Why: ``train_detector`` trains on photos letterboxed into 512 x 512 (``letterbox``) with their
tile boxes; the GPU machine sees the repository and at most 64 MiB beside it, no ``../shared``
and none of the Debian art. Each letterboxed photo is stored as WebP bytes (~18 KB at quality
70, so ~2,000 photos fit), its boxes in letterboxed pixels beside it, one part per source folder
(``real`` = chinese-v4 train, then one per synthetic or close-up folder, named by the folder so
that ``--boost NAME=F`` works the same as on ``data/synth``).

    python -m mjscore.vision.training.det_bank --out runs/detbank --real-every 2 \\
        --synth data/synth/train_v26 --synth data/synth/closeup_train/v4-crops ...
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from .common import image_files, load_rgb, yolo_boxes

QUALITY = 70
SIDE = 512      # training photos are letterboxed into SIDE x SIDE (train_detector crops its views from them)


def letterbox(img: np.ndarray, side: int = SIDE):
    """``img`` scaled to fit ``side`` x ``side``, top-left, padded grey 114; and the scale."""
    import cv2

    h, w = img.shape[:2]
    s = side / max(h, w)
    nh, nw = max(1, round(h * s)), max(1, round(w * s))
    out = np.full((side, side, 3), 114, np.uint8)
    out[:nh, :nw] = cv2.resize(img, (nw, nh), interpolation=cv2.INTER_AREA)
    return out, s


def letterboxed_photos(folder: Path, files: list[Path]):
    """(letterboxed photo, its boxes in letterboxed pixels) of each of ``files`` (photos of the
    YOLO ``folder``) that has a label file."""
    for img_path in files:
        lab = folder / "labels" / (img_path.stem + ".txt")
        if not lab.exists():
            continue
        img = load_rgb(img_path)
        h, w = img.shape[:2]
        boxes = np.array([b for _, b in yolo_boxes(lab, w, h)], np.float32).reshape(-1, 4)
        lb, s = letterbox(img)
        yield lb, boxes * s


def pack_folder(folder: Path, every: int = 1, max_images: int | None = None) -> dict[str, np.ndarray]:
    """One YOLO folder (``images/`` + ``labels/``) as arrays: WebP bytes, offsets, boxes
    (letterboxed pixels, all photos' boxes concatenated) and box offsets."""
    import cv2

    parts, boxes, counts = [], [], []
    for lb, b in letterboxed_photos(folder, image_files(folder)[::every][:max_images]):
        parts.append(cv2.imencode(".webp", lb[..., ::-1], [cv2.IMWRITE_WEBP_QUALITY, QUALITY])[1].ravel())
        boxes.append(b)
        counts.append(len(b))
    return {"webp": np.concatenate(parts) if parts else np.zeros(0, np.uint8),
            "off": np.cumsum([0] + [len(p) for p in parts]).astype(np.int64),
            "boxes": np.concatenate(boxes) if boxes else np.zeros((0, 4), np.float32),
            "box_off": np.cumsum([0] + counts).astype(np.int64)}


def pack(out: Path, folders: dict[str, tuple[Path, int, int | None]]) -> None:
    """Write ``out/photos.npz``: for each part name, the folder's every ``every``-th photo (at
    most ``max_images``)."""
    out.mkdir(parents=True, exist_ok=True)
    arrays = {}
    for name, (folder, every, max_images) in folders.items():
        part = pack_folder(folder, every, max_images)
        arrays.update({f"{name}__{k}": v for k, v in part.items()})
        print(f"{name}: {len(part['off']) - 1} photos, {len(part['boxes'])} boxes, "
              f"{len(part['webp']) / 2 ** 20:.1f} MiB", flush=True)
    np.savez(out / "photos.npz", **arrays)
    print(f"bank {out}: {(out / 'photos.npz').stat().st_size / 2 ** 20:.1f} MiB", flush=True)


def load(bank: Path) -> dict[str, tuple[np.ndarray, list[np.ndarray]]]:
    """{part name: (photos N x 512 x 512 x 3, list of N box arrays)}, as ``train_detector.load_split``."""
    import cv2

    d = np.load(bank / "photos.npz")
    names = sorted({k.split("__")[0] for k in d.files})
    parts = {}
    for name in names:
        data, off = d[f"{name}__webp"], d[f"{name}__off"]
        boxes, box_off = d[f"{name}__boxes"], d[f"{name}__box_off"]
        x = np.stack([cv2.imdecode(data[off[i]:off[i + 1]], cv2.IMREAD_COLOR)[..., ::-1]
                      for i in range(len(off) - 1)])
        parts[name] = (x, [boxes[box_off[i]:box_off[i + 1]] for i in range(len(off) - 1)])
    return parts


def main() -> None:
    ap = argparse.ArgumentParser(description="pack the detector's training photos for another machine")
    ap.add_argument("--out", type=Path, default=Path("runs/detbank"))
    ap.add_argument("--real", type=Path, default=Path("data/clean/chinese-v4/train"))
    ap.add_argument("--real-every", type=int, default=2, help="every Nth chinese-v4 train photo")
    ap.add_argument("--synth", type=Path, action="append", default=[],
                    help="YOLO folder (synthetic batch or close-up set); part named by the folder")
    ap.add_argument("--max-synth", type=int, default=500, help="first N photos of each --synth folder")
    args = ap.parse_args()
    folders = {"real": (args.real, args.real_every, None)}
    for folder in args.synth:
        folders[folder.name] = (folder, 1, args.max_synth)
    pack(args.out, folders)


if __name__ == "__main__":
    main()
