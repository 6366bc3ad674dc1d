"""Suit and honour faces drawn from a design grammar, for training: pips, sticks, characters and
honours of many shapes and colours, so that the classifier learns to count and to read glyphs
rather than one set's textures.

Why: on the held-out face design (``datasets/synth/unseen_faces.py``, session 36) the shipped
classifier reads 0.55 of the tiles on their true boxes (chinese-v4 valid 0.94): bamboo counts
(6s and 8s read 9s), winds, characters in other colours, and its embedding does not separate
that design's kinds either (a linear head taught on a third of its photos: 0.65). More designs
to learn from is the generic cure; this grammar varies along axes of its own and, so that the
held-out design stays an honest proxy, draws none of that design's elements (no coins with a
square hole, notched rods, polygon crane, ringed winds, framed dragons, zig-zag white dragon,
simplified 万/发, Roman numerals, badges, side bands, vases or landscapes).

- circles: ring-and-dot, filled disc with a highlight, double ring, rosette of petals, rounded
  square or hexagon pips, one to three colours of any hue, positions and sizes jittered;
- bamboo: stick (the procedural one), plain bar, ladder of two lines, bar with a diamond, or a
  leafy stick; 8s sometimes as two rows of slanted sticks (the M/W shape many sets print);
  1s a sparrow, a peacock fan, a big stick or the procedural bird;
- characters: 一..九 over 萬 in any colour pairing, sizes and places jittered, any CJK font;
- honours: winds and dragons in any colour and size; white dragon blank, framed once or twice,
  or a rounded frame with corner squares.

Flowers and seasons come from ``vision/training/bonus_faces.py`` in the classifier's crops
(``vision/training/varied_crops.py``) and from ``procedural`` in scenes (``--art varied``:
``varied_glyph``).
"""

from __future__ import annotations

import math

import numpy as np

from ...vision.kinds import BONUS as BONUS_KINDS, KINDS
from . import procedural as P

SUIT_HONOUR = [k for k in KINDS if k not in BONUS_KINDS and k != "X"]


def _hue(rng, dark: bool = True) -> tuple[int, int, int]:
    """A saturated ink of any hue (dark enough to read on ivory)."""
    import colorsys

    h, s, v = rng.random(), rng.uniform(0.55, 1.0), rng.uniform(0.3, 0.7) if dark else rng.uniform(0.6, 0.9)
    return tuple(int(c * 255) for c in colorsys.hsv_to_rgb(h, s, v))


def _palette(rng, n: int) -> list[tuple[int, int, int]]:
    return [_hue(rng) for _ in range(n)]


def _pip(draw, cx: float, cy: float, r: float, shape: int, cols) -> None:
    s = P.SS
    a, b = cols[0], cols[1 % len(cols)]
    x, y, r = cx * s, cy * s, r * s
    if shape == 0:
        draw.ellipse((x - r, y - r, x + r, y + r), outline=a, width=max(2, int(r * 0.22)))
        ri = r * 0.42
        draw.ellipse((x - ri, y - ri, x + ri, y + ri), fill=b)
    elif shape == 1:
        draw.ellipse((x - r, y - r, x + r, y + r), fill=a)
        rh = r * 0.3
        draw.ellipse((x - r * 0.45 - rh, y - r * 0.45 - rh, x - r * 0.45 + rh, y - r * 0.45 + rh), fill=(250, 250, 250))
    elif shape == 2:
        draw.ellipse((x - r, y - r, x + r, y + r), outline=a, width=max(2, int(r * 0.16)))
        ri = r * 0.62
        draw.ellipse((x - ri, y - ri, x + ri, y + ri), outline=b, width=max(2, int(r * 0.16)))
    elif shape == 3:
        for k in range(6):
            t = k * math.pi / 3
            px, py, pr = x + math.cos(t) * r * 0.55, y + math.sin(t) * r * 0.55, r * 0.42
            draw.ellipse((px - pr, py - pr, px + pr, py + pr), fill=a)
        rc = r * 0.32
        draw.ellipse((x - rc, y - rc, x + rc, y + rc), fill=b)
    elif shape == 4:
        draw.rounded_rectangle((x - r, y - r, x + r, y + r), radius=r * 0.35, outline=a, width=max(2, int(r * 0.22)))
        rc = r * 0.35
        draw.ellipse((x - rc, y - rc, x + rc, y + rc), fill=b)
    else:
        pts = [(x + math.cos(k * math.pi / 3) * r, y + math.sin(k * math.pi / 3) * r) for k in range(6)]
        draw.polygon(pts, outline=a, width=max(2, int(r * 0.2)))
        rc = r * 0.3
        draw.ellipse((x - rc, y - rc, x + rc, y + rc), fill=b)


def _circles(n: int, rng) -> np.ndarray:
    img, draw = P._canvas()
    shape = int(rng.integers(6))
    cols = _palette(rng, int(rng.integers(1, 4)))
    r = {1: 34, 2: 21, 3: 16, 4: 17, 5: 15, 6: 14, 7: 11, 8: 11, 9: 13}[n] * rng.uniform(0.8, 1.12)
    mx, my = rng.uniform(0.05, 0.15), rng.uniform(0.04, 0.11)
    for i, (px, py) in enumerate(P.PIP_POS[n]):
        px, py = px + rng.normal(0, 0.015), py + rng.normal(0, 0.012)
        c = [cols[(i + j) % len(cols)] for j in range(2)]
        _pip(draw, (mx + px * (1 - 2 * mx)) * P.W, (my + py * (1 - 2 * my)) * P.H, r, shape, c)
    return P._finish(img)


def _stick(draw, cx: float, cy: float, w: float, h: float, colour, style: int, angle: float = 0.0) -> None:
    s = P.SS
    if style == 0 and angle == 0:
        P._stick(draw, cx, cy, w, h, colour)
        return
    dx, dy = math.sin(angle) * h / 2, math.cos(angle) * h / 2
    top, bottom = ((cx - dx) * s, (cy - dy) * s), ((cx + dx) * s, (cy + dy) * s)
    if style in (0, 1):
        draw.line((top, bottom), fill=colour, width=max(2, int(w * s * 0.8)))
    elif style == 2:
        ox, oy = math.cos(angle) * w * 0.3 * s, -math.sin(angle) * w * 0.3 * s
        for sign in (-1, 1):
            draw.line(((top[0] + sign * ox, top[1] + sign * oy), (bottom[0] + sign * ox, bottom[1] + sign * oy)),
                      fill=colour, width=max(1, int(w * s * 0.18)))
        for f in (0.2, 0.5, 0.8):
            mxp, myp = top[0] + (bottom[0] - top[0]) * f, top[1] + (bottom[1] - top[1]) * f
            draw.line(((mxp - ox, myp - oy), (mxp + ox, myp + oy)), fill=colour, width=max(1, int(w * s * 0.15)))
    elif style == 3:
        draw.line((top, bottom), fill=colour, width=max(2, int(w * s * 0.5)))
        mxp, myp, d = (top[0] + bottom[0]) / 2, (top[1] + bottom[1]) / 2, w * s * 0.6
        draw.polygon([(mxp, myp - d), (mxp + d, myp), (mxp, myp + d), (mxp - d, myp)], fill=colour)
    else:
        draw.line((top, bottom), fill=colour, width=max(2, int(w * s * 0.55)))
        lx, ly = (top[0] + bottom[0]) / 2, (top[1] + bottom[1]) / 2 - h * s * 0.1
        draw.polygon([(lx, ly), (lx + w * s * 0.9, ly - h * s * 0.12), (lx + w * s * 0.2, ly + h * s * 0.05)], fill=colour)


def _one_bamboo(rng) -> np.ndarray:
    style = int(rng.integers(3))
    if style == 2:
        return P._bamboo(1, rng)  # the procedural bird, peacock or stick
    img, draw = P._canvas()
    s = P.SS
    body, head, tail = _hue(rng), _hue(rng), _hue(rng)
    if style == 0:  # a sparrow: round body, head, short tail, beak
        draw.ellipse((24 * s, 52 * s, 72 * s, 92 * s), fill=body)
        draw.ellipse((58 * s, 34 * s, 82 * s, 58 * s), fill=head)
        draw.polygon([(82 * s, 44 * s), (92 * s, 47 * s), (82 * s, 50 * s)], fill=(220, 160, 20))
        draw.polygon([(28 * s, 70 * s), (6 * s, 62 * s), (12 * s, 82 * s)], fill=tail)
        draw.line((44 * s, 92 * s, 42 * s, 110 * s), fill=head, width=2 * s)
        draw.line((54 * s, 92 * s, 56 * s, 110 * s), fill=head, width=2 * s)
    elif style == 1:  # a big stick with leaves
        _stick(draw, P.W / 2, P.H / 2, 18, 100, body, int(rng.integers(5)))
        for y in (40, 70):
            draw.polygon([(P.W / 2 * s, y * s), ((P.W / 2 + 28) * s, (y - 12) * s), ((P.W / 2 + 8) * s, (y + 4) * s)], fill=tail)
    return P._finish(img)


def _bamboo(n: int, rng) -> np.ndarray:
    if n == 1:
        return _one_bamboo(rng)
    img, draw = P._canvas()
    style = int(rng.integers(5))
    main = _hue(rng) if rng.random() < 0.3 else P._pick(rng, P.GREEN + [(30, 110, 90), (60, 130, 40)])
    accent = _hue(rng)
    if n == 8 and rng.random() < 0.35:  # two rows of four slanted sticks (M over W)
        for row, sign in ((0.28, 1), (0.72, -1)):
            for k in range(4):
                a = 0.35 * (1 if k % 2 == 0 else -1) * sign
                _stick(draw, (0.16 + k * 0.23) * P.W, row * P.H, 9, P.H * 0.36, main, style if style else 1, a)
        return P._finish(img)
    pos = P.STICK_POS[n]
    rows = len({p[1] for p in pos})
    sh = (P.H * 0.86 / rows) * rng.uniform(0.75, 0.9)
    per_row = max(sum(1 for q in pos if q[1] == p[1]) for p in pos)
    sw = min(18, P.W * 0.8 / per_row * rng.uniform(0.5, 0.75))
    for i, (px, py) in enumerate(pos):
        colour = accent if (n in (5, 7, 9) and i == len(pos) // 2 and rng.random() < 0.7) else main
        _stick(draw, (0.08 + px * 0.84) * P.W, (0.06 + py * 0.88) * P.H, sw, sh, colour, style)
    return P._finish(img)


def _characters(n: int, rng, cjk: tuple[str, ...]) -> np.ndarray:
    img, draw = P._canvas()
    font = P._pick(rng, cjk)
    num_col, wan_col = (_hue(rng), _hue(rng)) if rng.random() < 0.6 else (P._pick(rng, P.BLUE + P.BLACK), P._pick(rng, P.RED))
    top, bottom = rng.uniform(0.22, 0.32), rng.uniform(0.66, 0.74)
    num = P.CN_NUM[n - 1]
    P._text(draw, (P.W * rng.uniform(0.45, 0.55), P.H * top), num, font,
            P._fit_text(num, font, P.W * rng.uniform(0.6, 0.85), P.H * rng.uniform(0.28, 0.38)), num_col)
    P._text(draw, (P.W * rng.uniform(0.45, 0.55), P.H * bottom), "萬", font,
            P._fit_text("萬", font, P.W * rng.uniform(0.65, 0.88), P.H * rng.uniform(0.38, 0.5)), wan_col)
    return P._finish(img)


def _honour(kind: str, rng, cjk: tuple[str, ...]) -> np.ndarray:
    img, draw = P._canvas()
    s = P.SS
    if kind == "Wh":
        style, colour = int(rng.integers(4)), _hue(rng)
        m = rng.uniform(0.1, 0.2)
        box = (P.W * m * s, P.H * m * 0.9 * s, P.W * (1 - m) * s, P.H * (1 - m * 0.9) * s)
        if style == 1:
            draw.rectangle(box, outline=colour, width=int(rng.integers(3, 8)) * s)
        elif style == 2:
            draw.rectangle(box, outline=colour, width=3 * s)
            d = 7 * s
            draw.rectangle((box[0] + d, box[1] + d, box[2] - d, box[3] - d), outline=colour, width=2 * s)
        elif style == 3:
            draw.rounded_rectangle(box, radius=10 * s, outline=colour, width=3 * s)
            for cx, cy in ((box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3])):
                draw.rectangle((cx - 4 * s, cy - 4 * s, cx + 4 * s, cy + 4 * s), fill=colour)
        return P._finish(img)
    font = P._pick(rng, cjk)
    char = {"R": "中", "G": "發"}.get(kind) or P.WIND_CHAR[kind]
    if kind == "R":
        colour = P._pick(rng, P.RED) if rng.random() < 0.6 else _hue(rng)
    elif kind == "G":
        colour = P._pick(rng, P.GREEN) if rng.random() < 0.6 else _hue(rng)
    else:
        colour = _hue(rng)
    scale = rng.uniform(0.6, 0.92)
    P._text(draw, (P.W * rng.uniform(0.44, 0.56), P.H * rng.uniform(0.44, 0.56)), char, font,
            P._fit_text(char, font, P.W * scale, P.H * scale * 0.9), colour)
    return P._finish(img)


def varied_face(kind: str, rng: np.random.Generator, cjk: tuple[str, ...]) -> np.ndarray:
    """An RGBA face (procedural.W x H) of suit or honour ``kind`` from the grammar; character
    and honour tiles need a CJK font (``cjk`` non-empty)."""
    family = P.face_family(kind)
    if family in ("p", "s", "m"):
        n = int(kind[0])
        return _circles(n, rng) if family == "p" else _bamboo(n, rng) if family == "s" else _characters(n, rng, cjk)
    if family == "bonus":
        raise ValueError(f"flowers and seasons come from bonus_faces, not the grammar ({kind!r})")
    return _honour(kind, rng, cjk)


def varied_glyph(kind: str, rng: np.random.Generator, cjk: str | None = None,
                 latin: str | None = None) -> np.ndarray:
    """A scene style's glyph layer (``--art varied``): the grammar's suit and honour faces, the
    procedural flowers and seasons; without a CJK font the procedural Latin faces."""
    family = P.face_family(kind)
    if family == "bonus" or (not cjk and family in ("m", "honour") and kind != "Wh"):
        return P.draw_glyph(kind, rng, cjk, latin)
    return varied_face(kind, rng, (cjk,) if cjk else ())
