"""Settle one riichi hand or the end of a game: the request/answer dict contract of
``riichi-settlement`` (spec §16.7, §18) on top of the typed pieces.

Answer of a hand: ``deltas`` (every seat, this hand's deposits included, so they sum to
1000 × (pot_before − pot_after)), ``next`` {dealer_stays, honba, pot} and ``payments``, a
one-line text of who pays what (``"W pays 2000 + 600"``: value + counters). Answer of a
game end: ``final_scores``."""

from __future__ import annotations

from .counters import counter_payments, deposits, next_state
from .draw import noten_payments
from .game_end import settle_game_end
from .model import (SEATS, STICK, Draw, GameEnd, GameEndRequest,
                                  HandRequest, Ron, Settlement, Tsumo)
from .parse import parse_request
from .payments import ron_payment, tsumo_payments, win_score


def settle_hand(request: HandRequest) -> Settlement:
    result = request.result
    if isinstance(result, Ron):
        wins = tuple(win_score(w.seat, w.value) for w in result.winners)
        hand = tuple(ron_payment(score, result.discarder) for score in wins)
    elif isinstance(result, Tsumo):
        wins = (win_score(result.winner, result.value),)
        hand = tsumo_payments(wins[0])
    elif isinstance(result, Draw):
        wins, hand = (), noten_payments(result.tenpai)
    else:
        wins, hand = (), ()
    payments = hand + counter_payments(request)
    sticks, pot_after = deposits(request)
    deltas = {seat: 0 for seat in SEATS}
    for payment in payments:
        deltas[payment.payer] -= payment.amount
        deltas[payment.payee] += payment.amount
    for seat in sticks.declared:
        deltas[seat] -= STICK
    for seat in sticks.returned:
        deltas[seat] += STICK
    for seat, n in sticks.taken.items():
        deltas[seat] += n * STICK
    return Settlement(request=request, wins=wins, payments=payments, deposits=sticks,
                      deltas=deltas, next=next_state(request, pot_after))


def settle(request: HandRequest | GameEndRequest) -> Settlement | GameEnd:
    if isinstance(request, GameEndRequest):
        return settle_game_end(request)
    return settle_hand(request)


def payments_text(settlement: Settlement) -> str:
    """One line per payer, e.g. ``W pays 2000 + 600``; the payee is named when the payer
    pays more than one player. Sticks are not payments and are left out."""
    parts = []
    by_pair: dict[tuple[str, str], list[int]] = {}
    for p in settlement.payments:
        by_pair.setdefault((p.payer, p.payee), []).append(p.amount)
    single_payee = len({payee for _, payee in by_pair}) == 1
    for (payer, payee), amounts in by_pair.items():
        to = "" if single_payee else f"{payee} "
        parts.append(f"{payer} pays {to}" + " + ".join(str(a) for a in amounts))
    if not parts:
        return "no payments"
    return ", ".join(parts)


def to_answer(outcome: Settlement | GameEnd) -> dict:
    if isinstance(outcome, GameEnd):
        return {"final_scores": dict(outcome.final_scores)}
    return {"deltas": dict(outcome.deltas), "next": outcome.next.to_dict(),
            "payments": payments_text(outcome)}


def settle_riichi_request(data: dict) -> dict:
    """The ``riichi-settlement`` entry point (``input`` of a cases.json case → its
    ``expected``). Raises ``RiichiInputError`` naming the field on bad input."""
    return to_answer(settle(parse_request(data)))
