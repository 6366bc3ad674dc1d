"""Seat winds, prevailing wind and match length for a whole match.

Players are stored in *table order*: the order in which they sit, counter-clockwise
(the order of play E -> S -> W -> N). The seat winds follow from two numbers only:
the table position of the first East and how many times the East seat has moved on
(``moves``). After a move the old South becomes East, the old East becomes North
(spec §12, seed 1 "Zuid wordt Oost, Oost wordt Noord").

- ``nts``: the East seat moves after every game, draws included; the prevailing wind is
  East for games 1-4, South 5-8, West 9-12, North 13-16; a match is 16 games
  (``rounds`` = 4) or fewer rounds when agreed.
- ``nts-app``: same seat rotation, prevailing wind thrown per game (see ``dice``); a
  session has no fixed length unless ``rounds`` is given.
- ``riichi``: the dealer (East) stays after a dealer win or a draw with the dealer
  tenpai (renchan, §16.6); the round wind is East for the first four dealers, then
  South (``rounds`` = 2, a hanchan). The match ends when the last dealer of the last
  round passes the deal on.
"""

from __future__ import annotations

WINDS = ("E", "S", "W", "N")
RULESETS = ("nts", "nts-app", "riichi")
DEFAULT_ROUNDS = {"nts": 4, "nts-app": 0, "riichi": 2}   # 0 = open-ended


def seat_winds(n_players: int, first_east: int, moves: int) -> list[str]:
    """Seat wind of every table position after the East seat has moved ``moves`` times."""
    return [WINDS[(pos - first_east - moves) % 4] for pos in range(n_players)]


def east_position(first_east: int, moves: int) -> int:
    """Table position of the player who is East now."""
    return (first_east + moves) % 4


def nts_prevailing_wind(games_played: int) -> str:
    """Prevailing wind of the next NTS game: four games per wind, E S W N."""
    return WINDS[min(games_played // 4, 3)]


def riichi_round(moves: int) -> tuple[str, int]:
    """Round wind and dealer number (1-4) in that round, e.g. ('S', 2) = South 2."""
    return WINDS[(moves // 4) % 4], moves % 4 + 1


def match_length_reached(ruleset: str, rounds: int, games_played: int, moves: int) -> bool:
    """True when the agreed length is played: NTS counts games, riichi counts dealer moves."""
    if rounds <= 0:
        return False
    if ruleset == "riichi":
        return moves >= 4 * rounds
    return games_played >= 4 * rounds


def next_moves(ruleset: str, moves: int, dealer_stays: bool = False) -> int:
    """Moves after a game: NTS always moves on; riichi only when the dealer does not stay."""
    if ruleset == "riichi" and dealer_stays:
        return moves
    return moves + 1
