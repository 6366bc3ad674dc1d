"""Extract tile faces from optional (GPL) art installed by ``install_art.sh`` into
``<cache>/faces/<set>/<kind>.png``, the form ``datasets.synth.art`` reads.  Never committed.

Sources (each skipped with a message when missing):
- KMahjongg tilesets ``/usr/share/kmahjongglib/tilesets/{default,traditional,jade,classic}.svgz``,
  exported element by element (``CHARACTER_n``, ``ROD_n``, ``BAMBOO_n``, ``WIND_1..4`` = N S E W,
  ``DRAGON_1..3`` = white green red, ``FLOWER_n``, ``SEASON_n``) over the element's *logical*
  rectangle with librsvg (needs ``gi`` + ``Rsvg``, i.e. Debian python3-gi + gir1.2-rsvg-2.0:
  run with the system ``python3``);
- gnome-mahjongg ``themes/smooth.png`` and ``themes/postmodern.svg`` (a strip of 43 tiles);
- xmahjongg ``tiles/real.gif`` (scans of a real set, 9 x 5 grid).

Runs with the standard library plus whichever of gi/cairo, Pillow, CairoSVG it finds, so
``install_art.sh`` calls it with both the system Python and the project's venv."""

from __future__ import annotations

import argparse
import gzip
import io
import sys
from pathlib import Path

SUITED = [f"{n}{s}" for s in "mps" for n in range(1, 10)]
KMAHJONGG_SETS = ["default", "traditional", "jade", "classic"]
KMAHJONGG_IDS = {
    **{f"CHARACTER_{n}": f"{n}m" for n in range(1, 10)},
    **{f"ROD_{n}": f"{n}p" for n in range(1, 10)},
    **{f"BAMBOO_{n}": f"{n}s" for n in range(1, 10)},
    "WIND_1": "N", "WIND_2": "S", "WIND_3": "E", "WIND_4": "W",
    "DRAGON_1": "Wh", "DRAGON_2": "G", "DRAGON_3": "R",
    **{f"FLOWER_{n}": f"f{n}" for n in range(1, 5)},
    **{f"SEASON_{n}": f"j{n}" for n in range(1, 5)},
}
# gnome-mahjongg strip order (43 tiles, the last one blank)
GNOME_ORDER = ([f"{n}p" for n in range(1, 10)] + ["N", "W", "S", "E", "R", "G"]
               + [f"{n}m" for n in range(1, 10)] + [f"{n}s" for n in range(1, 10)]
               + ["f2", "f3", "f1", "f4", "Wh", "j1", "j2", "j3", "j4", None])
# xmahjongg real.gif: 9 columns x 5 rows
REAL_GRID = [
    [f"{n}p" for n in range(1, 10)],
    [f"{n}s" for n in range(1, 10)],
    [f"{n}m" for n in range(1, 10)],
    ["j1", "j2", "j3", "j4", "N", "S", "E", "W", None],
    ["f1", "f2", "f3", "f4", "G", "Wh", "R", None, None],
]
FACE_H = 128


def kmahjongg(cache: Path, tilesets: Path = Path("/usr/share/kmahjongglib/tilesets")) -> None:
    try:
        import cairo
        import gi

        gi.require_version("Rsvg", "2.0")
        from gi.repository import Rsvg
    except (ImportError, ValueError) as exc:
        print(f"kmahjongg: skipped, needs python3-gi + gir1.2-rsvg-2.0 + python3-gi-cairo ({exc})")
        return
    for name in KMAHJONGG_SETS:
        path = tilesets / f"{name}.svgz"
        if not path.exists():
            print(f"kmahjongg: {path} not installed (apt-get install kdegames-mahjongg-data-kf5)")
            continue
        handle = Rsvg.Handle.new_from_data(gzip.open(path).read())
        _, dw, dh = handle.get_intrinsic_size_in_pixels()
        viewport = Rsvg.Rectangle()
        viewport.x, viewport.y, viewport.width, viewport.height = 0, 0, dw, dh
        out = cache / "faces" / f"kmahjongg-{name}"
        out.mkdir(parents=True, exist_ok=True)
        count = 0
        for element, kind in KMAHJONGG_IDS.items():
            ok, _ink, logical = handle.get_geometry_for_layer(f"#{element}", viewport)
            if not ok or logical.width <= 0:
                continue
            fw = round(FACE_H * logical.width / logical.height)
            surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, fw, FACE_H)
            cr = cairo.Context(surface)
            cr.scale(fw / logical.width, FACE_H / logical.height)
            cr.translate(-logical.x, -logical.y)
            handle.render_layer(cr, f"#{element}", viewport)
            surface.write_to_png(str(out / f"{kind}.png"))
            count += 1
        # the face colour of the set's tile body, for sets whose glyphs are light (jade)
        ok, _ink, logical = handle.get_geometry_for_layer("#TILE_1", viewport)
        if ok:
            surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, 32, 32)
            cr = cairo.Context(surface)
            cr.scale(32 / logical.width, 32 / logical.height)
            cr.translate(-logical.x, -logical.y)
            handle.render_layer(cr, "#TILE_1", viewport)
            data = surface.get_data()
            i = (16 * surface.get_stride()) + 12 * 4  # BGRA, premultiplied, opaque here
            b, g, r = data[i], data[i + 1], data[i + 2]
            (out / "FACE").write_text(f"{r} {g} {b}\n")
        print(f"kmahjongg-{name}: {count} faces")


def _save_crops(img, boxes: dict, out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    (out / "OPAQUE").write_text("faces include their own face colour\n")
    for kind, box in boxes.items():
        face = img.crop(box).convert("RGBA")
        face = face.resize((round(FACE_H * face.width / face.height), FACE_H))
        face.save(out / f"{kind}.png")
    return len(boxes)


def gnome(cache: Path) -> None:
    try:
        from PIL import Image
    except ImportError:
        print("gnome-mahjongg: skipped, needs Pillow")
        return
    themes = cache / "gnome-mahjongg" / "usr" / "share" / "gnome-mahjongg" / "themes"
    smooth = themes / "smooth.png"
    if smooth.exists():
        img = Image.open(smooth).convert("RGBA")
        tw = img.width // 43
        th = img.height // 2
        boxes = {k: (i * tw + tw * 10 // 96, th * 2 // 132, i * tw + tw * 92 // 96, th * 112 // 132)
                 for i, k in enumerate(GNOME_ORDER) if k}
        print(f"gnome-smooth: {_save_crops(img, boxes, cache / 'faces' / 'gnome-smooth')} faces")
    else:
        print(f"gnome-mahjongg: {smooth} missing (apt-get download gnome-mahjongg; dpkg-deb -x)")
    svg = themes / "postmodern.svg"
    if svg.exists():
        try:
            import cairosvg
        except ImportError:
            print("gnome-postmodern: skipped, needs CairoSVG")
            return
        img = Image.open(io.BytesIO(cairosvg.svg2png(url=str(svg), scale=3))).convert("RGBA")
        tw, th = img.width // 43, img.height // 2
        # its flowers and seasons are abstract pictures whose order cannot be checked, and its
        # white dragon is a logo: leave those kinds to the procedural faces
        boxes = {k: (i * tw + tw * 9 // 64, th * 2 // 88, i * tw + tw * 62 // 64, th * 79 // 88)
                 for i, k in enumerate(GNOME_ORDER) if k and k[0] not in "fj" and k != "Wh"}
        print(f"gnome-postmodern: {_save_crops(img, boxes, cache / 'faces' / 'gnome-postmodern')} faces")


def xmahjongg(cache: Path) -> None:
    try:
        from PIL import Image
    except ImportError:
        print("xmahjongg: skipped, needs Pillow")
        return
    gif = cache / "xmahjongg" / "usr" / "share" / "games" / "xmahjongg" / "tiles" / "real.gif"
    if not gif.exists():
        print(f"xmahjongg: {gif} missing (apt-get download xmahjongg; dpkg-deb -x)")
        return
    img = Image.open(gif).convert("RGB")
    cw, ch = img.width / 9, img.height / 5
    boxes = {}
    for r, row in enumerate(REAL_GRID):
        for c, kind in enumerate(row):
            if kind:
                boxes[kind] = (int(c * cw + 3), int(r * ch + 3), int(c * cw + cw - 5), int(r * ch + ch - 6))
    print(f"xmahjongg-real: {_save_crops(img, boxes, cache / 'faces' / 'xmahjongg-real')} faces")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="extract optional tile art into the art cache")
    ap.add_argument("--cache", type=Path, default=Path(__file__).resolve().parents[2] / "data" / "art-cache")
    args = ap.parse_args(argv)
    args.cache.mkdir(parents=True, exist_ok=True)
    kmahjongg(args.cache)
    gnome(args.cache)
    xmahjongg(args.cache)
    return 0


if __name__ == "__main__":
    sys.exit(main())
