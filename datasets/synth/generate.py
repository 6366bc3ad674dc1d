"""Write a YOLO dataset of synthetic tile photos.

    python -m mjscore.datasets.synth.generate --out data/synth/train --count 3000 --seed 1 --size 640

Output: ``images/NNNNNN.jpg``, ``labels/NNNNNN.txt`` (``class xc yc w h``, normalised, class =
index in ``vision.kinds.KINDS``, box = visible tile incl. its body), ``data.yaml`` (``names`` =
KINDS) and ``scenes.jsonl`` (one line of metadata per image).  Image ``i`` depends only on
``seed`` and ``i`` (and on which optional art is installed), so ``--workers`` does not change
the result.  ``--art committed`` restricts to the art in the repository."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from ...vision.kinds import KINDS
from ...vision.training.common import name_factors
from .art import ART_CHOICES, mark_held_out
from .scene import LAYOUTS


def image_seed(seed: int, index: int) -> int:
    return (seed * 1_000_003 + index * 7919) % (2**63)


def yolo_lines(labels, width: int, height: int) -> list[str]:
    lines = []
    for lab in labels:
        x0, y0, x1, y1 = lab.box
        xc, yc = (x0 + x1) / 2 / width, (y0 + y1) / 2 / height
        w, h = (x1 - x0) / width, (y1 - y0) / height
        lines.append(f"{KINDS.index(lab.kind)} {xc:.6f} {yc:.6f} {w:.6f} {h:.6f}")
    return lines


def _render_one(args: tuple) -> dict:
    import cv2

    from .layouts import favour_kinds
    from .scene import random_scene

    index, seed, size, art, out, quality, layouts, favour = args
    favour_kinds(favour)
    s = image_seed(seed, index)
    layout = layouts[index % len(layouts)] if layouts else None
    result = random_scene(s, size, art, layout)
    name = f"{index:06d}"
    h, w = result.image.shape[:2]
    cv2.imwrite(str(out / "images" / f"{name}.jpg"), result.image[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, quality])
    (out / "labels" / f"{name}.txt").write_text("\n".join(yolo_lines(result.labels, w, h)) + ("\n" if result.labels else ""))
    meta = {"image": f"images/{name}.jpg", "seed": s, "width": w, "height": h, **result.meta,
            "kinds": [lab.kind for lab in result.labels],
            "angles": [lab.angle for lab in result.labels]}
    return meta


def write_data_yaml(out: Path) -> None:
    names = "\n".join(f"  {i}: '{k}'" for i, k in enumerate(KINDS))
    (out / "data.yaml").write_text(
        f"# synthetic mahjong tile scenes (datasets/synth/generate.py)\npath: {out.resolve()}\n"
        f"train: images\nval: images\nnc: {len(KINDS)}\nnames:\n{names}\n")


def art_families(folder: Path) -> dict[str, str]:
    """Image stem -> art family (``style.art``) of a batch this module wrote, from its
    scenes.jsonl; empty for a folder without one (real photos)."""
    path = Path(folder) / "scenes.jsonl"
    if not path.exists():
        return {}
    out = {}
    for line in path.read_text().splitlines():
        if line.strip():
            rec = json.loads(line)
            out[Path(rec["image"]).stem] = rec.get("style", {}).get("art", "")
    return out


def generate(out: Path, count: int, seed: int, size: int, workers: int = 1, art: str = "all",
             start: int = 0, quality: int = 92, progress: bool = True,
             layouts: tuple[str, ...] = (), favour: dict[str, float] | None = None) -> float:
    """Render images ``start .. start+count-1`` into ``out``; returns images per second."""
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    write_data_yaml(out)
    mark_held_out(out, art)
    jobs = [(i, seed, size, art, out, quality, tuple(layouts), favour) for i in range(start, start + count)]
    t0 = time.perf_counter()
    mode = "a" if start > 0 else "w"
    with open(out / "scenes.jsonl", mode) as meta_file:
        if workers > 1:
            import multiprocessing as mp

            with mp.get_context("spawn").Pool(workers) as pool:
                results = pool.imap(_render_one, jobs, chunksize=4)
                for n, meta in enumerate(results, 1):
                    meta_file.write(json.dumps(meta) + "\n")
                    meta_file.flush()
                    if progress and n % 100 == 0:
                        print(f"{n}/{count} images, {n / (time.perf_counter() - t0):.2f}/s", file=sys.stderr)
        else:
            for n, job in enumerate(jobs, 1):
                meta_file.write(json.dumps(_render_one(job)) + "\n")
                meta_file.flush()  # a stopped run leaves metadata for every finished image
                if progress and n % 100 == 0:
                    print(f"{n}/{count} images, {n / (time.perf_counter() - t0):.2f}/s", file=sys.stderr)
    return count / max(time.perf_counter() - t0, 1e-9)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, type=Path, help="output folder (created)")
    ap.add_argument("--count", type=int, default=100, help="number of images")
    ap.add_argument("--seed", type=int, default=1, help="dataset seed")
    ap.add_argument("--size", type=int, default=640, help="image side in pixels")
    ap.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    ap.add_argument("--art", choices=[a for a in ART_CHOICES if a != "repo"], default="all",
                    help="'all' also uses data/art-cache (install_art.sh); 'committed' only repo art; "
                         "'unseen' the held-out face design (evaluation batches only: never train on it)")
    ap.add_argument("--start", type=int, default=0, help="first image index (to extend a dataset)")
    ap.add_argument("--layouts", default="",
                    help=f"comma list of layouts, taken in turn (default: the usual mix); one of {', '.join(LAYOUTS)}")
    ap.add_argument("--favour", default="", metavar="KIND=FACTOR,...",
                    help="draw single tiles of these kinds more often, e.g. X=4,Wh=3 (default: balanced)")
    args = ap.parse_args(argv)
    layouts = tuple(v.strip() for v in args.layouts.split(",") if v.strip())
    try:
        favour = name_factors(args.favour)
    except ValueError:
        ap.error(f"--favour: expected KIND=FACTOR,... (e.g. X=4,Wh=3), got {args.favour!r}")
    bad = [k for k, f in favour.items() if k not in KINDS or f <= 0]
    if bad:
        ap.error(f"--favour: {bad[0]!r} is not a kind with a positive factor (kinds: {' '.join(KINDS)})")
    unknown = [v for v in layouts if v not in LAYOUTS]
    if unknown:
        ap.error(f"--layouts: unknown layout {unknown[0]!r} (known: {', '.join(LAYOUTS)})")
    if args.count < 1 or args.size < 64 or args.workers < 1 or args.start < 0:
        ap.error("--count and --workers must be >= 1, --size >= 64, --start >= 0")
    try:
        rate = generate(args.out, args.count, args.seed, args.size, args.workers, args.art, args.start,
                        layouts=layouts, favour=favour or None)
    except OSError as exc:
        print(f"error: cannot write the dataset to {args.out}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"wrote {args.count} images to {args.out} ({rate:.2f} images/s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
