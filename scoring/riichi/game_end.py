"""Leftover riichi sticks at the end of the game (§16.4): all to the first-placed player;
on a tie for first the sticks are split equally with no rounding (DECISION §17.25)."""

from __future__ import annotations

from fractions import Fraction

from .model import STICK, GameEnd, GameEndRequest


def plain_number(value: Fraction) -> int | float:
    """Whole numbers stay int; a split like 1000 / 3 becomes a float."""
    return int(value) if value.denominator == 1 else float(value)


def settle_game_end(request: GameEndRequest) -> GameEnd:
    top = max(request.scores.values())
    first = tuple(seat for seat, score in request.scores.items() if score == top)
    share = Fraction(request.pot * STICK, len(first))
    final = {seat: plain_number(Fraction(score) + (share if seat in first else 0))
             for seat, score in request.scores.items()}
    return GameEnd(request=request, first=first, share=plain_number(share),
                   final_scores=final)
