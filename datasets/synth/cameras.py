"""Where the camera stands: aimed at the middle of the tiles (props never count), from a
distance that scales with how far they spread."""

from __future__ import annotations

import numpy as np

from .geometry import Camera, Placement, TileDims


def _aim(placements: list[Placement], dims: TileDims, least: float = 0.0) -> tuple[tuple[float, float, float], float]:
    """(target, extent): the middle of the tiles at half a tile's thickness, and their spread."""
    xs = np.array([p.x for p in placements if not p.is_prop])
    ys = np.array([p.y for p in placements if not p.is_prop])
    if not len(xs):
        raise ValueError("a scene needs at least one tile")
    target = (float((xs.min() + xs.max()) / 2), float((ys.min() + ys.max()) / 2), dims.thickness / 2)
    return target, max(float(np.ptp(xs)), float(np.ptp(ys)), least) + dims.height


def random_camera(rng, placements: list[Placement], dims, rotation: float | None = None,
                  upright_bias: float = 0.4, layout: str = "") -> Camera:
    """A training photo's camera: mostly from above at any angle; racks and standing rows
    from lower in front."""
    target, extent = _aim(placements, dims, least=2.0)
    elevation = float(rng.uniform(35, 89)) if rng.random() < 0.75 else float(rng.uniform(75, 89.5))
    if rotation is not None:
        azimuth = rotation
    elif rng.random() < upright_bias:
        azimuth = float(rng.normal(0, 12))
    else:
        azimuth = float(rng.uniform(0, 360))
    if layout == "rack":  # standing tiles are photographed from the front (or 10 %: the back, all X), lower
        elevation = float(rng.uniform(20, 65))
        if rotation is None:
            azimuth = float(rng.normal(0, 20)) if rng.random() < 0.9 else float(rng.normal(180, 20))
    if layout == "rack-back":  # a rack seen from behind (across the table): every tile a back
        elevation = float(rng.uniform(10, 60))
        if rotation is None:
            azimuth = float(rng.normal(180, 25))
    if layout == "standing":   # from low in front, as a player photographs tiles on the table
        elevation = float(rng.uniform(5, 45))
        if rotation is None:
            azimuth = float(rng.normal(0, 15))
    roll = float(rng.normal(0, 4))
    if layout in ("rack", "standing", "rack-back") and rng.random() < 0.3:
        roll = float(rng.uniform(-180, 180))  # the photo itself turned
    distance = extent * float(rng.uniform(0.9, 4.0))
    return Camera(target, elevation, azimuth, distance, roll)


def hand_camera(rng, placements: list[Placement], dims, rotation: float, standing: bool) -> Camera:
    """A hand photo's camera, turned so the hand lies ``rotation`` degrees in the photo: a
    camera walked round the table (flat tiles only), or a phone turned in the hand while the
    player photographs from their own seat."""
    target, extent = _aim(placements, dims)
    elevation = float(rng.uniform(40, 70)) if standing else float(rng.uniform(55, 88))
    if not standing and rng.random() < 0.5:
        azimuth, roll = -rotation, float(rng.normal(0, 3))
    else:
        azimuth = float(rng.normal(0, 8))
        roll = -rotation - azimuth  # (camera azimuth and roll both turn the photo clockwise)
    return Camera(target, elevation, azimuth, extent * float(rng.uniform(1.5, 3.5)), roll)
