"""Random training scenes: tiles in rows, on racks, in loose groups, or as a laid-out hand,
photographed from any direction on a random table with random light.

``random_scene(seed, size)`` draws everything from a seed; the layouts are ``layouts`` and
``hand_layout``, the photo is ``compose.render_scene``.  A seed gives the same scene on every
machine: fonts change how glyphs look, never the draws (see ``fonts``)."""

from __future__ import annotations

import numpy as np

from .cameras import random_camera
from .compose import SceneResult, render_scene
from .geometry import Camera, Placement
from .hand_layout import layout_placements, random_layout
from .layouts import add_clutter, layout_grid, layout_rack, layout_rows, layout_scatter, layout_standing
from .style import style_for_art

LAYOUTS = ["rows", "rack", "scatter", "hand", "grid", "standing", "rack-back"]
# "standing" came after batches v5-v7 were made, "rack-back" (a rack photographed from behind:
# every tile a back, session 21) later still: both kept out of the default mix, so the old
# batches' seeds draw the same scenes; batches ask for them by name (generate --layouts)
LAYOUT_WEIGHTS = [0.3, 0.17, 0.2, 0.18, 0.15, 0.0]
MAX_ATTEMPTS = 20


def layout_hand(rng, dims) -> list[Placement]:
    return layout_placements(random_layout(rng), dims, rng)


def random_placements(rng, dims, kind: str | None = None) -> tuple[list[Placement], str]:
    """A layout (``kind``, or one drawn from the default mix) with clutter round it."""
    kind = kind or LAYOUTS[int(rng.choice(len(LAYOUT_WEIGHTS), p=LAYOUT_WEIGHTS))]
    fn = {"rows": layout_rows, "rack": layout_rack, "rack-back": layout_rack, "scatter": layout_scatter, "hand": layout_hand,
          "grid": layout_grid, "standing": layout_standing}[kind]
    return add_clutter(rng, fn(rng, dims), dims), kind


def _draw_scene(rng: np.random.Generator, size: int, art: str, layout: str | None) -> SceneResult:
    style = style_for_art(rng, art)
    placements, kind = random_placements(rng, style.dims, layout)
    placements = placements[:80]
    tiles = [p for p in placements if not p.is_prop]
    if kind not in ("rack", "standing", "rack-back") and rng.random() < 0.06:
        # a screenshot of a digital game: straight from above, no perspective, crisp, plain
        xs, ys = np.array([p.x for p in tiles]), np.array([p.y for p in tiles])
        extent = max(float(np.ptp(xs)), float(np.ptp(ys))) + style.dims.height
        camera = Camera((float((xs.min() + xs.max()) / 2), float((ys.min() + ys.max()) / 2), 0.0),
                        89.9, 0.0 if rng.random() < 0.8 else 90.0, extent * 30, 0.0)
        result = render_scene(tiles, rng, size, style=style, camera=camera, effects=0.0, table="plain",
                              tile_px=float(np.exp(rng.uniform(np.log(14), np.log(60)))))
        result.meta["layout"] = f"{kind}-screenshot"
        return result
    camera = random_camera(rng, tiles, style.dims, layout=kind)
    result = render_scene(placements, rng, size, style=style, camera=camera,
                          effects=1.0 if rng.random() < 0.95 else 0.0)
    result.meta["layout"] = kind
    return result


def random_scene(seed: int, size: int = 640, art: str = "all", layout: str | None = None) -> SceneResult:
    """One training image, fully determined by ``seed`` (and the art present), with at least
    one labelled tile: a draw in which every tile is hidden, cut off or seen edge-on is drawn
    again from ``[seed, attempt]`` (``meta["attempt"]``), so a batch never holds an empty image."""
    for attempt in range(MAX_ATTEMPTS):
        rng = np.random.default_rng(seed if attempt == 0 else [seed, attempt])
        result = _draw_scene(rng, size, art, layout)
        if result.labels:
            result.meta["attempt"] = attempt
            return result
    raise RuntimeError(f"seed {seed}: no labelled tile in {MAX_ATTEMPTS} draws (layout {layout!r})")


__all__ = ["LAYOUTS", "SceneResult", "random_placements", "random_scene", "render_scene"]
