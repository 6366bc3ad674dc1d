"""Tile patterns on a 34-slot count vector (spec §6, §8.1): the pure checks that the rows of
:mod:`scoring.rules` point to for the purity doublings and the irregular limit hands.

They say only what the tiles look like; which limit hand a pattern is, what it is worth and
which of several counts is the rules table's business."""

from __future__ import annotations

from .tiles import is_terminal, suit_of

WINDS = slice(27, 31)
DRAGONS = slice(31, 34)
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def suit_profile(c: list[int]) -> tuple[set[int], bool, bool]:
    """(suits present, honours present, every suited tile a terminal)."""
    suits = {suit_of(i) for i in range(27) if c[i]}
    honours = any(c[27:])
    terminals = all(is_terminal(i) for i in range(27) if c[i])
    return suits, honours, terminals


def one_suit(c: list[int]) -> list[int] | None:
    """The nine counts of the only suit held, or None when the tiles hold no suit or several."""
    suits = {suit_of(i) for i in range(27) if c[i]}
    if len(suits) != 1:
        return None
    b = 9 * suits.pop()
    return c[b:b + 9]


def seven_pairs(c: list[int], duplicates: bool) -> bool:
    """Only pairs; with ``duplicates`` four of a kind counts as two pairs (config switch)."""
    return all(n in ((0, 2, 4) if duplicates else (0, 2)) for n in c)


def nine_gates(c: list[int]) -> bool:
    """1112345678999 of one suit and one more tile of it, no honours."""
    s9 = one_suit(c)
    return s9 is not None and not any(c[27:]) and s9[0] >= 3 and s9[8] >= 3 and all(s9[1:8])


def thirteen_orphans(c: list[int]) -> bool:
    """One of every terminal and honour, one of them twice."""
    return all(c[i] for i in ORPHANS) and sum(c[i] for i in ORPHANS) == sum(c)


def wind_snake(c: list[int]) -> bool:
    """1-9 of one suit and the four winds (one of the fourteen twice), no dragons."""
    s9 = one_suit(c)
    return s9 is not None and all(s9) and all(c[WINDS]) and not any(c[DRAGONS])


def dragon_snake(c: list[int]) -> bool:
    """1-9 of one suit, the three dragons and a pair of one wind."""
    s9 = one_suit(c)
    return s9 == [1] * 9 and c[DRAGONS] == [1, 1, 1] and sorted(c[WINDS]) == [0, 0, 0, 2]


def imperial_court(c: list[int]) -> bool:
    """1-7 of one suit, the four winds and the three dragons, one of each."""
    s9 = one_suit(c)
    return s9 == [1] * 7 + [0, 0] and c[WINDS] == [1] * 4 and c[DRAGONS] == [1] * 3
