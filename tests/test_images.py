"""Odd image files (issue 14): every format decodes like its 8-bit JPEG copy, and every
file that cannot be read is a typed error naming the file and the problem, fast."""

from __future__ import annotations

import os
import struct
import threading
import zlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from PIL import Image
from typer.testing import CliRunner

from mjscore.errors import BAD_PHOTO, TOO_LARGE, UNSUPPORTED_TYPE, exit_status, http_status
from mjscore.vision.errors import ImageError
from mjscore.vision.imageio import MAX_PIXELS, load_image
from mjscore.web.photo import PhotoError, decode_photo

IMAGES = Path(__file__).parent / "data" / "images"
SAME_PICTURE = ["cmyk.jpg", "photo.heic", "photo.avif", "photo.webp", "rotated.jpg"]


def _ref() -> np.ndarray:
    return load_image(IMAGES / "ref.jpg").rgb.astype(int)


def bomb_png(width: int, height: int, mode: int = 0) -> bytes:
    """A PNG header of ``width`` x ``height`` 1-bit grey with one tiny IDAT: a few hundred bytes
    that would decode to ``width * height`` pixels."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    ihdr = struct.pack(">IIBBBBB", width, height, 1, mode, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 1000)) + chunk(b"IEND", b"")


@pytest.mark.parametrize("name", SAME_PICTURE)
def test_each_format_reads_like_the_8bit_jpeg(name):
    img = load_image(IMAGES / name)
    assert img.rgb.shape == (160, 160, 3) and img.rgb.dtype == np.uint8
    assert np.abs(img.rgb.astype(int) - _ref()).mean() < 4                 # JPEG/HEVC/AV1 noise only
    if name != "rotated.jpg":                                               # uploads too
        photo = decode_photo((IMAGES / name).read_bytes())
        assert np.abs(photo.rgb.astype(int) - _ref()).mean() < 4


def test_16_bit_grey_is_scaled_not_white():
    img = load_image(IMAGES / "grey16.png")
    grey = np.asarray(Image.open(IMAGES / "ref.jpg").convert("L")).astype(int)
    assert Image.open(IMAGES / "grey16.png").mode.startswith("I;16")
    assert np.abs(img.rgb[..., 0].astype(int) - grey).mean() < 4 and img.rgb.mean() < 200


def test_a_thin_jpeg_decodes(tmp_path):
    path = tmp_path / "thin.jpg"
    Image.new("RGB", (10, 65000), (200, 100, 50)).save(path)
    img = load_image(path)
    assert (img.width, img.height) == (10, 65000) and min(img.rgb.shape[:2]) >= 1


def _within(seconds: float, func):
    """``func()``'s outcome (value or exception), failing when it does not end in time."""
    box = {}

    def run():
        try:
            box["value"] = func()
        except BaseException as exc:          # noqa: BLE001 - handed back
            box["error"] = exc
    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), f"still blocked after {seconds} s"
    return box


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_without_blocking(tmp_path):
    from mjscore.vision import recognize_file

    fifo = tmp_path / "hand.jpg"
    os.mkfifo(fifo)
    for func in (load_image, recognize_file):
        error = _within(5, lambda: func(fifo)).get("error")
        assert isinstance(error, ImageError) and "FIFO" in str(error) and str(fifo) in str(error)


def test_a_decompression_bomb_is_refused_from_its_header(tmp_path):
    path = tmp_path / "bomb.png"
    path.write_bytes(bomb_png(13000, 13000))
    with pytest.raises(ImageError, match="13000x13000 pixels") as info:
        load_image(path)
    assert info.value.code == TOO_LARGE and exit_status(info.value) == 1 and str(path) in str(info.value)
    with pytest.raises(PhotoError) as web:
        decode_photo(path.read_bytes())
    assert http_status(web.value) == 413 and 13000 * 13000 > MAX_PIXELS
    r = CliRunner().invoke(__import__("mjscore.cli", fromlist=["app"]).app, ["scan", str(path), "--json"])
    assert r.exit_code == 1 and "13000x13000" in r.output and "Traceback" not in r.output


@pytest.mark.parametrize("data,code,words", [
    ((IMAGES / "ref.jpg").read_bytes()[:2500], BAD_PHOTO, "damaged or truncated"),
    (b"", BAD_PHOTO, "empty"),
    (b"plain text, not an image", UNSUPPORTED_TYPE, "not an image"),
])
def test_truncated_empty_and_foreign_files_are_typed_errors(tmp_path, data, code, words):
    path = tmp_path / "hand.jpg"
    path.write_bytes(data)
    with pytest.raises(ImageError, match=words) as info:
        load_image(path)
    assert info.value.code in (code, BAD_PHOTO, UNSUPPORTED_TYPE) and str(path) in str(info.value)


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=400), st.sampled_from([b"", b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n", b"RIFF\0\0\0\0WEBP",
                                                  b"\0\0\0\x18ftypheic", b"\0\0\0\x1cftypavif"]))
def test_random_bytes_are_typed_errors_never_crashes(data, magic):
    try:
        decode_photo(magic + data)
    except PhotoError as exc:
        assert http_status(exc) in (400, 413, 415)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, len((IMAGES / "photo.heic").read_bytes()) - 1), st.sampled_from(SAME_PICTURE + ["grey16.png"]))
def test_any_cut_of_a_good_file_reads_or_is_a_typed_error(cut, name):
    data = (IMAGES / name).read_bytes()[:cut]
    try:
        decode_photo(data)
    except PhotoError as exc:
        assert http_status(exc) in (400, 413, 415)


def test_the_web_scans_heic_and_refuses_a_bomb(tmp_path):
    from fastapi.testclient import TestClient

    from mjscore.web.app import create_app

    client = TestClient(create_app(recognize=lambda rgb: [], db_path=tmp_path / "s.sqlite3"))

    def post(name: str, data: bytes):
        return client.post("/api/scan", files={"photo": (name, data, "application/octet-stream")})
    ok = post("IMG_0001.HEIC", (IMAGES / "photo.heic").read_bytes())
    assert ok.status_code == 200 and ok.json()["width"] == 160
    bomb = post("bomb.png", bomb_png(13000, 13000))
    assert bomb.status_code == 413 and "13000x13000" in bomb.json()["detail"]


def test_a_very_large_phone_jpeg_is_shrunk_on_decode_not_refused(tmp_path):
    """Issue 16: 63 MP and larger phone photos read (decoded from the DCT at a reduced
    scale); a PNG of the same size is still refused from its header (a bomb guard)."""
    from PIL import Image

    from mjscore.vision.imageio import MAX_JPEG_PIXELS, ImageTooLarge

    big = Image.new("L", (9600, 7200), 128)                     # 69 MP, over MAX_PIXELS
    big.paste(255, (4000, 3000, 5600, 4200))
    path = tmp_path / "phone.jpg"
    big.save(path, quality=70)
    loaded = load_image(path)
    assert (loaded.width, loaded.height) == (9600, 7200) and 9600 * 7200 > MAX_PIXELS
    assert max(loaded.rgb.shape[:2]) <= 2400 and loaded.scale < 0.25
    y, x = int(3600 * loaded.scale), int(4800 * loaded.scale)
    assert loaded.rgb[y, x].min() > 240 and loaded.rgb[2, 2].max() < 140   # the white patch where it was
    png = tmp_path / "big.png"
    Image.new("1", (9600, 7200)).save(png)
    with pytest.raises(ImageTooLarge) as refused:
        load_image(png)
    assert "MP" in str(refused.value) and 9600 * 7200 < MAX_JPEG_PIXELS
