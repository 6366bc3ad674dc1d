"""The game context a photo cannot show (seat, prevailing wind, winning tile, how it was won):
raw strings (CLI options, manifest cells, web fields, a context file beside the photo)
checked into a :class:`ScanContext`, and that context as the scoring engine's own
:class:`scoring.model.Context`."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

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


# ---------------------------------------------------------------------------------------------
# The context file beside a photo ("sidecar"): what the photo cannot show, travelling with it.

SIDECAR_FIELDS = {"seat": "seat", "wind": "wind", "prevailing_wind": "wind", "winning_tile": "winning_tile",
                  "win_type": "win_type", "ruleset": "ruleset", "special": "special"}
SIDECAR_COMMENT = "note"               # free text for the reader, ignored


class SidecarError(ContextError):
    """A context file beside a photo that cannot be used (bad input, exit 2); the message
    names the file and the problem. The file is only ever read."""


def sidecar_path(photo: str | Path) -> Path | None:
    """The context file of ``photo`` when there is one: ``PHOTO.json`` (``hand.jpg.json``),
    else the same name with ``.json`` (``hand.json``)."""
    photo = Path(photo)
    for candidate in (photo.with_name(photo.name + ".json"), photo.with_suffix(".json")):
        if candidate != photo and (candidate.exists() or candidate.is_symlink()):
            return candidate
    return None


def read_sidecar(path: str | Path) -> dict | None:
    """The context fields a context file gives (``seat``, ``wind``, ``winning_tile``,
    ``win_type``, ``ruleset``, ``special``; raw strings, checked with :func:`make_context`).

    None for a saved scan result that happens to sit there (``scan --save hand.json`` or a
    ``--json`` line: it has ``photo``/``image`` and ``tiles``), which is no context file.
    Anything else that cannot be used raises :class:`SidecarError` naming the file."""
    import json
    path = Path(path)

    def bad(problem: str) -> SidecarError:
        return SidecarError(f"context file {path}: {problem}")

    try:
        text = path.read_bytes().decode("utf-8")
    except IsADirectoryError:
        raise bad("is a folder, not a file") from None
    except UnicodeDecodeError as exc:
        raise bad(f"not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise bad(f"cannot be read ({exc.strerror or exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise bad(f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:
        raise bad("nested too deeply") from None
    if not isinstance(data, dict):
        raise bad(f"must be one JSON object like {_SIDECAR_EXAMPLE}, not a {_json_type(data)}")
    if ("photo" in data or "image" in data) and "tiles" in data:
        return None
    unknown = [k for k in data if k not in SIDECAR_FIELDS and k != SIDECAR_COMMENT]
    if unknown:
        raise bad(f"unknown key {unknown[0]!r} (known: {', '.join(SIDECAR_FIELDS)}, {SIDECAR_COMMENT})")
    if "wind" in data and "prevailing_wind" in data:
        raise bad("give the prevailing wind once: 'wind' or 'prevailing_wind', not both")
    out: dict = {}
    for key, value in data.items():
        if key == SIDECAR_COMMENT or value is None:
            continue
        if key == "special":
            items = [value] if isinstance(value, str) else value
            if not isinstance(items, list) or not all(isinstance(v, str) for v in items):
                raise bad(f"'special' must be a text or a list of texts, not {json.dumps(value)}")
            out["special"] = items
        elif not isinstance(value, str):
            raise bad(f"{key!r} must be a text like \"E\" or \"5p\", not {json.dumps(value)}")
        else:
            out[SIDECAR_FIELDS[key]] = value
    try:
        make_context(**out)
    except ContextError as exc:
        raise bad(str(exc)) from None
    return out


_SIDECAR_EXAMPLE = '{"seat": "E", "wind": "E", "winning_tile": "7s", "win_type": "discard"}'


def _json_type(value) -> str:
    return {list: "list", str: "text", bool: "true/false", int: "number", float: "number"}.get(
        type(value), "null" if value is None else type(value).__name__)


def merge_context(file_values: dict | None, **given) -> tuple[dict, list[str]]:
    """The context fields of a context file with the command line's on top: a value given
    on the command line (not None) replaces the file's. Returns the fields for
    :func:`make_context` and the names of the fields the command line overrode."""
    fields = dict(file_values or {})
    overridden = []
    for key, value in given.items():
        if value is None:
            continue
        if key in fields and key != "lang" and fields[key] != value:
            overridden.append(key)
        fields[key] = value
    return fields, overridden


def context_words(ctx: ScanContext, lang: str = "en") -> str:
    """The context in a few words (what the player should see before a score): ``seat E,
    prevailing wind E, winning tile 7s, on a discard, nts-app``."""
    from ..scoring.words import WIN_TYPE_WORDS, wind_letter
    nl = lang == "nl"
    parts = []
    if ctx.seat:
        parts.append(("eigen wind " if nl else "seat ") + wind_letter(ctx.seat, lang))
    if ctx.wind:
        parts.append(("ronde " if nl else "prevailing wind ") + wind_letter(ctx.wind, lang))
    if ctx.winning_tile:
        parts.append(("winnende steen " if nl else "winning tile ") + ctx.winning_tile)
    if ctx.win_type:
        parts.append(WIN_TYPE_WORDS["nl" if nl else "en"][ctx.win_type])
    parts.append(("regels " if nl else "ruleset ") + ctx.ruleset)
    parts += list(ctx.special)
    return ", ".join(parts)


def dutch_error(message: str) -> str:
    """An error of ``scan`` in Dutch where ``scoring.messages`` has its template; a context
    file's problem is translated after the file's name (``context file F: problem``)."""
    from ..scoring.messages import translate
    head, sep, problem = message.partition(": ")
    if head.startswith("context file ") and sep:
        return f"contextbestand {head[len('context file '):]}: {translate(problem, 'nl') or problem}"
    return translate(message, "nl") or message
