"""The lone-tile and close-up evaluation set (issue 17): real tiles seen alone, in small groups
and big in the frame, where a detector that learnt tiles as parts of rows fails.

Built from two real labelled sets, deterministically (same inputs and seed -> same files):

Chinese-v4 photos the exporter stretched are first scaled back to a tile's shape
(:func:`restore_aspect`); only tile-shaped tiles are pasted.

- ``crops``: each source photo cropped around 1, 3 and 7 neighbouring tiles (a seed tile and
  its nearest neighbours, margin 0.3-1.0 tile), scaled up to phone size (long side 1600).
- ``pasted``: single tiles and touching pairs cut out of the photos and placed on procedural
  plain (``plain``, ``felt``) and patterned (``pattern``, ``wood``, ``cloth``, ``stone``) table
  surfaces (``datasets/synth/background.py``) at five sizes: the patch is 1/20, 1/10, 1/5, 1/3
  or 1/2 of the frame wide (cycled over the tiles, as are the backgrounds), with a soft shadow.

Sources: the cleaned chinese-v4 ``valid`` split (``clean_chinese_v4 --replay``; its ``?`` boxes
stay ignored) and every photo of leo-riichi-v5 (test-only: never trained or tuned on; its class
``0``, a tile cut off at the edge, stays ignored). A tile a crop cuts through (10-60 % of it
inside) is written as ``?``, ignored by ``mjscore eval`` (neither hit nor false alarm); one
mostly inside is kept with its box clipped. Output: one YOLO folder per source and kind,
``OUT/{v4,leo}-{crops,pasted}/{images,labels}`` with ``data.yaml`` (our tokens + ``?``), so
``mjscore eval OUT`` gives the whole figure and ``mjscore eval OUT/leo-pasted`` one part.

Run::

    python -m mjscore.datasets.cleaning.clean_chinese_v4 --replay --data-root DIR
    python -m mjscore.datasets.closeup_eval --data-root DIR --out data/eval/closeup
    mjscore eval data/eval/closeup                                  # the whole figure
    python -m mjscore.datasets.closeup_eval report data/eval/closeup  # by part, size, background
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .paths import LEO_RIICHI, add_data_root_option, data_path
from .synth.background import table
from ..vision.evaluate import dataset_tokens
from ..vision.kinds import KINDS
from ..vision.yolo import image_label_pairs, read_boxes

UNKNOWN = "?"
NAMES = KINDS + [UNKNOWN]
PHONE_LONG_SIDE = 1600
CANVAS = (1200, 1600)                      # h, w of a pasted scene (landscape phone photo)
GROUP_SIZES = (1, 3, 7)
FRACTIONS = (1 / 20, 1 / 10, 1 / 5, 1 / 3, 1 / 2)
PLAIN = ("plain", "felt")
PATTERNED = ("pattern", "wood", "cloth", "stone")
KEEP_INSIDE, IGNORE_INSIDE = 0.6, 0.1
TILE_ASPECT, ASPECT_OK = 1.4, (0.6, 2.4)


@dataclass(frozen=True)
class Tile:
    kind: str | None            # None = ignored (unknown kind, cut off)
    box: tuple[float, float, float, float]


def _tiles(item, w: int, h: int, tokens: list[str | None]) -> list[Tile]:
    if item.labels is None:
        return []
    return [Tile(tokens[c] if c < len(tokens) else None, b) for c, b in read_boxes(item.labels, w, h)]


def restore_aspect(image: np.ndarray, tiles: list[Tile]) -> tuple[np.ndarray, list[Tile]]:
    """Undo an exporter's stretch: chinese-v4 photos were resized to 640 x 640 whatever their
    shape, so in some of them every tile is squashed (median height/width far from a tile's
    ~1.4). Such a photo is scaled back along one axis to ``TILE_ASPECT`` before it is cut,
    so that crops and pasted tiles look like phone photos; photos within ``ASPECT_OK`` stay."""
    if not tiles:
        return image, tiles
    ratio = float(np.median([(t.box[3] - t.box[1]) / max(1e-6, t.box[2] - t.box[0]) for t in tiles]))
    if ASPECT_OK[0] <= ratio <= ASPECT_OK[1]:
        return image, tiles
    fx, fy = (ratio / TILE_ASPECT, 1.0) if ratio > TILE_ASPECT else (1.0, TILE_ASPECT / ratio)
    h, w = image.shape[:2]
    out = cv2.resize(image, (round(w * fx), round(h * fy)), interpolation=cv2.INTER_CUBIC)
    return out, [Tile(t.kind, (t.box[0] * fx, t.box[1] * fy, t.box[2] * fx, t.box[3] * fy)) for t in tiles]


def _tile_shaped(t: Tile) -> bool:
    """A box a real lone tile could have (upright or sideways), after :func:`restore_aspect`."""
    w, h = t.box[2] - t.box[0], t.box[3] - t.box[1]
    return min(w, h) > 0 and max(w, h) / min(w, h) <= 2.2


def _centre(b):
    return (b[0] + b[2]) / 2, (b[1] + b[3]) / 2


def _neighbours(tiles: list[Tile], seed: int, k: int) -> list[int]:
    cx, cy = _centre(tiles[seed].box)
    d = [np.hypot(_centre(t.box)[0] - cx, _centre(t.box)[1] - cy) for t in tiles]
    return list(np.argsort(d)[:k])


def _crop_labels(tiles: list[Tile], x0: int, y0: int, x1: int, y1: int) -> list[Tile]:
    """The tiles of a crop, boxes in its pixels: mostly inside kept (clipped), cut through ignored."""
    out = []
    for t in tiles:
        bx0, by0, bx1, by1 = t.box
        area = max(1e-6, (bx1 - bx0) * (by1 - by0))
        ix0, iy0, ix1, iy1 = max(bx0, x0), max(by0, y0), min(bx1, x1), min(by1, y1)
        inside = max(0.0, ix1 - ix0) * max(0.0, iy1 - iy0) / area
        if inside < IGNORE_INSIDE:
            continue
        kind = t.kind if inside >= KEEP_INSIDE else None
        out.append(Tile(kind, (ix0 - x0, iy0 - y0, ix1 - x0, iy1 - y0)))
    return out


def _write(folder: Path, stem: str, image: np.ndarray, tiles: list[Tile]) -> None:
    h, w = image.shape[:2]
    cv2.imwrite(str(folder / "images" / f"{stem}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    rows = []
    for t in tiles:
        x0, y0, x1, y1 = t.box
        cls = NAMES.index(t.kind if t.kind is not None else UNKNOWN)
        rows.append(f"{cls} {(x0 + x1) / 2 / w:.6f} {(y0 + y1) / 2 / h:.6f} {(x1 - x0) / w:.6f} {(y1 - y0) / h:.6f}")
    (folder / "labels" / f"{stem}.txt").write_text("\n".join(rows) + ("\n" if rows else ""))


def _scale_to_phone(image: np.ndarray, tiles: list[Tile]) -> tuple[np.ndarray, list[Tile]]:
    h, w = image.shape[:2]
    s = PHONE_LONG_SIDE / max(h, w)
    out = cv2.resize(image, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_CUBIC)
    return out, [Tile(t.kind, tuple(v * s for v in t.box)) for t in tiles]


def crops_of_photo(image: np.ndarray, tiles: list[Tile], rng: np.random.Generator):
    """(group size, crop image, tiles) around 1, 3 and 7 neighbouring known tiles."""
    known = [i for i, t in enumerate(tiles) if t.kind is not None]
    h, w = image.shape[:2]
    for k in GROUP_SIZES:
        if len(tiles) < k or not known:
            continue
        seed = known[int(rng.integers(len(known)))]
        group = [tiles[i] for i in _neighbours(tiles, seed, k)]
        gx0 = min(t.box[0] for t in group); gy0 = min(t.box[1] for t in group)
        gx1 = max(t.box[2] for t in group); gy1 = max(t.box[3] for t in group)
        size = np.median([max(t.box[2] - t.box[0], t.box[3] - t.box[1]) for t in group])
        m = size * rng.uniform(0.3, 1.0, 4)
        x0, y0 = int(max(0, gx0 - m[0])), int(max(0, gy0 - m[1]))
        x1, y1 = int(min(w, gx1 + m[2] + 1)), int(min(h, gy1 + m[3] + 1))
        if x1 - x0 < 4 or y1 - y0 < 4:
            continue
        crop, labels = _scale_to_phone(image[y0:y1, x0:x1], _crop_labels(tiles, x0, y0, x1, y1))
        yield k, crop, labels


def _pair_of(tiles: list[Tile], i: int) -> int | None:
    """A known tile touching tile i side by side (centres within 1.3 widths, same row), if any."""
    b = tiles[i].box
    w, h = b[2] - b[0], b[3] - b[1]
    cx, cy = _centre(b)
    best, best_d = None, 1e9
    for j, t in enumerate(tiles):
        if j == i or t.kind is None:
            continue
        ox, oy = _centre(t.box)
        dx, dy = abs(ox - cx), abs(oy - cy)
        if dy < 0.35 * h and dx < 1.3 * w and dx < best_d:
            best, best_d = j, dx
    return best


def paste(patch: np.ndarray, boxes: list[Tile], fraction: float, background: str,
          rng: np.random.Generator) -> tuple[np.ndarray, list[Tile]]:
    """The patch scaled to ``fraction`` of the canvas width, on a table surface, at a random place."""
    ch, cw = CANVAS
    ph, pw = patch.shape[:2]
    s = min(fraction * cw / pw, 0.9 * ch / ph)
    nw, nh = max(2, round(pw * s)), max(2, round(ph * s))
    scaled = cv2.resize(patch, (nw, nh), interpolation=cv2.INTER_CUBIC if s > 1 else cv2.INTER_AREA)
    surface, _ = table(rng, ch, cw, background)
    canvas = cv2.cvtColor(surface.astype(np.uint8), cv2.COLOR_RGB2BGR).astype(np.float32)
    x0 = int(rng.integers(0, max(1, cw - nw))); y0 = int(rng.integers(0, max(1, ch - nh)))
    shadow = np.zeros((ch, cw), np.float32)
    off = max(1, nw // 25)
    shadow[min(ch - 1, y0 + off):y0 + nh + off, min(cw - 1, x0 + off):x0 + nw + off] = 1
    k = max(3, (nw // 12) | 1)
    shadow = cv2.GaussianBlur(shadow, (k, k), 0)
    canvas *= (1 - 0.45 * shadow)[..., None]
    canvas[y0:y0 + nh, x0:x0 + nw] = scaled
    tiles = [Tile(t.kind, (x0 + t.box[0] * s, y0 + t.box[1] * s, x0 + t.box[2] * s, y0 + t.box[3] * s))
             for t in boxes]
    return np.clip(canvas, 0, 255).astype(np.uint8), tiles


def pasted_of_photo(image: np.ndarray, tiles: list[Tile], rng: np.random.Generator, counter: list[int]):
    """(label, scene, tiles): one single tile and one touching pair of the photo, pasted."""
    known = [i for i, t in enumerate(tiles) if t.kind is not None and _tile_shaped(t)]
    if not known:
        return
    h, w = image.shape[:2]
    single = known[int(rng.integers(len(known)))]
    groups = [("single", [single])]
    partners = {i: _pair_of(tiles, i) for i in known}
    pairable = [i for i in known if partners[i] is not None and _tile_shaped(tiles[partners[i]])]
    if pairable:
        i = pairable[int(rng.integers(len(pairable)))]
        groups.append(("pair", [i, partners[i]]))
    for label, members in groups:
        x0 = int(max(0, min(tiles[i].box[0] for i in members)))
        y0 = int(max(0, min(tiles[i].box[1] for i in members)))
        x1 = int(min(w, max(tiles[i].box[2] for i in members) + 1))
        y1 = int(min(h, max(tiles[i].box[3] for i in members) + 1))
        if x1 - x0 < 4 or y1 - y0 < 4:
            continue
        n = counter[0]
        counter[0] += 1
        fraction = FRACTIONS[n % len(FRACTIONS)]
        backgrounds = PLAIN if (n // len(FRACTIONS)) % 2 == 0 else PATTERNED
        background = backgrounds[(n // (2 * len(FRACTIONS))) % len(backgrounds)]
        inside = _crop_labels([tiles[i] for i in members], x0, y0, x1, y1)
        scene, placed = paste(image[y0:y1, x0:x1], inside, fraction, background, rng)
        yield f"{label}_{fraction:.2f}_{background}", scene, placed


def build_source(name: str, folder: Path, out: Path, seed: int, every: int = 1) -> dict[str, int]:
    """Write ``OUT/NAME-crops`` and ``OUT/NAME-pasted`` from one labelled YOLO folder."""
    tokens = dataset_tokens(folder)
    rng = np.random.default_rng(seed)
    counts = {"crops": 0, "pasted": 0}
    dirs = {}
    for part in counts:
        d = out / f"{name}-{part}"
        (d / "images").mkdir(parents=True, exist_ok=True)
        (d / "labels").mkdir(parents=True, exist_ok=True)
        _write_yaml(d)
        dirs[part] = d
    counter = [0]
    for n, item in enumerate(image_label_pairs(folder)):
        if n % every:
            continue
        image = cv2.imread(str(item.image), cv2.IMREAD_COLOR)
        if image is None:
            continue
        h, w = image.shape[:2]
        image, tiles = restore_aspect(image, _tiles(item, w, h, tokens))
        stem = item.image.stem[:40]
        for k, crop, labels in crops_of_photo(image, tiles, rng):
            _write(dirs["crops"], f"{n:04d}_{stem}_k{k}", crop, labels)
            counts["crops"] += 1
        for label, scene, placed in pasted_of_photo(image, tiles, rng, counter):
            _write(dirs["pasted"], f"{n:04d}_{stem}_{label}", scene, placed)
            counts["pasted"] += 1
    return counts


def _write_yaml(folder: Path) -> None:
    names = ", ".join(f"'{n}'" for n in NAMES)
    folder.joinpath("data.yaml").write_text(
        "# lone-tile and close-up evaluation set: datasets/closeup_eval.py (sources CC BY 4.0)\n"
        f"nc: {len(NAMES)}\nnames: [{names}]\n")


def groups_of(stem: str) -> list[str]:
    """The report rows of an image, from the name ``build_source`` gave it: ``k1``/``k3``/``k7``
    for crops; ``single 0.05`` ... and ``on plain`` / ``on patterned`` for pasted scenes."""
    parts = stem.split("_")
    if parts[-1].startswith("k") and parts[-1][1:].isdigit():
        return [parts[-1]]
    label, fraction, background = parts[-3:]
    return [f"{label} {fraction}", "on plain" if background in PLAIN else "on patterned"]


def report(folder: Path) -> dict:
    """Tile F1 and more of every part (``v4-crops`` ...), and of each group of a part (crop size;
    pasted single/pair, size, background), plus the whole set."""
    from ..vision.evaluate import add_photo, empty_report, score_folder

    whole = empty_report()
    parts = {}
    for sub in sorted(p for p in folder.iterdir() if (p / "images").is_dir()):
        total, groups = empty_report(), {}
        for photo in score_folder(sub):
            rows = [groups.setdefault(g, empty_report()) for g in groups_of(photo.image.stem)]
            for r in [whole, total] + rows:
                add_photo(r, photo)
        parts[sub.name] = {"all": total.to_json(), "groups": {g: r.to_json() for g, r in sorted(groups.items())}}
    return {"all": whole.to_json(), "parts": parts}


def _summary(r: dict) -> str:
    return (f"photos {r['photos']:4d}  tiles {r['tiles']:4d}  det R {r['detection_recall']:.3f} "
            f"P {r['detection_precision']:.3f}  cls {r['classification_accuracy']:.3f}  "
            f"F1 {r['tile_f1']:.3f}  wrong>=0.6 {r['wrong_shown_confident']:.2f} of {r['wrong_tiles']}")


def format_report(rep: dict) -> str:
    lines = [f"{'all':26s} {_summary(rep['all'])}"]
    for name, part in rep["parts"].items():
        lines.append(f"{name:26s} {_summary(part['all'])}")
        for g, r in part["groups"].items():
            lines.append(f"  {g:24s} {_summary(r)}")
    return "\n".join(lines)


def _report_main(argv: list[str]) -> None:
    import json

    ap = argparse.ArgumentParser(description="figures of the recognizer on the close-up set, by part and group")
    ap.add_argument("folder", type=Path, nargs="?", default=Path("data/eval/closeup"))
    ap.add_argument("--json", type=Path, default=None, help="also write the full report here")
    args = ap.parse_args(argv)
    rep = report(args.folder)
    if args.json:
        args.json.write_text(json.dumps(rep, indent=1))
    print(format_report(rep))


def main(argv: list[str] | None = None) -> None:
    import sys

    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["report"]:
        return _report_main(argv[1:])
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_data_root_option(ap)
    ap.add_argument("--v4", type=Path, default=Path("data/clean/chinese-v4/valid"),
                    help="the cleaned chinese-v4 valid split (clean_chinese_v4 --replay)")
    ap.add_argument("--out", type=Path, default=Path("data/eval/closeup"))
    ap.add_argument("--v4-every", type=int, default=2, help="use every Nth v4 photo (default 2: 148 photos)")
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--v4-only", action="store_true",
                    help="chinese-v4 only, no leo: how detector training scenes are made from the train "
                         "split (--v4 data/clean/chinese-v4/train), since leo is never trained on")
    args = ap.parse_args(argv)
    if not (args.v4 / "images").is_dir():
        ap.error(f"{args.v4}: no images/ (run python -m mjscore.datasets.cleaning.clean_chinese_v4 --replay first)")
    sources = [("v4", args.v4, args.v4_every, args.seed)]
    if not args.v4_only:
        sources.append(("leo", data_path(ap, args.data_root, LEO_RIICHI), 1, args.seed + 1))
    args.out.mkdir(parents=True, exist_ok=True)
    _write_yaml(args.out)
    for name, folder, every, seed in sources:
        counts = build_source(name, folder, args.out, seed, every)
        print(f"{name}: {counts['crops']} crops, {counts['pasted']} pasted scenes -> {args.out}")


if __name__ == "__main__":
    main()
