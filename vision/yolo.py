"""Reading YOLO dataset folders (``data.yaml`` + ``images/`` + ``labels/``), for evaluation
and training. Polygon label lines are read as the min/max box of their points."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

IMAGE_EXTS = {".jpg", ".jpeg", ".png", ".bmp", ".webp"}


def read_names(folder: Path) -> list[str]:
    """Class names from ``data.yaml`` (inline ``[a, b]`` list, ``- a`` lines or ``0: a`` lines),
    in the folder or, for a split folder such as ``valid/``, in its parent."""
    path = Path(folder) / "data.yaml"
    if not path.exists() and (Path(folder).parent / "data.yaml").exists():
        path = Path(folder).parent / "data.yaml"      # a split folder (valid/) of a dataset
    if not path.exists():
        raise FileNotFoundError(f"{path} not found: a YOLO folder needs data.yaml with class names")
    lines = path.read_text().splitlines()
    for i, line in enumerate(lines):
        if line.strip().startswith("names:"):
            rest = line.split(":", 1)[1].strip()
            if rest.startswith("["):
                inner = rest[1:].rsplit("]", 1)[0]
                return [n.strip().strip("'\"") for n in inner.split(",") if n.strip()]
            names = []
            for l in lines[i + 1:]:
                s = l.strip()
                if s.startswith("- "):
                    names.append(s[2:].strip().strip("'\""))
                elif ":" in s and s.split(":")[0].strip().isdigit():
                    names.append(s.split(":", 1)[1].strip().strip("'\""))
                elif s:
                    break
            return names
    raise ValueError(f"{path} has no 'names:' entry")


def read_boxes(label_file: Path, width: float, height: float) -> list[tuple[int, tuple[float, ...]]]:
    """(class index, pixel box x1 y1 x2 y2) per label line."""
    out = []
    for line in Path(label_file).read_text().splitlines():
        parts = line.split()
        if len(parts) < 5:
            continue
        nums = [float(v) for v in parts[1:]]
        if len(nums) == 4:
            xc, yc, w, h = nums
            x1, y1, x2, y2 = xc - w / 2, yc - h / 2, xc + w / 2, yc + h / 2
        else:
            xs, ys = nums[0::2], nums[1::2]
            x1, x2, y1, y2 = min(xs), max(xs), min(ys), max(ys)
        out.append((int(float(parts[0])), (x1 * width, y1 * height, x2 * width, y2 * height)))
    return out


@dataclass(frozen=True)
class LabelledImage:
    image: Path
    labels: Path | None


def image_label_pairs(folder: Path) -> list[LabelledImage]:
    """Every image of a YOLO folder: ``folder/images`` or, when absent, ``folder/*/images``
    (all splits together). An image without a label file has no tiles."""
    folder = Path(folder)
    roots = [folder] if (folder / "images").is_dir() else sorted(
        p for p in folder.iterdir() if (p / "images").is_dir())
    pairs = []
    for root in roots:
        for img in sorted((root / "images").iterdir()):
            if img.suffix.lower() in IMAGE_EXTS:
                lab = root / "labels" / (img.stem + ".txt")
                pairs.append(LabelledImage(img, lab if lab.exists() else None))
    return pairs
