"""A crop bank: the classifier's training crops packed small enough to travel to a lent GPU machine.

Why: the GPU machine sees only the repository and at most 64 MiB beside it, no ``../shared``,
no Debian fonts and no cairosvg. The crops ``train_classifier`` would cut from the photos are
packed here as WebP bytes (``crops.npz``), the art faces the flower/season source lays in rows
as one compressed array (``faces.npz``), and the fonts that source draws with are subset to the
few glyphs it draws (``fonts/``, a few KB each), so that fresh procedural bonus crops can be
rendered there, live, on its many cores (``train_classifier --bank DIR --live-bonus N``).

    python -m mjscore.vision.training.crop_bank --out runs/bank --synth data/synth/train_v23 --synth data/synth/train_v24
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import numpy as np

from ...datasets.paths import ART, add_data_root_option, data_path
from .common import image_files
from .crop_source import CropGeometry, crops_from_yolo

QUALITY = 80          # WebP: 1.4 KB a crop (JPEG 92: 3.5 KB), so ~30,000 crops fit the limit
# every glyph the flower/season source draws: characters, Chinese and Latin indices, the
# letters of the indexed counter-examples (bonus_faces.indexed_face)
GLYPHS = "梅蘭兰菊竹春夏秋冬一二三四" + "0123456789" + "ESWNCFP"


def encode(crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """RGB uint8 crops -> (concatenated WebP bytes, offsets of N + 1)."""
    import cv2

    parts = [cv2.imencode(".webp", c[..., ::-1], [cv2.IMWRITE_WEBP_QUALITY, QUALITY])[1].ravel() for c in crops]
    offsets = np.cumsum([0] + [len(p) for p in parts]).astype(np.int64)
    return (np.concatenate(parts) if parts else np.zeros(0, np.uint8)), offsets


def decode(data: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    import cv2

    out = [cv2.imdecode(data[offsets[i]:offsets[i + 1]], cv2.IMREAD_COLOR)[..., ::-1]
           for i in range(len(offsets) - 1)]
    return np.stack(out) if out else np.zeros((0, 1, 1, 3), np.uint8)


def subset_fonts(paths: list[str], out: Path, text: str = GLYPHS) -> list[Path]:
    """Each font (the first face of a collection) cut down to ``text``'s glyphs, under ``out``
    with its own file name (the generator finds Latin fonts by name)."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    out.mkdir(parents=True, exist_ok=True)
    written = []
    for i, path in enumerate(paths):
        name = Path(path).name
        target = out / (name if name.lower().endswith((".ttf", ".otf")) else f"{Path(path).stem}-{i}.ttf")
        font = TTFont(path, fontNumber=0, lazy=False)
        sub = subset.Subsetter(subset.Options(notdef_outline=True, name_IDs=["*"], layout_features=["*"]))
        sub.populate(text=text)
        sub.subset(font)
        font.save(str(target))
        written.append(target)
    return written


def pack(out: Path, art_root: Path, real_every: int, valid_every: int, synth: list[Path],
         choose: list[Path], max_synth: int, geometry: CropGeometry = CropGeometry(64)) -> None:
    """Write the bank: chinese-v4 train crops of every ``real_every``-th photo, every
    ``valid_every``-th valid crop (to watch the run), the crops of the first ``max_synth``
    photos of each ``synth`` folder, ``choose`` folders' crops (measured, never trained on),
    the art faces and the subset fonts. Art crops are not packed: the trainer renders them
    from the faces (``live_bonus.LiveBonus.art_set``)."""
    from ...datasets.synth.fonts import fonts_covering, latin_fonts
    from .art import render_faces
    from .bonus_faces import CHARS, CN_INDEX

    out.mkdir(parents=True, exist_ok=True)
    clean = Path("data/clean/chinese-v4")
    arrays: dict[str, np.ndarray] = {}

    def put(prefix: str, x: np.ndarray, y: np.ndarray, src: int, folder: str) -> None:
        data, off = encode(x)
        for key, val in (("webp", data), ("off", off), ("y", y)):
            arrays[f"{prefix}_{key}"] = val
        arrays[f"{prefix}_src"] = np.full(len(y), src, np.int64)
        arrays[f"{prefix}_folder"] = np.array([folder] * len(y))
        print(f"{prefix}: {len(y)} crops, {len(data) / 2 ** 20:.1f} MiB", flush=True)

    rx, ry, _ = crops_from_yolo(clean, "train", geometry, files=image_files(clean / "train")[::real_every])
    put("real", rx, ry, 0, "")
    vx, vy, _ = crops_from_yolo(clean, "valid", geometry)
    put("valid", vx[::valid_every], vy[::valid_every], 0, "")
    for i, folder in enumerate(synth):
        sx, sy, _ = crops_from_yolo(folder.parent, folder.name, geometry, max_synth)
        put(f"synth{i}", sx, sy, 2, folder.name)
    for i, folder in enumerate(choose):
        cx, cy, _ = crops_from_yolo(folder.parent, folder.name, geometry)
        put(f"choose{i}", cx, cy, 2, folder.name)
    np.savez(out / "crops.npz", **arrays)

    faces = render_faces(art_root)
    np.savez_compressed(out / "faces.npz", tokens=np.array([t for t, _ in faces]),
                        faces=np.stack([f for _, f in faces]))
    cjk = list(fonts_covering("".join(CHARS["f"] + CHARS["j"]) + CN_INDEX))
    subset_fonts(cjk + list(latin_fonts()), out / "fonts")
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    print(f"bank {out}: {size / 2 ** 20:.1f} MiB, {len(faces)} art faces, {len(cjk)} CJK fonts", flush=True)


def load(bank: Path):
    """The bank as ``train_classifier.load_data`` gives its data: ((x, y, orient, src, folder)
    of the training parts, (x, y) of chinese-v4 valid), plus {name: (x, y)} of the choice parts."""
    d = np.load(bank / "crops.npz")
    prefixes = sorted({k.rsplit("_", 1)[0] for k in d.files})
    train = [p for p in prefixes if p not in ("valid",) and not p.startswith("choose")]
    # photo crops have no known orientation (-1); the upright art crops are rendered by the trainer
    parts = {p: (decode(d[f"{p}_webp"], d[f"{p}_off"]), d[f"{p}_y"], np.full(len(d[f"{p}_y"]), -1),
                 d[f"{p}_src"], d[f"{p}_folder"]) for p in train}
    cat = [np.concatenate([parts[p][i] for p in train]) for i in range(5)]
    valid = (decode(d["valid_webp"], d["valid_off"]), d["valid_y"])
    choose = {str(d[f"{p}_folder"][0]) if len(d[f"{p}_folder"]) else p: (decode(d[f"{p}_webp"], d[f"{p}_off"]), d[f"{p}_y"])
              for p in prefixes if p.startswith("choose")}
    return tuple(cat), valid, choose


def load_faces(bank: Path) -> list[tuple[str, np.ndarray]]:
    d = np.load(bank / "faces.npz")
    return [(str(t), f) for t, f in zip(d["tokens"], d["faces"])]


def use_fonts(bank: Path) -> None:
    """Point the font lookup at the bank's subset fonts (before any font is looked up)."""
    os.environ["MJSCORE_FONT_DIRS"] = str((bank / "fonts").resolve())


def main() -> None:
    ap = argparse.ArgumentParser(description="pack the classifier's training crops for another machine")
    ap.add_argument("--out", type=Path, default=Path("runs/bank"))
    ap.add_argument("--crop-size", type=int, default=64)
    ap.add_argument("--real-every", type=int, default=3, help="every Nth chinese-v4 train photo")
    ap.add_argument("--valid-every", type=int, default=3, help="every Nth chinese-v4 valid crop")
    ap.add_argument("--synth", type=Path, action="append", default=[], help="synthetic YOLO folder to crop")
    ap.add_argument("--max-synth", type=int, default=400, help="first N photos of each synthetic folder")
    ap.add_argument("--choose", type=Path, action="append", default=[],
                    help="synthetic folder cropped for choosing only (never trained on)")
    add_data_root_option(ap)
    args = ap.parse_args()
    pack(args.out, data_path(ap, args.data_root, ART), args.real_every, args.valid_every, args.synth,
         args.choose, args.max_synth, CropGeometry(args.crop_size))


if __name__ == "__main__":
    main()
