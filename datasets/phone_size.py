"""A copy of a YOLO folder at a phone camera's size: every photo scaled to 4000 px on its long
side and saved as a phone saves it (JPEG, quality 90).

Why (session 31): the closer look (``vision.closer``) and its search act only where a photo has
more pixels than the recognizer decodes (about 1000 px on the long side); every evaluation set
one may choose on is 640-1600 px, so none of them would show what those steps cost a photo of
a few big tiles, a hand up close, in a 12 MP photo. Scaled up, the photos hold no finer detail:
this set judges what the big-photo path costs, not what it gains (``datasets/far_off.py`` is
for that). YOLO labels are fractions of the frame, so they are copied unchanged. Deterministic:
same folder, same files (the seed is not used).

    python -m mjscore.datasets.phone_size data/eval/closeup_synth/v4-crops data/eval/closeup_big/v4-crops
    mjscore eval data/eval/closeup_big/v4-crops
"""

from __future__ import annotations

from pathlib import Path

from .derived import copy_label, main as derived_main, read, start

LONG_SIDE = 4000


def phone_sized(src: Path, out: Path, seed: int = 0, long_side: int = LONG_SIDE) -> int:
    """Write ``src`` (``data.yaml``, ``images/``, ``labels/``) to ``out`` with each photo scaled
    to ``long_side`` on its long side, as a ``.jpg``. Returns the number of photos written."""
    import cv2

    photos = start(src, out)
    for p in photos:
        image = read(p)
        h, w = image.shape[:2]
        k = long_side / max(h, w)
        big = cv2.resize(image, (round(w * k), round(h * k)), interpolation=cv2.INTER_CUBIC)
        cv2.imwrite(str(out / "images" / (p.stem + ".jpg")), big, [cv2.IMWRITE_JPEG_QUALITY, 90])
        copy_label(src, out, p)
    return len(photos)


def main() -> None:
    derived_main(__doc__, phone_sized, "scaled to phone size into")


if __name__ == "__main__":
    main()
