"""Riichi hands written as text → tile kinds (34-index: 0-8 man, 9-17 pin, 18-26 sou,
27-30 E S W N, 31 white/haku, 32 green/hatsu, 33 red/chun).

The text is parsed by the scoring engine's notation parser (``scoring.notation``), so riichi
hands read exactly like NTS hands and a bad hand gets the engine's message naming the token
and its position. Two spellings are accepted and may be mixed (DECISION):
- the project's notation (spec §1): ``123m 456p 789s EEE WhWh``, dragons ``R G Wh``
  (aliases ``C F P``), open groups ``[555p]`` ``[345p]`` ``[5555p]``, closed kan
  ``{5555p}`` (``{X55pX}``: face-down tiles allowed, the faces name the kind), fixed
  concealed groups ``(555p)`` (read as concealed tiles), winning tile ``+6s`` written last
  and not repeated;
- the reference library's compact string (§16.8): ``123m456p789s11122z`` with honours
  ``1z``-``7z`` = E S W N, white, green, red.
The ``z`` suit is the one riichi-only token: a small pre-step (:func:`_honour_letters`)
rewrites each ``Nz`` digit as the honour letter (``E S W N P F C``, the last three being the
engine's aliases of ``Wh G R``) and the ``z`` as a space, so every position in an error
still points into the text as written. Red fives (``0m``) are refused: EMA plays without
them (the engine refuses a 0 anyway; only the message is riichi's). Flowers/seasons do not exist in riichi and are refused too; a face-down ``X`` only
belongs in a closed kan."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from ..model import EXPOSED, FIXED, Group
from ..notation import NotationError, format_group, parse_hand, parse_tiles
from .errors import RiichiInputError
from ..shown import shown
from ..tiles import BACK, BONUS, DIGITS

NAMES = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + ["E", "S", "W", "N", "Wh", "G", "R"]
KIND = {token: kind for kind, token in enumerate(NAMES)}
_Z_RUN = re.compile(r"[0-9][0-9\s]*z")          # ASCII digits only, as the engine
_Z_LETTERS = dict(zip("1234567", "ESWNPFC"))     # 5z white = P, 6z green = F, 7z red = C
_MELD_KIND = {"chow": "chi", "pung": "pon", "kong": "kan"}


@dataclass(frozen=True)
class Meld:
    """A group on the table: ``chi``, ``pon`` or ``kan``; ``opened`` False = closed kan."""

    kind: str
    tiles: tuple[int, ...]
    opened: bool


@dataclass(frozen=True)
class WrittenHand:
    concealed: tuple[int, ...]           # without the winning tile when ``win`` is given
    melds: tuple[Meld, ...]
    win: int | None                      # the ``+tile``, if written


def name(kind: int) -> str:
    return NAMES[kind]


def _refusal(field: str, problem: str, text: str, position: int, token: str) -> RiichiInputError:
    """A riichi error worded like the engine's: the problem, the token and its position."""
    return RiichiInputError(field, str(NotationError(problem, text, position, token)))


def _honour_letters(text: str, field: str) -> str:
    """Rewrite the library's ``1z``-``7z`` honours as honour letters, keeping every position."""
    def letters(match: re.Match) -> str:
        run = match.group(0)
        for offset, ch in enumerate(run[:-1]):
            if ch in DIGITS and ch not in _Z_LETTERS:
                raise _refusal(field, "honours are 1z-7z (E S W N, white, green, red)",
                               text, match.start() + offset, f"{ch}z")
        return "".join(_Z_LETTERS.get(ch, ch) for ch in run[:-1]) + " "
    return _Z_RUN.sub(letters, text)


def _parsed(parse, text: str, field: str):
    """Run an engine parser on the riichi text; its errors become ``RiichiInputError``."""
    letters = _honour_letters(text, field)
    try:
        return parse(letters)
    except NotationError as exc:
        token = text[exc.position:exc.position + len(exc.token)]    # as written
        if exc.position < len(text) and letters[exc.position] != text[exc.position]:  # an ``Nz``
            token = f"{text[exc.position]}z"
        if exc.token == "0":
            raise _refusal(field, "red fives are not used (EMA); write 5 instead of 0",
                           text, exc.position, token) from None
        raise _refusal(field, exc.message, text, exc.position, token) from None


def _kinds(tokens: Iterable[str], field: str, what: str) -> list[int]:
    """34-index kinds of playing tiles; flowers and face-down tiles are refused."""
    out = []
    for token in tokens:
        if token in BONUS:
            raise RiichiInputError(field, f"{token}: riichi has no flowers or seasons")
        if token == BACK:
            raise RiichiInputError(field, f"a face-down tile X only belongs in a closed kan {{…}}, "
                                   f"not {what}")
        out.append(KIND[token])
    return out


def meld_of(group: Group, field: str) -> Meld:
    """An open group ``[..]`` or closed kan ``{..}`` from the engine's parse as a riichi meld."""
    text = format_group(group)
    if group.kind != EXPOSED:
        faces = _kinds(group.faces, field, f"in {text}")
        if len(group.tokens) != 4 or not faces or len(set(faces)) != 1:
            raise RiichiInputError(field, f"{text} is not a closed kan (four of one tile; "
                                   "face-down X allowed, one face must show)")
        return Meld("kan", (faces[0],) * 4, opened=False)
    tiles = tuple(_kinds(group.tokens, field, f"in an open group {text}"))
    if group.shape not in _MELD_KIND:
        raise RiichiInputError(field, f"{text} is not a chi, pon or kan")
    return Meld(_MELD_KIND[group.shape], tiles, opened=True)


def read_hand(text: str | Iterable[str], field: str = "hand") -> WrittenHand:
    """Split written tiles into concealed tiles, melds and the ``+`` winning tile.

    A list of tokens (e.g. ``["1m", "2m", "E"]``) is read as if written one after another."""
    if not isinstance(text, str):
        try:
            text = " ".join(text)
        except TypeError as exc:
            raise RiichiInputError(field, "give the tiles as text or a list of tile tokens") from exc
    hand = _parsed(parse_hand, text, field)
    if hand.bonus:
        raise RiichiInputError(field, f"riichi has no flowers or seasons ({' '.join(hand.bonus)})")
    melds = tuple(meld_of(g, field) for g in hand.groups if g.kind != FIXED)
    fixed = [t for g in hand.groups if g.kind == FIXED for t in g.tokens]      # (..) = concealed
    concealed = _kinds([*fixed, *hand.concealed], field, "among the concealed tiles")
    win = None
    if hand.winning_tile is not None:
        win = _kinds([hand.winning_tile], field, "as the winning tile")[0]
    return WrittenHand(concealed=tuple(concealed), melds=melds, win=win)


def single_tile(text: str, field: str) -> int:
    found = _kinds(_parsed(parse_tiles, text, field), field, f"in {field}")
    if len(found) != 1:
        raise RiichiInputError(field, f"expected one tile, got {shown(text)}")
    return found[0]
