"""Make the small odd-format test images from one bundled sample photo (scaled down).

    python tests/data/images/make_images.py      # rewrites the files next to this script

Each file is the same picture in another encoding, so a test can check that every one
decodes like ``ref.jpg`` (the 8-bit RGB JPEG copy): ``cmyk.jpg`` (CMYK JPEG), ``grey16.png``
(16-bit grey PNG, mode ``I;16``), ``photo.heic`` (HEIC, needs pillow-heif), ``photo.avif``,
``photo.webp``, ``rotated.jpg`` (stored sideways with EXIF orientation 6)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

HERE = Path(__file__).resolve().parent
SOURCE = HERE.parents[2] / "samples" / "chinese-v4" / "images" / "photo_1.jpg"
SIZE = 160                      # long side: a few kB per file


def reference() -> Image.Image:
    """The sample photo, upright, scaled to ``SIZE`` px on the long side."""
    from PIL import ImageOps

    img = ImageOps.exif_transpose(Image.open(SOURCE)).convert("RGB")
    img.thumbnail((SIZE, SIZE), Image.Resampling.LANCZOS)
    return img


def main() -> None:
    import pillow_heif

    ref = reference()
    ref.save(HERE / "ref.jpg", quality=85)
    ref.convert("CMYK").save(HERE / "cmyk.jpg", quality=85)
    grey = np.asarray(ref.convert("L")).astype(np.uint16) * 257          # full 16-bit range
    Image.fromarray(grey).save(HERE / "grey16.png")                     # mode I;16
    pillow_heif.from_pillow(ref).save(HERE / "photo.heic", quality=85)
    ref.save(HERE / "photo.avif", quality=85)
    ref.save(HERE / "photo.webp", quality=85)
    exif = Image.Exif()
    exif[0x0112] = 6                                                    # stored turned: rotate 90 CW to view
    ref.transpose(Image.Transpose.ROTATE_90).save(HERE / "rotated.jpg", quality=85, exif=exif)
    for p in sorted(HERE.iterdir()):
        if p.suffix != ".py":
            print(f"{p.name}: {p.stat().st_size} bytes")


if __name__ == "__main__":
    main()
