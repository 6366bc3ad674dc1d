"""A squashed copy of a YOLO folder: every photo squeezed along one axis, as some dataset
exporters deliver them (photo_3 and photo_5 of the bundled samples came so).

Why (session 30): the squeezed views (``aspect_squeezes``, ``vision.detector.detect_any_aspect``)
exist for such photos, and a change to the view choice must be judged on them on a set one may
choose on; leo-riichi-v5 holds a few stretched screenshots but is test-only. YOLO labels are
fractions of the frame, so they are copied unchanged. Deterministic: same folder and seed, same
files.

    python -m mjscore.datasets.squashed data/clean/chinese-v4/valid data/eval/v4_squashed --seed 30
    mjscore eval data/eval/v4_squashed
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .derived import copy_label, main as derived_main, read, start

FACTORS = (3, 5, 8)


def squash(src: Path, out: Path, seed: int = 30, factors=FACTORS) -> int:
    """Write the squashed copy of ``src`` (``data.yaml``, ``images/``, ``labels/``) to ``out``:
    each photo, in name order, divided by a factor drawn from ``factors`` along a random axis.
    Returns the number of photos written."""
    import cv2

    rng = np.random.default_rng(seed)
    photos = start(src, out)
    for p in photos:
        image = read(p)
        h, w = image.shape[:2]
        k, along_height = int(rng.choice(factors)), bool(rng.integers(0, 2) == 0)
        size = (w, max(8, h // k)) if along_height else (max(8, w // k), h)
        cv2.imwrite(str(out / "images" / p.name), cv2.resize(image, size, interpolation=cv2.INTER_AREA))
        copy_label(src, out, p)
    return len(photos)


def main() -> None:
    derived_main(__doc__, squash, "squashed into")


if __name__ == "__main__":
    main()
