"""Load a photo for recognition: EXIF-upright, decoded downscaled when big, guarded.

One decoder for the CLI (files, :func:`load_image`) and the web (bytes, ``web.photo``):

- the pixel count is checked from the header, before any pixel is decoded (``MAX_PIXELS``,
  the one limit of both front ends: decompression bombs such as a 20 kB 1-bit PNG of
  13000 x 13000 are refused at no cost);
- big JPEGs are decoded at a reduced scale straight from the DCT (PIL ``Image.draft``): a
  12 MP photo is decoded at about 1000 px long side, which keeps the tiles large enough for
  the 48 px classifier crops and costs a fraction of a full decode; other formats are
  scaled down after decoding (below 2 x ``WORK_LONG_SIDE``);
- every mode reads as 8-bit RGB: 16-bit grey is scaled (not clipped to white), CMYK goes
  through its ICC profile when it has one;
- HEIC/HEIF (the iPhone default) through ``pillow-heif``, AVIF and WebP through Pillow;
- a path that is not a regular file (a FIFO, a device) is refused before it is read.
"""

from __future__ import annotations

import io
import os
import stat
import warnings
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from ..errors import TOO_LARGE, UNSUPPORTED_TYPE
from .errors import ImageError

try:                                # HEIC/HEIF: registered once, at import of this module
    import pillow_heif

    pillow_heif.register_heif_opener()
except ImportError:                 # pragma: no cover - optional at run time, a dependency
    pillow_heif = None

WORK_LONG_SIDE = 1000           # decode at least this many pixels on the long side
# Refuse larger images, from the header (decompression bombs). One limit for the CLI and the
# web: a 48 MP phone photo passes; a full decode of 60 MP stays well under 800 MB.
MAX_PIXELS = 60_000_000
# A JPEG is decoded from its DCT at 1/8 scale or finer (``Image.draft``), so a 200 MP phone
# photo (issue 16: shrunk on decode, not refused) costs a decode of about 3 MP: JPEGs get a
# higher limit. Pillow's own bomb error (at twice its MAX_IMAGE_PIXELS) would stop them at
# ``Image.open``, so it is raised to this limit; every header is checked here instead.
MAX_JPEG_PIXELS = 250_000_000
MIN_SIDE = 8                    # fewer pixels than this on a side cannot hold a tile
# The closer look (vision.closer) decodes the photo again at a finer scale: at most this many
# pixels at once (a 48 MP JPEG is decoded at half scale from its DCT, 12 MP, about 36 MB).
REGION_MAX_PIXELS = 16_000_000


class ImageTooLarge(ImageError):
    """An image over ``MAX_PIXELS`` (or Pillow's own bomb limit)."""

    code = TOO_LARGE


class ImageUnsupported(ImageError):
    """A file that is not an image in a format this reader knows."""

    code = UNSUPPORTED_TYPE


@dataclass(frozen=True)
class LoadedImage:
    rgb: np.ndarray             # H x W x 3 uint8, EXIF-upright, possibly downscaled
    width: int                  # upright full-resolution size
    height: int
    scale: float                # rgb pixels per full-resolution pixel (<= 1)
    # where the photo came from (a path, or the uploaded bytes): the closer look decodes a
    # window of it again at a finer scale (:meth:`finer`); None for an array given as it is
    source: str | Path | bytes | None = field(default=None, repr=False, compare=False)

    @property
    def has_finer_pixels(self) -> bool:
        """Whether the photo's file holds more pixels than ``rgb`` (a big photo decoded smaller)."""
        return self.source is not None and self.scale < 1.0

    @property
    def finer_reader(self):
        """:meth:`finer` where the file holds more pixels than ``rgb``, else None: what every
        front end hands the recognizer, so that a small photo reads the same from any of them."""
        return self.finer if self.has_finer_pixels else None

    def finer(self, window, factor: float) -> np.ndarray | None:
        """The ``window`` (x0, y0, x1, y1 in ``rgb`` pixels) decoded again at up to ``factor`` times
        ``rgb``'s resolution, never finer than the photo itself; None when the photo has no more
        pixels than ``rgb``, no source to decode again, or the source cannot be decoded again
        (changed or removed since it was read: the closer look is a second look, and the first
        read must not be lost to it). See :func:`decode_region`."""
        if not self.has_finer_pixels or factor <= 1.0:
            return None
        full = tuple(v / self.scale for v in window)
        try:
            return decode_region(self.source, full, min(1.0, self.scale * factor))
        except (ImageError, MemoryError):
            return None


def size_problem(w: int, h: int, max_pixels: int = MAX_PIXELS, min_side: int = MIN_SIDE) -> ImageError | None:
    """The error for an image of ``w`` x ``h`` pixels (header size), or None when it is fine."""
    if w * h > max_pixels:
        return ImageTooLarge(f"the image is {w}x{h} pixels; at most {max_pixels // 1_000_000} MP "
                             "is accepted (decompression bomb guard)")
    if min(w, h) < min_side:
        return ImageError(f"the image is only {w}x{h} pixels: too small to hold tiles")
    return None


def _to_8bit(img):
    """16- and 32-bit grey (PNG ``I;16``, TIFF ``I``/``F``) as 8-bit ``L``: Pillow's own
    conversion clips at 255, so a 16-bit photo would read as all white."""
    from PIL import Image

    if img.mode.startswith("I;16") or img.mode in ("I", "F"):
        a = np.asarray(img).astype(np.float32)
        top = 65535.0 if img.mode != "F" and (img.mode.startswith("I;16") or a.max(initial=0) > 255) else 255.0
        if img.mode == "F" and a.max(initial=0) <= 1.0:
            top = 1.0
        return Image.fromarray(np.clip(a * (255.0 / top) + 0.5, 0, 255).astype(np.uint8), "L")
    return img


def _to_rgb(img):
    """Any decoded mode as RGB; CMYK through its embedded ICC profile where there is one.
    An RGB image is returned as it is (no copy)."""
    img = _to_8bit(img)
    if img.mode == "RGB":
        return img
    if img.mode == "CMYK" and img.info.get("icc_profile"):
        try:
            import io

            from PIL import ImageCms

            src = ImageCms.ImageCmsProfile(io.BytesIO(img.info["icc_profile"]))
            return ImageCms.profileToProfile(img, src, ImageCms.createProfile("sRGB"), outputMode="RGB")
        except Exception:                     # noqa: BLE001 - a broken profile: plain conversion
            pass
    return img.convert("RGB")


def _scaled_down(img, work_long_side: int):
    """An image over 2 x ``work_long_side`` scaled to ``work_long_side``, in its own mode
    (before any conversion or turn, so a big PNG is never copied at full size); 1-bit and
    palette images first become grey / RGB, which Pillow can resize smoothly."""
    from PIL import Image

    if max(img.size) <= work_long_side * 2:
        return img
    if img.mode == "1":
        img = img.convert("L")
    elif img.mode == "P":
        img = img.convert("RGBA" if "transparency" in img.info else "RGB")
    r = work_long_side / max(img.size)
    return img.resize((max(1, round(img.size[0] * r)), max(1, round(img.size[1] * r))), Image.Resampling.BILINEAR)


def _turns() -> dict:
    from PIL import Image

    t = Image.Transpose
    return {2: t.FLIP_LEFT_RIGHT, 3: t.ROTATE_180, 4: t.FLIP_TOP_BOTTOM, 5: t.TRANSPOSE,
            6: t.ROTATE_270, 7: t.TRANSVERSE, 8: t.ROTATE_90}


_TURNS = _turns()                # EXIF orientation -> the turn that makes the image upright


def _exif_turn(img) -> tuple:
    """``(turn, sideways)`` of an opened image from its EXIF orientation: the transpose that
    makes it upright (None for none) and whether upright its sides swap. Read before
    ``load()``, which a JPEG draft needs first."""
    orientation = img.getexif().get(0x0112, 1)
    return _TURNS.get(orientation), orientation in (5, 6, 7, 8)


def decode_upright_rgb(img, work_long_side: int = WORK_LONG_SIDE):
    """Decode an opened PIL image as EXIF-upright 8-bit RGB; a big JPEG is decoded downscaled
    from the DCT (``Image.draft``), any other image over 2 x ``work_long_side`` is scaled down
    right after decoding. Returns ``(rgb PIL image, upright full width, upright full height)``.
    Callers check the header size first (:func:`size_problem`)."""
    w0, h0 = img.size
    if img.format == "JPEG" and max(w0, h0) > work_long_side:
        r = work_long_side / max(w0, h0)
        # at least MIN_SIDE (or all) pixels on the short side: a 10 x 65000 strip asked
        # for a zero-pixel draft and divided by zero
        img.draft("RGB", (max(int(w0 * r), min(w0, MIN_SIDE)), max(int(h0 * r), min(h0, MIN_SIDE))))
    turn, sideways = _exif_turn(img)
    img.load()
    img = _to_8bit(_scaled_down(img, work_long_side))
    # as ImageOps.exif_transpose, on the small image
    rgb = _to_rgb(img.transpose(turn) if turn is not None else img)
    upright_w, upright_h = (h0, w0) if sideways else (w0, h0)
    return rgb, upright_w, upright_h


def decode_checked(fp, formats=None, *, max_pixels: int = MAX_PIXELS, min_side: int = MIN_SIDE,
                   work_long_side: int = WORK_LONG_SIDE, verify: bool = False,
                   max_jpeg_pixels: int = MAX_JPEG_PIXELS) -> LoadedImage:
    """Open ``fp`` (a seekable file object), check its header size, (``verify``: check its
    structure with ``Image.verify``), decode it upright. Raises :class:`ImageError` (or a
    subclass) with the problem, not naming the source."""
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            # MAX_PIXELS is below Pillow's warning limit: its warning adds nothing to the check
            # here (which names the size); its error (twice that) still stops bigger headers
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            if Image.MAX_IMAGE_PIXELS and 2 * Image.MAX_IMAGE_PIXELS < max_jpeg_pixels:
                Image.MAX_IMAGE_PIXELS = max_jpeg_pixels // 2 + 1      # see MAX_JPEG_PIXELS
            img = Image.open(fp, formats=formats)
            limit = max(max_pixels, max_jpeg_pixels) if img.format == "JPEG" else max_pixels
            problem = size_problem(*img.size, limit, min_side)
            if problem is not None:
                raise problem
            if verify:
                img.verify()
                fp.seek(0)
                img = Image.open(fp, formats=formats)
            rgb, upright_w, upright_h = decode_upright_rgb(img, work_long_side)
    except ImageError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise ImageTooLarge(f"the image is too large to decode safely (decompression bomb guard: {exc})") from None
    except UnidentifiedImageError:
        raise ImageUnsupported("not an image, or not one in a format this reader knows "
                               "(JPEG, PNG, WebP, HEIC, AVIF, BMP, TIFF, GIF)") from None
    except MemoryError:
        raise ImageTooLarge("the image is too large to decode in the memory available") from None
    except Exception as exc:                 # noqa: BLE001 - OSError, SyntaxError, EOFError, ... from a decoder
        detail = str(exc).strip()                # the decoder's words, never Python's class name
        raise ImageError("the image is damaged or truncated" + (f" ({detail})" if detail else "")) from None
    arr = np.ascontiguousarray(np.asarray(rgb))
    return LoadedImage(arr, upright_w, upright_h, arr.shape[1] / upright_w)


def decode_region(source: str | Path | bytes, window, scale: float,
                  max_pixels: int = REGION_MAX_PIXELS) -> np.ndarray:
    """The upright photo's ``window`` (x0, y0, x1, y1 in full-resolution pixels) as 8-bit RGB at
    ``scale`` pixels per full-resolution pixel (<= 1), decoded again from ``source`` (a path or
    the bytes). A JPEG is decoded from its DCT at the coarsest 1/2^k scale at or above ``scale``,
    then the window is cut out and resized; the whole decode is kept under ``max_pixels`` (a
    coarser ``scale`` where it would not be). The source was read once already
    (:func:`decode_checked`), so a failure here is an :class:`ImageError` like any other."""
    import cv2
    from PIL import Image

    fh = open_regular(source) if isinstance(source, (str, Path)) else io.BytesIO(source)
    try:
        with fh, warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            img = Image.open(fh)
            w0, h0 = img.size
            scale = min(scale, 1.0, (max_pixels / float(w0 * h0)) ** 0.5)
            if img.format == "JPEG":
                # the DCT decodes at 1/1, 1/2, 1/4 or 1/8: the coarsest at or above ``scale``,
                # unless that one is over ``max_pixels`` (48 MP asked at 0.58 would decode whole)
                k = max([d for d in (1, 2, 4, 8) if 1.0 / d >= scale - 1e-9], default=1)
                while k < 8 and w0 * h0 / (k * k) > max_pixels:
                    k *= 2
                scale = min(scale, 1.0 / k)
                img.draft("RGB", (max(1, int(np.ceil(w0 / k))), max(1, int(np.ceil(h0 / k)))))
            turn, sideways = _exif_turn(img)
            img.load()
            img = _to_8bit(img)
            if turn is not None:
                img = img.transpose(turn)
            upright_w = h0 if sideways else w0
            k = img.size[0] / upright_w                   # decoded pixels per full-resolution pixel
            x0, y0, x1, y1 = (int(round(v * k)) for v in window)
            x0, y0 = max(0, x0), max(0, y0)
            x1, y1 = min(img.size[0], max(x1, x0 + 1)), min(img.size[1], max(y1, y0 + 1))
            rgb = np.asarray(_to_rgb(img.crop((x0, y0, x1, y1))))
    except ImageError:
        raise
    except Exception as exc:                 # noqa: BLE001 - the decoder's own error, as decode_checked
        detail = str(exc).strip()
        raise ImageError("the image could not be decoded again for a closer look" + (f" ({detail})" if detail else "")) from None
    want = (max(1, round((window[2] - window[0]) * scale)), max(1, round((window[3] - window[1]) * scale)))
    if (rgb.shape[1], rgb.shape[0]) != want:
        shrink = want[0] < rgb.shape[1]
        rgb = cv2.resize(rgb, want, interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)
    return np.ascontiguousarray(rgb)


def open_regular(path: str | Path):
    """Open ``path`` for reading only if it is a regular file: a FIFO would block forever and
    a device never ends. Opened non-blocking, then checked on the open descriptor."""
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise ImageError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ImageError(f"{path}: is a directory, not an image") from None
    except OSError as exc:
        raise ImageError(f"{path}: cannot open ({exc.strerror or exc})") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        what = "a directory" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else "not a regular file"
        raise ImageError(f"{path}: is {what}, not an image file")
    if hasattr(os, "set_blocking"):
        os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def load_image(path: str | Path, work_long_side: int = WORK_LONG_SIDE) -> LoadedImage:
    """Read ``path`` as an EXIF-upright RGB array; raise ImageError naming the file and the problem."""
    with open_regular(path) as fh:
        if os.fstat(fh.fileno()).st_size == 0:
            raise ImageError(f"{path}: the file is empty (0 bytes), not an image")
        try:
            return replace(decode_checked(fh, work_long_side=work_long_side), source=str(path))
        except ImageError as exc:
            raise type(exc)(f"{path}: {exc}") from None
