"""Fonts for procedural faces and corner indices, and the one rule that keeps scenes hermetic.

Fonts are looked for in ``$MJSCORE_FONT_DIRS`` (folders separated by ``os.pathsep``; set but
empty = no folder at all) or else in the machine's usual font folders.  What is found may
change only how a glyph *looks*: callers draw a font with :func:`choose_font` from a number
they always draw, so the random stream of a scene (and with it the layout, camera, labels and
boxes) is the same on every machine.  With ``MJSCORE_FONT_DIRS=""`` only Pillow's built-in
scalable font is used (Aileron Regular, CC0, inside Pillow itself), so the pixels are the
same too for a given Pillow: nothing needs to be bundled.

Everything degrades: without a CJK font the procedural faces use Latin letters and pips only;
without a symbol font the Unicode set falls back to procedural faces."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

FONT_DIRS_ENV = "MJSCORE_FONT_DIRS"
MACHINE_FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", str(Path.home() / ".fonts"))

CJK_NAMES = ["ukai.ttc", "uming.ttc", "cwkai.ttf", "cwming.ttf", "NotoSansCJK", "NotoSerifCJK",
             "wqy-zenhei.ttc", "wqy-microhei.ttc", "droid", "DroidSansFallback"]
LATIN_NAMES = ["DejaVuSans-Bold.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSans.ttf", "DejaVuSerif.ttf",
               "DejaVuSansCondensed-Bold.ttf", "NotoSans-Bold.ttf", "NotoSerif-Bold.ttf",
               "NotoSans-Regular.ttf", "NotoSerif-Regular.ttf", "LiberationSans-Bold.ttf",
               "LiberationSerif-Bold.ttf", "FreeSansBold.ttf", "FreeSerifBold.ttf"]
SYMBOL_NAMES = ["NotoSansSymbols2-Regular.ttf", "Symbola.ttf", "Symbola_hint.ttf"]
PREFIX_NAMES = ("CJK", "droid", "DroidSansFallback")  # matched anywhere in a file name


def font_dirs() -> tuple[str, ...]:
    """The folders searched now: the override when set (empty: none), else the machine's."""
    override = os.environ.get(FONT_DIRS_ENV)
    if override is None:
        return MACHINE_FONT_DIRS
    return tuple(d for d in override.split(os.pathsep) if d)


@lru_cache(maxsize=8)
def _font_files(dirs: tuple[str, ...]) -> tuple[Path, ...]:
    files: list[Path] = []
    for d in map(Path, dirs):
        if d.is_dir():
            files += [p for p in d.rglob("*") if p.suffix.lower() in (".ttf", ".ttc", ".otf")]
    return tuple(sorted(files))


@lru_cache(maxsize=32)
def _matching(names: tuple[str, ...], dirs: tuple[str, ...]) -> tuple[str, ...]:
    found: list[str] = []
    for name in names:
        for p in _font_files(dirs):
            if (p.name == name or (name in p.name and name.endswith(PREFIX_NAMES))) and str(p) not in found:
                found.append(str(p))
    return tuple(found)


def cjk_fonts() -> tuple[str, ...]:
    return _matching(tuple(CJK_NAMES), font_dirs())


def latin_fonts() -> tuple[str, ...]:
    return _matching(tuple(LATIN_NAMES), font_dirs())


def symbol_fonts() -> tuple[str, ...]:
    return _matching(tuple(SYMBOL_NAMES), font_dirs())


def choose_font(fonts: tuple[str, ...], draw: int) -> str | None:
    """The font ``draw`` (a number drawn whatever fonts exist) picks; None when there is none."""
    return fonts[draw % len(fonts)] if fonts else None


@lru_cache(maxsize=256)
def load_font(path: str | None, size: int):
    """A Pillow font; ``path=None`` gives Pillow's built-in scalable font."""
    from PIL import ImageFont

    if path is None:
        try:
            return ImageFont.load_default(size=size)
        except TypeError:  # very old Pillow without a scalable default
            return ImageFont.load_default()
    return ImageFont.truetype(path, size=size)


@lru_cache(maxsize=4096)
def covers(path: str | None, text: str) -> bool:
    """Whether the font loads and draws every character of ``text`` (not its missing-glyph
    box): each character's ink must differ from that of a private-use code point no font
    defines."""
    try:
        font = load_font(path, 48)
    except OSError:
        return False

    def ink(ch: str):
        mask = font.getmask(ch)
        return (bytes(mask), mask.size) if mask.getbbox() else None

    missing = ink("\U0010FFFD")
    return all((drawn := ink(ch)) is not None and drawn != missing for ch in text)


def fonts_covering(text: str) -> tuple[str, ...]:
    """Every font file in the searched folders that draws all of ``text`` (e.g. 梅蘭菊竹春夏秋冬
    for bonus faces): more faces than the generator's fixed CJK list, for crop sources."""
    return tuple(str(p) for p in _font_files(font_dirs()) if covers(str(p), text))
