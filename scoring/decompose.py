"""Hand decomposition (spec §15): every way the concealed tiles form sets and a pair, and
the structural wait (§15.3). Whether tiles form an irregular limit hand (§8.1) is the rules
table's question (:mod:`scoring.limits`); the wait asks it through a function it is given.

Everything works on a 34-slot count vector (see :mod:`scoring.tiles`). The search takes
the lowest remaining kind and tries (a) a pung, (b) a chow, (c) the pair; real hands give
well under a hundred leaves, so there is no pruning beyond that."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .patterns import ORPHANS
from .tiles import TILES, is_honour, suit_of

PUNG, KONG, CHOW, PAIR = "pung", "kong", "chow", "pair"
HAND = "hand"        # source of a set found by the search in the concealed tiles


@dataclass(frozen=True)
class Set:
    """One set of an arrangement: shape, lowest tile, where it comes from and whether it
    holds the winning tile. ``open`` is true for exposed groups and for a pung completed
    by a winning discard (§5)."""

    shape: str
    tile: int
    source: str
    open: bool = False
    winning: bool = False
    tokens: tuple[str, ...] = ()

    @property
    def is_pung_or_kong(self) -> bool:
        return self.shape in (PUNG, KONG)

    def tiles(self) -> list[int]:
        if self.shape == CHOW:
            return [self.tile, self.tile + 1, self.tile + 2]
        return [self.tile] * {PUNG: 3, KONG: 4, PAIR: 2}[self.shape]

    def display(self) -> str:
        from .tiles import compact
        toks = self.tokens or tuple(TILES[i] for i in self.tiles())
        if self.source == "concealed_kong":
            o, c = "{", "}"
        elif self.open:
            o, c = "[", "]"
        else:
            o, c = "(", ")"
        return f"{o}{compact(list(toks))}{c}{'*' if self.winning else ''}"


def counts_of(indices) -> list[int]:
    c = [0] * 34
    for i in indices:
        c[i] += 1
    return c


# -- regular arrangements -------------------------------------------------------------


def arrangements(counts: list[int], sets_needed: int, pair_needed: bool) -> list[list[tuple[str, int]]]:
    """Every split of ``counts`` into ``sets_needed`` pungs/chows and (if ``pair_needed``)
    one pair, as lists of ``(shape, lowest tile)`` in search order."""
    if sum(counts) != 3 * sets_needed + (2 if pair_needed else 0):
        return []
    out: list[list[tuple[str, int]]] = []
    _search(list(counts), 0, sets_needed, pair_needed, [], out)
    return out


def _search(c: list[int], i: int, sets_left: int, pair_left: bool, acc: list, out: list) -> None:
    while i < 34 and c[i] == 0:
        i += 1
    if i == 34:
        if sets_left == 0 and not pair_left:
            out.append(list(acc))
        return
    if sets_left and c[i] >= 3:
        c[i] -= 3
        acc.append((PUNG, i))
        _search(c, i, sets_left - 1, pair_left, acc, out)
        acc.pop()
        c[i] += 3
    if sets_left and i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1; c[i + 1] -= 1; c[i + 2] -= 1
        acc.append((CHOW, i))
        _search(c, i, sets_left - 1, pair_left, acc, out)
        acc.pop()
        c[i] += 1; c[i + 1] += 1; c[i + 2] += 1
    if pair_left and c[i] >= 2:
        c[i] -= 2
        acc.append((PAIR, i))
        _search(c, i, sets_left, False, acc, out)
        acc.pop()
        c[i] += 2


def is_regular(c: list[int], sets_left: int, pair_left: bool, i: int = 0) -> bool:
    """True when ``c`` splits into the given sets and pair (first solution wins)."""
    while i < 34 and c[i] == 0:
        i += 1
    if i == 34:
        return sets_left == 0 and not pair_left
    if sets_left and c[i] >= 3:
        c[i] -= 3
        ok = is_regular(c, sets_left - 1, pair_left, i)
        c[i] += 3
        if ok:
            return True
    if sets_left and i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1; c[i + 1] -= 1; c[i + 2] -= 1
        ok = is_regular(c, sets_left - 1, pair_left, i)
        c[i] += 1; c[i + 1] += 1; c[i + 2] += 1
        if ok:
            return True
    if pair_left and c[i] >= 2:
        c[i] -= 2
        ok = is_regular(c, sets_left, False, i)
        c[i] += 2
        if ok:
            return True
    return False


# -- waits (§15.3, §8.3) --------------------------------------------------------------


def completing_kinds(c: list[int]) -> list[int]:
    """Kinds that could possibly complete a hand: neighbours of held suited tiles, held
    honours, and every terminal/honour (irregular hands can wait on a kind not held)."""
    cand = set(ORPHANS)
    for i in range(34):
        if c[i]:
            if is_honour(i):
                cand.add(i)
            else:
                for j in range(i - 2, i + 3):
                    if 0 <= j < 27 and suit_of(j) == suit_of(i):
                        cand.add(j)
    return sorted(cand)


def wait_set(c13: list[int], sets_needed: int, pair_needed: bool, held: list[int],
             irregular: Callable[[list[int]], object] | None = None) -> list[int]:
    """Kinds that complete the 13 tiles, ignoring kinds the player already holds four of
    (``held`` counts every tile of the hand, groups included). ``irregular(c14)`` is truthy
    when 14 tiles form an irregular limit hand; without it only regular hands complete."""
    out = []
    for t in completing_kinds(c13):
        if held[t] >= 4:
            continue
        c13[t] += 1
        ok = is_regular(c13, sets_needed, pair_needed) or bool(irregular and irregular(c13))
        c13[t] -= 1
        if ok:
            out.append(t)
    return out
