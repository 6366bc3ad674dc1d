"""Flower and season crops that teach the cues every set shares, not one set's pictures.

Why: on sets the classifier never saw, most of its errors are among ``f1..f4 j1..j4`` (each
set paints its own plum, orchid, spring...). What sets have in common is the index 1-4 in a
corner (or 一二三四) and/or the characters 梅蘭菊竹 / 春夏秋冬, and that flowers show plants
while seasons show scenes. So these faces draw:

- the index in any corner, any Latin or CJK font, any colour (sometimes as 一二三四, sometimes
  absent when a character is drawn), and the character in one of ~26 CJK fonts (Kai, Ming,
  Hei, calligraphic) at a corner, a side, or big in the middle;
- a picture that is *a* flower for flowers and *a* scene for seasons, matched to the index
  only half the time, so the picture alone never decides the index;
- as counter-examples, suit and honour faces of the art with their own index in a corner
  (Western sets print them), so that a corner digit alone does not mean "bonus".

Each face is laid in a short row of art tiles (``art.row_crop``) like the art crops are.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from ...datasets.synth import procedural as P
from ...datasets.synth.fonts import fonts_covering, latin_fonts
from ..kinds import BONUS as BONUS_KINDS, KIND_INDEX

CHARS = {"f": ["梅", "蘭", "菊", "竹"], "j": ["春", "夏", "秋", "冬"]}
ALT_CHARS = {"蘭": "兰"}            # simplified orchid, as mainland sets print it
CN_INDEX = "一二三四"
INK = P.RED + P.BLUE + P.GREEN + P.BLACK + [(120, 40, 150), (200, 120, 20)]


def _flower(draw, idx: int, rng) -> None:
    """A plant: blossom (petal count by species when matched), bamboo stalks or a branch."""
    cx, cy, r = P.W * rng.uniform(0.38, 0.62), P.H * rng.uniform(0.42, 0.62), P.W * rng.uniform(0.16, 0.3)
    leaf = P._pick(rng, P.GREEN)
    if idx == 3 and rng.random() < 0.7:
        for k in range(int(rng.integers(1, 4))):
            x = cx + (k - 1) * r * rng.uniform(0.7, 1.1)
            draw.line((x * P.SS, (cy - r * 1.5) * P.SS, x * P.SS, (cy + r * 1.7) * P.SS), fill=leaf,
                      width=int(rng.integers(3, 7)) * P.SS)
            for _ in range(int(rng.integers(1, 4))):
                y = cy + rng.uniform(-1.2, 1.2) * r
                s = 1 if rng.random() < 0.5 else -1
                draw.polygon([(x * P.SS, y * P.SS), ((x + s * r * 0.9) * P.SS, (y - r * 0.4) * P.SS),
                              ((x + s * r * 0.3) * P.SS, (y + r * 0.1) * P.SS)], fill=leaf)
        return
    petals = [5, 3, 14, 6][idx] if rng.random() < 0.6 else int(rng.choice([4, 5, 6, 8, 12]))
    petal = P._pick(rng, [(220, 40, 60), (240, 130, 170), (150, 60, 190), (240, 190, 30), (230, 110, 20),
                          (250, 250, 250), (200, 60, 160)])
    for _ in range(int(rng.integers(1, 3))):
        P._flower_picture(draw, cx, cy, r, petal, _centre(rng), leaf, rng, petals=petals)
        cx, cy, r = cx + rng.uniform(-0.3, 0.3) * P.W, cy + rng.uniform(-0.25, 0.1) * P.H, r * 0.7


def _centre(rng):
    return P._pick(rng, [(250, 220, 60), (200, 40, 40), (250, 250, 200)])


def _scene(draw, idx: int, rng) -> None:
    """A season picture: the generator's sun/leaf/snowflake/blossom or a small landscape."""
    cx, cy, r = P.W * rng.uniform(0.4, 0.6), P.H * rng.uniform(0.45, 0.6), P.W * rng.uniform(0.18, 0.28)
    if rng.random() < 0.55:
        P._season_picture(draw, idx, cx, cy, r, rng)
        return
    ground = P._pick(rng, P.GREEN + [(150, 110, 60), (120, 120, 140)])
    top = P.H * rng.uniform(0.45, 0.65)
    peaks = [(0, P.H * 0.85)] + [(x, top + rng.uniform(-0.12, 0.12) * P.H)
                                 for x in np.linspace(0, P.W, int(rng.integers(3, 6)))] + [(P.W, P.H * 0.85)]
    draw.polygon([(x * P.SS, y * P.SS) for x, y in peaks], fill=ground)
    sx, sy, sr = P.W * rng.uniform(0.25, 0.75), P.H * rng.uniform(0.25, 0.4), P.W * rng.uniform(0.07, 0.13)
    draw.ellipse(((sx - sr) * P.SS, (sy - sr) * P.SS, (sx + sr) * P.SS, (sy + sr) * P.SS),
                 fill=P._pick(rng, P.RED + [(240, 170, 30), (200, 200, 210)]))
    if rng.random() < 0.5:   # a figure: head and robe
        fx, fy = P.W * rng.uniform(0.3, 0.7), P.H * rng.uniform(0.55, 0.7)
        robe = P._pick(rng, P.BLUE + P.RED + [(120, 40, 150)])
        draw.polygon([(fx * P.SS, (fy - 12) * P.SS), ((fx - 10) * P.SS, (fy + 18) * P.SS),
                      ((fx + 10) * P.SS, (fy + 18) * P.SS)], fill=robe)
        draw.ellipse(((fx - 4) * P.SS, (fy - 20) * P.SS, (fx + 4) * P.SS, (fy - 12) * P.SS), fill=(230, 190, 150))


CORNERS = [(0.19, 0.14), (0.81, 0.14), (0.19, 0.86), (0.81, 0.86)]


def bonus_face(kind: str, rng: np.random.Generator, cjk: tuple[str, ...], latin: tuple[str | None, ...]) -> np.ndarray:
    """An RGBA face (procedural.W x H) of flower ``f1..f4`` or season ``j1..j4``."""
    img, draw = P._canvas()
    group, idx = kind[0], int(kind[1]) - 1
    char = CHARS[group][idx]
    if char in ALT_CHARS and rng.random() < 0.3:
        char = ALT_CHARS[char]
    has_char = bool(cjk) and rng.random() < 0.65
    index_style = rng.choice(["digit", "cn", "none"], p=[0.75, 0.1, 0.15] if has_char else [0.85, 0.15, 0.0])
    big_char = has_char and rng.random() < 0.25
    if not big_char and rng.random() < 0.9:
        picture_idx = idx if rng.random() < 0.5 else int(rng.integers(4))
        (_flower if group == "f" else _scene)(draw, picture_idx, rng)
    corner = int(rng.integers(4)) if rng.random() < 0.7 else int(rng.integers(2))
    ink = P._pick(rng, INK)
    if index_style != "none":
        text = str(idx + 1) if index_style == "digit" else CN_INDEX[idx]
        font = P._pick(rng, latin) if index_style == "digit" and rng.random() < 0.7 else P._pick(rng, cjk or latin)
        if font is None or (index_style == "cn" and not cjk):
            text, font = str(idx + 1), P._pick(rng, latin)
        P._text(draw, (P.W * CORNERS[corner][0], P.H * CORNERS[corner][1]), text, font,
                int(rng.integers(14, 30)), ink)
    if has_char:
        font, colour = P._pick(rng, cjk), P._pick(rng, INK)
        if big_char:
            P._text(draw, (P.W / 2, P.H * 0.55), char, font, P._fit_text(char, font, P.W * 0.75, P.H * 0.55), colour)
        else:
            spots = [c for i, c in enumerate(CORNERS) if i != corner] + [(0.5, 0.13), (0.5, 0.87)]
            x, y = spots[int(rng.integers(len(spots)))]
            P._text(draw, (P.W * x, P.H * y), char, font, int(rng.integers(16, 28)), colour)
    return P._finish(img)


def indexed_face(face: np.ndarray, kind: str, rng: np.random.Generator, latin: tuple[str | None, ...]) -> np.ndarray:
    """An art face of a suit tile with its number (an honour with its letter) drawn in a
    corner, as Western sets print them: the counter-examples to 'a corner digit is a bonus'."""
    label = {"R": "C", "G": "F", "Wh": "P"}.get(kind, kind[0])      # digit, or E S W N; dragons C F P
    img = Image.fromarray(face).resize((P.W * P.SS, P.H * P.SS), Image.LANCZOS)
    draw = ImageDraw.Draw(img)
    x, y = CORNERS[int(rng.integers(2))]
    P._text(draw, (P.W * x, P.H * y), label, P._pick(rng, latin), int(rng.integers(12, 22)), P._pick(rng, INK))
    return P._finish(img)


def render_bonus_crops(n_per_kind: int, size: int, art_root: Path | None, seed: int = 0,
                       negatives: float = 0.25, faces: list | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Upright crops (N x size x size x 3 uint8) and labels: ``n_per_kind`` procedural faces of
    each bonus kind plus ``negatives`` x that many indexed suit/honour faces, in art rows.
    ``faces``: the art's (token, RGBA face) list when already rendered (a crop bank's), else
    rendered from ``art_root``."""
    from .art import render_faces, row_crop

    rng = np.random.default_rng(seed)
    cjk = fonts_covering("".join(CHARS["f"] + CHARS["j"]) + CN_INDEX)
    latin = latin_fonts() or (None,)
    art = [(t, f) for t, f in (faces if faces is not None else render_faces(art_root)) if t not in BONUS_KINDS]
    out, labels = [], []
    jobs = [k for k in BONUS_KINDS for _ in range(n_per_kind)]
    jobs += [None] * int(round(negatives * len(jobs)))
    for kind in jobs:
        if kind is None:
            token, face = art[int(rng.integers(len(art)))]
            face, kind = indexed_face(face, token, rng, latin), token
        else:
            face = bonus_face(kind, rng, cjk, latin)
        face = np.asarray(Image.fromarray(face).resize((90, 120), Image.LANCZOS))
        out.append(row_crop(lambda: face, lambda: art[int(rng.integers(len(art)))][1], rng, size))
        labels.append(KIND_INDEX[kind])
    return np.stack(out), np.array(labels, np.int64)


def preview(path: Path, art_root: Path, n: int = 6, seed: int = 0) -> None:
    """A contact sheet of ``n`` crops per bonus kind (rows f1..j4), to look at the source."""
    x, y = render_bonus_crops(n, 64, art_root, seed=seed, negatives=0.0)
    rows = [np.concatenate(list(x[y == KIND_INDEX[k]][:n]), axis=1) for k in BONUS_KINDS]
    Image.fromarray(np.concatenate(rows, axis=0)).save(path)


if __name__ == "__main__":
    import argparse

    from ...datasets.paths import ART, add_data_root_option, data_path

    ap = argparse.ArgumentParser(description="contact sheet of the flower/season crop source")
    ap.add_argument("--out", type=Path, default=Path("bonus_faces.png"))
    ap.add_argument("--seed", type=int, default=0)
    add_data_root_option(ap)
    args = ap.parse_args()
    preview(args.out, data_path(ap, args.data_root, ART), seed=args.seed)
