"""Shared training helpers: threads, YOLO folder reading, checkpoints."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np


def name_factors(items: str | list[str]) -> dict[str, float]:
    """``NAME=FACTOR`` options (``--boost a=2 --boost b=3``, or ``a=2,b=3``) as a dict.
    Raises ValueError on an item without ``=`` or with a factor that is not a number."""
    parts = [p.strip() for item in ([items] if isinstance(items, str) else items) for p in item.split(",")]
    out = {}
    for part in filter(None, parts):
        name, sep, factor = part.partition("=")
        if not sep:
            raise ValueError(f"expected NAME=FACTOR, got {part!r}")
        out[name.strip()] = float(factor)
    return out


def setup_torch(threads: int = 2):
    import torch

    torch.set_num_threads(threads)
    return torch


def yolo_names(folder: Path) -> list[str]:
    from ..yolo import read_names

    return read_names(folder)


def yolo_boxes(label_file: Path, width: int, height: int):
    from ..yolo import read_boxes

    return read_boxes(label_file, width, height)


class HeldOutFolder(ValueError):
    """A folder rendered in the held-out face design was given to training or fitting code."""


def refuse_held_out(folder: Path) -> None:
    """Raise ``HeldOutFolder`` for a folder that carries the held-out mark (``--art unseen``):
    training or fitting on it would make the unseen-set proxy a seen one."""
    from ...datasets.synth.art import held_out_mark

    mark = held_out_mark(folder)
    if mark is not None:
        raise HeldOutFolder(f"{folder} is held out of all training and fitting ({mark} marks it: "
                            "rendered in the held-out face design, for evaluation only)")


def image_files(split_dir: Path) -> list[Path]:
    """The photos of a training folder (never a held-out one: ``refuse_held_out``)."""
    refuse_held_out(split_dir)
    exts = {".jpg", ".jpeg", ".png", ".bmp", ".webp"}
    return sorted(p for p in (split_dir / "images").iterdir() if p.suffix.lower() in exts)


def load_rgb(path: Path) -> np.ndarray:
    import cv2

    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if img is None:
        raise ValueError(f"cannot read {path}")
    return cv2.cvtColor(img, cv2.COLOR_BGR2RGB)


def save_ckpt(path: Path, **state) -> None:
    import torch

    tmp = path.with_suffix(".tmp")
    torch.save(state, tmp)
    tmp.replace(path)


def timed_lr_factor(frac: float, warmup: float = 0.05, floor: float = 0.02) -> float:
    """Learning-rate factor at ``frac`` of a wall-clock budget (``--time-limit``): linear warm-up
    over the first ``warmup``, then cosine down to ``floor``. Why by time, not by step: a run on
    a lent GPU must end inside the machine's time, whatever its speed turns out to be."""
    if frac < warmup:
        return frac / warmup
    return floor + (1 - floor) * 0.5 * (1 + math.cos(math.pi * min(frac - warmup, 1 - warmup) / (1 - warmup)))


def training_device(torch, name: str = "auto"):
    """The device a trainer runs on (``--device``): auto = a GPU when there is one, else the CPU."""
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(name)


def mixed_precision(torch, device):
    """bf16 autocast on a GPU; on the CPU a no-op context (full precision)."""
    if device.type == "cuda":
        return torch.autocast("cuda", dtype=torch.bfloat16)
    return torch.autocast("cpu", enabled=False)
