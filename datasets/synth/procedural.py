"""Procedurally drawn tile faces: pips, bamboo sticks, characters, winds, dragons, and many
flower/season designs (pictures, characters, big corner numbers), in varied fonts and colours.

``draw_glyph(kind, rng)`` returns an RGBA glyph layer (transparent background, 3:4), the same
form as the committed art.  Without a CJK font the character tiles use Latin letters and
digits, like many Western sets do."""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw

from .fonts import choose_font, cjk_fonts, latin_fonts, load_font

W, H = 96, 128
SS = 2  # supersampling

CN_NUM = "一二三四五六七八九"
WIND_CHAR = {"E": "東", "S": "南", "W": "西", "N": "北"}
FLOWER_CHAR = "梅蘭菊竹"
SEASON_CHAR = "春夏秋冬"
SEASON_EN = ["SPRING", "SUMMER", "AUTUMN", "WINTER"]
FLOWER_EN = ["PLUM", "ORCHID", "CHRYS", "BAMBOO"]
# Unicode mahjong block (U+1F000..): our token -> code point
UNICODE_TILE = {
    "E": 0x1F000, "S": 0x1F001, "W": 0x1F002, "N": 0x1F003, "R": 0x1F004, "G": 0x1F005, "Wh": 0x1F006,
    **{f"{n}m": 0x1F006 + n for n in range(1, 10)},
    **{f"{n}s": 0x1F00F + n for n in range(1, 10)},
    **{f"{n}p": 0x1F018 + n for n in range(1, 10)},
    "f1": 0x1F022, "f2": 0x1F023, "f4": 0x1F024, "f3": 0x1F025,
    "j1": 0x1F026, "j2": 0x1F027, "j3": 0x1F028, "j4": 0x1F029, "X": 0x1F02B,
}

BLUE = [(20, 40, 140), (30, 60, 170), (10, 30, 90), (40, 40, 60)]
RED = [(190, 20, 20), (160, 10, 30), (210, 40, 30)]
GREEN = [(20, 120, 50), (10, 100, 70), (40, 140, 40)]
BLACK = [(15, 15, 15), (40, 30, 30)]

# standard circle-pip positions on a unit face (x, y in 0..1)
PIP_POS = {
    1: [(0.5, 0.5)],
    2: [(0.5, 0.27), (0.5, 0.73)],
    3: [(0.25, 0.22), (0.5, 0.5), (0.75, 0.78)],
    4: [(0.3, 0.3), (0.7, 0.3), (0.3, 0.7), (0.7, 0.7)],
    5: [(0.27, 0.25), (0.73, 0.25), (0.5, 0.5), (0.27, 0.75), (0.73, 0.75)],
    6: [(0.3, 0.2), (0.7, 0.2), (0.3, 0.53), (0.7, 0.53), (0.3, 0.8), (0.7, 0.8)],
    7: [(0.22, 0.15), (0.5, 0.25), (0.78, 0.35), (0.3, 0.6), (0.7, 0.6), (0.3, 0.85), (0.7, 0.85)],
    8: [(0.3, 0.14), (0.7, 0.14), (0.3, 0.38), (0.7, 0.38), (0.3, 0.62), (0.7, 0.62), (0.3, 0.86), (0.7, 0.86)],
    9: [(x, y) for y in (0.2, 0.5, 0.8) for x in (0.2, 0.5, 0.8)],
}
STICK_POS = {
    2: [(0.5, 0.3), (0.5, 0.7)],
    3: [(0.5, 0.3), (0.3, 0.7), (0.7, 0.7)],
    4: [(0.3, 0.3), (0.7, 0.3), (0.3, 0.7), (0.7, 0.7)],
    5: [(0.25, 0.3), (0.75, 0.3), (0.5, 0.5), (0.25, 0.7), (0.75, 0.7)],
    6: [(x, y) for y in (0.3, 0.7) for x in (0.2, 0.5, 0.8)],
    7: [(0.5, 0.17)] + [(x, y) for y in (0.5, 0.8) for x in (0.2, 0.5, 0.8)],
    8: [(x, y) for y in (0.3, 0.7) for x in (0.14, 0.38, 0.62, 0.86)],
    9: [(x, y) for y in (0.18, 0.5, 0.82) for x in (0.2, 0.5, 0.8)],
}


def _pick(rng: np.random.Generator, seq):
    return seq[int(rng.integers(len(seq)))]


def _jitter(colour, rng, amount=25):
    return tuple(int(np.clip(c + rng.integers(-amount, amount + 1), 0, 255)) for c in colour)


def _canvas():
    img = Image.new("RGBA", (W * SS, H * SS), (0, 0, 0, 0))
    return img, ImageDraw.Draw(img)


def _finish(img: Image.Image) -> np.ndarray:
    return np.asarray(img.resize((W, H), Image.LANCZOS))


def _text(draw, xy, text, font_path, size, fill, anchor="mm"):
    font = load_font(font_path, int(size * SS))
    draw.text((xy[0] * SS, xy[1] * SS), text, font=font, fill=fill, anchor=anchor)


def _fit_text(text: str, font_path: str | None, box_w: float, box_h: float) -> int:
    """Largest font size (in output pixels) at which ``text`` fits the box."""
    size = int(box_h)
    while size > 6:
        font = load_font(font_path, size * SS)
        x0, y0, x1, y1 = font.getbbox(text)
        if (x1 - x0) <= box_w * SS and (y1 - y0) <= box_h * SS:
            return size
        size -= 3
    return 6


def _circle_pip(draw, cx, cy, r, colours, rng, style: int | None = None):
    style = int(rng.integers(3)) if style is None else style
    outer, inner = colours
    x, y, r = cx * SS, cy * SS, r * SS
    draw.ellipse((x - r, y - r, x + r, y + r), outline=outer, width=max(2, int(r * 0.22)))
    if style == 0:
        ri = r * 0.45
        draw.ellipse((x - ri, y - ri, x + ri, y + ri), fill=inner)
    elif style == 1:
        ri = r * 0.6
        draw.ellipse((x - ri, y - ri, x + ri, y + ri), outline=inner, width=max(2, int(r * 0.15)))
        rj = r * 0.2
        draw.ellipse((x - rj, y - rj, x + rj, y + rj), fill=outer)
    else:
        for k in range(8):
            a = k * math.pi / 4
            px, py = x + math.cos(a) * r * 0.55, y + math.sin(a) * r * 0.55
            rk = r * 0.14
            draw.ellipse((px - rk, py - rk, px + rk, py + rk), fill=inner)


def _circles(n: int, rng) -> np.ndarray:
    img, draw = _canvas()
    blue, red, green = _pick(rng, BLUE), _pick(rng, RED), _pick(rng, GREEN)
    palette = [(blue, red), (green, blue), (red, blue), (blue, green)]
    style = None
    if rng.random() < 0.35:
        # one-colour sets (e.g. dark-blue rosettes on every circle tile): the count, not the
        # colour pattern, must tell 2p from 4p
        ink = _pick(rng, [blue, green, (20, 30, 60), (30, 30, 30)])
        palette, style = [(ink, ink)], int(rng.integers(3))
    pos = PIP_POS[n]
    r = {1: 34, 2: 21, 3: 16, 4: 17, 5: 15, 6: 14, 7: 11, 8: 11, 9: 13}[n] * rng.uniform(0.85, 1.05)
    mx, my = rng.uniform(0.06, 0.14), rng.uniform(0.05, 0.1)
    for i, (px, py) in enumerate(pos):
        cols = palette[(i + (n == 5 and i == 2)) % len(palette)] if n != 1 or style is not None else (blue, red)
        cx, cy = (mx + px * (1 - 2 * mx)) * W, (my + py * (1 - 2 * my)) * H
        _circle_pip(draw, cx, cy, r, cols, rng, style)
    return _finish(img)


def _stick(draw, cx, cy, w, h, colour):
    x0, y0, x1, y1 = (cx - w / 2) * SS, (cy - h / 2) * SS, (cx + w / 2) * SS, (cy + h / 2) * SS
    draw.rounded_rectangle((x0, y0, x1, y1), radius=w * SS * 0.4, outline=colour, width=max(2, int(w * SS * 0.2)))
    mid = (y0 + y1) / 2
    draw.line((x0, mid, x1, mid), fill=colour, width=max(2, int(w * SS * 0.18)))
    draw.line(((x0 + x1) / 2, y0 + 3, (x0 + x1) / 2, y1 - 3), fill=colour, width=max(1, int(w * SS * 0.12)))


def _bamboo(n: int, rng) -> np.ndarray:
    img, draw = _canvas()
    green, red, blue = _pick(rng, GREEN), _pick(rng, RED), _pick(rng, BLUE)
    if n == 1:
        style = int(rng.integers(3))
        if style == 0:  # a bird: body, head, tail, wing
            c = green
            draw.ellipse((26 * SS, 46 * SS, 70 * SS, 84 * SS), fill=c)
            draw.ellipse((56 * SS, 30 * SS, 76 * SS, 50 * SS), fill=red)
            draw.polygon([(76 * SS, 38 * SS), (88 * SS, 42 * SS), (76 * SS, 44 * SS)], fill=(200, 140, 20))
            draw.polygon([(30 * SS, 70 * SS), (8 * SS, 104 * SS), (22 * SS, 108 * SS), (40 * SS, 80 * SS)], fill=blue)
            draw.polygon([(36 * SS, 56 * SS), (58 * SS, 60 * SS), (44 * SS, 78 * SS)], fill=blue)
            draw.line((46 * SS, 84 * SS, 42 * SS, 104 * SS), fill=red, width=3 * SS)
            draw.line((56 * SS, 84 * SS, 58 * SS, 104 * SS), fill=red, width=3 * SS)
        elif style == 1:  # one large stick
            _stick(draw, W / 2, H / 2, 22, 96, green)
        else:  # a peacock-like fan of feathers
            for k in range(7):
                a = math.pi * (0.15 + 0.7 * k / 6)
                x, y = W / 2 + math.cos(a) * 36, H * 0.62 - math.sin(a) * 44
                draw.line((W / 2 * SS, H * 0.7 * SS, x * SS, y * SS), fill=green, width=3 * SS)
                draw.ellipse(((x - 6) * SS, (y - 6) * SS, (x + 6) * SS, (y + 6) * SS), fill=blue, outline=red, width=SS)
            draw.ellipse(((W / 2 - 10) * SS, H * 0.64 * SS, (W / 2 + 10) * SS, (H * 0.64 + 26) * SS), fill=red)
        return _finish(img)
    pos = STICK_POS[n]
    rows = len({p[1] for p in pos})
    sh = (H * 0.86 / rows) * 0.86
    sw = min(18, W * 0.8 / max(1, max(sum(1 for q in pos if q[1] == p[1]) for p in pos)) * 0.7)
    for i, (px, py) in enumerate(pos):
        colour = red if (n in (5, 7, 9) and (i == 2 or i == 0 and n == 7 or (n == 9 and i in (1, 4, 7)))) else green
        if n == 8 and rng.random() < 0.3:
            colour = blue
        _stick(draw, (0.08 + px * 0.84) * W, (0.06 + py * 0.88) * H, sw, sh, colour)
    return _finish(img)


def _characters(n: int, rng, cjk: str) -> np.ndarray:
    img, draw = _canvas()
    top = _pick(rng, BLUE + BLACK)
    _text(draw, (W / 2, H * 0.27), CN_NUM[n - 1], cjk, _fit_text(CN_NUM[n - 1], cjk, W * 0.8, H * 0.36), top)
    _text(draw, (W / 2, H * 0.7), "萬", cjk, _fit_text("萬", cjk, W * 0.85, H * 0.48), _pick(rng, RED))
    return _finish(img)


def _latin_suited(kind: str, rng, latin: str | None) -> np.ndarray:
    """Western style: a big number and the suit letter (no CJK font available or chosen)."""
    img, draw = _canvas()
    n, suit = kind[0], kind[1]
    colour = {"m": _pick(rng, RED), "p": _pick(rng, BLUE), "s": _pick(rng, GREEN)}[suit]
    letter = {"m": _pick(rng, ["C", "K", "M"]), "p": _pick(rng, ["D", "C", "P"]), "s": _pick(rng, ["B", "S"])}[suit]
    _text(draw, (W / 2, H * 0.4), n, latin, _fit_text(n, latin, W * 0.7, H * 0.5), colour)
    _text(draw, (W / 2, H * 0.8), letter, latin, _fit_text(letter, latin, W * 0.5, H * 0.25), _pick(rng, BLACK + BLUE))
    return _finish(img)


def _honour(kind: str, rng, cjk: str | None, latin: str | None) -> np.ndarray:
    img, draw = _canvas()
    if kind == "Wh":
        style = int(rng.integers(4))
        colour = _pick(rng, BLUE + BLACK + GREEN)
        if style == 0:
            return _finish(img)  # blank white dragon
        m = rng.uniform(0.12, 0.2)
        box = (W * m * SS, H * m * 0.9 * SS, W * (1 - m) * SS, H * (1 - m * 0.9) * SS)
        draw.rectangle(box, outline=colour, width=int(rng.integers(3, 7)) * SS)
        if style == 2:
            inner = (box[0] + 8 * SS, box[1] + 8 * SS, box[2] - 8 * SS, box[3] - 8 * SS)
            draw.rectangle(inner, outline=colour, width=2 * SS)
        if style == 3 and latin:
            _text(draw, (W / 2, H / 2), "P", latin, 30, colour)
        return _finish(img)
    if cjk is not None:
        char = {"R": "中", "G": "發"}.get(kind) or WIND_CHAR[kind]
        colour = {"R": _pick(rng, RED), "G": _pick(rng, GREEN)}.get(kind) or _pick(rng, BLUE + BLACK)
        _text(draw, (W / 2, H / 2), char, cjk, _fit_text(char, cjk, W * 0.88, H * 0.8), colour)
    else:
        letter = {"R": "R", "G": "G"}.get(kind, kind)
        colour = {"R": _pick(rng, RED), "G": _pick(rng, GREEN)}.get(kind) or _pick(rng, BLUE + BLACK)
        _text(draw, (W / 2, H / 2), letter, latin, _fit_text(letter, latin, W * 0.8, H * 0.7), colour)
    return _finish(img)


def _flower_picture(draw, cx, cy, r, petal, centre, leaf, rng, petals=5):
    draw.line((cx * SS, cy * SS, (cx + rng.uniform(-8, 8)) * SS, (cy + r * 2.2) * SS), fill=leaf, width=3 * SS)
    lx, ly = cx + r * 0.9, cy + r * 1.5
    draw.ellipse(((lx - r * 0.5) * SS, (ly - r * 0.25) * SS, (lx + r * 0.5) * SS, (ly + r * 0.25) * SS), fill=leaf)
    rot = rng.uniform(0, math.pi)
    for k in range(petals):
        a = rot + k * 2 * math.pi / petals
        px, py, pr = cx + math.cos(a) * r * 0.55, cy + math.sin(a) * r * 0.55, r * 0.48
        draw.ellipse(((px - pr) * SS, (py - pr) * SS, (px + pr) * SS, (py + pr) * SS), fill=petal)
    rc = r * 0.28
    draw.ellipse(((cx - rc) * SS, (cy - rc) * SS, (cx + rc) * SS, (cy + rc) * SS), fill=centre)


def _season_picture(draw, idx, cx, cy, r, rng):
    """Spring blossom, summer sun, autumn leaf, winter snowflake."""
    if idx == 0:
        _flower_picture(draw, cx, cy, r, _pick(rng, [(240, 120, 160), (220, 60, 90)]), (250, 220, 60), _pick(rng, GREEN), rng)
    elif idx == 1:
        col = _pick(rng, [(230, 120, 20), (220, 40, 20)])
        for k in range(12):
            a = k * math.pi / 6
            draw.line(((cx + math.cos(a) * r * 0.6) * SS, (cy + math.sin(a) * r * 0.6) * SS,
                       (cx + math.cos(a) * r) * SS, (cy + math.sin(a) * r) * SS), fill=col, width=3 * SS)
        rr = r * 0.48
        draw.ellipse(((cx - rr) * SS, (cy - rr) * SS, (cx + rr) * SS, (cy + rr) * SS), fill=col)
    elif idx == 2:
        col = _pick(rng, [(200, 90, 20), (170, 40, 20), (190, 150, 20)])
        pts = []
        for k in range(10):
            a = -math.pi / 2 + k * 2 * math.pi / 10
            rad = r if k % 2 == 0 else r * 0.55
            pts.append(((cx + math.cos(a) * rad) * SS, (cy + math.sin(a) * rad) * SS))
        draw.polygon(pts, fill=col)
        draw.line((cx * SS, cy * SS, cx * SS, (cy + r * 1.4) * SS), fill=(90, 50, 20), width=3 * SS)
    else:
        col = _pick(rng, BLUE + [(60, 140, 200)])
        for k in range(6):
            a = k * math.pi / 3
            x1, y1 = cx + math.cos(a) * r, cy + math.sin(a) * r
            draw.line((cx * SS, cy * SS, x1 * SS, y1 * SS), fill=col, width=3 * SS)
            for f in (0.55,):
                bx, by = cx + math.cos(a) * r * f, cy + math.sin(a) * r * f
                for s in (-1, 1):
                    b = a + s * 0.7
                    draw.line((bx * SS, by * SS, (bx + math.cos(b) * r * 0.3) * SS, (by + math.sin(b) * r * 0.3) * SS),
                              fill=col, width=2 * SS)


def _bonus(kind: str, rng, cjk: str | None, latin: str | None) -> np.ndarray:
    """Flowers and seasons: picture and/or character and/or English word, plus a number 1-4."""
    img, draw = _canvas()
    idx = int(kind[1]) - 1
    is_flower = kind[0] == "f"
    design = int(rng.integers(5))
    num_col = _pick(rng, RED + BLUE + GREEN + BLACK)
    char = (FLOWER_CHAR if is_flower else SEASON_CHAR)[idx]
    if design in (0, 1, 2):  # picture with number (and character)
        cx, cy, r = W * rng.uniform(0.45, 0.55), H * rng.uniform(0.5, 0.58), W * rng.uniform(0.2, 0.28)
        if is_flower:
            petal = _pick(rng, [(220, 40, 60), (240, 130, 170), (150, 60, 190), (240, 190, 30), (230, 110, 20)])
            if idx == 3:  # bamboo picture
                g = _pick(rng, GREEN)
                for k in range(3):
                    x = cx - r + k * r
                    draw.line((x * SS, (cy - r * 1.4) * SS, x * SS, (cy + r * 1.7) * SS), fill=g, width=5 * SS)
                    draw.polygon([(x * SS, cy * SS), ((x + r * 0.9) * SS, (cy - r * 0.4) * SS), ((x + r * 0.3) * SS, (cy + r * 0.1) * SS)], fill=g)
            else:
                _flower_picture(draw, cx, cy, r, petal, (250, 220, 60), _pick(rng, GREEN), rng, petals=[5, 4, 12][idx])
        else:
            _season_picture(draw, idx, cx, cy, r, rng)
        corner = (W * 0.2, H * 0.15) if rng.random() < 0.6 else (W * 0.8, H * 0.15)
        _text(draw, corner, str(idx + 1), latin, int(rng.integers(16, 26)), num_col)
        if design == 1 and cjk:
            _text(draw, (W * 0.8 if corner[0] < W / 2 else W * 0.2, H * 0.15), char, cjk, 20, _pick(rng, BLUE + BLACK))
        if design == 2:
            word = (FLOWER_EN if is_flower else SEASON_EN)[idx]
            _text(draw, (W / 2, H * 0.9), word, latin, _fit_text(word, latin, W * 0.85, 14), _pick(rng, BLACK + BLUE))
    elif design == 3 and cjk:  # big character with number
        _text(draw, (W / 2, H * 0.58), char, cjk, _fit_text(char, cjk, W * 0.8, H * 0.6), _pick(rng, RED + GREEN + BLUE))
        _text(draw, (W * 0.2, H * 0.14), str(idx + 1), latin, 20, num_col)
    else:  # big number, small caption
        _text(draw, (W / 2, H * 0.45), str(idx + 1), latin, _fit_text("4", latin, W * 0.7, H * 0.55), num_col)
        caption = char if cjk else ("F" if is_flower else "S")
        _text(draw, (W / 2, H * 0.84), caption, cjk or latin, 20, _pick(rng, BLACK + BLUE))
    return _finish(img)


def face_family(kind: str) -> str:
    """Which drawing a face design needs for ``kind``: "p", "s", "m" (suits), "honour" or
    "bonus"; ValueError for a back or an unknown token."""
    if kind[-1:] in ("p", "s", "m") and kind[:1].isdigit():
        return kind[-1]
    if kind in ("E", "S", "W", "N", "R", "G", "Wh"):
        return "honour"
    if kind[:1] in ("f", "j") and kind[1:] in ("1", "2", "3", "4"):
        return "bonus"
    raise ValueError(f"no face to draw for kind {kind!r}")


def draw_glyph(kind: str, rng: np.random.Generator, cjk: str | None = None,
               latin: str | None = None) -> np.ndarray:
    """A procedural RGBA glyph layer for ``kind`` (not ``X``)."""
    family = face_family(kind)
    if family == "p":
        return _circles(int(kind[0]), rng)
    if family == "s":
        return _bamboo(int(kind[0]), rng)
    if family == "m":
        return _characters(int(kind[0]), rng, cjk) if cjk else _latin_suited(kind, rng, latin)
    return (_honour if family == "honour" else _bonus)(kind, rng, cjk, latin)


def unicode_glyph(kind: str, font_path: str, colour=(20, 20, 20)) -> np.ndarray:
    """The Unicode mahjong-block glyph of ``kind`` drawn with a symbol font (NotoSansSymbols2)."""
    img, draw = _canvas()
    ch = chr(UNICODE_TILE[kind])
    font = load_font(font_path, int(H * 1.0 * SS))
    x0, y0, x1, y1 = draw.textbbox((0, 0), ch, font=font)
    scale = min(W * SS * 0.98 / max(1, x1 - x0), H * SS * 0.98 / max(1, y1 - y0))
    layer = Image.new("RGBA", (x1 - x0 + 4, y1 - y0 + 4), (0, 0, 0, 0))
    ImageDraw.Draw(layer).text((-x0 + 2, -y0 + 2), ch, font=font, fill=colour)
    layer = layer.resize((max(1, int(layer.width * scale)), max(1, int(layer.height * scale))), Image.LANCZOS)
    img.alpha_composite(layer, ((W * SS - layer.width) // 2, (H * SS - layer.height) // 2))
    return _finish(img)


def procedural_fonts(rng: np.random.Generator) -> tuple[str | None, str | None]:
    """Pick a (CJK, Latin) font pair for one procedural set; CJK is None when none is installed
    or, sometimes, to draw a Western letters-only set.  The same three numbers are drawn
    whatever is installed (see ``fonts``)."""
    western, cjk_draw, latin_draw = rng.random() >= 0.8, int(rng.integers(2**31)), int(rng.integers(2**31))
    cjk = None if western else choose_font(cjk_fonts(), cjk_draw)
    return cjk, choose_font(latin_fonts(), latin_draw)
