"""Tile kinds as the engine sees them (spec §1.1).

Playing tiles are numbered 0..33 (the 34-slot count vector of §15): 0-8 characters
``1m..9m``, 9-17 circles, 18-26 bamboo, 27-30 winds E S W N, 31-33 dragons R G Wh.
That numbering is also the canonical output order. Bonus tiles (``f1..f4``, ``j1..j4``)
and the face-down back ``X`` never enter the count vector."""

from __future__ import annotations

from itertools import groupby
from typing import Iterable

SUITS = "mps"
DIGITS = frozenset("0123456789")     # tile numbers are ASCII digits only (str.isdigit also takes ², ١, ①)
WINDS = ("E", "S", "W", "N")
DRAGONS = ("R", "G", "Wh")
FLOWERS = ("f1", "f2", "f3", "f4")
SEASONS = ("j1", "j2", "j3", "j4")
BONUS = FLOWERS + SEASONS
BACK = "X"

TILES: tuple[str, ...] = tuple(f"{n}{s}" for s in SUITS for n in range(1, 10)) + WINDS + DRAGONS
INDEX: dict[str, int] = {t: i for i, t in enumerate(TILES)}
ALIASES = {"C": "R", "F": "G", "P": "Wh"}     # letters printed on many Dutch sets

SEAT_NUMBER = {"E": 1, "S": 2, "W": 3, "N": 4}  # own flower / own season number
GREEN = frozenset(INDEX[t] for t in ("2s", "3s", "4s", "6s", "8s", "G"))
ONE_P = INDEX["1p"]
ONE_S = INDEX["1s"]
FIVE_P = INDEX["5p"]


def is_suited(i: int) -> bool:
    return i < 27


def is_honour(i: int) -> bool:
    return i >= 27


def is_wind(i: int) -> bool:
    return 27 <= i <= 30


def is_dragon(i: int) -> bool:
    return i >= 31


def suit_of(i: int) -> int:
    """0, 1, 2 for m, p, s; 3 for honours."""
    return i // 9 if i < 27 else 3


def number_of(i: int) -> int:
    """1..9 for suited tiles, 0 for honours."""
    return i % 9 + 1 if i < 27 else 0


def is_terminal(i: int) -> bool:
    return i < 27 and i % 9 in (0, 8)


def is_terminal_or_honour(i: int) -> bool:
    return i >= 27 or i % 9 in (0, 8)


def is_simple(i: int) -> bool:
    return i < 27 and 0 < i % 9 < 8


def is_bonus(token: str) -> bool:
    """A flower or season token (``f1..f4``, ``j1..j4``)."""
    return token in BONUS


def sort_key(token: str) -> tuple[int, int]:
    """Canonical order: m, p, s by number, E S W N, R G Wh, then bonus tiles, then X."""
    if token in INDEX:
        return (0, INDEX[token])
    if token in BONUS:
        return (1, BONUS.index(token))
    return (2, 0)


def compact(tokens: list[str] | tuple[str, ...]) -> str:
    """Write tokens in compact form: consecutive suited tiles of one suit share the
    suit letter (``1m 2m 3m`` -> ``123m``), everything else one token after another."""
    out: list[str] = []
    run: list[str] = []
    run_suit = ""
    for tok in tokens:
        if len(tok) == 2 and tok[0] in DIGITS and tok[1] in SUITS:
            if run and tok[1] != run_suit:
                out.append("".join(run) + run_suit)
                run = []
            run.append(tok[0])
            run_suit = tok[1]
            continue
        if run:
            out.append("".join(run) + run_suit)
            run = []
        out.append(tok)
    if run:
        out.append("".join(run) + run_suit)
    return "".join(out)


def _run_of(token: str) -> str:
    """What one space-separated run of :func:`compact_sorted` shares: the suit letter of a
    suited tile, otherwise the token itself (``RR``, ``WhWh``)."""
    return token[1] if INDEX.get(token, 27) < 27 else token


def compact_sorted(tokens: Iterable[str]) -> str:
    """Tokens in canonical order, a space between suits and between honour kinds:
    ``['8s','2m','R','4m','3m','R']`` -> ``'234m 8s RR'`` (how the photo's tiles are shown)."""
    ordered = sorted(tokens, key=sort_key)
    return " ".join(compact(list(run)) for _, run in groupby(ordered, key=_run_of))
