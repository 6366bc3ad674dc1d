"""Hand-made tile layouts for the layout and scan tests: tiles placed as on a table
(rows of groups with gaps, sideways tiles, any photo rotation, perspective shrink), turned
into the TileRead list a recognizer would return. No tests here."""

from __future__ import annotations

import math
import re

from mjscore.vision.types import TileRead

TOKEN_SIDE = re.compile(r"(Wh|[1-9][mps]|[ESWNRGX]|[fj][1-4])(\^?)")
RUN = re.compile(r"((?:[1-9]\^?)+)([mps])")
DIGIT = re.compile(r"([1-9])(\^?)")


def tokens(group: str) -> list[tuple[str, bool]]:
    """'55^5p' or '5p^5p5p' style: ``^`` after a tile marks it sideways; compact suits expand."""
    group = re.sub(r"P", "Wh", re.sub(r"C", "R", re.sub(r"F", "G", group)))   # Dutch letters
    expanded = RUN.sub(lambda m: "".join(d + m.group(2) + side for d, side in DIGIT.findall(m.group(1))), group)
    out = []
    pos = 0
    for m in TOKEN_SIDE.finditer(expanded):
        assert m.start() == pos, f"bad token at {expanded[pos:]!r}"
        out.append((m.group(1), bool(m.group(2))))
        pos = m.end()
    assert pos == len(expanded), f"bad token at {expanded[pos:]!r}"
    return out


def place(rows: list[list[str]], *, rotate: float = 0.0, width: float = 40.0, height: float = 54.0,
          gap: float = 0.8, row_gap: float = 0.6, spacing: float = 0.03, shrink: float = 0.0,
          origin: tuple[float, float] = (900.0, 700.0), confidence: float = 0.95,
          offsets: dict[int, float] | None = None) -> list[TileRead]:
    """Lay rows of groups out (row 0 furthest from the camera) and photograph them rotated by
    ``rotate`` degrees counter-clockwise. ``gap``: space between groups in tile widths;
    ``shrink``: perspective, the further rows are this much smaller per row;
    ``offsets``: extra space (tile widths) before the k-th tile of the photo."""
    reads: list[TileRead] = []
    a = math.radians(rotate)
    quarter = int(round(rotate / 90.0)) % 4 * 90
    y = 0.0
    k = 0
    for r, row in enumerate(rows):
        scale = 1.0 - shrink * (len(rows) - 1 - r)
        w, h = width * scale, height * scale
        x = 0.0
        for g, group in enumerate(row):
            if g:
                x += gap * w
            for tok, side in tokens(group):
                x += (offsets or {}).get(k, 0.0) * w
                tw, th = (h, w) if side else (w, h)
                cx, cy = x + tw / 2, y + h - th / 2          # sideways tiles sit on the row's base
                # rotate the centre and the rectangle counter-clockwise (image y points down)
                rx = origin[0] + cx * math.cos(a) + cy * math.sin(a)
                ry = origin[1] - cx * math.sin(a) + cy * math.cos(a)
                bw = tw * abs(math.cos(a)) + th * abs(math.sin(a))
                bh = tw * abs(math.sin(a)) + th * abs(math.cos(a))
                angle = (quarter + (90 if side else 0)) % 360
                reads.append(TileRead(tok, (rx - bw / 2, ry - bh / 2, rx + bw / 2, ry + bh / 2),
                                      confidence, (), angle))
                x += tw + spacing * w
                k += 1
        y += h * (1 + row_gap)
    return reads


def table_rows(hand: dict, *, two_rows: bool = True, sideways: bool = False) -> list[list[str]]:
    """Rows of a table holding a spec §1.3 hand: exposed sets (and declared kongs, shown
    with the outer tiles face down) in front, the concealed tiles plus the winning tile in the
    rack row, flowers/seasons laid aside. ``sideways`` turns the first tile of each exposed
    pung sideways (a claimed discard)."""
    sets = []
    for meld in hand.get("melds", []):
        inner = meld[1:-1]
        toks = [t for t, _ in tokens(inner)]
        if meld.startswith("{") and "X" not in toks:
            toks = ["X"] + toks[1:3] + ["X"]
        if sideways and meld.startswith("[") and len(set(toks)) == 1:
            toks[0] += "^"
        sets.append("".join(toks))
    concealed = hand.get("concealed", "") + hand.get("winning_tile", "")
    bonus = list(hand.get("bonus", []))
    if two_rows:
        front = sets + bonus
        return [front, [concealed]] if front else [[concealed]]
    return [[concealed] + sets + bonus]
