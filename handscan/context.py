"""The game context a photo cannot show (seat, prevailing wind, winning tile, how it was won),
its validation, and the hand in notation -> engine request (spec §1.3)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

WINDS = ("E", "S", "W", "N")
RULESETS = ("nts", "nts-app")
WIN_TYPES = ("self_drawn", "discard", "robbed_kong")
SPECIALS = ("last_wall_tile", "kong_replacement", "kong_on_kong", "heavenly", "earth")
_WIN_TYPE_ALIASES = {
    "self_drawn": "self_drawn", "self-drawn": "self_drawn", "selfdrawn": "self_drawn", "self": "self_drawn",
    "self drawn": "self_drawn", "tsumo": "self_drawn", "zelf": "self_drawn", "s": "self_drawn",
    "discard": "discard", "ron": "discard", "d": "discard", "afgooi": "discard",
    "robbed_kong": "robbed_kong", "robbed-kong": "robbed_kong", "robbed": "robbed_kong",
}
_TILE = re.compile(r"^(?:[1-9][mps]|E|S|W|N|R|G|Wh)$")
_TILE_ALIASES = {"C": "R", "F": "G", "P": "Wh"}


class ContextError(ValueError):
    """A context value that cannot be used (message names the value and what is allowed)."""


def parse_tile(text: str, what: str = "tile") -> str:
    """One playable tile token (spec §1.1, with the C/F/P aliases)."""
    tok = text.strip()
    tok = _TILE_ALIASES.get(tok, tok)
    if not _TILE.match(tok):
        raise ContextError(f"{what} {text!r} is not a tile (examples: 5p, 9s, 1m, E, R, Wh)")
    return tok


def parse_wind(text: str, what: str) -> str:
    names = {"EAST": "E", "SOUTH": "S", "WEST": "W", "NORTH": "N", "OOST": "E", "ZUID": "S",
             "WEST ": "W", "NOORD": "N"}
    key = text.strip().upper()
    wind = names.get(key, key)
    if wind not in WINDS:
        raise ContextError(f"{what} {text!r} is not a wind (E, S, W or N)")
    return wind


def parse_win_type(text: str) -> str:
    key = text.strip().lower()
    if key not in _WIN_TYPE_ALIASES:
        raise ContextError(f"win type {text!r} is not one of self_drawn, discard, robbed_kong")
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


# ----------------------------------------------------------------------------- notation

@dataclass
class HandParts:
    melds: list[str] = field(default_factory=list)
    concealed: str = ""
    winning_tile: str | None = None
    bonus: list[str] = field(default_factory=list)


_GROUP = re.compile(r"\[[^\]]*\]|\{[^}]*\}|\([^)]*\)")


def split_notation(text: str) -> HandParts:
    """Split a hand in spec §1.2 notation into engine request parts. Only the structure is
    checked here (brackets, ``+``, ``/``); the engine validates the tiles themselves."""
    body, _, bonus_txt = text.partition("/")
    parts = HandParts(bonus=bonus_txt.split())
    if body.count("+") > 1:
        raise ContextError(f"hand {text!r} has more than one '+winning tile'")
    body, plus, win = body.partition("+")
    if plus:
        tok = win.strip().split()
        if len(tok) != 1:
            raise ContextError(f"hand {text!r}: write the winning tile last, as '+5p'")
        parts.winning_tile = parse_tile(tok[0], "winning tile")
    loose: list[str] = []
    pos = 0
    for m in _GROUP.finditer(body):
        loose.append(body[pos:m.start()])
        g = m.group(0)
        if g.startswith("("):
            loose.append(g[1:-1])                          # a concealed group fixed by hand
        else:
            parts.melds.append(g.replace(" ", ""))
        pos = m.end()
    loose.append(body[pos:])
    rest = "".join("".join(loose).split())
    if any(c in rest for c in "[]{}()"):
        raise ContextError(f"hand {text!r} has an unmatched bracket")
    parts.concealed = rest
    return parts


def build_request(parts: HandParts, ctx: ScanContext) -> dict:
    """The engine request (spec §1.3 + ``ruleset``); context must be complete."""
    hand = {"seat_wind": ctx.seat, "melds": list(parts.melds), "concealed": "".join(parts.concealed.split()),
            "winning_tile": parts.winning_tile or ctx.winning_tile, "win_type": ctx.win_type}
    if ctx.special:
        hand["special"] = list(ctx.special)
    if parts.bonus:
        hand["bonus"] = list(parts.bonus)
    return {"ruleset": ctx.ruleset, "prevailing_wind": ctx.wind, "hand": hand}
