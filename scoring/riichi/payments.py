"""Basic points and the payments of one win (spec §16.1, §16.2), without counters/sticks.

EMA choices (§16.1): no rounding up to mangan (kiriage), 13+ han from ordinary yaku is
sanbaiman (kazoe), yakuman never stack (one yakuman is the maximum)."""

from __future__ import annotations

from .model import DEALER, SEATS, HandValue, Payment, Seat, WinScore

MANGAN = 2000
YAKUMAN = 8000
KAZOE_HAN = 13                            # counted hands: capped at sanbaiman (EMA)
LIMITS = ((11, "sanbaiman", 6000), (8, "baiman", 4000), (6, "haneman", 3000),
          (5, "mangan", 2000))


def round_up(points: int) -> int:
    """Every payment is rounded up to 100 on its own (§16.2)."""
    return -(-points // 100) * 100


def win_score(seat: Seat, value: HandValue) -> WinScore:
    """Basic points B and the limit name for one winner."""
    if value.yakuman:
        return WinScore(seat, value, YAKUMAN, "yakuman", kazoe=False)
    for min_han, name, points in LIMITS:
        if value.han >= min_han:
            return WinScore(seat, value, points, name, kazoe=value.han >= KAZOE_HAN)
    basic = value.fu * 2 ** (value.han + 2)
    if basic >= MANGAN:
        return WinScore(seat, value, MANGAN, "mangan", kazoe=False)
    return WinScore(seat, value, basic, "", kazoe=False)


def ron_payment(score: WinScore, discarder: Seat) -> Payment:
    """The discarder pays 6B to a dealer, 4B to a non-dealer."""
    factor = 6 if score.seat == DEALER else 4
    return Payment(discarder, score.seat, round_up(factor * score.basic_points), "hand")


def tsumo_payments(score: WinScore) -> tuple[Payment, ...]:
    """Dealer wins: each pays 2B. Non-dealer wins: the dealer pays 2B, the others B."""
    out = []
    for payer in SEATS:
        if payer == score.seat:
            continue
        factor = 2 if DEALER in (payer, score.seat) else 1
        out.append(Payment(payer, score.seat, round_up(factor * score.basic_points), "hand"))
    return tuple(out)
