"""A tile-face design no training batch may draw: the held-out style ("unseen" art).

Why: the synthetic hold-out is held out by seed only; every art family and procedural design
it draws is also in the training batches (session 35), so its figures say little about a set
the networks never saw.  This design is drawn only when a generator is asked for
``--art unseen`` (``style.make_style(..., unseen=True)``); ``--art all`` / ``committed`` /
``repo``, the crop banks and the live bonus faces never reach it, so a scene batch of it is a
proxy for "another player's set" that stays honest as long as nobody trains on it.

What differs from the training designs (``procedural.py``, ``vision/training/bonus_faces.py``):

- circles are cash coins (a disc with a square hole and a rim), bamboo sticks are solid rods
  narrowed at two nodes, 1-bamboo is a long-necked bird made of polygons;
- characters print the numeral over 萬 (or the simplified 万) in colours that are often the reverse
  of the training ones (red over dark, or both red), with a small Arabic digit in the left margin;
- winds carry their Latin letter small in the top left corner, or sit in a ring like a seal;
  中 and 發/发 are sometimes framed; the white dragon is a zig-zag frame;
- flowers and seasons carry their index as a Roman numeral or as 一二三四 in a filled badge,
  the character in a coloured side band or big, and pictures of a vase with star blossoms
  (flowers) or a landscape with mountains (seasons: blossoms, sun over waves, falling maple
  leaves, snow).

The pictures always match the kind, as on real sets.  Fonts are those of the procedural
faces (what is installed); without a CJK font the character, wind and bonus faces use Latin
letters, so a machine without fonts still draws every kind.
"""

from __future__ import annotations

import math

import numpy as np

from . import procedural as P
from .fonts import covers

ROMAN = ["I", "II", "III", "IV"]
SIMPLE_CN = {"萬": "万", "發": "发", "蘭": "兰"}
TEAL, CRIMSON, OCHRE, INDIGO = (20, 110, 110), (170, 20, 50), (190, 130, 20), (40, 30, 110)
LATIN_KIND = {"E": "E", "S": "S", "W": "W", "N": "N", "R": "C", "G": "F"}


def _coin(draw, cx: float, cy: float, r: float, ink, rim) -> None:
    """A cash coin: disc, rim ring, square hole (left transparent)."""
    s = P.SS
    draw.ellipse(((cx - r) * s, (cy - r) * s, (cx + r) * s, (cy + r) * s), fill=ink)
    ri = r * 0.78
    draw.ellipse(((cx - ri) * s, (cy - ri) * s, (cx + ri) * s, (cy + ri) * s), outline=rim, width=max(1, int(r * 0.12 * s)))
    h = r * 0.3
    draw.rectangle(((cx - h) * s, (cy - h) * s, (cx + h) * s, (cy + h) * s), fill=(0, 0, 0, 0))


def _coins(n: int, rng) -> np.ndarray:
    img, draw = P._canvas()
    scheme = [(TEAL, CRIMSON), (INDIGO, OCHRE), (CRIMSON, TEAL), (OCHRE, INDIGO)][int(rng.integers(4))]
    r = {1: 36, 2: 22, 3: 17, 4: 18, 5: 15, 6: 14, 7: 11.5, 8: 11.5, 9: 13}[n] * rng.uniform(0.9, 1.05)
    mx, my = rng.uniform(0.08, 0.12), rng.uniform(0.06, 0.09)
    for i, (px, py) in enumerate(P.PIP_POS[n]):
        ink, rim = scheme if (i + n) % 2 == 0 or n in (2, 4, 6, 8) else scheme[::-1]
        _coin(draw, (mx + px * (1 - 2 * mx)) * P.W, (my + py * (1 - 2 * my)) * P.H, r, ink, rim)
    return P._finish(img)


def _rod(draw, cx: float, cy: float, w: float, h: float, colour) -> None:
    """A solid bamboo rod, narrowed at two nodes marked by a dark line, with a dark spine."""
    s = P.SS
    x0, y0, x1, y1 = (cx - w / 2) * s, (cy - h / 2) * s, (cx + w / 2) * s, (cy + h / 2) * s
    draw.rounded_rectangle((x0, y0, x1, y1), radius=w * s * 0.25, fill=colour)
    dark = tuple(int(c * 0.5) for c in colour)
    for f in (0.33, 0.66):
        y = y0 + (y1 - y0) * f
        for side, sign in ((x0, 1), (x1, -1)):   # the waist: small notches on both sides
            draw.polygon([(side, y - w * s * 0.25), (side + sign * w * s * 0.22, y), (side, y + w * s * 0.25)], fill=(0, 0, 0, 0))
        draw.line((x0 + w * s * 0.2, y, x1 - w * s * 0.2, y), fill=dark, width=max(1, int(w * s * 0.1)))
    draw.line(((x0 + x1) / 2, y0 + 2 * s, (x0 + x1) / 2, y1 - 2 * s), fill=dark, width=max(1, int(w * s * 0.08)))


def _bird(draw, rng) -> None:
    """1-bamboo: a crane-like bird of polygons (body, long neck, head, crest, legs)."""
    s = P.SS
    body, wing, crest = P._pick(rng, [TEAL, INDIGO]), P._pick(rng, [OCHRE, (40, 140, 60)]), CRIMSON
    draw.polygon([(20 * s, 78 * s), (70 * s, 66 * s), (60 * s, 96 * s)], fill=body)
    draw.polygon([(30 * s, 80 * s), (62 * s, 58 * s), (52 * s, 84 * s)], fill=wing)
    draw.line((64 * s, 70 * s, 70 * s, 30 * s), fill=body, width=4 * s)
    draw.ellipse((63 * s, 20 * s, 79 * s, 34 * s), fill=body)
    draw.polygon([(78 * s, 26 * s), (92 * s, 30 * s), (78 * s, 31 * s)], fill=OCHRE)
    draw.ellipse((66 * s, 16 * s, 74 * s, 23 * s), fill=crest)
    for x in (40, 52):
        draw.line((x * s, 92 * s, (x - 4) * s, 118 * s), fill=(60, 60, 60), width=2 * s)


def _rods(n: int, rng) -> np.ndarray:
    img, draw = P._canvas()
    if n == 1:
        _bird(draw, rng)
        return P._finish(img)
    green, accent = P._pick(rng, [(30, 120, 60), (20, 100, 90)]), P._pick(rng, [CRIMSON, INDIGO])
    pos = P.STICK_POS[n]
    rows = len({p[1] for p in pos})
    sh = (P.H * 0.86 / rows) * 0.84
    per_row = max(sum(1 for q in pos if q[1] == p[1]) for p in pos)
    sw = min(16, P.W * 0.8 / per_row * 0.62)
    for i, (px, py) in enumerate(pos):
        colour = accent if (n in (5, 7, 9) and i in (0, len(pos) - 1)) else green
        _rod(draw, (0.08 + px * 0.84) * P.W, (0.06 + py * 0.88) * P.H, sw, sh, colour)
    return P._finish(img)


def _cn(char: str, simplified: bool, font: str | None) -> str:
    """``char`` or its simplified form, which a traditional-only font (cwTeX) does not draw."""
    other = SIMPLE_CN.get(char, char)
    return other if simplified and other != char and covers(font, other) else char


def _characters(n: int, rng, cjk: str | None, latin: str | None) -> np.ndarray:
    img, draw = P._canvas()
    simplified = rng.random() < 0.5
    if cjk:
        num, wan = P.CN_NUM[n - 1], _cn("萬", simplified, cjk)
        top, bottom = [(P.RED, P.BLACK + [INDIGO]), (P.BLACK + [INDIGO], P.RED), (P.RED, P.RED)][int(rng.integers(3))]
        P._text(draw, (P.W * 0.56, P.H * 0.27), num, cjk, P._fit_text(num, cjk, P.W * 0.7, P.H * 0.34), P._pick(rng, top))
        P._text(draw, (P.W * 0.56, P.H * 0.7), wan, cjk, P._fit_text(wan, cjk, P.W * 0.72, P.H * 0.44), P._pick(rng, bottom))
    else:
        P._text(draw, (P.W * 0.56, P.H * 0.4), str(n), latin, P._fit_text(str(n), latin, P.W * 0.6, P.H * 0.5), P._pick(rng, P.RED))
        P._text(draw, (P.W * 0.56, P.H * 0.8), "M", latin, P._fit_text("M", latin, P.W * 0.4, P.H * 0.22), INDIGO)
    P._text(draw, (P.W * 0.1, P.H * 0.5), str(n), latin, 14, P._pick(rng, P.BLACK + [INDIGO]))
    return P._finish(img)


def _honour(kind: str, rng, cjk: str | None, latin: str | None) -> np.ndarray:
    img, draw = P._canvas()
    s = P.SS
    if kind == "Wh":
        colour, m = P._pick(rng, [INDIGO, TEAL]), rng.uniform(0.12, 0.18)
        x0, y0, x1, y1 = P.W * m, P.H * m, P.W * (1 - m), P.H * (1 - m)
        step = 8.0
        for (ax, ay, bx, by) in ((x0, y0, x1, y0), (x1, y0, x1, y1), (x1, y1, x0, y1), (x0, y1, x0, y0)):
            length = math.hypot(bx - ax, by - ay)
            k = max(2, int(length / step))
            nx, ny = -(by - ay) / length, (bx - ax) / length
            pts = [((ax + (bx - ax) * i / k + nx * (3 if i % 2 else -3)) * s,
                    (ay + (by - ay) * i / k + ny * (3 if i % 2 else -3)) * s) for i in range(k + 1)]
            draw.line(pts, fill=colour, width=2 * s)
        return P._finish(img)
    simplified = rng.random() < 0.5
    colour = {"R": P._pick(rng, P.RED), "G": P._pick(rng, P.GREEN)}.get(kind) or P._pick(rng, [INDIGO] + P.BLACK)
    char = _cn({"R": "中", "G": "發"}.get(kind) or P.WIND_CHAR[kind], simplified, cjk) if cjk else LATIN_KIND[kind]
    font = cjk or latin
    framed = rng.random() < 0.35
    if kind in "ESWN" and framed:  # a seal: the character in a ring
        r = P.W * 0.42
        draw.ellipse(((P.W / 2 - r) * s, (P.H / 2 - r) * s, (P.W / 2 + r) * s, (P.H / 2 + r) * s), outline=colour, width=3 * s)
        P._text(draw, (P.W / 2, P.H / 2), char, font, P._fit_text(char, font, r * 1.3, r * 1.3), colour)
    elif kind in "ESWN":  # the character, with its Latin letter small in the top left corner
        P._text(draw, (P.W * 0.55, P.H * 0.55), char, font, P._fit_text(char, font, P.W * 0.78, P.H * 0.7), colour)
        P._text(draw, (P.W * 0.12, P.H * 0.1), kind, latin, 15, P._pick(rng, P.RED + [INDIGO]))
    elif framed:  # dragons: the character in a frame
        m = 0.1
        draw.rectangle((P.W * m * s, P.H * m * s, P.W * (1 - m) * s, P.H * (1 - m) * s), outline=colour, width=3 * s)
        P._text(draw, (P.W / 2, P.H / 2), char, font, P._fit_text(char, font, P.W * 0.68, P.H * 0.68), colour)
    else:  # dragons: the character alone, a little above the middle
        P._text(draw, (P.W / 2, P.H * 0.46), char, font, P._fit_text(char, font, P.W * 0.86, P.H * 0.72), colour)
    return P._finish(img)


def _star(draw, cx: float, cy: float, r: float, points: int, fill, turn: float = 0.0) -> None:
    s = P.SS
    pts = []
    for k in range(points * 2):
        a = turn - math.pi / 2 + k * math.pi / points
        rad = r if k % 2 == 0 else r * 0.45
        pts.append(((cx + math.cos(a) * rad) * s, (cy + math.sin(a) * rad) * s))
    draw.polygon(pts, fill=fill)


def _vase(draw, idx: int, rng, box) -> None:
    """Flowers: a vase with stems; plum, orchid and chrysanthemum as star blossoms of 5, 3 and
    12 points, bamboo as leaves on stalks."""
    s = P.SS
    x0, y0, x1, y1 = box
    cx, w, h = (x0 + x1) / 2, x1 - x0, y1 - y0
    vase = P._pick(rng, [INDIGO, TEAL, (120, 80, 40)])
    draw.polygon([((cx - w * 0.22) * s, (y1 - h * 0.3) * s), ((cx + w * 0.22) * s, (y1 - h * 0.3) * s),
                  ((cx + w * 0.14) * s, y1 * s), ((cx - w * 0.14) * s, y1 * s)], fill=vase)
    stem = (40, 110, 50)
    tips = [(cx + w * d, y0 + h * (0.15 + 0.1 * abs(d) * 3)) for d in (-0.3, 0.0, 0.3)]
    for tx, ty in tips:
        draw.line((cx * s, (y1 - h * 0.3) * s, tx * s, ty * s), fill=stem if idx != 3 else (30, 130, 60), width=2 * s)
    if idx == 3:
        for tx, ty in tips:
            for d in (-1, 1):
                draw.polygon([(tx * s, ty * s), ((tx + d * w * 0.2) * s, (ty + h * 0.08) * s),
                              ((tx + d * w * 0.05) * s, (ty + h * 0.12) * s)], fill=(30, 130, 60))
        return
    petal = [(230, 120, 160), (150, 70, 190), (230, 170, 20)][idx]
    for tx, ty in tips:
        _star(draw, tx, ty, w * 0.14, [5, 3, 12][idx], petal, rng.uniform(0, 1))
        draw.ellipse(((tx - 2) * s, (ty - 2) * s, (tx + 2) * s, (ty + 2) * s), fill=(250, 230, 120))


def _landscape(draw, idx: int, rng, box) -> None:
    """Seasons: mountains, and blossoms (spring), a sun over waves (summer), falling maple
    leaves (autumn) or snow (winter)."""
    s = P.SS
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    hill = [(100, 140, 90), (70, 120, 70), (150, 110, 60), (120, 130, 150)][idx]
    draw.polygon([(x0 * s, y1 * s), ((x0 + w * 0.35) * s, (y0 + h * 0.35) * s), ((x0 + w * 0.7) * s, y1 * s)], fill=hill)
    draw.polygon([((x0 + w * 0.4) * s, y1 * s), ((x0 + w * 0.72) * s, (y0 + h * 0.5) * s), (x1 * s, y1 * s)],
                 fill=tuple(int(c * 0.8) for c in hill))
    if idx == 0:
        for _ in range(6):
            bx, by = x0 + w * rng.uniform(0.1, 0.9), y0 + h * rng.uniform(0.05, 0.4)
            _star(draw, bx, by, w * 0.07, 5, (235, 130, 170))
    elif idx == 1:
        sx, sy, r = x0 + w * 0.75, y0 + h * 0.2, w * 0.13
        draw.ellipse(((sx - r) * s, (sy - r) * s, (sx + r) * s, (sy + r) * s), fill=(230, 90, 20))
        for k in range(3):
            y = y1 - h * 0.05 - k * h * 0.07
            pts = [((x0 + w * i / 8) * s, (y + (2 if i % 2 else -2)) * s) for i in range(9)]
            draw.line(pts, fill=(40, 90, 170), width=2 * s)
    elif idx == 2:
        for _ in range(4):
            _star(draw, x0 + w * rng.uniform(0.1, 0.9), y0 + h * rng.uniform(0.05, 0.5), w * 0.09, 5,
                  P._pick(rng, [(200, 70, 20), (180, 40, 20), (210, 150, 20)]), rng.uniform(0, 1))
    else:
        draw.polygon([((x0 + w * 0.27) * s, (y0 + h * 0.5) * s), ((x0 + w * 0.35) * s, (y0 + h * 0.35) * s),
                      ((x0 + w * 0.43) * s, (y0 + h * 0.5) * s)], fill=(250, 250, 255))
        for _ in range(10):
            fx, fy = x0 + w * rng.uniform(0.05, 0.95), y0 + h * rng.uniform(0.0, 0.6)
            draw.ellipse(((fx - 1.6) * s, (fy - 1.6) * s, (fx + 1.6) * s, (fy + 1.6) * s), fill=(110, 150, 210))


def _badge(draw, xy, idx: int, cjk: str | None, latin: str | None, colour) -> None:
    """The index as 一二三四 (or a Latin digit without a CJK font) in white on a filled disc."""
    s, r = P.SS, 11
    x, y = xy
    draw.ellipse(((x - r) * s, (y - r) * s, (x + r) * s, (y + r) * s), fill=colour)
    text = "一二三四"[idx] if cjk else str(idx + 1)
    P._text(draw, (x, y), text, cjk or latin, P._fit_text(text, cjk or latin, r * 1.4, r * 1.4), (250, 250, 250))


def _bonus(kind: str, rng, cjk: str | None, latin: str | None) -> np.ndarray:
    img, draw = P._canvas()
    s = P.SS
    idx, flower = int(kind[1]) - 1, kind[0] == "f"
    char = _cn((P.FLOWER_CHAR if flower else P.SEASON_CHAR)[idx], rng.random() < 0.3, cjk)
    ink = P._pick(rng, [CRIMSON, INDIGO, TEAL])
    picture = _vase if flower else _landscape
    design = int(rng.integers(3))
    if design == 0:  # side band with the character, Roman numeral at the top, picture
        band = P._pick(rng, [CRIMSON, INDIGO, (40, 110, 60)])
        draw.rectangle((0, 0, P.W * 0.24 * s, P.H * s), fill=band)
        if cjk:
            P._text(draw, (P.W * 0.12, P.H * 0.5), char, cjk, P._fit_text(char, cjk, P.W * 0.2, P.H * 0.3), (250, 245, 230))
        P._text(draw, (P.W * 0.62, P.H * 0.12), ROMAN[idx], latin, P._fit_text(ROMAN[idx], latin, P.W * 0.4, P.H * 0.14), ink)
        picture(draw, idx, rng, (P.W * 0.3, P.H * 0.25, P.W * 0.95, P.H * 0.95))
    elif design == 1:  # picture over the whole face, the index in a badge at the bottom right
        picture(draw, idx, rng, (P.W * 0.08, P.H * 0.08, P.W * 0.92, P.H * 0.82))
        if cjk:
            P._text(draw, (P.W * 0.25, P.H * 0.9), char, cjk, 16, ink)
        _badge(draw, (P.W * 0.8, P.H * 0.88), idx, cjk, latin, ink)
    else:  # the character big, the Roman numeral under it, a small picture at the top
        picture(draw, idx, rng, (P.W * 0.3, P.H * 0.04, P.W * 0.7, P.H * 0.3))
        text = char if cjk else ("FLWR" if flower else "SEAS")
        P._text(draw, (P.W / 2, P.H * 0.58), text, cjk or latin, P._fit_text(text, cjk or latin, P.W * 0.7, P.H * 0.38), ink)
        P._text(draw, (P.W / 2, P.H * 0.88), ROMAN[idx], latin, P._fit_text(ROMAN[idx], latin, P.W * 0.4, P.H * 0.13), ink)
    return P._finish(img)


def draw_unseen_glyph(kind: str, rng: np.random.Generator, cjk: str | None = None,
                      latin: str | None = None) -> np.ndarray:
    """The held-out design's RGBA glyph layer for ``kind`` (not ``X``)."""
    family = P.face_family(kind)
    if family in ("p", "s", "m"):
        n = int(kind[0])
        return _coins(n, rng) if family == "p" else _rods(n, rng) if family == "s" else _characters(n, rng, cjk, latin)
    return (_honour if family == "honour" else _bonus)(kind, rng, cjk, latin)
