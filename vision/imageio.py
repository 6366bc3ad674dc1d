"""Load a photo for recognition: EXIF-upright, decoded downscaled when big, guarded.

Big JPEGs are decoded at a reduced scale straight from the DCT (PIL ``Image.draft``):
a 12 MP photo is decoded at about 1000 px long side, which keeps the tiles large enough
for the 48 px classifier crops and costs a fraction of a full decode."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .errors import ImageError

WORK_LONG_SIDE = 1000           # decode at least this many pixels on the long side
# refuse larger images (decompression bombs); 200 MP phone photos pass. Pillow itself refuses
# above 2 x Image.MAX_IMAGE_PIXELS (179 MP by default) and only warns below that.
MAX_PIXELS = 210_000_000


@dataclass(frozen=True)
class LoadedImage:
    rgb: np.ndarray             # H x W x 3 uint8, EXIF-upright, possibly downscaled
    width: int                  # upright full-resolution size
    height: int
    scale: float                # rgb pixels per full-resolution pixel (<= 1)


def decode_upright_rgb(img, work_long_side: int = WORK_LONG_SIDE):
    """Decode an opened PIL image as EXIF-upright RGB; a big JPEG is decoded downscaled from
    the DCT (``Image.draft``). Returns ``(rgb PIL image, upright full width, upright full height)``.
    Shared by file loading here and by the web upload decoder, which add their own guards."""
    from PIL import ImageOps

    w0, h0 = img.size
    if img.format == "JPEG" and max(w0, h0) > work_long_side:
        r = work_long_side / max(w0, h0)
        img.draft("RGB", (int(w0 * r), int(h0 * r)))
    orientation = img.getexif().get(0x0112, 1)
    img = ImageOps.exif_transpose(img)
    img.load()
    rgb = img.convert("RGB")
    upright_w, upright_h = (h0, w0) if orientation in (5, 6, 7, 8) else (w0, h0)
    return rgb, upright_w, upright_h


def load_image(path: str | Path, work_long_side: int = WORK_LONG_SIDE) -> LoadedImage:
    """Read ``path`` as an EXIF-upright RGB array; raise ImageError naming the problem."""
    import warnings

    from PIL import Image, UnidentifiedImageError

    path = Path(path)
    if not path.exists():
        raise ImageError(f"{path}: no such file")
    if path.is_dir():
        raise ImageError(f"{path}: is a directory, not an image")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            img = Image.open(path)
            w0, h0 = img.size
            if w0 * h0 > MAX_PIXELS:
                raise ImageError(f"{path}: image is too large ({w0}x{h0} pixels, more than the "
                                 f"{MAX_PIXELS // 1_000_000} MP this reader accepts)")
            if w0 < 8 or h0 < 8:
                raise ImageError(f"{path}: image is only {w0}x{h0} pixels")
            rgb, upright_w, upright_h = decode_upright_rgb(img, work_long_side)
    except ImageError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise ImageError(f"{path}: image is too large to decode safely (a decompression bomb?): {exc}") from None
    except UnidentifiedImageError:
        raise ImageError(f"{path}: not an image file (or a format this reader does not know)") from None
    except (OSError, SyntaxError, ValueError) as exc:
        raise ImageError(f"{path}: image is damaged or truncated ({exc})") from None
    arr = np.asarray(rgb)
    scale = arr.shape[1] / upright_w
    return LoadedImage(arr, upright_w, upright_h, scale)
