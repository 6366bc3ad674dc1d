"""Files a scan writes: the annotated photo, YOLO labels of the corrected tiles, the result JSON."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Sequence

from ..vision.kinds import KIND_INDEX, KINDS
from ..vision.layout import BONUS, CONCEALED, CONCEALED_KONG, EXPOSED, Group, Layout
from ..vision.types import TileRead

GROUP_COLOURS = {EXPOSED: (30, 120, 255), CONCEALED_KONG: (160, 60, 220), CONCEALED: (120, 120, 120),
                 BONUS: (230, 60, 160)}


def _tile_colour(conf: float, threshold: float) -> tuple[int, int, int]:
    if conf >= max(threshold, 0.85):
        return (40, 190, 70)
    if conf >= threshold:
        return (240, 170, 20)
    return (230, 40, 40)


def load_upright(path: str | Path):
    """The photo as RGB PIL image, EXIF-upright (the recognizer's box coordinates)."""
    from PIL import Image, ImageOps
    with Image.open(path) as im:
        return ImageOps.exif_transpose(im).convert("RGB")


def group_outline(group: Group, pad: float = 0.0) -> tuple[float, float, float, float] | None:
    """The rectangle around a group's tiles in photo pixels, ``pad`` beyond them (None for a
    group of tiles added by hand). The group's tiles are the layout's own, the boxes
    ``scan --json`` reports, so an outline sits on its tiles."""
    boxes = [t.box for t in group.tiles if t.box[2] > t.box[0]]
    if not boxes:
        return None
    return (min(b[0] for b in boxes) - pad, min(b[1] for b in boxes) - pad,
            max(b[2] for b in boxes) + pad, max(b[3] for b in boxes) + pad)


def _label(draw, xy, text, colour, font, size) -> None:
    """Text on a white patch, kept inside the image (a label below the bottom row or left of
    the first tile would otherwise be cut off on small photos)."""
    l, t, r, b = draw.textbbox((0, 0), text, font=font)
    x = min(max(xy[0], 0), max(size[0] - (r - l), 0))
    y = min(max(xy[1], 0), max(size[1] - (b - t), 0))
    draw.rectangle(draw.textbbox((x, y), text, font=font), fill=(255, 255, 255))
    draw.text((x, y), text, fill=colour, font=font)


def annotate(photo: str | Path, layout: Layout, out: str | Path, threshold: float = 0.6) -> Path:
    """Draw every tile's box with number, kind and confidence, and outline each group."""
    from PIL import ImageDraw, ImageFont
    img = load_upright(photo)
    draw = ImageDraw.Draw(img)
    scale = max(img.size) / 1000.0
    try:
        font = ImageFont.load_default(size=max(11, int(14 * scale)))
    except TypeError:                                     # Pillow < 10.1
        font = ImageFont.load_default()
    line = max(2, int(2 * scale))
    for g in layout.groups:
        rect = group_outline(g, pad=6 * scale)
        if rect is None:
            continue
        colour = GROUP_COLOURS[g.kind]
        draw.rectangle(rect, outline=colour, width=line + 1)
        label = g.notation if g.kind != CONCEALED else "concealed " + g.notation
        _label(draw, (rect[0], rect[3] + 2), label, colour, font, img.size)
    for n, t in enumerate(layout.tiles):
        if t.box[2] <= t.box[0]:
            continue                                       # added by hand: no box
        colour = _tile_colour(t.confidence, threshold)
        draw.rectangle(t.box, outline=colour, width=line)
        # neighbours' labels alternate above and below their boxes so they do not overlap
        ty = (t.box[1] - 16 * scale) if n % 2 == 0 else (t.box[3] + 2)
        _label(draw, (t.box[0], ty), f"{n + 1} {t.kind} {t.confidence:.2f}", colour, font, img.size)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    img.save(out, quality=90)
    return out


def yolo_lines(tiles: Sequence[TileRead], width: int, height: int) -> list[str]:
    """``class xc yc w h`` (normalised) per tile with a box; class index = ``KINDS`` order."""
    lines = []
    for t in tiles:
        x1, y1, x2, y2 = t.box
        if x2 <= x1 or y2 <= y1:
            continue
        x1, x2 = max(0.0, x1), min(float(width), x2)
        y1, y2 = max(0.0, y1), min(float(height), y2)
        lines.append(f"{KIND_INDEX[t.kind]} {(x1 + x2) / 2 / width:.6f} {(y1 + y2) / 2 / height:.6f} "
                     f"{(x2 - x1) / width:.6f} {(y2 - y1) / height:.6f}")
    return lines


def write_yolo_labels(photo: str | Path, tiles: Sequence[TileRead], width: int, height: int) -> tuple[Path, list[str]]:
    """Write ``photo.txt`` next to the photo, plus ``classes.txt`` and ``data.yaml`` naming the
    classes (only when absent; an existing different class list is reported, not overwritten).
    Boxes are in the EXIF-upright frame, as training loaders that honour EXIF expect."""
    photo = Path(photo)
    if width <= 0 or height <= 0:
        raise ValueError(f"unknown image size for {photo}")
    label = photo.with_suffix(".txt")
    notes: list[str] = []
    skipped = sum(1 for t in tiles if t.box[2] <= t.box[0])
    if skipped:
        notes.append(f"{skipped} tile(s) added by hand have no box and are not in the labels")
    label.write_text("\n".join(yolo_lines(tiles, width, height)) + "\n")
    classes = photo.parent / "classes.txt"
    if not classes.exists():
        classes.write_text("\n".join(KINDS) + "\n")
    elif classes.read_text().split() != KINDS:
        notes.append(f"{classes} lists other classes than vision.kinds.KINDS: labels use KINDS")
    yaml = photo.parent / "data.yaml"
    if not yaml.exists():
        yaml.write_text("# mjscore tile classes (vision.kinds.KINDS order); set train/val before training\n"
                        "path: .\ntrain: .\nval: .\n"
                        f"nc: {len(KINDS)}\nnames: [{', '.join(repr(k) for k in KINDS)}]\n")
    return label, notes


def write_json(path: str | Path, obj) -> Path:
    """Write JSON atomically (temp file + rename): an interrupted run never leaves half a file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(obj, indent=2, ensure_ascii=False) + "\n")
    os.replace(tmp, path)
    return path
