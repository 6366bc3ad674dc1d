"""Rasterise the committed vector tile art into the PNG faces the synthetic generator reads.

Run once after changing the SVGs (needs CairoSVG): ``python -m mjscore.datasets.art.build_faces``.
The PNGs are committed so that generating scenes needs only Pillow/OpenCV.
Each face is a transparent glyph layer (no tile body), 3:4, ``FACE_HEIGHT`` pixels high,
named ``<kind>.png`` or ``<kind>~<variant>.png`` with ``kind`` a token of ``vision.kinds.KINDS``.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

ART = Path(__file__).resolve().parent
FACE_HEIGHT = 128

FLUFFY_NAMES = {
    **{f"Man{n}": f"{n}m" for n in range(1, 10)},
    **{f"Pin{n}": f"{n}p" for n in range(1, 10)},
    **{f"Sou{n}": f"{n}s" for n in range(1, 10)},
    "Man5-Dora": "5m~dora", "Pin5-Dora": "5p~dora", "Sou5-Dora": "5s~dora",
    "Ton": "E", "Nan": "S", "Shaa": "W", "Pei": "N", "Chun": "R", "Hatsu": "G", "Haku": "Wh",
    **{f"Flower{n}": f"f{n}" for n in range(1, 5)},
    **{f"Season{n}": f"j{n}" for n in range(1, 5)},
}

UNI_NAMES = {
    **{f"t_ch{n}": f"{n}m" for n in range(1, 10)},
    **{f"t_do{n}": f"{n}p" for n in range(1, 10)},
    **{f"t_ba{n}": f"{n}s" for n in range(1, 10)},
    "t_wi_east": "E", "t_wi_south": "S", "t_wi_west": "W", "t_wi_north": "N",
    "t_dr_red": "R", "t_dr_green": "G", "t_dr_white": "Wh",
    "t_fl_plum": "f1", "t_fl_orchid": "f2", "t_fl_chrysanthemum": "f3", "t_fl_bamboo": "f4",
    "t_se_spring": "j1", "t_se_summer": "j2", "t_se_fall": "j3", "t_se_winter": "j4",
}


def _fit(img, height: int = FACE_HEIGHT):
    """Scale a glyph layer onto a transparent 3:4 canvas, keeping its aspect ratio."""
    from PIL import Image

    width = height * 3 // 4
    img = img.convert("RGBA")
    scale = min(width / img.width, height / img.height)
    img = img.resize((max(1, round(img.width * scale)), max(1, round(img.height * scale))), Image.LANCZOS)
    canvas = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    canvas.alpha_composite(img, ((width - img.width) // 2, (height - img.height) // 2))
    return canvas


def build_riichi(src: Path, out: Path) -> int:
    import cairosvg
    from PIL import Image

    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for stem, kind in FLUFFY_NAMES.items():
        svg = src / f"{stem}.svg"
        if not svg.exists():
            continue
        png = cairosvg.svg2png(url=str(svg), output_height=FACE_HEIGHT)
        _fit(Image.open(io.BytesIO(png))).save(out / f"{kind}.png", optimize=True)
        count += 1
    return count


def build_uni(sheet: Path, out: Path) -> int:
    """Cut the Commons sheet into faces using the positions of its ``<use>`` cells (75x100)."""
    import cairosvg
    from PIL import Image

    out.mkdir(parents=True, exist_ok=True)
    text = sheet.read_text(encoding="utf-8")
    scale = 2
    page = Image.open(io.BytesIO(cairosvg.svg2png(url=str(sheet), output_width=675 * scale)))
    count = 0
    for m in re.finditer(r'<use xlink:href="#(t_[a-z_0-9]+)" width="75" height="100"([^>]*)/>', text):
        name, rest = m.group(1), m.group(2)
        if name not in UNI_NAMES:
            continue
        x = float((re.search(r'\bx="([\d.]+)"', rest) or [0, 0])[1])
        y = float((re.search(r'\by="([\d.]+)"', rest) or [0, 0])[1])
        cell = page.crop((int(x * scale), int(y * scale), int((x + 75) * scale), int((y + 100) * scale)))
        _fit(cell).save(out / f"{UNI_NAMES[name]}.png", optimize=True)
        count += 1
    return count


def main() -> None:
    faces = ART / "faces"
    print("fluffystuff", build_riichi(ART / "fluffystuff", faces / "fluffystuff"))
    print("xhokir", build_riichi(ART / "xhokir", faces / "xhokir"))
    print("commons-uni", build_uni(ART / "commons-uni" / "uni.svg", faces / "commons-uni"))


if __name__ == "__main__":
    main()
