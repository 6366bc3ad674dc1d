"""The game context a photo cannot show (seat, prevailing wind, winning tile, how it was won):
raw strings (CLI options, manifest cells, web fields) checked into a :class:`ScanContext`,
and that context as the scoring engine's own :class:`scoring.model.Context`."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..errors import InputError
from ..scoring.config import RULESETS, SPECIALS, WIN_TYPES
from ..scoring.model import Context
from ..scoring.words import wind_code

_WIN_TYPE_ALIASES = {
    "self_drawn": "self_drawn", "self-drawn": "self_drawn", "selfdrawn": "self_drawn", "self": "self_drawn",
    "self drawn": "self_drawn", "tsumo": "self_drawn", "zelf": "self_drawn", "s": "self_drawn",
    "discard": "discard", "ron": "discard", "d": "discard", "afgooi": "discard",
    "robbed_kong": "robbed_kong", "robbed-kong": "robbed_kong", "robbed": "robbed_kong",
}
_TILE = re.compile(r"^(?:[1-9][mps]|E|S|W|N|R|G|Wh)$")
_TILE_ALIASES = {"C": "R", "F": "G", "P": "Wh"}


class ContextError(InputError):
    """A context value that cannot be used (message names the value and what is allowed)."""


class WinningTileNotInHand(ContextError):
    """The winning tile given is not among the tiles read (flagged, not a bad option)."""


def parse_tile(text: str, what: str = "tile") -> str:
    """One playable tile token (spec §1.1, with the C/F/P aliases)."""
    tok = text.strip()
    tok = _TILE_ALIASES.get(tok, tok)
    if not _TILE.match(tok):
        raise ContextError(f"{what} {text!r} is not a tile (examples: 5p, 9s, 1m, E, R, Wh)")
    return tok


def parse_wind(text: str, what: str) -> str:
    wind = wind_code(text)
    if wind is None:
        raise ContextError(f"{what} {text!r} is not a wind (E, S, W or N)")
    return wind


def parse_win_type(text: str) -> str:
    key = text.strip().lower()
    if key not in _WIN_TYPE_ALIASES:
        raise ContextError(f"win type {text!r} is not one of {', '.join(WIN_TYPES)}")
    return _WIN_TYPE_ALIASES[key]


def parse_ruleset(text: str) -> str:
    key = text.strip().lower()
    if key not in RULESETS:
        raise ContextError(f"ruleset {text!r} is not one of {', '.join(RULESETS)}")
    return key


def parse_specials(items) -> tuple[str, ...]:
    out: list[str] = []
    for item in items or ():
        for flag in re.split(r"[,;\s]+", item.strip()):
            if not flag:
                continue
            flag = flag.replace("-", "_").lower()
            if flag not in SPECIALS:
                raise ContextError(f"special {flag!r} is not one of {', '.join(SPECIALS)}")
            if flag not in out:
                out.append(flag)
    return tuple(out)


@dataclass(frozen=True)
class ScanContext:
    """What the photo cannot show. ``None`` = not given (reported, never guessed)."""
    seat: str | None = None
    wind: str | None = None              # prevailing wind
    winning_tile: str | None = None
    win_type: str | None = None
    ruleset: str = "nts"
    special: tuple[str, ...] = ()
    lang: str = "en"

    @property
    def given(self) -> bool:
        """True when the caller asked for scoring (any of the context values is set)."""
        return any(v is not None for v in (self.seat, self.wind, self.winning_tile, self.win_type))

    def missing(self) -> list[str]:
        names = [("seat", self.seat), ("prevailing wind", self.wind),
                 ("winning tile", self.winning_tile), ("win type", self.win_type)]
        return [n for n, v in names if v is None]

    def with_(self, **changes) -> "ScanContext":
        return replace(self, **changes)

    def to_json(self) -> dict:
        return {"seat": self.seat, "prevailing_wind": self.wind, "winning_tile": self.winning_tile,
                "win_type": self.win_type, "ruleset": self.ruleset, "special": list(self.special)}


def make_context(seat=None, wind=None, winning_tile=None, win_type=None, ruleset="nts",
                 special=(), lang="en") -> ScanContext:
    """Validate raw strings (CLI options, manifest cells); empty strings count as not given."""
    def blank(v):
        return v is None or (isinstance(v, str) and not v.strip())
    return ScanContext(
        seat=None if blank(seat) else parse_wind(seat, "seat"),
        wind=None if blank(wind) else parse_wind(wind, "prevailing wind"),
        winning_tile=None if blank(winning_tile) else parse_tile(winning_tile, "winning tile"),
        win_type=None if blank(win_type) else parse_win_type(win_type),
        ruleset=parse_ruleset(ruleset or "nts"),
        special=parse_specials([special] if isinstance(special, str) else special),
        lang=lang if lang in ("en", "nl") else "en",
    )


def engine_context(ctx: ScanContext) -> Context:
    """The winner's context for the engine; the caller has checked that nothing is missing."""
    return Context(ctx.seat, ctx.wind, ctx.win_type, frozenset(ctx.special))
