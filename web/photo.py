"""Uploaded photo bytes -> an upright RGB array, refusing anything that is not a plain photo.

The upload never touches the file system under a name the client chose: the bytes are
checked and decoded in memory. Checks, in order (each failure names the problem):

1. size: at most ``MAX_UPLOAD_BYTES`` (``too_large``: 413);
2. type by content, not by the file name or the declared content type: the magic bytes of
   JPEG, PNG or WebP (``unsupported_type``: 415);
3. decompression bombs: the pixel count from the header, before any pixel is decoded
   (``MAX_PIXELS``), with PIL's own bomb warning raised as an error (``too_large``);
4. structure: ``PIL.Image.verify`` and a full decode; truncated or damaged files are
   ``bad_photo`` (400). The HTTP statuses come from ``mjscore.errors.http_status``.

Big JPEGs are decoded at reduced scale straight from the DCT (``Image.draft``), as
:mod:`vision.imageio` does for files: the recognizer needs about 1000 px on the long side.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass

import numpy as np

from ..errors import BAD_PHOTO, TOO_LARGE, UNSUPPORTED_TYPE, MjscoreError

MAX_UPLOAD_BYTES = 20 * 1024 * 1024     # a 48 MP phone JPEG is ~15 MB
MAX_PIXELS = 60_000_000
MIN_SIDE = 16
WORK_LONG_SIDE = 1000

_MAGIC = (
    (b"\xff\xd8\xff", "JPEG"),
    (b"\x89PNG\r\n\x1a\n", "PNG"),
)


class PhotoError(MjscoreError, ValueError):
    """An upload that is not a usable photo; ``code`` says why (bad_photo, too_large,
    unsupported_type)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Photo:
    rgb: np.ndarray          # H x W x 3 uint8, upright, possibly downscaled
    width: int               # upright full-resolution size (the page's coordinates)
    height: int
    scale: float             # rgb pixels per full-resolution pixel (<= 1)
    format: str


def size_text(n: int) -> str:
    """Bytes for a message: ``15.2 MB``, ``840 kB``."""
    return f"{n / 1e6:.1f} MB" if n >= 1e6 else f"{max(1, round(n / 1e3))} kB"


def sniff_format(data: bytes) -> str | None:
    """The image format from the first bytes (JPEG, PNG, WEBP), or None."""
    for magic, name in _MAGIC:
        if data.startswith(magic):
            return name
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WEBP"
    return None


def decode_photo(data: bytes, *, max_bytes: int = MAX_UPLOAD_BYTES, max_pixels: int = MAX_PIXELS,
                 work_long_side: int = WORK_LONG_SIDE) -> Photo:
    """Check and decode uploaded bytes; raise :class:`PhotoError` naming the problem."""
    from PIL import Image, UnidentifiedImageError

    from ..vision.imageio import decode_upright_rgb

    if not data:
        raise PhotoError(BAD_PHOTO, "the upload is empty: choose or take a photo")
    if len(data) > max_bytes:
        raise PhotoError(TOO_LARGE, f"the photo is {size_text(len(data))}; at most {size_text(max_bytes)} is accepted")
    fmt = sniff_format(data)
    if fmt is None:
        raise PhotoError(UNSUPPORTED_TYPE, "the upload is not a JPEG, PNG or WebP image "
                              "(checked by its content, not its name)")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data), formats=[fmt]) as probe:
                w0, h0 = probe.size
                _check_size(w0, h0, max_pixels)
                probe.verify()
            img = Image.open(io.BytesIO(data), formats=[fmt])
            rgb, upright_w, upright_h = decode_upright_rgb(img, work_long_side)
    except PhotoError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise PhotoError(TOO_LARGE, "the image is too large to decode safely (decompression bomb guard)") from None
    except UnidentifiedImageError:
        raise PhotoError(BAD_PHOTO, f"the upload starts like a {fmt} image but cannot be read as one") from None
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        raise PhotoError(BAD_PHOTO, f"the {fmt} image is damaged or truncated ({exc})") from None
    arr = np.asarray(rgb)
    if max(arr.shape[:2]) > work_long_side * 2:            # PNG/WebP or a small-draft JPEG
        r = work_long_side / max(arr.shape[:2])
        rgb = rgb.resize((max(1, round(arr.shape[1] * r)), max(1, round(arr.shape[0] * r))),
                         Image.Resampling.BILINEAR)
        arr = np.asarray(rgb)
    return Photo(np.ascontiguousarray(arr), upright_w, upright_h, arr.shape[1] / upright_w, fmt)


def _check_size(w: int, h: int, max_pixels: int) -> None:
    if w * h > max_pixels:
        raise PhotoError(TOO_LARGE, f"the image is {w}x{h} pixels; at most {max_pixels // 1_000_000} MP "
                              "is accepted (decompression bomb guard)")
    if min(w, h) < MIN_SIDE:
        raise PhotoError(BAD_PHOTO, f"the image is only {w}x{h} pixels: too small to hold tiles")
