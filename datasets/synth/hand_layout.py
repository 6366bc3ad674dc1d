"""One winning hand as it lies on the table: the layout and the table position of each tile.

A ``HandLayout`` is what the camera sees: the concealed row (winning tile at its end), the
exposed sets and declared concealed kongs set apart in front of it (two rows) or beside it
(one row), an exposed set may have one tile turned sideways, a concealed kong shows its outer
or middle tiles face down (``X``), and the flowers/seasons lie aside.  ``parse_notation``
builds a layout from the spec §1 notation (``[EEE] {X77pX} RRR 234m 88s 45s +6s / f1 j3``)
with the scoring engine's own parser, so a photo and its score read the same notation alike.
Rendering is ``hand_scene``'s job."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...scoring.model import CONCEALED_KONG, EXPOSED, FIXED, Group
from ...scoring.notation import NotationError, format_group, parse_hand
from ...scoring.tiles import BACK, BONUS, TILES

from .geometry import Placement, TileDims
from .layouts import rack_bar


class LayoutError(ValueError):
    """Notation the engine reads but that cannot lie on a table as one hand; names the group.
    (Unreadable notation is the engine's :class:`NotationError`, with token and position.)"""


@dataclass
class Meld:
    """A set on the table.  ``tiles`` as laid, left to right (``X`` = face down);
    ``concealed``: a declared concealed kong; ``sideways``: index of a tile turned 90 degrees."""

    tiles: list[str]
    concealed: bool = False
    sideways: int | None = None


@dataclass
class HandLayout:
    concealed: list[str]  # the concealed row, left to right, winning tile included
    melds: list[Meld] = field(default_factory=list)
    bonus: list[str] = field(default_factory=list)
    winning: str | None = None  # the winning tile (the last of ``concealed``)
    rows: int = 2  # 2: sets in a row in front of the concealed row; 1: beside it
    rotation: float | None = None  # degrees counter-clockwise the hand is turned in the photo (None: random)
    standing: bool = False  # the concealed row stands (on a rack) instead of lying open
    notation: str = ""

    def kinds(self) -> list[str]:
        """Every tile the photo shows, as recognizer kinds (``X`` for face-down tiles)."""
        return list(self.concealed) + [t for m in self.melds for t in m.tiles] + list(self.bonus)


# ----------------------------------------------------------------------------- notation

def _tiles_aside_group(group: Group) -> str | None:
    """Why a parsed group cannot lie on the table as written (None: it can)."""
    text = format_group(group)
    if any(t in BONUS for t in group.tokens):
        return f"flowers and seasons lie aside (after '/'), never in a group: {text}"
    if group.kind == EXPOSED:
        if BACK in group.tokens:
            return f"face-down X only inside a concealed kong {{...}}, not in {text}"
        if len(group.tokens) not in (3, 4):
            return f"an exposed set has 3 or 4 tiles: {text}"
    elif group.kind == CONCEALED_KONG:
        if len(group.tokens) != 4 or not group.faces:
            return f"a concealed kong has 4 tiles, at least one face up: {text}"
    elif BACK in group.tokens:
        return f"face-down X only inside a concealed kong {{...}}, not in {text}"
    return None


def parse_notation(text: str) -> HandLayout:
    """Spec §1 notation -> layout (two rows, random rotation; change the fields to vary).

    The text is read by the scoring engine's parser (``scoring.notation.parse_hand``), which
    raises its :class:`NotationError` naming the token and its position; the layout is built
    from the parsed :class:`~scoring.model.Hand`, and what cannot lie on a table (a face-down
    tile outside a concealed kong, a kong without a face, no tiles at all) is a
    :class:`LayoutError`. The engine's reading decides the details (DECISION): group tiles
    lie in its canonical order (``{X77pX}``: outer tiles face down), fixed groups ``(..)``
    open the concealed row before the loose tiles, and flowers written among the loose tiles
    lie aside with the other bonus tiles."""
    hand = parse_hand(text if isinstance(text, str) else str(text))
    melds: list[Meld] = []
    fixed: list[str] = []
    for group in hand.groups:
        problem = _tiles_aside_group(group)
        if problem:
            raise LayoutError(problem)
        if group.kind == FIXED:
            fixed += group.tokens
        else:
            melds.append(Meld(list(group.tokens), concealed=group.kind == CONCEALED_KONG))
    if BACK in hand.concealed or hand.winning_tile == BACK:
        raise LayoutError("face-down X only inside a concealed kong {...}")
    concealed = fixed + list(hand.concealed) + ([hand.winning_tile] if hand.winning_tile else [])
    if not concealed and not melds:
        raise LayoutError("the hand is empty: no tiles before the '/' bonus tiles")
    return HandLayout(concealed, melds, list(hand.bonus), hand.winning_tile, notation=text.strip())


# ----------------------------------------------------------------------------- random hands

def random_layout(rng: np.random.Generator) -> HandLayout:
    """A random hand-like layout for training scenes (tiles need not form a legal hand)."""
    melds: list[Meld] = []
    for _ in range(int(rng.integers(0, 4))):
        r = rng.random()
        if r < 0.35:  # chow
            suit = "mps"[int(rng.integers(3))]
            n = int(rng.integers(1, 8))
            tiles = [f"{n + i}{suit}" for i in range(3)]
        else:
            k = TILES[int(rng.integers(len(TILES)))]
            tiles = [k] * (4 if rng.random() < 0.35 else 3)
        if len(tiles) == 4 and rng.random() < 0.5:
            melds.append(Meld(["X", tiles[0], tiles[0], "X"] if rng.random() < 0.6 else [tiles[0], "X", "X", tiles[0]],
                              concealed=True))
        else:
            side = int(rng.integers(len(tiles))) if rng.random() < 0.4 else None
            melds.append(Meld(tiles, sideways=side))
    n_conc = max(2, 14 - 3 * len(melds))
    concealed = []
    while len(concealed) < n_conc:
        k = TILES[int(rng.integers(len(TILES)))]
        concealed += [k] * min(int(rng.choice([1, 2, 3])), n_conc - len(concealed))
    bonus = sorted(set(f"{'fj'[int(rng.integers(2))]}{int(rng.integers(1, 5))}" for _ in range(int(rng.integers(0, 5)))))
    return HandLayout(concealed, melds, bonus, concealed[-1], rows=int(rng.choice([1, 2])),
                      standing=bool(rng.random() < 0.2))


# ----------------------------------------------------------------------------- placement

@dataclass(frozen=True)
class Role:
    group: str  # "concealed", "meld0".., "bonus"
    position: int


def layout_placements(layout: HandLayout, dims: TileDims, rng: np.random.Generator,
                      roles: list[Role] | None = None) -> list[Placement]:
    """Table positions of every tile.  ``roles`` (if given) receives one ``Role`` per tile."""
    out: list[Placement] = []
    w, h = dims.width, dims.height
    gap = lambda: float(rng.uniform(0.0, 0.05))  # noqa: E731
    x = 0.0
    pose = "stand" if layout.standing else "up"
    for i, k in enumerate(layout.concealed):
        if i == len(layout.concealed) - 1 and layout.winning and rng.random() < 0.6:
            x += float(rng.uniform(0.2, 0.8))  # the winning tile a little apart
        out.append(Placement(k, x + w / 2, 0.0, pose, float(rng.normal(0, 1.0)), 0))
        if roles is not None:
            roles.append(Role("concealed", i))
        x += w + gap()
    row_end = x
    if layout.rows == 2:
        depth = dims.thickness if layout.standing else h
        clear = float(rng.uniform(1.1, 1.8)) if layout.standing else float(rng.uniform(0.4, 1.2))  # room for a rack
        y = -(depth / 2 + clear + h / 2)
        x = float(rng.uniform(-0.5, 1.0))
    else:
        y = 0.0
        x = row_end + float(rng.uniform(0.6, 1.5))
    for mi, meld in enumerate(layout.melds):
        for ti, k in enumerate(meld.tiles):
            sideways = meld.sideways == ti
            fw = h if sideways else w
            ty = y - (h - w) / 2 if sideways else y  # sideways tiles line up with the row's near edge
            yaw = (90.0 if rng.random() < 0.5 else -90.0) if sideways else float(rng.normal(0, 1.0))
            out.append(Placement(k, x + fw / 2, ty, "down" if k == "X" else "up", yaw, mi + 1))
            if roles is not None:
                roles.append(Role(f"meld{mi}", ti))
            x += fw + gap()
        x += float(rng.uniform(0.35, 0.9))
    out_rack = [rack_bar(rng, dims, row_end)] if layout.standing and rng.random() < 0.7 else []
    if layout.bonus:
        # flowers and seasons aside: behind the concealed row, or at the end of the sets row
        behind = rng.random() < 0.5
        bx = float(rng.uniform(0, 2)) if behind else x + float(rng.uniform(0.3, 1.0))
        by = (dims.thickness if layout.standing else h) / 2 + float(rng.uniform(0.4, 1.0)) + h / 2 if behind else y
        for bi, k in enumerate(layout.bonus):
            out.append(Placement(k, bx + w / 2, by, "up", float(rng.normal(0, 3.0)), 99))
            if roles is not None:
                roles.append(Role("bonus", bi))
            bx += w + float(rng.uniform(0.05, 0.4))
    return out + out_rack  # props last: ``roles`` indexes the tiles


__all__ = ["HandLayout", "LayoutError", "Meld", "NotationError", "Role", "layout_placements", "parse_notation",
           "random_layout"]
