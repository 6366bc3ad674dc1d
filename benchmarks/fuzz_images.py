"""Fuzz the photo readers with odd image files: ``mjscore scan --json`` and ``POST /api/scan``.

    python benchmarks/fuzz_images.py --count 300 [--seed 1] [--keep DIR]

Writes ``count`` odd files (truncated, zero-byte, wrong extension, huge dimensions in a tiny
file, thin, 1-bit, 16-bit, palette, CMYK, alpha, HEIC/AVIF/WebP, random bytes, EXIF
rotations, animated GIF, a hand far off in a 12 MP frame, ...) made from a bundled sample photo,
and runs each

- through the CLI (``mjscore scan --json``, a subprocess with a timeout; files go in chunks
  of ``--chunk`` per process, and a chunk with any problem is rerun file by file to name it);
- through the web app (``fastapi.testclient.TestClient`` on ``mjscore.web.app.create_app``,
  POST /api/scan, the shipped recognizer).

Counts tracebacks (a ``Traceback`` in the output, an HTTP 500), hangs (timeouts), exit codes
other than the documented 0 (read) and 1 (a photo that cannot be read), and HTTP statuses
other than 200, 400, 413 and 415. Exit status 1 when any of those is found.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "synthetic" / "app_example.jpg"
CLI_EXITS = {0, 1}
WEB_STATUSES = {200, 400, 413, 415}


def _base(rng: random.Random) -> Image.Image:
    img = Image.open(SAMPLE).convert("RGB")
    side = rng.choice([96, 240, 480, 800])
    img.thumbnail((side, side))
    return img


def _save(img: Image.Image, fmt: str, **kw) -> bytes:
    buf = io.BytesIO()
    img.save(buf, fmt, **kw)
    return buf.getvalue()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _png_header_bomb(w: int, h: int, bits: int = 1, colour: int = 0) -> bytes:
    ihdr = struct.pack(">IIBBBBB", w, h, bits, colour, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", zlib.compress(b"\0" * 4000)) + _chunk(b"IEND", b"")


def _jpeg_with_size(data: bytes, w: int, h: int) -> bytes:
    """A JPEG whose SOF header claims ``w`` x ``h`` (the scan data stays small)."""
    i = 2
    while i < len(data) - 9:
        marker, length = data[i + 1], struct.unpack(">H", data[i + 2:i + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            return data[:i + 5] + struct.pack(">HH", h, w) + data[i + 9:]
        i += 2 + length
    return data


def _heic(img: Image.Image) -> bytes:
    import pillow_heif

    buf = io.BytesIO()
    pillow_heif.from_pillow(img).save(buf, quality=60)
    return buf.getvalue()


def make_case(n: int, rng: random.Random) -> tuple[str, str, bytes]:
    """``(kind, file name, bytes)`` of the n-th odd file."""
    img = _base(rng)
    kinds = [
        ("truncated", lambda: (".jpg", _save(img, "JPEG")[:rng.randint(0, 3000)])),
        ("truncated_png", lambda: (".png", (d := _save(img, "PNG"))[:rng.randint(0, len(d) - 1)])),
        ("zero_byte", lambda: (rng.choice([".jpg", ".png", ".heic"]), b"")),
        ("wrong_extension", lambda: (rng.choice([".jpg", ".heic", ".gif"]), _save(img, rng.choice(["PNG", "WEBP", "BMP"])))),
        ("bomb_png", lambda: (".png", _png_header_bomb(rng.choice([13000, 30000, 65535]), rng.choice([13000, 30000, 65535]),
                                                      rng.choice([1, 8]), rng.choice([0, 2])))),
        ("bomb_jpeg", lambda: (".jpg", _jpeg_with_size(_save(img, "JPEG"), rng.choice([13000, 30000, 65500]),
                                                       rng.choice([13000, 30000, 65500])))),
        ("thin", lambda: ((".jpg", _save(Image.new("RGB", (10, 65000), (200, 90, 40)), "JPEG"))
                          if rng.random() < 0.5 else (".png", _save(Image.new("L", (65000, 9), 128), "PNG")))),
        ("tiny", lambda: (rng.choice([".png", ".jpg"]), _save(img.resize((rng.randint(1, 20), rng.randint(1, 20))), "PNG"))),
        ("one_bit", lambda: (".png", _save(img.convert("1"), "PNG"))),
        ("grey16", lambda: (".png", _save(Image.fromarray((np.asarray(img.convert("L")).astype(np.uint16) * 257)), "PNG"))),
        ("palette", lambda: (".png", _save(img.convert("P", palette=Image.Palette.ADAPTIVE, colors=rng.randint(2, 256)),
                                           "PNG", transparency=0))),
        ("cmyk", lambda: (".jpg", _save(img.convert("CMYK"), "JPEG"))),
        ("alpha", lambda: (".png", _save(img.convert("RGBA") if rng.random() < 0.5 else img.convert("LA"), "PNG"))),
        ("heic", lambda: (".heic", _heic(img))),
        ("avif", lambda: (".avif", _save(img, "AVIF", quality=50))),
        ("webp", lambda: (".webp", _save(img, "WEBP", lossless=rng.random() < 0.3))),
        ("random_bytes", lambda: (rng.choice([".jpg", ".png", ".heic", ".webp"]),
                                  rng.choice([b"", b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n", b"RIFF\0\0\0\0WEBP",
                                              b"\0\0\0\x18ftypheic"]) + rng.randbytes(rng.randint(1, 5000)))),
        ("exif_rotation", lambda: (".jpg", _save(img, "JPEG", exif=_exif(rng.randint(0, 9))))),
        ("animated_gif", lambda: (".gif", _save(img, "GIF", save_all=True, append_images=[img.rotate(90), img.rotate(180)]))),
        ("tiff16", lambda: (".tif", _save(Image.fromarray(np.asarray(img.convert("L")).astype(np.uint16) * 200), "TIFF"))),
        ("float_tiff", lambda: (".tif", _save(Image.fromarray(np.asarray(img.convert("L")).astype(np.float32) / 255), "TIFF"))),
        ("bit_flips", lambda: (".jpg", _flip(_save(img, "JPEG"), rng))),
        ("far_off", lambda: _far_off(rng)),
    ]
    kind, make = kinds[n % len(kinds)]
    suffix, data = make()
    return kind, f"{n:04}_{kind}{suffix}", data


def _far_off(rng: random.Random) -> tuple[str, bytes]:
    """The sample pasted small into a 12 MP frame (the closer look decodes the file a second
    time), as JPEG with any EXIF turn, CMYK JPEG, WebP or PNG."""
    small = Image.open(SAMPLE).convert("RGB")
    small.thumbnail((rng.choice([300, 500, 800]),) * 2)
    frame = Image.new("RGB", (4000, 3000), (40, 90, 60))
    frame.paste(small, (rng.randint(0, 4000 - small.width), rng.randint(0, 3000 - small.height)))
    fmt = rng.choice(["JPEG", "CMYK", "WEBP", "PNG"])
    if fmt == "CMYK":
        return ".jpg", _save(frame.convert("CMYK"), "JPEG")
    if fmt == "JPEG":
        return ".jpg", _save(frame, "JPEG", exif=_exif(rng.randint(1, 8)))
    return f".{fmt.lower()}", _save(frame, fmt)


def _exif(orientation: int) -> Image.Exif:
    exif = Image.Exif()
    exif[0x0112] = orientation
    return exif


def _flip(data: bytes, rng: random.Random) -> bytes:
    b = bytearray(data)
    for _ in range(rng.randint(1, 20)):
        b[rng.randrange(len(b))] = rng.randrange(256)
    return bytes(b)


@dataclass
class Tally:
    files: int = 0
    tracebacks: list[str] = field(default_factory=list)
    hangs: list[str] = field(default_factory=list)
    bad_status: list[str] = field(default_factory=list)
    outcomes: Counter = field(default_factory=Counter)

    @property
    def clean(self) -> bool:
        return not (self.tracebacks or self.hangs or self.bad_status)

    def text(self, name: str) -> str:
        return (f"{name}: {self.files} files, {len(self.tracebacks)} tracebacks, {len(self.hangs)} hangs, "
                f"{len(self.bad_status)} undocumented statuses; outcomes {dict(sorted(self.outcomes.items()))}")


def _cli(paths: list[Path], timeout: float) -> tuple[str, int | None]:
    cmd = [sys.executable, "-m", "mjscore.cli", "scan", "--json", *map(str, paths)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
        return p.stdout + p.stderr, p.returncode
    except subprocess.TimeoutExpired:
        return "", None


def run_cli(paths: list[Path], chunk: int, timeout: float) -> Tally:
    tally = Tally(files=len(paths))
    for i in range(0, len(paths), chunk):
        group = paths[i:i + chunk]
        out, rc = _cli(group, timeout * len(group))
        if rc in CLI_EXITS and "Traceback" not in out and out.count('"image"') == len(group):
            for line in out.splitlines():
                if line.startswith("{"):
                    tally.outcomes["error" if "error" in json.loads(line) else "read"] += 1
            continue
        for path in group:                                   # find the file that did it
            out, rc = _cli([path], timeout)
            if rc is None:
                tally.hangs.append(path.name)
            elif "Traceback" in out:
                tally.tracebacks.append(path.name)
            elif rc not in CLI_EXITS:
                tally.bad_status.append(f"{path.name}: exit {rc}")
            tally.outcomes[f"exit {rc}"] += 1
    return tally


def run_web(paths: list[Path], timeout: float) -> Tally:
    from fastapi.testclient import TestClient

    from mjscore.web.app import create_app

    tally = Tally(files=len(paths))
    with tempfile.TemporaryDirectory() as tmp:
        client = TestClient(create_app(db_path=Path(tmp) / "s.sqlite3"), raise_server_exceptions=False)
        for path in paths:
            box: dict = {}

            def post():
                box["r"] = client.post("/api/scan", files={"photo": (path.name, path.read_bytes(), "image/jpeg")})
            t = threading.Thread(target=post, daemon=True)
            t.start()
            t.join(timeout)
            if t.is_alive():
                tally.hangs.append(path.name)
                continue
            r = box["r"]
            tally.outcomes[r.status_code] += 1
            if r.status_code == 500 or "Traceback" in r.text:
                tally.tracebacks.append(f"{path.name}: {r.status_code} {r.text[:200]}")
            elif r.status_code not in WEB_STATUSES:
                tally.bad_status.append(f"{path.name}: HTTP {r.status_code}")
    return tally


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--chunk", type=int, default=10, help="files per CLI process")
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds per file")
    ap.add_argument("--keep", type=Path, help="write the files here (kept) instead of a temporary folder")
    ap.add_argument("--only", choices=["cli", "web"], help="run one front end only")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        paths = []
        for n in range(args.count):
            kind, name, data = make_case(n, rng)
            (folder / name).write_bytes(data)
            paths.append(folder / name)
        print(f"{len(paths)} files in {folder}")
        ok = True
        for front, run in (("cli", lambda: run_cli(paths, args.chunk, args.timeout)),
                           ("web", lambda: run_web(paths, args.timeout))):
            if args.only and args.only != front:
                continue
            start = time.perf_counter()
            tally = run()
            print(tally.text(front) + f" ({time.perf_counter() - start:.0f} s)")
            for what in ("tracebacks", "hangs", "bad_status"):
                for item in getattr(tally, what):
                    print(f"  {what}: {item}")
            ok = ok and tally.clean
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
