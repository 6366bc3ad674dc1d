"""Riichi hands written as text → tile kinds (34-index: 0-8 man, 9-17 pin, 18-26 sou,
27-30 E S W N, 31 white/haku, 32 green/hatsu, 33 red/chun).

Two spellings are accepted and may be mixed (DECISION):
- the project's notation (spec §1): ``123m 456p 789s EEE WhWh``, dragons ``R G Wh``
  (aliases ``C F P``), open groups ``[555p]`` ``[345p]`` ``[5555p]``, closed kan
  ``{5555p}`` (``{X55pX}``: face-down tiles allowed, the faces name the kind), fixed
  concealed groups ``(555p)`` (parentheses are ignored), winning tile ``+6s`` written last
  and not repeated;
- the reference library's compact string (§16.8): ``123m456p789s11122z`` with honours
  ``1z``-``7z`` = E S W N, white, green, red.
Red fives (``0m``) are refused: EMA plays without them. Flowers/seasons do not exist in
riichi and are refused too."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from scoring.riichi.errors import RiichiInputError

HONOURS = {"E": 27, "S": 28, "W": 29, "N": 30, "Wh": 31, "G": 32, "R": 33,
           "C": 33, "F": 32, "P": 31}
SUIT_BASE = {"m": 0, "p": 9, "s": 18}
NAMES = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + ["E", "S", "W", "N", "Wh", "G", "R"]
_TOKEN = re.compile(r"([0-9]+)([mpsz])|(Wh|E|S|W|N|G|R|C|F|P|X)")
_GROUP = re.compile(r"\[[^\[\]{}]*\]|\{[^\[\]{}]*\}")
_WINNING = re.compile(r"\+\s*([^\s+]+)\s*$")
FACE_DOWN = -1


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


def kinds(text: str, field: str, allow_face_down: bool = False) -> list[int]:
    """Every tile kind in ``text`` in order (``123m`` = three tiles, ``EE`` = two)."""
    compact = re.sub(r"[\s()]", "", text)
    out: list[int] = []
    pos = 0
    for match in _TOKEN.finditer(compact):
        if match.start() != pos:
            break
        pos = match.end()
        digits, suit, honour = match.groups()
        if honour == "X":
            if not allow_face_down:
                raise RiichiInputError(field, "a face-down tile X only belongs in a closed kan {…}")
            out.append(FACE_DOWN)
        elif honour:
            out.append(HONOURS[honour])
        elif "0" in digits:
            raise RiichiInputError(field, f"{digits}{suit}: red fives are not used (EMA); "
                                   "write 5 instead of 0")
        elif suit == "z":
            bad = [d for d in digits if d in "89"]
            if bad:
                raise RiichiInputError(field, f"{bad[0]}z: honours are 1z-7z "
                                       "(E S W N, white, green, red)")
            out += [27 + int(d) - 1 for d in digits]
        else:
            out += [SUIT_BASE[suit] + int(d) - 1 for d in digits]
    if pos != len(compact):
        raise RiichiInputError(field, f"cannot read {compact[pos:]!r} as riichi tiles "
                               "(1-9 m/p/s, E S W N, R G Wh, or 1-7z; no flowers in riichi)")
    return out


def meld_of(group: str, field: str) -> Meld:
    closed = group.startswith("{")
    body = kinds(group[1:-1], field, allow_face_down=closed)
    faces = [k for k in body if k != FACE_DOWN]
    if closed:
        if len(body) != 4 or not faces or len(set(faces)) != 1:
            raise RiichiInputError(field, f"{group} is not a closed kan (four of one tile; "
                                   "face-down X allowed, one face must show)")
        return Meld("kan", (faces[0],) * 4, opened=False)
    if len(set(body)) == 1 and len(body) in (3, 4):
        return Meld("pon" if len(body) == 3 else "kan", tuple(body), opened=True)
    run = sorted(body)
    if (len(run) == 3 and run[0] < 27 and run[0] // 9 == run[2] // 9
            and run == list(range(run[0], run[0] + 3))):
        return Meld("chi", tuple(run), opened=True)
    raise RiichiInputError(field, f"{group} is not a chi, pon or kan")


def read_hand(text: str | Iterable[str], field: str = "hand") -> WrittenHand:
    """Split written tiles into concealed tiles, melds and the ``+`` winning tile.

    A list of tokens (e.g. ``["1m", "2m", "E"]``) is read as if written one after another."""
    if not isinstance(text, str):
        try:
            text = " ".join(text)
        except TypeError as exc:
            raise RiichiInputError(field, "give the tiles as text or a list of tile tokens") from exc
    if "/" in text:
        raise RiichiInputError(field, "riichi has no flowers or seasons (nothing after '/')")
    melds = tuple(meld_of(g.replace(" ", ""), field) for g in _GROUP.findall(text))
    rest = _GROUP.sub(" ", text)
    if any(ch in rest for ch in "[]{}"):
        raise RiichiInputError(field, f"unbalanced brackets in {text!r}")
    win = None
    match = _WINNING.search(rest)
    if match:
        win_kinds = kinds(match.group(1), f"{field} (winning tile)")
        if len(win_kinds) != 1:
            raise RiichiInputError(field, f"the winning tile must be one tile, not {match.group(1)!r}")
        win = win_kinds[0]
        rest = rest[: match.start()]
    if "+" in rest:
        raise RiichiInputError(field, "the winning tile (+tile) must be written last")
    return WrittenHand(concealed=tuple(kinds(rest, field)), melds=melds, win=win)


def single_tile(text: str, field: str) -> int:
    found = kinds(text, field)
    if len(found) != 1:
        raise RiichiInputError(field, f"expected one tile, got {text!r}")
    return found[0]
