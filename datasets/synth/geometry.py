"""3-D tile boxes on a table and a pinhole camera that photographs them.

World: table plane z=0, x to the right, y away from the player, z up; lengths in tile widths.
A tile is a box with a local frame: ``u`` along its width, ``v`` along its face height, ``n``
out of its face; the face is at ``n = thickness``, the back at ``n = 0``."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Placement:
    """Where one tile lies.  ``pose``: "up" (flat, face up), "down" (flat, face down), "stand"
    (standing, face towards -y, i.e. the player).  ``yaw`` in degrees around z; a sideways tile
    has yaw 90 (or -90).  ``x, y``: centre of its footprint on the table."""

    kind: str
    x: float
    y: float
    pose: str = "up"
    yaw: float = 0.0
    group: int = -1
    size: tuple[float, float, float] | None = None  # props only: (width, depth, height)
    colour: tuple[int, int, int] | None = None  # props only

    @property
    def is_prop(self) -> bool:
        """A non-tile object (rack, scoring stick, chip): drawn, never labelled."""
        return self.kind.startswith("_")


@dataclass(frozen=True)
class TileDims:
    width: float = 1.0
    height: float = 1.33
    thickness: float = 0.7
    back_fraction: float = 0.45  # share of the thickness in the back colour


def effective_dims(p: Placement, dims: TileDims) -> TileDims:
    if p.size is None:
        return dims
    return TileDims(width=p.size[0], height=p.size[1], thickness=p.size[2], back_fraction=0.0)


def footprint(p: Placement, dims: TileDims) -> tuple[float, float]:
    """Extent (along the tile's own x, y before yaw) of its footprint on the table."""
    if p.pose == "stand":
        return dims.width, dims.thickness
    return dims.width, dims.height


def tile_frame(p: Placement, dims: TileDims) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Origin and unit axes (u, v, n) of the tile box in world coordinates."""
    dims = effective_dims(p, dims)
    a = math.radians(p.yaw)
    ca, sa = math.cos(a), math.sin(a)
    ex, ey, ez = np.array([ca, sa, 0.0]), np.array([-sa, ca, 0.0]), np.array([0.0, 0.0, 1.0])
    w, h, t = dims.width, dims.height, dims.thickness
    c = np.array([p.x, p.y, 0.0])
    if p.pose == "up":
        u, v, n = ex, ey, ez
        origin = c - u * w / 2 - v * h / 2
    elif p.pose == "down":
        # face down: the face points into the table; turned over about the tile's v axis
        u, v, n = -ex, ey, -ez
        origin = c - u * w / 2 - v * h / 2 + ez * t
    elif p.pose == "stand":
        u, v, n = ex, ez, -ey
        origin = c - u * w / 2 + ey * t / 2
    else:
        raise ValueError(f"unknown tile pose {p.pose!r}")
    return origin, u, v, n


def box_faces(p: Placement, dims: TileDims) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """The six faces as (name, 4x3 corners, outward normal).  Corner order of ``face`` and
    ``back`` is texture order: top-left, top-right, bottom-right, bottom-left of the face art."""
    dims = effective_dims(p, dims)
    o, u, v, n = tile_frame(p, dims)
    w, h, t = dims.width, dims.height, dims.thickness

    def pt(a, b, c):
        return o + u * a + v * b + n * c

    return [
        ("face", np.array([pt(0, h, t), pt(w, h, t), pt(w, 0, t), pt(0, 0, t)]), n),
        ("back", np.array([pt(w, h, 0), pt(0, h, 0), pt(0, 0, 0), pt(w, 0, 0)]), -n),
        ("left", np.array([pt(0, 0, 0), pt(0, h, 0), pt(0, h, t), pt(0, 0, t)]), -u),
        ("right", np.array([pt(w, 0, 0), pt(w, h, 0), pt(w, h, t), pt(w, 0, t)]), u),
        ("bottom", np.array([pt(0, 0, 0), pt(w, 0, 0), pt(w, 0, t), pt(0, 0, t)]), -v),
        ("top", np.array([pt(0, h, 0), pt(w, h, 0), pt(w, h, t), pt(0, h, t)]), v),
    ]


def box_corners(p: Placement, dims: TileDims) -> np.ndarray:
    dims = effective_dims(p, dims)
    o, u, v, n = tile_frame(p, dims)
    w, h, t = dims.width, dims.height, dims.thickness
    return np.array([o + u * a + v * b + n * c for a in (0, w) for b in (0, h) for c in (0, t)])


@dataclass(frozen=True)
class Camera:
    """Pinhole camera looking at ``target`` from ``elevation`` degrees above the table (90 =
    straight down), from compass direction ``azimuth`` (0 = from the player's side, 180 = from
    the opposite side, so the photo is upside down), at ``distance``; ``roll`` turns the photo.
    Projection gives normalised image coordinates; ``Scene`` fits them to pixels."""

    target: tuple[float, float, float]
    elevation: float
    azimuth: float
    distance: float
    roll: float = 0.0

    def __post_init__(self) -> None:
        # cached: projection is called for every face of every tile
        object.__setattr__(self, "_pos", self._position())
        object.__setattr__(self, "_rot", self._rotation())

    def position(self) -> np.ndarray:
        return self._pos  # type: ignore[attr-defined]

    def rotation(self) -> np.ndarray:
        """World-to-camera rotation (rows: camera x right, y down, z forward)."""
        return self._rot  # type: ignore[attr-defined]

    def _position(self) -> np.ndarray:
        el, az = math.radians(self.elevation), math.radians(self.azimuth)
        horiz = math.cos(el) * self.distance
        off = np.array([math.sin(az) * horiz, -math.cos(az) * horiz, math.sin(el) * self.distance])
        return np.asarray(self.target, dtype=float) + off

    def _rotation(self) -> np.ndarray:
        pos = self._position()
        fwd = np.asarray(self.target, dtype=float) - pos
        fwd /= np.linalg.norm(fwd)
        el, az = math.radians(self.elevation), math.radians(self.azimuth)
        # "up" in the photo is away from the camera across the table
        up_hint = np.array([-math.sin(az), math.cos(az), 0.0]) if self.elevation < 89.9 else np.array(
            [-math.sin(az), math.cos(az), 0.0])
        right = np.cross(fwd, np.array([0.0, 0.0, 1.0]))
        if np.linalg.norm(right) < 1e-6:
            right = np.cross(up_hint, fwd)  # looking straight down
            right = -right
        right /= np.linalg.norm(right)
        down = np.cross(fwd, right)
        rot = np.stack([right, down, fwd])
        r = math.radians(self.roll)
        cr, sr = math.cos(r), math.sin(r)
        roll = np.array([[cr, -sr, 0], [sr, cr, 0], [0, 0, 1.0]])
        del el, az
        return roll @ rot

    def project(self, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Normalised image coordinates (x/z, y/z) and camera depth of world points (N, 3)."""
        cam = (pts - self._pos) @ self._rot.T  # type: ignore[attr-defined]
        z = cam[:, 2]
        return cam[:, :2] / z[:, None], z
