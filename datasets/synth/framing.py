"""How big the tiles come out and where they lie in the photo.

Only tiles count: props (a rack's ledge, scoring sticks, chips) may be cut off at the edge,
and one that lies far away (or behind the camera) can no longer push the tiles out of the
photo or shrink them to nothing."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .geometry import Camera, Placement, TileDims, box_corners


@dataclass
class Frame:
    """Fitting of normalised camera coordinates to pixels: p_px = scale * p + offset."""

    scale: float
    offset: np.ndarray

    def to_px(self, pts: np.ndarray) -> np.ndarray:
        return pts * self.scale + self.offset


def _tiles_projected(tiles: list[Placement], dims: TileDims, cam: Camera) -> tuple[np.ndarray, float]:
    """Every corner of the tiles in camera coordinates, and the median face height there."""
    tiles = [p for p in tiles if not p.is_prop]
    if not tiles:
        raise ValueError("a scene needs at least one tile")
    projected = [cam.project(box_corners(p, dims))[0] for p in tiles]
    height = float(np.median([max(proj.max(0) - proj.min(0)) for proj in projected]))
    return np.concatenate(projected), max(height, 1e-9)


def span_in_tiles(tiles: list[Placement], dims: TileDims, cam: Camera) -> np.ndarray:
    """Width and height the tiles span in the photo, in median tile heights."""
    pts, height = _tiles_projected(tiles, dims, cam)
    return np.ptp(pts, axis=0) / height


def random_tile_px(rng: np.random.Generator, span: np.ndarray, size: int) -> float:
    """Half the time a tile size (log-uniform 14..160 px), half the time a size at which the
    tiles fill 35-105% of the photo; never so large that they span > 1.3 photos."""
    longest = float(max(span.max(), 1e-6))
    if rng.random() < 0.5:
        px = float(np.exp(rng.uniform(np.log(14), np.log(160))))
    else:
        px = size * rng.uniform(0.35, 1.05) / longest
    return float(np.clip(min(px, 1.3 * size / longest), 10, 220))


def fill_tile_px(fill: float, span: np.ndarray, width: int, height: int) -> float:
    """The tile size at which the tiles span ``fill`` of the photo (of its tighter side)."""
    return float(fill / max(span[0] / width, span[1] / height, 1e-9))


def fit_frame(tiles: list[Placement], dims: TileDims, cam: Camera, width: int, height: int,
              tile_px: float, rng: np.random.Generator, spread: float = 1.0) -> Frame:
    """Scale so that a tile's face is about ``tile_px`` pixels tall and place the tiles: if
    they fit, anywhere within ``spread`` of the free room (2% margins); if not, centred to
    within 20% of what is cut off."""
    pts, tile_h = _tiles_projected(tiles, dims, cam)
    scale = tile_px / tile_h
    lo, hi = pts.min(0) * scale, pts.max(0) * scale
    offset = np.zeros(2)
    for d, dim in enumerate((width, height)):
        span = hi[d] - lo[d]
        room = spread * (0.96 * dim - span) if span <= 0.96 * dim else 0.4 * (span - dim)
        offset[d] = dim / 2 - (lo[d] + hi[d]) / 2 + rng.uniform(-0.5, 0.5) * room
    return Frame(scale, offset)
