"""Tile crops rendered from the vector art under ``<data root>/art`` (``datasets.paths``;
faces with a known upright orientation) and procedurally drawn face-down tiles (``X``).

Used to teach the classifier kinds the real data lacks (``X``), more variety for flowers
and seasons, and the orientation head (real crops have no known orientation)."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np

from ..kinds import KIND_INDEX

_FLUFFY = {**{f"Man{n}": f"{n}m" for n in range(1, 10)}, **{f"Pin{n}": f"{n}p" for n in range(1, 10)},
           **{f"Sou{n}": f"{n}s" for n in range(1, 10)}, "Man5-Dora": "5m", "Pin5-Dora": "5p",
           "Sou5-Dora": "5s", "Ton": "E", "Nan": "S", "Shaa": "W", "Pei": "N", "Chun": "R",
           "Hatsu": "G", "Haku": "Wh"}
_XHOKIR = {**_FLUFFY, **{f"Flower{n}": f"f{n}" for n in range(1, 5)},
           **{f"Season{n}": f"j{n}" for n in range(1, 5)}}


def render_faces(art_root: Path, width: int = 90, height: int = 120) -> list[tuple[str, np.ndarray]]:
    """(token, RGBA face) for every art file we can map under ``art_root`` and in the repository."""
    from PIL import Image

    faces = []
    for folder, table in (("fluffystuff-regular", _FLUFFY), ("xhokir-regular", _XHOKIR)):
        for stem, token in table.items():
            path = art_root / folder / f"{stem}.svg"
            if not path.exists():
                continue
            import cairosvg     # only when there is SVG art (a training extra)

            png = cairosvg.svg2png(url=str(path), output_width=width, output_height=height)
            faces.append((token, np.array(Image.open(io.BytesIO(png)).convert("RGBA"))))
    # PNG faces named by token (the synthetic-scene helper's committed sets and any optional
    # art it installed under data/art-cache), e.g. datasets/art/faces/commons-uni/f1.png
    repo = Path(__file__).resolve().parents[2]
    for folder in (repo / "datasets" / "art" / "faces", repo / "data" / "art-cache" / "faces"):
        for png_path in sorted(folder.glob("*/*.png")):
            token = png_path.stem.split("_")[0]
            if token in KIND_INDEX and token != "X":
                img = Image.open(png_path).convert("RGBA").resize((width, height), Image.LANCZOS)
                faces.append((token, np.array(img)))
    return faces


def _rounded_mask(h: int, w: int, r: int) -> np.ndarray:
    import cv2

    m = np.zeros((h, w), np.uint8)
    cv2.rectangle(m, (r, 0), (w - r - 1, h - 1), 255, -1)
    cv2.rectangle(m, (0, r), (w - 1, h - r - 1), 255, -1)
    for cx, cy in ((r, r), (w - r - 1, r), (r, h - r - 1), (w - r - 1, h - r - 1)):
        cv2.circle(m, (cx, cy), r, 255, -1)
    return m


def _tile_image(face: np.ndarray | None, rng: np.random.Generator, back_colour=None) -> np.ndarray:
    """RGBA tile: ivory body with the face, or a coloured back when ``face`` is None."""
    h, w = 120, 90
    img = np.zeros((h, w, 4), np.uint8)
    if face is None:
        col = back_colour if back_colour is not None else rng.integers(0, 256, 3)
        body = np.ones((h, w, 3)) * col
        if rng.random() < 0.5:     # a lighter or darker inset panel, as many backs have
            d = rng.integers(5, 15)
            body[d:h - d, d:w - d] = np.clip(body[d:h - d, d:w - d] * rng.uniform(0.75, 1.25), 0, 255)
        img[..., :3] = body.astype(np.uint8)
    else:
        ivory = np.array([rng.uniform(215, 255), rng.uniform(210, 250), rng.uniform(190, 240)])
        body = np.ones((h, w, 3)) * ivory
        a = face[..., 3:4].astype(np.float32) / 255.0
        body = body * (1 - a) + face[..., :3] * a
        img[..., :3] = body.astype(np.uint8)
    img[..., 3] = _rounded_mask(h, w, int(rng.integers(4, 14)))
    return img


def _back_colour(rng):
    palette = [(30, 120, 60), (20, 60, 160), (230, 190, 40), (220, 120, 30), (180, 30, 40),
               (230, 120, 160), (100, 50, 150), (30, 30, 30), (40, 160, 170), (120, 80, 50)]
    base = np.array(palette[rng.integers(len(palette))], float)
    return np.clip(base + rng.normal(0, 25, 3), 0, 255)


def row_crop(centre, neighbour, rng: np.random.Generator, size: int, back: bool = False) -> np.ndarray:
    """One upright crop of the face ``centre()`` gives (90 x 120 RGBA art; None = a face-down
    back) as the middle of a short row on a random cloth, with depth edges and mild
    perspective. ``neighbour()`` gives a neighbouring tile's face; ``back``: the middle tile is
    a back and its neighbours mostly backs of the same colour. (The draws keep the order of
    the first version, so ``render_crops``' seeds give the crops they always gave.)"""
    import cv2

    from ..crops import square_crop

    canvas_h, canvas_w = 200, 360
    bg = rng.integers(0, 256, 3)
    canvas = np.ones((canvas_h, canvas_w, 3), np.float32) * bg
    canvas += rng.normal(0, rng.uniform(0, 20), canvas.shape)   # cloth texture
    # Tile depth: a coloured edge strip visible below (a standing or lying tile).
    edge_col = _back_colour(rng)
    if back:
        rng.random()
    back_col = _back_colour(rng)
    gap = int(rng.integers(-2, 6))
    x0 = 180 - 45 - (90 + gap)
    for j in range(3):
        if j == 1:
            tile_face = centre()
        else:
            if rng.random() < 0.3:
                x0 += 90 + gap
                continue
            tile_face = None if back and rng.random() < 0.7 else neighbour()
        tile = _tile_image(tile_face, rng, back_col if tile_face is None else None)
        y0 = 40
        depth = int(rng.integers(0, 18))
        if depth:
            m = tile[..., 3:4] / 255.0
            ys, xs = slice(y0 + depth, y0 + depth + 120), slice(x0, x0 + 90)
            canvas[ys, xs] = canvas[ys, xs] * (1 - m) + edge_col * m
        m = tile[..., 3:4] / 255.0
        ys, xs = slice(y0, y0 + 120), slice(x0, x0 + 90)
        canvas[ys, xs] = canvas[ys, xs] * (1 - m) + tile[..., :3] * m
        x0 += 90 + gap
    canvas = np.clip(canvas, 0, 255).astype(np.uint8)
    # mild perspective / shear keeps the tile roughly upright
    src = np.float32([[0, 0], [canvas_w, 0], [canvas_w, canvas_h], [0, canvas_h]])
    dst = src + rng.normal(0, 8, src.shape).astype(np.float32)
    canvas = cv2.warpPerspective(canvas, cv2.getPerspectiveTransform(src, dst),
                                 (canvas_w, canvas_h), borderMode=cv2.BORDER_REFLECT)
    box = (135, 40, 225, 160)
    jit = dict(dx=rng.normal(0, 0.04), dy=rng.normal(0, 0.04), scale=rng.uniform(0.95, 1.25))
    return square_crop(canvas, box, size, **jit)


def render_crops(n_per_kind: int, size: int, art_root: Path | None, seed: int = 0,
                 faces: list | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Upright crops (N x size x size x 3 uint8, labels) of art tiles in short rows on random
    backgrounds, ``n_per_kind`` for every kind the art covers (``render_faces``, or the
    already rendered ``faces``) plus ``X``."""
    rng = np.random.default_rng(seed)
    faces = faces if faces is not None else render_faces(art_root)
    by_kind: dict[str, list[np.ndarray]] = {}
    for t, f in faces:
        by_kind.setdefault(t, []).append(f)
    kinds = sorted(by_kind) + ["X"]
    others = list(by_kind)

    def neighbour():
        fl = by_kind[others[rng.integers(len(others))]]
        return fl[rng.integers(len(fl))]

    out, labels = [], []
    for kind in kinds:
        for _ in range(n_per_kind):
            def centre(kind=kind):
                return None if kind == "X" else by_kind[kind][rng.integers(len(by_kind[kind]))]
            out.append(row_crop(centre, neighbour, rng, size, back=kind == "X"))
            labels.append(KIND_INDEX[kind])
    return np.stack(out), np.array(labels, np.int64)
