"""Hand-made tile layouts for the layout and scan tests: tiles placed as on a table
(rows of groups with gaps, sideways tiles, any photo rotation, perspective shrink), turned
into the TileRead list a recognizer would return. No tests here."""

from __future__ import annotations

import math
import re

from vision.types import TileRead

TOKEN = re.compile(r"Wh|[1-9][mps]|[ESWNRGX]|[fj][1-4]")


def tokens(group: str) -> list[tuple[str, bool]]:
    """'55^5p' style: ``^`` after a tile marks it sideways. Compact suits expand: '234m'."""
    out: list[tuple[str, bool]] = []
    i = 0
    pending: list[tuple[str, bool]] = []
    while i < len(group):
        ch = group[i]
        if ch.isdigit():
            side = i + 1 < len(group) and group[i + 1] == "^"
            pending.append((ch, side))
            i += 2 if side else 1
            continue
        if ch in "mps" and pending:
            out += [(d + ch, side) for d, side in pending]
            pending = []
            i += 1
            continue
        m = TOKEN.match(group, i)
        assert m, f"bad token at {group[i:]!r}"
        side = m.end() < len(group) and group[m.end()] == "^"
        out.append((m.group(0), side))
        i = m.end() + (1 if side else 0)
    assert not pending, group
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
