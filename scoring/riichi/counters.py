"""Counters (honba, §16.3), riichi deposits (§16.4) and dealer repeat (§16.6)."""

from __future__ import annotations

from .model import (DEALER, RON_COUNTER, SEATS, TSUMO_COUNTER, Chombo, Deposits,
                                  Draw, HandRequest, NextState, Payment, Ron, Seat, Tsumo)


def counter_payments(request: HandRequest) -> tuple[Payment, ...]:
    """Ron: the discarder pays 300 per counter to every winner. Tsumo: every payer pays
    100 per counter. Nothing on a draw or chombo."""
    result = request.result
    if request.honba == 0:
        return ()
    if isinstance(result, Ron):
        return tuple(Payment(result.discarder, win.seat, RON_COUNTER * request.honba, "honba")
                     for win in result.winners)
    if isinstance(result, Tsumo):
        return tuple(Payment(payer, result.winner, TSUMO_COUNTER * request.honba, "honba")
                     for payer in SEATS if payer != result.winner)
    return ()


def turn_order_after(seat: Seat) -> tuple[Seat, ...]:
    """The other three seats in playing order after ``seat`` (E → S → W → N → E)."""
    start = SEATS.index(seat)
    return tuple(SEATS[(start + step) % 4] for step in (1, 2, 3))


def deposits(request: HandRequest) -> tuple[Deposits, int]:
    """Who takes which sticks, and how many sticks stay on the table afterwards.

    A single winner takes the whole pot (older sticks plus this hand's). Several winners
    on one discard: every winner who declared riichi in this hand takes his own stick
    back; every other stick goes to the winner first in turn order after the discarder.
    A draw leaves everything on the table. A chombo gives this hand's sticks back to
    their owners and leaves the older ones."""
    result = request.result
    declared = request.riichi_declared
    on_table = request.pot_before + len(declared)
    if isinstance(result, Draw):
        return Deposits(declared), on_table
    if isinstance(result, Chombo):
        return Deposits(declared, returned=declared), request.pot_before
    if isinstance(result, Tsumo):
        taken = {result.winner: on_table} if on_table else {}
        return Deposits(declared, taken=taken), 0
    winners = [win.seat for win in result.winners]
    if len(winners) == 1:
        taken = {winners[0]: on_table} if on_table else {}
        return Deposits(declared, taken=taken), 0
    taken: dict[Seat, int] = {}
    for seat in winners:
        if seat in declared:
            taken[seat] = 1
    first = next(seat for seat in turn_order_after(result.discarder) if seat in winners)
    rest = on_table - sum(taken.values())
    if rest:
        taken[first] = taken.get(first, 0) + rest
    return Deposits(declared, taken=taken), 0


def next_state(request: HandRequest, pot_after: int) -> NextState:
    """Renchan table of §16.6 and the counter rule of §16.3."""
    result = request.result
    if isinstance(result, Chombo):
        return NextState(dealer_stays=True, honba=request.honba, pot=pot_after)
    if isinstance(result, Draw):
        return NextState(dealer_stays=DEALER in result.tenpai, honba=request.honba + 1,
                         pot=pot_after)
    winners = ([w.seat for w in result.winners] if isinstance(result, Ron) else [result.winner])
    dealer_won = DEALER in winners
    return NextState(dealer_stays=dealer_won, honba=request.honba + 1 if dealer_won else 0,
                     pot=pot_after)
