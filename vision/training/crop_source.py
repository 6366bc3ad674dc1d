"""Where the classifier's training crops come from: the crop geometry (input side and the
slightly larger stored side kept for jitter), the cutting of labelled YOLO photos into crops,
and the on-disk crop cache.

Its own module so that the trainer (``train_classifier``) and the bank packer (``crop_bank``)
both read one definition without importing each other (session 20: that import circle is gone).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..crops import CONTEXT, CROP_SIZE, square_crop
from ..kinds import KIND_INDEX
from .common import image_files, load_rgb, yolo_boxes, yolo_names

CACHE = Path("data/cache")


@dataclass(frozen=True)
class CropGeometry:
    """The net's input side and the cached crop side that goes with it (62 px for 48 px, the
    original geometry): cached crops are a bit larger than the input, for jitter."""

    crop_size: int = CROP_SIZE

    @property
    def store(self) -> int:
        return round(self.crop_size * 62 / 48)

    @property
    def store_context(self) -> float:
        """The context factor that makes a ``store`` crop show what a ``crop_size`` crop shows."""
        return CONTEXT * self.store / self.crop_size

    @property
    def cache_suffix(self) -> str:
        """Cache names carry the stored side, except the original 62 px (so its caches stay valid)."""
        return "" if self.store == 62 else f"_s{self.store}"


def crops_from_yolo(folder: Path, split: str, geometry: CropGeometry, max_images: int | None = None,
                    files: list[Path] | None = None):
    """Crops (N x store x store x 3), token indices and ``split/photo:line`` references of every
    box with a known kind, of the split's first ``max_images`` photos or of the chosen ``files``."""
    names = yolo_names(folder / split if (folder / split / "data.yaml").exists() else folder)
    xs, ys, refs = [], [], []
    files = image_files(folder / split)[:max_images] if files is None else files
    for img_path in files:
        lab = folder / split / "labels" / (img_path.stem + ".txt")
        if not lab.exists():
            continue
        img = load_rgb(img_path)
        h, w = img.shape[:2]
        for line, (c, box) in enumerate(yolo_boxes(lab, w, h), start=1):
            token = names[c] if c < len(names) else None
            if token not in KIND_INDEX:
                continue
            xs.append(square_crop(img, box, geometry.store, geometry.store_context))
            ys.append(KIND_INDEX[token])
            refs.append(f"{split}/{img_path.name}:{line}")
    return (np.stack(xs) if xs else np.zeros((0, geometry.store, geometry.store, 3), np.uint8),
            np.array(ys, np.int64), refs)


def cached(name: str, build):
    """(x, y) from ``data/cache/NAME.npz``, built by ``build()`` and saved the first time."""
    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / f"{name}.npz"
    if path.exists():
        d = np.load(path)
        return d["x"], d["y"]
    x, y = build()
    np.savez(path, x=x, y=y)
    return x, y


def synth_folders() -> list[Path]:
    """Synthetic YOLO split folders (data.yaml + images/ + labels/) under data/synth."""
    root = Path("data/synth")
    if not root.exists():
        return []
    return sorted(p.parent for p in root.rglob("data.yaml") if (p.parent / "images").exists())
