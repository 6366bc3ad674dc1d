"""Hands laid far off: each photo of a YOLO folder pasted, shrunk, into a 4000 x 3000 table photo.

Why (session 30): a phone photo taken from standing height shows the hand small in a 12 MP
frame; at the detector's 320 px input its tiles are 3-6 px, below the scale band it learnt,
and what finds them is the finer pass and the zoomed look (``vision.detector``). The bundled
real photos pasted so are a set one may choose on (chinese-v4 valid; leo stays test-only). Each
photo is scaled by a factor drawn from ``SCALES`` and placed at a random spot on a plain table
colour with a soft light fall-off; the labels follow. Deterministic: same folder
and seed, same files.

    python -m mjscore.datasets.far_off data/clean/chinese-v4/valid data/eval/v4_far_off --seed 30
    mjscore eval data/eval/v4_far_off

A folder of rendered hand scenes (``hands.json``, ``datasets/scene_eval.py``) is laid far off
the same way, at ``SCENE_SCALES`` of its 960 px renders (the boxes in ``hands.json`` follow), so
that whole hands are scored end to end from afar (session 31):

    python -m mjscore.datasets.far_off data/eval/scenes_choose data/eval/scenes_far_off --seed 31
    python -m mjscore.datasets.scene_eval data/eval/scenes_far_off
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .derived import main as derived_main, read, start

SCALES = (0.75, 1.0, 1.25)
SCENE_SCALES = (0.5, 0.75, 1.0)     # a 960 px render's tiles come to 12-30 px of the decoded 1000 px
FRAME = (4000, 3000)


def _table(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """A plain felt-coloured table with a little noise and a soft light fall-off (BGR)."""
    colour = rng.uniform(30, 170, 3)
    yy, xx = np.mgrid[0:height:8, 0:width:8]
    fall = 1.0 - 0.25 * (((xx - width / 2) / width) ** 2 + ((yy - height / 2) / height) ** 2)
    small = (colour[None, None, :] * fall[..., None] + rng.normal(0, 4, fall.shape + (3,)))
    import cv2

    return cv2.resize(np.clip(small, 0, 255).astype(np.uint8), (width, height), interpolation=cv2.INTER_LINEAR)


def _laid_far_off(rng: np.random.Generator, image: np.ndarray, scales, frame, path: Path) -> tuple:
    """``image`` scaled by a factor drawn from ``scales``, pasted at a random spot of a table
    photo of ``frame`` size, written to ``path`` (JPEG, quality 90). Returns (factor, x0, y0,
    pasted width, pasted height)."""
    import cv2

    width, height = frame
    s = float(rng.choice(scales))
    small = cv2.resize(image, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    h, w = small.shape[:2]
    x0, y0 = int(rng.integers(0, width - w)), int(rng.integers(0, height - h))
    canvas = _table(rng, width, height)
    canvas[y0:y0 + h, x0:x0 + w] = small
    cv2.imwrite(str(path), canvas, [cv2.IMWRITE_JPEG_QUALITY, 90])
    return s, x0, y0, w, h


def far_off(src: Path, out: Path, seed: int = 30, scales=SCALES, frame=FRAME) -> int:
    """Write the far-off copy of ``src`` (``data.yaml``, ``images/``, ``labels/``) to ``out``;
    a folder of hand scenes (``hands.json``) goes to :func:`far_off_scenes`. Returns the number
    of photos written."""
    if (src / "hands.json").exists():
        return far_off_scenes(src, out, seed, frame=frame)
    rng = np.random.default_rng(seed)
    width, height = frame
    photos = start(src, out)
    for p in photos:
        _, x0, y0, w, h = _laid_far_off(rng, read(p), scales, frame, out / "images" / (p.stem + ".jpg"))
        rows = []
        label = src / "labels" / (p.stem + ".txt")
        for line in (label.read_text().splitlines() if label.exists() else []):
            parts = line.split()
            if len(parts) != 5:
                continue
            cx, cy, bw, bh = (float(v) for v in parts[1:])
            rows.append(f"{parts[0]} {(x0 + cx * w) / width:.6f} {(y0 + cy * h) / height:.6f} "
                        f"{bw * w / width:.6f} {bh * h / height:.6f}")
        (out / "labels" / (p.stem + ".txt")).write_text("\n".join(rows) + ("\n" if rows else ""))
    return len(photos)


def far_off_scenes(src: Path, out: Path, seed: int = 31, scales=SCENE_SCALES, frame=FRAME) -> int:
    """Write the far-off copy of a scene folder (``hands.json`` and its images) to ``out``: each
    scene laid far off as in :func:`far_off`, its true boxes moved with it. Returns the count."""
    import json

    rng = np.random.default_rng(seed)
    out.mkdir(parents=True, exist_ok=True)
    scenes = json.loads((src / "hands.json").read_text())
    for scene in scenes:
        name = Path(scene["image"]).stem + ".jpg"
        s, x0, y0, _, _ = _laid_far_off(rng, read(src / scene["image"]), scales, frame, out / name)
        scene["image"] = name
        for tile in scene.get("tiles", []):
            b = tile["box"]
            tile["box"] = [round(x0 + b[0] * s, 1), round(y0 + b[1] * s, 1), round(x0 + b[2] * s, 1), round(y0 + b[3] * s, 1)]
    (out / "hands.json").write_text(json.dumps(scenes, indent=1) + "\n")
    return len(scenes)


def main() -> None:
    derived_main(__doc__, far_off, "laid far off in")


if __name__ == "__main__":
    main()
