"""Uploaded photo bytes -> an upright RGB array, refusing anything that is not a plain photo.

The upload never touches the file system under a name the client chose: the bytes are
checked and decoded in memory. Checks, in order (each failure names the problem):

1. size: at most ``MAX_UPLOAD_BYTES`` (``too_large``: 413);
2. type by content, not by the file name or the declared content type: the magic bytes of
   JPEG, PNG, WebP, HEIC/HEIF or AVIF (``unsupported_type``: 415);
3. decompression bombs: the pixel count from the header, before any pixel is decoded
   (``vision.imageio.MAX_PIXELS``, the same limit as the CLI), with PIL's own bomb
   warning raised as an error (``too_large``);
4. structure: ``PIL.Image.verify`` and a full decode; truncated or damaged files are
   ``bad_photo`` (400). The HTTP statuses come from ``mjscore.errors.http_status``.

The decoding itself is :func:`vision.imageio.decode_checked`, shared with the CLI: big
JPEGs decoded at reduced scale from the DCT, other big images scaled down, 16-bit and CMYK
as 8-bit RGB.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, replace

import numpy as np

from ..errors import BAD_PHOTO, TOO_LARGE, UNSUPPORTED_TYPE, MjscoreError
from ..vision.imageio import MAX_PIXELS, WORK_LONG_SIDE, LoadedImage

MAX_UPLOAD_BYTES = 20_000_000     # 20 MB, the one limit the page states and the server applies (a 48 MP JPEG is ~15 MB)
MIN_SIDE = 16

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
    """A decoded upload: the decoded image with the upload's bytes (the closer look decodes a
    window of them again, :meth:`finer`) and the format its first bytes name."""
    loaded: LoadedImage
    format: str

    @property
    def rgb(self) -> np.ndarray:       # H x W x 3 uint8, upright, possibly downscaled
        return self.loaded.rgb

    @property
    def width(self) -> int:            # upright full-resolution size (the page's coordinates)
        return self.loaded.width

    @property
    def height(self) -> int:
        return self.loaded.height

    @property
    def scale(self) -> float:          # rgb pixels per full-resolution pixel (<= 1)
        return self.loaded.scale

    @property
    def finer_reader(self):
        """See :attr:`vision.imageio.LoadedImage.finer_reader`."""
        return self.loaded.finer_reader


def size_text(n: int) -> str:
    """Bytes for a message: ``15.2 MB``, ``840 kB``."""
    return f"{n / 1e6:.1f} MB" if n >= 1e6 else f"{max(1, round(n / 1e3))} kB"


_HEIF_BRANDS = {b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"hevm", b"hevs", b"mif1", b"msf1"}
_AVIF_BRANDS = {b"avif", b"avis"}


def sniff_format(data: bytes) -> str | None:
    """The image format from the first bytes (JPEG, PNG, WEBP, HEIF, AVIF), or None."""
    for magic, name in _MAGIC:
        if data.startswith(magic):
            return name
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WEBP"
    if len(data) >= 16 and data[4:8] == b"ftyp":             # ISO base media: brand, then compatible brands
        size = int.from_bytes(data[:4], "big")
        brands = {data[i:i + 4] for i in range(8, min(max(size, 16), len(data), 64), 4)}
        if brands & _AVIF_BRANDS:
            return "AVIF"
        if brands & _HEIF_BRANDS:
            return "HEIF"
    return None


def decode_photo(data: bytes, *, max_bytes: int = MAX_UPLOAD_BYTES, max_pixels: int = MAX_PIXELS,
                 work_long_side: int = WORK_LONG_SIDE) -> Photo:
    """Check and decode uploaded bytes; raise :class:`PhotoError` naming the problem."""
    from ..vision.errors import ImageError
    from ..vision.imageio import ImageUnsupported, decode_checked

    if not data:
        raise PhotoError(BAD_PHOTO, "the upload is empty: choose or take a photo")
    if len(data) > max_bytes:
        raise PhotoError(TOO_LARGE, f"the photo is {size_text(len(data))}; at most {size_text(max_bytes)} is accepted")
    fmt = sniff_format(data)
    if fmt is None:
        raise PhotoError(UNSUPPORTED_TYPE, "the upload is not a JPEG, PNG or WebP image (nor HEIC or AVIF): "
                                           "checked by its content, not its name")
    try:
        img = decode_checked(io.BytesIO(data), [fmt], max_pixels=max_pixels, min_side=MIN_SIDE,
                             work_long_side=work_long_side, verify=True)
    except ImageUnsupported:
        raise PhotoError(BAD_PHOTO, f"the upload starts like a {fmt} image but cannot be read as one") from None
    except ImageError as exc:                          # bad_photo or too_large, the message as it is
        raise PhotoError(exc.code, str(exc)) from None
    return Photo(replace(img, source=data), fmt)
