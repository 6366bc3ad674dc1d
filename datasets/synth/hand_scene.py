"""Photo-like scenes of one winning hand as it lies on the table, with exact labels, for
end-to-end tests of photo -> tiles -> groups -> score.

A ``HandLayout`` is what the camera sees: the concealed row (winning tile at its end), the
exposed sets and declared concealed kongs set apart in front of it (two rows) or beside it
(one row), an exposed set may have one tile turned sideways, a concealed kong shows its outer
or middle tiles face down (``X``), and the flowers/seasons lie aside.  ``parse_notation``
builds a layout from the spec §1 notation (``[EEE] {X77pX} RRR 234m 88s 45s +6s / f1 j3``)
as parsed by the scoring engine, so a photo and its score read the same notation alike.

    python -m mjscore.datasets.synth.hand_scene --notation "[EEE] RRR 234m 88s 45s +6s" --out x.jpg
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from mjscore.scoring.model import CONCEALED_KONG, EXPOSED, FIXED, Group
from mjscore.scoring.notation import NotationError, format_group, parse_hand
from mjscore.scoring.tiles import BACK, BONUS
from mjscore.vision.kinds import KINDS

from .geometry import Placement, TileDims



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
    suited = [k for k in KINDS if k[-1] in "mps" and k[0].isdigit()]
    honours = ["E", "S", "W", "N", "R", "G", "Wh"]
    melds: list[Meld] = []
    for _ in range(int(rng.integers(0, 4))):
        r = rng.random()
        if r < 0.35:  # chow
            suit = "mps"[int(rng.integers(3))]
            n = int(rng.integers(1, 8))
            tiles = [f"{n + i}{suit}" for i in range(3)]
        else:
            k = (suited + honours)[int(rng.integers(len(suited) + len(honours)))]
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
        k = (suited + honours)[int(rng.integers(len(suited) + len(honours)))]
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
    if layout.standing and rng.random() < 0.7:
        from .scene import rack_bar

        rack = rack_bar(rng, dims, row_end)
        out_rack = [rack]
    else:
        out_rack = []
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


# ----------------------------------------------------------------------------- rendering

def render_hand(layout: HandLayout | str, seed: int, size: int = 640, art: str = "all",
                effects: float = 1.0, aspect: float | None = None) -> tuple[np.ndarray, list[tuple[str, tuple, float]], dict]:
    """Render a hand photo.  Returns (RGB uint8 image, [(kind, (x0, y0, x1, y1), angle)], metadata).
    ``angle`` is the direction of each face's top in the photo, degrees counter-clockwise from
    up.  Every tile is in the photo and labelled; metadata ``tiles`` adds each tile's group.
    ``aspect`` = width / height; by default 4:3, or 3:4 (portrait) when the hand is turned
    by more than about 50 degrees from horizontal, as a phone would be held."""
    # imported here: scene.py imports this module for its "hand" layouts
    from . import background, photo
    from .geometry import Camera, box_corners
    from .render import fit_frame, render_tiles
    from .scene import face_sets_for
    from .style import make_style

    if isinstance(layout, str):
        layout = parse_notation(layout)
    rng = np.random.default_rng(seed)
    style = make_style(rng, face_sets_for(art), generated=art != "repo")
    roles: list[Role] = []
    placements = layout_placements(layout, style.dims, rng, roles)
    if rng.random() < 0.3:  # scoring sticks or chips nearby (props come last, after the tiles)
        from .scene import add_clutter

        placements = add_clutter(rng, placements, style.dims)
    rotation = layout.rotation if layout.rotation is not None else float(rng.uniform(0, 360))
    xs = np.array([p.x for p in placements if not p.is_prop])
    ys = np.array([p.y for p in placements if not p.is_prop])
    target = (float((xs.min() + xs.max()) / 2), float((ys.min() + ys.max()) / 2), style.dims.thickness / 2)
    extent = max(float(np.ptp(xs)), float(np.ptp(ys))) + style.dims.height
    elevation = float(rng.uniform(55, 88)) if not layout.standing else float(rng.uniform(40, 70))
    # the photo's rotation: a camera walked round the table (flat tiles only), or a phone
    # turned in the hand while the player photographs from their own seat
    if not layout.standing and rng.random() < 0.5:
        azimuth, roll = -rotation, float(rng.normal(0, 3))
    else:
        azimuth = float(rng.normal(0, 8))
        roll = -rotation - azimuth  # (camera azimuth and roll both turn the photo clockwise)
    cam = Camera(target, elevation, azimuth, extent * float(rng.uniform(1.5, 3.5)), roll)
    if aspect is None:
        aspect = 4 / 3 if abs(math.cos(math.radians(rotation))) >= 0.64 else 3 / 4
    w, h = size, int(round(size / aspect))
    # scale so that the whole hand fills 60-92% of the shorter side
    unit = fit_frame(placements, style, cam, min(w, h), 1.0, rng)
    tiles_only = [p for p in placements if not p.is_prop]
    pts = np.concatenate([cam.project(box_corners(p, style.dims))[0] for p in tiles_only]) * unit.scale
    fill = float(rng.uniform(0.6, 0.88))
    scale_to = fill / max(np.ptp(pts[:, 0]) / w, np.ptp(pts[:, 1]) / h)
    frame = fit_frame(placements, style, cam, min(w, h), scale_to, rng)
    pts_px = np.concatenate([frame.to_px(cam.project(box_corners(p, style.dims))[0]) for p in tiles_only])
    lo, hi = pts_px.min(0), pts_px.max(0)
    frame.offset = frame.offset + np.array([w / 2, h / 2]) - (lo + hi) / 2 + rng.uniform(-0.5, 0.5, 2) * (
        np.array([w, h]) - (hi - lo)) * 0.6
    canvas, table_kind = background.table(rng, h, w)
    clutter = background.distractors(canvas, rng) if rng.random() < 0.25 else []
    light_az, light_el = rng.uniform(0, 2 * np.pi), math.radians(rng.uniform(35, 80))
    light = np.array([math.cos(light_az) * math.cos(light_el), math.sin(light_az) * math.cos(light_el), math.sin(light_el)])
    labels = render_tiles(canvas, placements, style, cam, frame, rng, light, float(rng.uniform(0.5, 0.8)),
                          float(rng.uniform(0.0, 0.45)), min_visible=0.2)
    image = photo.apply(canvas, rng, effects * 0.7)
    tiles = [(lab.kind, tuple(round(v, 1) for v in lab.box), lab.angle) for lab in labels]
    meta = {
        "notation": layout.notation, "seed": seed, "rotation": round(rotation % 360, 1), "rows": layout.rows,
        "standing": layout.standing, "style": style.describe(), "table": table_kind, "distractors": clutter,
        "camera": {"elevation": round(elevation, 1), "azimuth": round(azimuth % 360, 1), "roll": round(roll, 1)},
        "tiles": [{"kind": lab.kind, "box": [round(v, 1) for v in lab.box], "angle": lab.angle,
                   "group": roles[lab.index].group, "position": roles[lab.index].position,
                   "visible": lab.visible} for lab in labels],
        "missing": sum(not p.is_prop for p in placements) - len(labels),
    }
    return image, tiles, meta


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="render a photo-like scene of one hand")
    ap.add_argument("--notation", required=True, help='hand, e.g. "[EEE] {X77pX} RRR 234m 88s 45s +6s / f1 j3"')
    ap.add_argument("--out", required=True, type=Path, help="output image (.jpg or .png)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--size", type=int, default=960, help="image width in pixels")
    ap.add_argument("--rows", type=int, choices=[1, 2], default=2, help="sets in front (2) or beside (1)")
    ap.add_argument("--rotation", type=float, default=None, help="photo rotation in degrees (default random)")
    ap.add_argument("--sideways", action="store_true", help="turn one tile of the first exposed set sideways")
    ap.add_argument("--standing", action="store_true", help="concealed row standing on a rack")
    ap.add_argument("--art", choices=["all", "committed", "repo"], default="all",
                    help="all: + optional art in data/art-cache; committed: repository art + generated "
                         "faces; repo: repository art only")
    ap.add_argument("--quality", type=int, default=85, help="JPEG quality")
    ap.add_argument("--labels", type=Path, default=None, help="also write the labels as JSON here")
    args = ap.parse_args(argv)
    if args.size < 64:
        print("error: --size must be at least 64 pixels", file=sys.stderr)
        return 2
    try:
        layout = parse_notation(args.notation)
    except (NotationError, LayoutError) as exc:
        print(f"error: bad hand notation: {exc}", file=sys.stderr)
        return 2
    layout.rows, layout.rotation, layout.standing = args.rows, args.rotation, args.standing
    if args.sideways:
        for m in layout.melds:
            if not m.concealed:
                m.sideways = 1
                break
    image, tiles, meta = render_hand(layout, args.seed, args.size, args.art)
    import cv2

    try:
        args.out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"error: cannot create {args.out.parent}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    params = [cv2.IMWRITE_JPEG_QUALITY, args.quality] if args.out.suffix.lower() in (".jpg", ".jpeg") else []
    ok = cv2.imwrite(str(args.out), image[..., ::-1], params)
    if not ok:
        print(f"error: cannot write image {args.out} (use .jpg or .png)", file=sys.stderr)
        return 2
    if args.labels:
        args.labels.write_text(json.dumps(meta, indent=1))
    print(f"wrote {args.out}: {len(tiles)} tiles, rotation {meta['rotation']} deg")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["HandLayout", "LayoutError", "Meld", "NotationError", "parse_notation", "render_hand", "layout_placements",
           "random_layout", "asdict"]
