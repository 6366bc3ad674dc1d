"""What the evaluation sets derived photo by photo from a YOLO folder share (``far_off``,
``squashed``): the new folder's layout, reading each photo, and the command line."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path
from typing import Callable

import numpy as np

PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png")


def start(src: Path, out: Path) -> list[Path]:
    """Make ``out/images`` and ``out/labels``, copy ``src``'s own files (``data.yaml``) and
    return ``src``'s photos in name order (the order the seeded draws follow)."""
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(exist_ok=True)
    for f in src.iterdir():
        if f.is_file():
            shutil.copy(f, out / f.name)
    return sorted(p for p in (src / "images").iterdir() if p.suffix.lower() in PHOTO_SUFFIXES)


def copy_label(src: Path, out: Path, photo: Path) -> None:
    """Copy ``photo``'s YOLO label file, when it has one, unchanged: for copies whose photos are
    scaled or squeezed as a whole, since YOLO boxes are fractions of the frame."""
    label = src / "labels" / (photo.stem + ".txt")
    if label.exists():
        shutil.copy(label, out / "labels" / label.name)


def read(photo: Path) -> np.ndarray:
    """The photo as a BGR array; a clear error naming it when it cannot be read."""
    import cv2

    image = cv2.imread(str(photo))
    if image is None:
        raise ValueError(f"{photo}: not a readable image")
    return image


def main(doc: str, make: Callable[[Path, Path, int], int], done: str) -> None:
    """``python -m ... SRC OUT [--seed N]``: run ``make`` and say how many photos it wrote."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("src", type=Path, help="YOLO folder: data.yaml, images/, labels/")
    ap.add_argument("out", type=Path)
    ap.add_argument("--seed", type=int, default=30)
    args = ap.parse_args()
    print(f"{make(args.src, args.out, args.seed)} photos {done} {args.out}")
