"""Photo-like scenes of one winning hand as it lies on the table, with exact labels, for
end-to-end tests of photo -> tiles -> groups -> score.  The layout (and the notation, read by
the scoring engine's parser) is ``hand_layout``; the photo is ``compose.render_scene``.

    python -m mjscore.datasets.synth.hand_scene --notation "[EEE] RRR 234m 88s 45s +6s" --out x.jpg
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np

from .art import ART_CHOICES
from .cameras import hand_camera
from .compose import HAND, render_scene
from .hand_layout import HandLayout, LayoutError, Meld, NotationError, Role, layout_placements, parse_notation
from .layouts import add_clutter
from .style import style_for_art


def render_hand(layout: HandLayout | str, seed: int, size: int = 640, art: str = "all",
                effects: float = 1.0, aspect: float | None = None) -> tuple[np.ndarray, list[tuple[str, tuple, float]], dict]:
    """Render a hand photo.  Returns (RGB uint8 image, [(kind, (x0, y0, x1, y1), angle)], metadata).
    ``angle`` is the direction of each face's top in the photo, degrees counter-clockwise from
    up.  Every tile is in the photo and labelled; metadata ``tiles`` adds each tile's group.
    ``aspect`` = width / height; by default 4:3, or 3:4 (portrait) when the hand is turned
    by more than about 50 degrees from horizontal, as a phone would be held."""
    if isinstance(layout, str):
        layout = parse_notation(layout)
    rng = np.random.default_rng(seed)
    style = style_for_art(rng, art, generated=art != "repo")
    roles: list[Role] = []
    placements = layout_placements(layout, style.dims, rng, roles)
    if rng.random() < 0.3:  # scoring sticks or chips nearby (props come last, after the tiles)
        placements = add_clutter(rng, placements, style.dims)
    rotation = layout.rotation if layout.rotation is not None else float(rng.uniform(0, 360))
    cam = hand_camera(rng, placements, style.dims, rotation, layout.standing)
    if aspect is None:
        aspect = 4 / 3 if abs(math.cos(math.radians(rotation))) >= 0.64 else 3 / 4
    # the whole hand fills 60-88% of the photo
    scene = render_scene(placements, rng, size, style=style, camera=cam, effects=effects, aspect=aspect,
                         fill=float(rng.uniform(0.6, 0.88)), look=HAND)
    labels = scene.labels
    tiles = [(lab.kind, tuple(round(v, 1) for v in lab.box), lab.angle) for lab in labels]
    meta = {
        "notation": layout.notation, "seed": seed, "rotation": round(rotation % 360, 1), "rows": layout.rows,
        "standing": layout.standing, **{k: scene.meta[k] for k in ("style", "table", "distractors", "camera")},
        "tiles": [{"kind": lab.kind, "box": [round(v, 1) for v in lab.box], "angle": lab.angle,
                   "group": roles[lab.index].group, "position": roles[lab.index].position,
                   "visible": lab.visible} for lab in labels],
        "missing": scene.meta["tiles"] - len(labels),
    }
    return scene.image, tiles, meta


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
    ap.add_argument("--art", choices=ART_CHOICES, default="all",
                    help="all: + optional art in data/art-cache; committed: repository art + generated "
                         "faces; repo: repository art only; unseen: the held-out face design (evaluation only)")
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


__all__ = ["HandLayout", "LayoutError", "Meld", "NotationError", "main", "parse_notation", "render_hand"]
