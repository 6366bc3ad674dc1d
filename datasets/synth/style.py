"""A tile set's look (face art, body and back colours, proportions, corner indices) and the
face textures built from it.  One scene normally uses one set, as a real photo does."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...vision.kinds import KINDS

from .art import UNSEEN_ART, VARIED_ART, FaceSet, face_sets_for
from .fonts import choose_font, latin_fonts, load_font, symbol_fonts
from .geometry import TileDims
from .procedural import draw_glyph, procedural_fonts, unicode_glyph
from .unseen_faces import draw_unseen_glyph
from .varied_faces import varied_glyph

TEX_H = 128

FACE_COLOURS = [(242, 236, 218), (248, 247, 242), (236, 226, 196), (240, 240, 232), (232, 236, 222),
                (245, 238, 205), (225, 222, 210), (250, 244, 228)]
BACK_COLOURS = {
    "green": (40, 120, 60), "darkgreen": (20, 80, 45), "blue": (40, 80, 170), "navy": (25, 35, 90),
    "lightblue": (110, 170, 220), "yellow": (225, 190, 40), "orange": (230, 120, 30), "red": (180, 30, 35),
    "pink": (230, 130, 170), "purple": (110, 60, 150), "black": (30, 30, 32), "brown": (120, 75, 40),
    "teal": (30, 130, 130), "bamboo": (200, 170, 100), "white": (235, 232, 222), "grey": (140, 140, 140),
}
CORNER_SUIT = {"m": ["C", "K", ""], "p": ["D", "C", ""], "s": ["B", "S", ""]}
CORNER_HONOUR = {"E": "E", "S": "S", "W": "W", "N": "N", "R": "R", "G": "G", "Wh": "W"}


class LazyGlyphs(dict):
    """kind -> glyph layer, drawing a missing kind on first use (procedural faces are slow
    to draw and a scene needs only some kinds); each kind's drawing has its own seed, so the
    result does not depend on the order of use."""

    def __init__(self, factory):
        super().__init__()
        self.factory = factory

    def __missing__(self, kind: str) -> np.ndarray:
        glyph = self.factory(kind)
        self[kind] = glyph
        return glyph


@dataclass
class TileStyle:
    name: str
    glyphs: dict[str, np.ndarray]  # kind -> RGBA glyph layer (or opaque face); a LazyGlyphs
    opaque: bool
    face_colour: tuple[int, int, int]
    body_colour: tuple[int, int, int]
    back_colour: tuple[int, int, int]
    back_name: str
    dims: TileDims
    glyph_scale: float
    corner_index: bool
    corner_font: str | None
    corner_colour: tuple[int, int, int]
    radius: float
    corner_variant: int = 0
    bevel: float = 0.0  # brightness of the highlight along the face edge
    back_pattern: int = 0  # 0 plain, 1 diagonal lines, 2 emblem, 3 inner border, 4 dots
    textures: dict[str, np.ndarray] = field(default_factory=dict)

    def texture(self, kind: str) -> np.ndarray:
        """RGBA face texture (rounded corners transparent) for ``kind``; ``X`` gives the back."""
        if kind not in self.textures:
            self.textures[kind] = _build_texture(self, kind)
        return self.textures[kind]

    def describe(self) -> dict:
        return {"art": self.name, "back": self.back_name, "back_pattern": self.back_pattern, "face_colour": self.face_colour,
                "thickness": round(self.dims.thickness, 3), "height": round(self.dims.height, 3),
                "corner_index": self.corner_index}


def _rounded_alpha(h: int, w: int, radius_px: float) -> np.ndarray:
    import cv2

    a = np.zeros((h * 4, w * 4), np.uint8)
    r = int(radius_px * 4)
    cv2.rectangle(a, (r, 0), (w * 4 - 1 - r, h * 4 - 1), 255, -1)
    cv2.rectangle(a, (0, r), (w * 4 - 1, h * 4 - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w * 4 - 1 - r, r), (r, h * 4 - 1 - r), (w * 4 - 1 - r, h * 4 - 1 - r)):
        cv2.circle(a, (cx, cy), r, 255, -1)
    return cv2.resize(a, (w, h), interpolation=cv2.INTER_AREA)


def _corner_text(kind: str, rng_choice: int) -> str:
    if kind[0] in "fj":
        return kind[1]
    if kind in CORNER_HONOUR:
        return CORNER_HONOUR[kind]
    letters = CORNER_SUIT[kind[1]]
    return kind[0] + letters[rng_choice % len(letters)]


def _build_texture(style: TileStyle, kind: str) -> np.ndarray:
    import cv2

    th = TEX_H
    tw = int(round(TEX_H * style.dims.width / style.dims.height))
    yy = np.linspace(0, 1, th, dtype=np.float32)[:, None, None]
    if kind == "X":
        base = np.array(style.back_colour, np.float32)
        tex = np.broadcast_to(base, (th, tw, 3)).copy() * (1.0 + 0.06 * (0.5 - yy))
        tex = _back_pattern(tex, style.back_pattern)
    else:
        base = np.array(style.face_colour, np.float32)
        tex = np.broadcast_to(base, (th, tw, 3)).copy() * (1.0 + 0.04 * (0.5 - yy))
        glyph = style.glyphs[kind]
        if style.opaque:
            g = cv2.resize(glyph, (tw, th), interpolation=cv2.INTER_AREA).astype(np.float32)
            a = g[..., 3:4] / 255.0
            tex = tex * (1 - a) + g[..., :3] * a
        else:
            gh, gw = int(th * style.glyph_scale), int(tw * style.glyph_scale)
            g = cv2.resize(glyph, (gw, gh), interpolation=cv2.INTER_AREA).astype(np.float32)
            y0, x0 = (th - gh) // 2, (tw - gw) // 2
            a = g[..., 3:4] / 255.0
            region = tex[y0:y0 + gh, x0:x0 + gw]
            tex[y0:y0 + gh, x0:x0 + gw] = region * (1 - a) + g[..., :3] * a
        if style.corner_index:
            tex = _draw_corner_index(tex, kind, style)
    alpha = _rounded_alpha(th, tw, style.radius * tw)
    out = np.dstack([np.clip(tex, 0, 255).astype(np.uint8), alpha])
    return out


def _back_pattern(tex: np.ndarray, pattern: int) -> np.ndarray:
    """Embossed-looking decoration some sets have on their backs, in a shade of the colour."""
    import cv2

    if pattern == 0:
        return tex
    th, tw = tex.shape[:2]
    mark = np.zeros((th, tw), np.float32)
    if pattern == 1:
        for x in range(-th, tw, 10):
            cv2.line(mark, (x, th), (x + th, 0), 1.0, 2, cv2.LINE_AA)
    elif pattern == 2:
        cv2.circle(mark, (tw // 2, th // 2), int(tw * 0.3), 1.0, 3, cv2.LINE_AA)
        cv2.circle(mark, (tw // 2, th // 2), int(tw * 0.12), 1.0, -1, cv2.LINE_AA)
    elif pattern == 3:
        cv2.rectangle(mark, (int(tw * 0.12), int(th * 0.1)), (int(tw * 0.88), int(th * 0.9)), 1.0, 2, cv2.LINE_AA)
    else:
        for y in range(8, th, 14):
            for x in range(8, tw, 14):
                cv2.circle(mark, (x, y), 2, 1.0, -1, cv2.LINE_AA)
    return tex * (1.0 - 0.22 * mark[..., None])


def _draw_corner_index(tex: np.ndarray, kind: str, style: TileStyle) -> np.ndarray:
    from PIL import Image, ImageDraw

    img = Image.fromarray(np.clip(tex, 0, 255).astype(np.uint8))
    draw = ImageDraw.Draw(img)
    text = _corner_text(kind, style.corner_variant % 3)
    size = max(10, int(tex.shape[0] * (0.13 if len(text) == 1 else 0.11)))
    font = load_font(style.corner_font, size)
    th, tw = tex.shape[:2]
    corner = style.corner_variant // 3 % 4  # top-left, top-right, bottom-left, bottom-right
    x = tw * 0.07 if corner in (0, 2) else tw * 0.93
    y = th * 0.04 if corner in (0, 1) else th * 0.96
    anchor = ("l" if corner in (0, 2) else "r") + ("t" if corner in (0, 1) else "b")
    draw.text((x, y), text, font=font, fill=style.corner_colour, anchor=anchor)
    return np.asarray(img).astype(np.float32)


def style_for_art(rng: np.random.Generator, art: str, generated: bool = True) -> TileStyle:
    """``make_style`` for a generator's ``--art`` choice; ``"unseen"`` is the held-out face
    design (``unseen_faces``), which no other choice can draw; ``"varied"`` adds the training
    design grammar (``varied_faces``) as one more family."""
    return make_style(rng, face_sets_for(art), generated, unseen=art == UNSEEN_ART, varied=art == VARIED_ART)


def make_style(rng: np.random.Generator, face_sets: tuple[FaceSet, ...], generated: bool = True,
               unseen: bool = False, varied: bool = False) -> TileStyle:
    """A random tile set: one art source (completed with procedural faces), random body.
    ``generated=False`` draws only from ``face_sets`` (no procedural or font-drawn sets);
    ``unseen=True`` draws every face with the held-out design (for evaluation batches only);
    ``varied=True`` lets the design grammar be chosen as often as the procedural faces.
    Every call draws the same numbers whichever set is chosen and whatever fonts exist, so
    the rest of the scene does not depend on what is installed."""
    cjk, latin = procedural_fonts(rng)
    choices = [s.name for s in face_sets]
    if generated or not choices:
        choices += ["procedural"] * max(1, len(face_sets) // 2) + ["unicode"]
    if varied:
        choices += [VARIED_ART] * max(1, len(face_sets) // 2)
    name = choices[int(rng.random() * len(choices))]
    glyph_seed, variant_seed, ink = int(rng.integers(2**31)), int(rng.integers(2**31)), int(rng.integers(4))
    if unseen:
        name = UNSEEN_ART
    draw = {UNSEEN_ART: draw_unseen_glyph, VARIED_ART: varied_glyph}.get(name, draw_glyph)
    glyphs = LazyGlyphs(lambda k: draw(k, np.random.default_rng([glyph_seed, KINDS.index(k)]), cjk, latin))
    opaque = False
    own_face = None
    if name == "unicode" and symbol_fonts():
        colour = [(20, 20, 20), (30, 40, 120), (120, 20, 20), (20, 80, 40)][ink]
        glyphs = LazyGlyphs(lambda k: unicode_glyph(k, symbol_fonts()[0], colour))
    elif name == "unicode":  # no symbol font here: procedural faces stand in
        name = "procedural"
    elif name not in ("procedural", UNSEEN_ART, VARIED_ART):   # an art family: its own faces
        fs = next(s for s in face_sets if s.name == name)
        opaque, own_face = fs.opaque, fs.face_colour
        pick = np.random.default_rng(variant_seed)
        for k in KINDS:
            variants = fs.faces.get(k) if k != "X" else None
            if variants:
                glyphs[k] = variants[int(pick.integers(len(variants)))]
    back_name = list(BACK_COLOURS)[int(rng.integers(len(BACK_COLOURS)))]
    back = tuple(int(np.clip(c + rng.integers(-18, 19), 0, 255)) for c in BACK_COLOURS[back_name])
    face = tuple(int(np.clip(c + rng.integers(-8, 9), 0, 255)) for c in FACE_COLOURS[int(rng.integers(len(FACE_COLOURS)))])
    jade = rng.integers(-12, 13, 3)  # drawn for every set: the stream stays the same
    if own_face is not None and sum(own_face) < 450:  # dark faces with light glyphs (jade)
        face = tuple(int(np.clip(c + d, 0, 255)) for c, d in zip(own_face, jade))
    single = rng.random() < 0.15
    dims = TileDims(width=1.0, height=float(rng.uniform(1.22, 1.45)), thickness=float(rng.uniform(0.5, 0.85)),
                    back_fraction=0.0 if single else float(rng.uniform(0.25, 0.65)))
    body = tuple(int(c * rng.uniform(0.93, 1.0)) for c in face)
    corner = rng.random() < 0.4
    return TileStyle(
        name=name, glyphs=glyphs, opaque=opaque, face_colour=face, body_colour=body, back_colour=back,
        back_name=back_name, dims=dims, glyph_scale=float(rng.uniform(0.66, 0.8) if corner else rng.uniform(0.72, 0.95)), corner_index=corner,
        corner_font=choose_font(latin_fonts(), int(rng.integers(2**31))),
        corner_colour=[(20, 20, 20), (180, 20, 20), (20, 40, 150), (20, 110, 40)][int(rng.integers(4))],
        radius=float(rng.uniform(0.05, 0.16)), corner_variant=int(rng.integers(12)),
        back_pattern=int(rng.choice(5, p=[0.6, 0.1, 0.1, 0.1, 0.1])),
        bevel=float(rng.uniform(0.0, 0.15)) if rng.random() < 0.5 else 0.0,
    )
