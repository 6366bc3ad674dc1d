"""Hand decomposition (spec §15): every way the concealed tiles form sets and a pair,
the irregular limit patterns of §8.1, and the structural wait (§15.3).

Everything works on a 34-slot count vector (see :mod:`scoring.tiles`). The search takes
the lowest remaining kind and tries (a) a pung, (b) a chow, (c) the pair; real hands give
well under a hundred leaves, so there is no pruning beyond that."""

from __future__ import annotations

from dataclasses import dataclass

from mjscore.scoring.tiles import TILES, is_honour, suit_of

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
        from mjscore.scoring.tiles import compact
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


# -- irregular limit patterns (§8.1) --------------------------------------------------

ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
WIND_IDX = (27, 28, 29, 30)
DRAGON_IDX = (31, 32, 33)


def _pairs(c: list[int], duplicates: bool) -> bool:
    if duplicates:
        return all(n in (0, 2, 4) for n in c)
    return all(n in (0, 2) for n in c)


def twins_class(c: list[int], duplicates: bool = True) -> str | None:
    """The best twins limit of seven pairs (§8.1), or None."""
    if not _pairs(c, duplicates):
        return None
    suited = [i for i in range(27) if c[i]]
    honours = any(c[27:])
    suits = {suit_of(i) for i in suited}
    if not suited:
        return "honour_twins"
    if len(suits) == 1 and not honours:
        return "pure_twins"
    if len(suits) == 1 and all(i % 9 in (0, 8) for i in suited):
        return "very_clean_twins"
    if len(suits) == 1:
        return "clean_twins"
    return "seven_twins"


IRREGULAR_VALUES = {
    "nine_gates": 2000, "thirteen_orphans": 2000, "wind_snake": 1000, "dragon_snake": 1000,
    "imperial_court": 1000, "honour_twins": 2000, "pure_twins": 1000, "very_clean_twins": 1000,
    "clean_twins": 500, "seven_twins": 250,
}
_ALL_ONES_9 = [1] * 9


def _one_suit_patterns(c: list[int], b: int) -> list[str]:
    """Irregular patterns built on one suit starting at index ``b`` (all suited tiles in it)."""
    s9 = c[b:b + 9]
    winds, dragons = c[27:31], c[31:34]
    found = []
    if not any(winds) and not any(dragons):
        if s9[0] >= 3 and s9[8] >= 3 and all(s9[1:8]):
            found.append("nine_gates")
    elif all(s9) and all(winds) and not any(dragons):
        found.append("wind_snake")
    elif s9 == _ALL_ONES_9 and dragons == [1, 1, 1] and sorted(winds) == [0, 0, 0, 2]:
        found.append("dragon_snake")
    elif s9[:7] == _ALL_ONES_9[:7] and not s9[7] and not s9[8] and winds == [1, 1, 1, 1] and dragons == [1, 1, 1]:
        found.append("imperial_court")
    return found


def irregular(c: list[int], duplicates: bool = True) -> str | None:
    """The highest irregular limit hand the 14 tiles of ``c`` form (§8.1), or None."""
    if sum(c) != 14:
        return None
    if sum(1 for n in c if n) < 9 and any(n % 2 for n in c):     # neither twins nor 9+ kinds
        return None
    suits = [s for s in range(3) if any(c[9 * s:9 * s + 9])]
    found = []
    if len(suits) == 1:
        found = _one_suit_patterns(c, 9 * suits[0])
    elif len(suits) == 3 and all(c[i] for i in ORPHANS) and sum(c[i] for i in ORPHANS) == 14:
        found = ["thirteen_orphans"]
    twins = twins_class(c, duplicates)
    if twins:
        found.append(twins)
    if not found:
        return None
    return max(found, key=lambda code: IRREGULAR_VALUES[code])


# -- waits (§15.3, §8.3) --------------------------------------------------------------


def _candidates(c: list[int]) -> list[int]:
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


def wait_set(c13: list[int], sets_needed: int, pair_needed: bool, irregular_allowed: bool,
             held: list[int], duplicates: bool = True) -> list[int]:
    """Kinds that complete the 13 tiles (regular or irregular), ignoring kinds the player
    already holds four of (``held`` counts every tile of the hand, groups included)."""
    out = []
    for t in _candidates(c13):
        if held[t] >= 4:
            continue
        c13[t] += 1
        ok = is_regular(c13, sets_needed, pair_needed) or (
            irregular_allowed and irregular(c13, duplicates) is not None)
        c13[t] -= 1
        if ok:
            out.append(t)
    return out


def irregular_waits(c13: list[int], duplicates: bool = True) -> str | None:
    """The highest irregular limit hand the 13 tiles are one tile away from (§8.3)."""
    if sum(1 for n in c13 if n) < 8 and sum(1 for n in c13 if n % 2) > 1:
        return None                      # one more tile makes neither twins nor 9+ kinds
    best = None
    for t in _candidates(c13):
        if c13[t] >= 4:
            continue
        c13[t] += 1
        code = irregular(c13, duplicates)
        c13[t] -= 1
        if code and (best is None or IRREGULAR_VALUES[code] > IRREGULAR_VALUES[best]):
            best = code
    return best
