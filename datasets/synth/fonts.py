"""Fonts found on this machine for procedural faces and corner indices.

Everything degrades: without a CJK font the procedural faces use Latin letters and pips only;
without any TrueType font Pillow's built-in font is used."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

FONT_DIRS = [Path("/usr/share/fonts"), Path("/usr/local/share/fonts"), Path.home() / ".fonts"]

CJK_NAMES = ["ukai.ttc", "uming.ttc", "cwkai.ttf", "cwming.ttf", "NotoSansCJK", "NotoSerifCJK",
             "wqy-zenhei.ttc", "wqy-microhei.ttc", "droid", "DroidSansFallback"]
LATIN_NAMES = ["DejaVuSans-Bold.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSans.ttf", "DejaVuSerif.ttf",
               "DejaVuSansCondensed-Bold.ttf", "NotoSans-Bold.ttf", "NotoSerif-Bold.ttf",
               "NotoSans-Regular.ttf", "NotoSerif-Regular.ttf", "LiberationSans-Bold.ttf",
               "LiberationSerif-Bold.ttf", "FreeSansBold.ttf", "FreeSerifBold.ttf"]
SYMBOL_NAMES = ["NotoSansSymbols2-Regular.ttf", "Symbola.ttf", "Symbola_hint.ttf"]


@lru_cache(maxsize=1)
def _all_font_files() -> tuple[Path, ...]:
    files: list[Path] = []
    for d in FONT_DIRS:
        if d.is_dir():
            files += [p for p in d.rglob("*") if p.suffix.lower() in (".ttf", ".ttc", ".otf")]
    return tuple(sorted(files))


def _matching(names: list[str]) -> list[str]:
    found = []
    for name in names:
        for p in _all_font_files():
            if p.name == name or (name in p.name and name.endswith(("CJK", "droid", "DroidSansFallback"))):
                if str(p) not in found:
                    found.append(str(p))
    return found


@lru_cache(maxsize=1)
def cjk_fonts() -> tuple[str, ...]:
    return tuple(_matching(CJK_NAMES))


@lru_cache(maxsize=1)
def latin_fonts() -> tuple[str, ...]:
    return tuple(_matching(LATIN_NAMES))


@lru_cache(maxsize=1)
def symbol_fonts() -> tuple[str, ...]:
    return tuple(_matching(SYMBOL_NAMES))


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
