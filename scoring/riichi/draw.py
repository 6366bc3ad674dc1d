"""Noten payments after an exhaustive draw (§16.5): 3000 in total from the noten players
to the tenpai players; nothing when nobody or everybody is tenpai."""

from __future__ import annotations

from fractions import Fraction

from .model import NOTEN_TOTAL, SEATS, Payment, Seat


def noten_payments(tenpai: tuple[Seat, ...]) -> tuple[Payment, ...]:
    """Each noten player pays each tenpai player an equal share of 3000.

    1 tenpai: 1000 from each; 2 tenpai: 750 from each noten to each tenpai (1500 each);
    3 tenpai: the noten player pays 1000 to each."""
    noten = [seat for seat in SEATS if seat not in tenpai]
    if not tenpai or not noten:
        return ()
    share = Fraction(NOTEN_TOTAL, len(tenpai) * len(noten))
    assert share.denominator == 1, "3000 splits evenly for 1..3 tenpai players"
    return tuple(Payment(payer, payee, int(share), "noten")
                 for payer in noten for payee in SEATS if payee in tenpai)
