"""The one way a scene becomes a photo: tile set, camera, framing on the tiles, table, light,
tiles, photo effects, labels.  Training scenes (``scene``) and hand photos (``hand_scene``)
both call :func:`render_scene` and differ only in the arguments (a :class:`Look`, a fill or
a tile size)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from . import background, photo
from .cameras import random_camera
from .framing import fill_tile_px, fit_frame, random_tile_px, span_in_tiles
from .geometry import Camera, Placement
from .render import TileLabel, render_tiles
from .style import TileStyle, style_for_art


@dataclass
class SceneResult:
    image: np.ndarray  # uint8 RGB
    labels: list[TileLabel]
    meta: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Look:
    """The light and photo of one kind of scene; ranges are drawn per photo."""

    light_elevation: tuple[float, float] = (30.0, 80.0)  # degrees
    ambient: tuple[float, float] = (0.45, 0.8)
    shadow: tuple[float, float] = (0.0, 0.55)
    darken: float = 0.5        # chance that the table is darker/brighter than the tiles
    distractors: float = 0.25  # chance of objects drawn on a random table
    effects: float = 1.0       # strength of the photo effects (blur, noise, JPEG, ...)
    min_visible: float = 0.35  # share of a tile that must show for it to be labelled
    spread: float = 1.0        # how far from the middle the tiles may lie (share of the room)


TRAINING = Look()
# hand photos: every tile shown and labelled, nearer the middle, a gentler photo
HAND = Look(light_elevation=(35.0, 80.0), ambient=(0.5, 0.8), shadow=(0.0, 0.45), darken=0.0,
            effects=0.7, min_visible=0.2, spread=0.6)


def render_scene(placements: list[Placement], rng: np.random.Generator, size: int = 640,
                 style: TileStyle | None = None, art: str = "all", tile_px: float | None = None,
                 camera: Camera | None = None, effects: float = 1.0, aspect: float = 1.0,
                 table: str | None = None, fill: float | None = None, look: Look = TRAINING) -> SceneResult:
    """Render ``placements`` as a photo ``size`` pixels wide (height = size / aspect), framed
    on the tiles: ``fill`` = share of the photo they span, else ``tile_px`` = a face's height
    in pixels (random when None).  ``effects`` scales ``look.effects``."""
    tiles = [p for p in placements if not p.is_prop]
    if not tiles:
        raise ValueError("a scene needs at least one tile")
    style = style or style_for_art(rng, art)
    cam = camera or random_camera(rng, tiles, style.dims)
    w, h = size, int(round(size / aspect))
    span = span_in_tiles(tiles, style.dims, cam)
    if tile_px is None:
        tile_px = fill_tile_px(fill, span, w, h) if fill is not None else random_tile_px(rng, span, min(w, h))
    frame = fit_frame(tiles, style.dims, cam, w, h, tile_px, rng, look.spread)
    canvas, table_kind = background.table(rng, h, w, table)
    if rng.random() < look.darken:
        canvas *= rng.uniform(0.6, 1.1)
    clutter = background.distractors(canvas, rng) if table is None and rng.random() < look.distractors else []
    light_az, light_el = rng.uniform(0, 2 * np.pi), math.radians(rng.uniform(*look.light_elevation))
    light = np.array([math.cos(light_az) * math.cos(light_el), math.sin(light_az) * math.cos(light_el),
                      math.sin(light_el)])
    ambient, shadow = float(rng.uniform(*look.ambient)), float(rng.uniform(*look.shadow))
    labels = render_tiles(canvas, placements, style, cam, frame, rng, light, ambient, shadow, look.min_visible)
    image = photo.apply(canvas, rng, effects * look.effects)
    meta = {
        "style": style.describe(), "table": table_kind, "distractors": clutter,
        "camera": {"elevation": round(cam.elevation, 1), "azimuth": round(cam.azimuth % 360, 1),
                   "roll": round(cam.roll, 1), "distance": round(cam.distance, 2)},
        "tile_px": round(tile_px, 1), "tiles": len(tiles), "labelled": len(labels),
    }
    return SceneResult(image, labels, meta)
