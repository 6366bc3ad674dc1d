"""Where the tiles of a random training scene lie on the table: rows, a rack, loose tiles,
a packed grid, standing rows, and the props (a rack's ledge, scoring sticks, chips) around
them.  Pure functions of a random generator and the set's tile dimensions; the hand layout
lives in ``hand_layout``."""

from __future__ import annotations

import math

import numpy as np

from ...scoring.tiles import BONUS, DRAGONS, WINDS
from ...vision.kinds import KINDS

from .geometry import Placement

HONOURS = WINDS + DRAGONS


# Single tiles favour the kinds that sets and hands rarely contain (flowers, seasons), and
# fewer backs (racks seen from behind and concealed kongs add many),
# so that over a dataset every kind is about equally frequent (see tests/test_synth_scenes.py).
_BALANCED = np.array([1.6 if k in BONUS else 0.7 if k == "X" else 1.2 if k in HONOURS else 1.0 for k in KINDS])
_WEIGHTS = _BALANCED / _BALANCED.sum()


def favour_kinds(favour: dict[str, float] | None = None) -> None:
    """Draw single tiles of these kinds ``factor`` times as often (``generate --favour X=4``),
    for a batch aimed at what the recognizer misses; ``None`` restores the balanced mix. Hands
    keep their own kinds (concealed kongs add face-down tiles there)."""
    global _WEIGHTS
    w = _BALANCED.copy()
    for kind, factor in (favour or {}).items():
        w[KINDS.index(kind)] *= factor
    _WEIGHTS = w / w.sum()


def _kind(rng) -> str:
    return KINDS[int(rng.choice(len(KINDS), p=_WEIGHTS))]


def _pose_for(kind: str, rng) -> str:
    return "down" if kind == "X" else "up"


def layout_rows(rng, dims) -> list[Placement]:
    """1-4 rows of flat tiles, in sets with gaps, some sideways, some face down."""
    out: list[Placement] = []
    n_rows = int(rng.choice([1, 1, 2, 2, 3, 4]))
    row_gap = dims.height + rng.uniform(0.15, 1.5)
    group = 0
    for r in range(n_rows):
        x = rng.uniform(-1, 1)
        y = -r * row_gap
        n = int(rng.integers(3, 15))
        placed = 0
        while placed < n:
            size = int(rng.choice([1, 2, 3, 3, 4]))
            kind = _kind(rng)
            same = rng.random() < 0.35 and kind not in BONUS
            run = (not same) and kind[:-1].isdigit() and kind[-1] in "mps" and rng.random() < 0.5
            first = min(int(kind[0]), 10 - size) if run else 0
            for j in range(size):
                k = kind if same else (f"{first + j}{kind[1]}" if run else _kind(rng))
                sideways = rng.random() < 0.07
                fw = dims.height if sideways else dims.width
                tight = rng.uniform(0.0, 0.06)
                yaw = (90.0 if rng.random() < 0.5 else -90.0) if sideways else rng.normal(0, 2.0)
                dy = (dims.height - dims.width) / 2 if sideways else 0.0
                out.append(Placement(k, x + fw / 2, y - dy * (1 if rng.random() < 0.5 else 0), _pose_for(k, rng),
                                     yaw, group))
                x += fw + tight
                placed += 1
            x += rng.uniform(0.1, 0.9)
            group += 1
    return out


def layout_rack(rng, dims) -> list[Placement]:
    """A row of standing tiles (a rack), optionally with flat exposed tiles in front of it."""
    out: list[Placement] = []
    n = int(rng.integers(5, 15))
    x = 0.0
    for i in range(n):
        k = _kind(rng)
        yaw = 180.0 if k == "X" else rng.normal(0, 1.5)
        out.append(Placement(k, x + dims.width / 2, 0.0, "stand", yaw, 0))
        x += dims.width + rng.uniform(0.0, 0.04)
    if rng.random() < 0.75:
        out.append(rack_bar(rng, dims, x))
    if rng.random() < 0.7:
        front = layout_rows(rng, dims)[: int(rng.integers(3, 13))]
        shift_y = -(dims.thickness / 2 + rng.uniform(1.0, 2.0) + dims.height / 2)
        out += [Placement(p.kind, p.x, p.y + shift_y, p.pose, p.yaw, p.group + 1) for p in front]
    return out


RACK_COLOURS = [(150, 100, 60), (60, 40, 30), (200, 170, 120), (30, 30, 30), (170, 40, 40), (40, 90, 60),
                (220, 215, 200)]


def rack_bar(rng, dims, row_length: float) -> Placement:
    """The ledge of a tile rack, lying in front of a standing row that starts at x=0."""
    depth, height = float(rng.uniform(0.4, 0.9)), float(rng.uniform(0.25, 0.5)) * dims.height
    colour = RACK_COLOURS[int(rng.integers(len(RACK_COLOURS)))]
    return Placement("_rack", row_length / 2, -(dims.thickness / 2 + depth / 2 + 0.02), "up", 0.0, -1,
                     size=(row_length + float(rng.uniform(0.2, 1.0)), depth, height), colour=colour)


def add_clutter(rng, placements: list[Placement], dims) -> list[Placement]:
    """Scoring sticks and chips lying on the table near the tiles (drawn, never labelled)."""
    if not placements or rng.random() < 0.5:
        return placements
    xs = np.array([p.x for p in placements])
    ys = np.array([p.y for p in placements])
    out = list(placements)
    for _ in range(int(rng.integers(1, 6))):
        for _try in range(20):
            x = float(rng.uniform(xs.min() - 3, xs.max() + 3))
            y = float(rng.uniform(ys.min() - 3, ys.max() + 3))
            if np.min(np.hypot(xs - x, ys - y)) > 2.6:
                break
        else:
            continue
        if rng.random() < 0.6:  # a scoring stick
            size = (float(rng.uniform(0.15, 0.3)), float(rng.uniform(3.0, 5.0)), 0.06)
            colour = [(240, 240, 235), (230, 200, 60), (200, 40, 40), (40, 60, 160)][int(rng.integers(4))]
        else:  # a chip or coin
            d = float(rng.uniform(0.6, 1.1))
            size = (d, d, 0.1)
            colour = [(200, 160, 40), (180, 180, 185), (190, 40, 40), (30, 30, 30)][int(rng.integers(4))]
        out.append(Placement("_prop", x, y, "up", float(rng.uniform(0, 180)), -1, size=size, colour=colour))
    return out


def layout_grid(rng, dims) -> list[Placement]:
    """Tiles packed edge to edge in a block (rows x columns), as sets are often photographed
    close up; some kinds repeat, a few tiles are face down or turned."""
    out: list[Placement] = []
    rows, cols = int(rng.integers(1, 6)), int(rng.integers(2, 8))
    gap = float(rng.uniform(0.0, 0.05))
    turned = rng.random() < 0.15  # the whole block turned upside down relative to the others
    for r in range(rows):
        for c in range(cols):
            k = _kind(rng)
            yaw = float(rng.normal(0, 1.5)) + (180.0 if turned and rng.random() < 0.3 else 0.0)
            out.append(Placement(k, c * (dims.width + gap), -r * (dims.height + gap), _pose_for(k, rng), yaw, r))
    return out


def layout_scatter(rng, dims) -> list[Placement]:
    """Loose tiles at random angles, not overlapping."""
    out: list[Placement] = []
    n = int(rng.integers(4, 30))
    area = math.sqrt(n) * rng.uniform(1.8, 3.0)
    radius = math.hypot(dims.width, dims.height) / 2 + 0.05
    tries = 0
    while len(out) < n and tries < n * 40:
        tries += 1
        x, y = rng.uniform(-area, area), rng.uniform(-area, area)
        if any(math.hypot(x - p.x, y - p.y) < 2 * radius for p in out):
            continue
        k = _kind(rng)
        out.append(Placement(k, x, y, _pose_for(k, rng), rng.uniform(0, 360), len(out)))
    return out


def layout_standing(rng, dims) -> list[Placement]:
    """Standing tiles without a rack, faces towards the camera: 1-4 short rows (1-9 touching
    tiles) or single tiles, each row turned a little, at different depths. Why: players show
    a hand (and datasets photograph tiles) standing on the table, seen from low in front;
    the rack layout alone teaches only one long row against a ledge."""
    out: list[Placement] = []
    n_groups = int(rng.integers(1, 5))
    for g in range(n_groups):
        n = int(rng.choice([1, 1, 2, 3, 4, 5, 6, 7, 8, 9]))
        yaw = float(rng.normal(0, 15))
        c, s_ = math.cos(math.radians(yaw)), math.sin(math.radians(yaw))
        x0 = rng.uniform(-4, 4) * dims.width
        y0 = g * (dims.thickness + rng.uniform(0.3, 2.5)) * (1 if rng.random() < 0.5 else -1) + rng.uniform(-0.5, 0.5)
        for i in range(n):
            d = i * (dims.width + rng.uniform(0.0, 0.05))
            k = _kind(rng)
            out.append(Placement(k, x0 + d * c, y0 + d * s_, "stand", (180.0 if k == "X" else yaw) +
                                 float(rng.normal(0, 2)), g))
    # drop tiles that would stand inside one another (rows at random places can cross)
    kept: list[Placement] = []
    for p in out:
        if all(math.hypot(p.x - q.x, p.y - q.y) > dims.width * 1.02 for q in kept):
            kept.append(p)
    return kept

