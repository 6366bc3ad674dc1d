"""Dice throws done by the program: who becomes East, and the nts-app prevailing wind.

Both follow the table procedure of the seeds, with two fair six-sided dice:
- seats (seed 1, seed 2): every player throws; the highest throw becomes East; a tie for
  the highest is re-thrown among the tied players only. The others keep their places at
  the table, so South, West and North follow East in table order (seed 1: "rechts van
  Oost zit Zuid").
- prevailing wind (seed 2, nts-app): East throws and counts the pips counter-clockwise
  starting with himself: 1, 5, 9 -> East, 2, 6, 10 -> South, 3, 7, 11 -> West,
  4, 8, 12 -> North. Two dice do not give the four winds equal chances
  (E 8/36, S 9/36, W 10/36, N 9/36); that is how the table does it, so the program does
  the same.
Pass a ``random.Random`` with a seed for reproducible throws.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .rotation import WINDS


def throw_two(rng: random.Random) -> int:
    """Sum of two fair dice."""
    return rng.randint(1, 6) + rng.randint(1, 6)


@dataclass(frozen=True)
class SeatThrows:
    """Every round of throws (name -> pips) and the table position that became East."""

    rounds: list[dict[str, int]]
    east_position: int


def throw_for_east(players: list[str], rng: random.Random) -> SeatThrows:
    """Throw until exactly one player has the highest throw; re-throw ties among the tied."""
    in_play = list(players)
    rounds: list[dict[str, int]] = []
    while True:
        throws = {name: throw_two(rng) for name in in_play}
        rounds.append(throws)
        best = max(throws.values())
        in_play = [name for name in in_play if throws[name] == best]
        if len(in_play) == 1:
            return SeatThrows(rounds=rounds, east_position=players.index(in_play[0]))


def wind_for_pips(pips: int) -> str:
    """Prevailing wind for a throw counted counter-clockwise from East (2..12)."""
    if not 2 <= pips <= 12:
        raise ValueError(f"two dice show 2 to 12 pips, not {pips}")
    return WINDS[(pips - 1) % 4]


def throw_prevailing_wind(rng: random.Random) -> tuple[str, int]:
    """East's throw for the nts-app prevailing wind: (wind, pips)."""
    pips = throw_two(rng)
    return wind_for_pips(pips), pips
