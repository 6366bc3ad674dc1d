"""Render placed tiles with a camera onto a table: shaded 3-D boxes with textured faces,
drop shadows, and exact labels (the visible part of every tile, from an id buffer)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .framing import Frame
from .geometry import Camera, Placement, box_corners, box_faces
from .style import TileStyle


@dataclass(frozen=True)
class TileLabel:
    """One labelled tile: ``box`` = (x0, y0, x1, y1) pixels of its visible part (face + body),
    ``angle`` = direction of the face's "up" in the image, degrees counter-clockwise from
    image-up (0 upright, 90 turned left, 180 upside down), ``visible`` = visible share."""

    kind: str
    box: tuple[float, float, float, float]
    angle: float
    visible: float
    index: int


def _shade(colour, normal, light, ambient) -> np.ndarray:
    k = ambient + (1 - ambient) * max(0.0, float(np.dot(normal, light)))
    return np.clip(np.array(colour, np.float32) * k, 0, 255)


def _warp_texture(canvas: np.ndarray, tex: np.ndarray, quad: np.ndarray, gain: float) -> None:
    """Paint an RGBA texture into a quadrilateral of the float canvas (in place)."""
    import cv2

    h, w = canvas.shape[:2]
    x0, y0 = np.floor(quad.min(0)).astype(int)
    x1, y1 = np.ceil(quad.max(0)).astype(int) + 1
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    edge = max(np.linalg.norm(quad[0] - quad[3]), np.linalg.norm(quad[1] - quad[2]), 1.0)
    th, tw = tex.shape[:2]
    if edge * 1.5 < th:  # pre-shrink so the warp does not alias
        f = max(edge * 1.5 / th, 4 / th)
        tex = cv2.resize(tex, (max(2, int(tw * f)), max(2, int(th * f))), interpolation=cv2.INTER_AREA)
        th, tw = tex.shape[:2]
    src = np.float32([[0, 0], [tw, 0], [tw, th], [0, th]])
    dst = (quad - np.array([x0, y0])).astype(np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    warped = cv2.warpPerspective(tex, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0)).astype(np.float32)
    a = warped[..., 3:4] / 255.0
    roi = canvas[y0:y1, x0:x1]
    roi[:] = roi * (1 - a) + warped[..., :3] * gain * a


def _fill(canvas, poly, colour):
    import cv2

    cv2.fillConvexPoly(canvas, np.round(poly * 16).astype(np.int32), tuple(float(c) for c in colour),
                       lineType=cv2.LINE_AA, shift=4)


def render_tiles(canvas: np.ndarray, placements: list[Placement], style: TileStyle, cam: Camera,
                 frame: Frame, rng: np.random.Generator, light: np.ndarray, ambient: float,
                 shadow: float, min_visible: float = 0.35) -> list[TileLabel]:
    """Draw shadows then tiles (far to near) on ``canvas`` (float RGB, modified in place)."""
    import cv2

    h, w = canvas.shape[:2]
    cam_pos = cam.position()
    # drop shadows on the table, along the light
    if shadow > 0:
        smask = np.zeros((h, w), np.float32)
        for p in placements:
            c = box_corners(p, style.dims)
            cast = c - c[:, 2:3] / max(light[2], 0.2) * light  # along the light onto z=0
            c = np.concatenate([c * np.array([1.0, 1.0, 0.0]), cast])
            proj, z = cam.project(c)
            if (z <= 0).any():
                continue
            hull = cv2.convexHull(frame.to_px(proj).astype(np.float32))
            cv2.fillConvexPoly(smask, np.round(hull * 16).astype(np.int32), 1.0, lineType=cv2.LINE_AA, shift=4)
        smask = cv2.GaussianBlur(smask, (0, 0), max(1.0, 0.012 * w))
        canvas *= (1 - shadow * smask)[..., None]

    ids = np.zeros((h, w), np.uint16)
    # painter's order by depth along the view axis (rows and a rack in front stay in order)
    forward = cam.rotation()[2]
    order = []
    for i, p in enumerate(placements):
        centre = box_corners(p, style.dims).mean(0)
        order.append((-float(np.dot(centre - cam_pos, forward)), i))
    order.sort()
    hull_areas: dict[int, float] = {}
    face_areas: dict[int, float] = {}
    back_areas: dict[int, float] = {}
    angles: dict[int, float] = {}
    bf = style.dims.back_fraction * style.dims.thickness
    for _, i in order:
        p = placements[i]
        corners, depth = cam.project(box_corners(p, style.dims))
        if (depth <= 1e-3).any():  # (partly) behind the camera: not in the photo
            continue
        corners_px = frame.to_px(corners)
        hull = cv2.convexHull(corners_px.astype(np.float32))
        hull_areas[i] = float(cv2.contourArea(hull))
        cv2.fillConvexPoly(ids, np.round(hull * 16).astype(np.int32), 0 if p.is_prop else i + 1, shift=4)
        if p.is_prop:
            _draw_prop(canvas, p, style, cam, frame, cam_pos, light, ambient)
            continue
        # sides first, then the dark seam round the silhouette, then face/back on top: their
        # rounded corners (transparent in the texture) let the seam and table show through
        faces = sorted(box_faces(p, style.dims), key=lambda f: f[0] in ("face", "back"))
        seam_drawn = False
        for name, pts, normal in faces:
            if name in ("face", "back") and not seam_drawn:
                cv2.polylines(canvas, [np.round(hull * 16).astype(np.int32)], True,
                              tuple(float(c) * 0.55 for c in style.body_colour), 1, cv2.LINE_AA, shift=4)
                seam_drawn = True
            centre = pts.mean(0)
            if np.dot(normal, cam_pos - centre) <= 1e-9:
                continue
            quad = frame.to_px(cam.project(pts)[0])
            gain = float(_shade((1, 1, 1), normal, light, ambient)[0])
            if name in ("face", "back"):
                area = float(cv2.contourArea(quad.astype(np.float32)))
                (face_areas if name == "face" else back_areas)[i] = area
            if name == "face":
                if style.radius < 0.07:  # square-cornered face: the body shows in the corners
                    _fill(canvas, quad, _shade(style.body_colour, normal, light, ambient))
                _warp_texture(canvas, style.texture(p.kind), quad, gain)
                if style.bevel > 0:  # the rounded edge round the face catches the light
                    cv2.polylines(canvas, [np.round(quad * 16).astype(np.int32)], True,
                                  tuple(min(255.0, float(c) * (1 + style.bevel)) for c in style.body_colour),
                                  1, cv2.LINE_AA, shift=4)
                top = (quad[0] + quad[1]) / 2 - (quad[2] + quad[3]) / 2
                angles[i] = math.degrees(math.atan2(-top[0], -top[1])) % 360
            elif name == "back":
                if style.radius < 0.07:
                    _fill(canvas, quad, _shade(style.back_colour, normal, light, ambient))
                _warp_texture(canvas, style.texture("X"), quad, gain)
            else:
                # side: corners 0,1 at the back (n=0), 2,3 at the face (n=t)
                t = style.dims.thickness
                f = bf / t if t > 0 else 0
                m0 = pts[0] + (pts[3] - pts[0]) * f
                m1 = pts[1] + (pts[2] - pts[1]) * f
                lower = frame.to_px(cam.project(np.array([pts[0], pts[1], m1, m0]))[0])
                upper = frame.to_px(cam.project(np.array([m0, m1, pts[2], pts[3]]))[0])
                if f > 0:
                    _fill(canvas, lower, _shade(style.back_colour, normal, light, ambient))
                _fill(canvas, upper, _shade(style.body_colour, normal, light, ambient))
        if p.pose == "down":
            o = box_faces(p, style.dims)[1][1]
            quad = frame.to_px(cam.project(o)[0])
            top = (quad[0] + quad[1]) / 2 - (quad[2] + quad[3]) / 2
            angles[i] = math.degrees(math.atan2(-top[0], -top[1])) % 360

    labels = []
    for i, p in enumerate(placements):
        if p.is_prop:
            continue
        x0, y0, x1, y1 = _visible_box(ids, i + 1, frame, cam, p, style)
        if x1 <= x0:
            continue
        count = int(np.count_nonzero(ids[y0:y1, x0:x1] == i + 1))
        vis = count / max(hull_areas.get(i, 1.0), 1.0)
        if vis < min_visible or (x1 - x0) < 3 or (y1 - y0) < 3:
            continue
        # what the camera sees decides the label: a tile seen from behind is a back (X); one
        # seen edge-on shows neither and is left unlabelled
        hull = max(hull_areas.get(i, 1.0), 1.0)
        if face_areas.get(i, 0.0) >= 0.18 * hull:
            kind = p.kind
        elif back_areas.get(i, 0.0) >= 0.18 * hull:
            kind = "X"
        else:
            continue
        labels.append(TileLabel(kind, (float(x0), float(y0), float(x1), float(y1)),
                                round(angles.get(i, 0.0), 1), round(min(vis, 1.0), 3), i))
    return labels


def _draw_prop(canvas, p, style, cam, frame, cam_pos, light, ambient) -> None:
    """A plain shaded box (rack, stick, chip) with a thin darker outline."""
    import cv2

    colour = p.colour or (120, 80, 50)
    for _name, pts, normal in box_faces(p, style.dims):
        if np.dot(normal, cam_pos - pts.mean(0)) <= 1e-9:
            continue
        quad = frame.to_px(cam.project(pts)[0])
        _fill(canvas, quad, _shade(colour, normal, light, ambient))
        cv2.polylines(canvas, [np.round(quad * 16).astype(np.int32)], True,
                      tuple(float(c) * 0.7 for c in colour), 1, cv2.LINE_AA, shift=4)


def _visible_box(ids, tile_id, frame, cam, p, style):
    h, w = ids.shape
    proj = frame.to_px(cam.project(box_corners(p, style.dims))[0])
    x0, y0 = np.floor(proj.min(0)).astype(int) - 1
    x1, y1 = np.ceil(proj.max(0)).astype(int) + 2
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return 0, 0, 0, 0
    ys, xs = np.nonzero(ids[y0:y1, x0:x1] == tile_id)
    if len(xs) == 0:
        return 0, 0, 0, 0
    return x0 + int(xs.min()), y0 + int(ys.min()), x0 + int(xs.max()) + 1, y0 + int(ys.max()) + 1
