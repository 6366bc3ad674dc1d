"""Who pays whom in one recorded game: the settlement as payment lines between players.

A game record keeps each player's net result (``deltas``); at the table people hand money
to each other, so the CLI (``session show --game N``) and the phone page show the payments
behind the net results. One pure function, :func:`payment_lines`, used by both.

NTS / nts-app (spec §11, DECISION 28): every loser pays the winner (the winner's score, or
in ``nts-app`` the difference of the two scores), the losers settle their differences among
themselves, and every payment with East is doubled. Payments between the same two players
are netted into one line. The lines are checked against the recorded deltas; a record they
do not add up to (another rule, an old record) gets the fewest lines that give its deltas.
Riichi hands move sticks through the pot, so their payments are the engine's sentences
(``render``), not lines of this function; a draw in NTS moves nothing."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Payment:
    """``payer`` hands ``amount`` (> 0) to ``payee``."""
    payer: str
    payee: str
    amount: int

    def to_json(self) -> dict:
        return {"payer": self.payer, "payee": self.payee, "amount": self.amount}


def _factor(seat_a: str, seat_b: str) -> int:
    return 2 if "E" in (seat_a, seat_b) else 1


def _settlement_rule(ruleset: str) -> str:
    from ..scoring.config import resolve

    return resolve(ruleset)["settlement"]


def _net(pairs: dict[tuple[str, str], int]) -> list[Payment]:
    lines = []
    for (a, b), amount in pairs.items():
        if amount > 0:
            lines.append(Payment(b, a, amount))      # b owes a
        elif amount < 0:
            lines.append(Payment(a, b, -amount))
    return lines


def _from_deltas(deltas: dict[str, int], order: list[str]) -> list[Payment]:
    """The fewest payments that give these net results (largest debtor to largest creditor)."""
    owe = {p: -d for p, d in deltas.items() if d < 0}
    get = {p: d for p, d in deltas.items() if d > 0}
    lines = []
    for payer in sorted(owe, key=lambda p: (-owe[p], order.index(p))):
        for payee in sorted(get, key=lambda p: (-get[p], order.index(p))):
            amount = min(owe[payer], get[payee])
            if amount > 0:
                lines.append(Payment(payer, payee, amount))
                owe[payer] -= amount
                get[payee] -= amount
    return lines


def payment_lines(game: dict, ruleset: str, players: list[str] | None = None) -> list[Payment]:
    """The payments of one NTS / nts-app game record (``session`` records: ``seats``,
    ``winners``, ``hand_scores``, ``deltas``), in table order; [] for a draw."""
    deltas = {p: int(v) for p, v in (game.get("deltas") or {}).items()}
    order = list(players or game.get("seats") or deltas)
    if not any(deltas.values()):
        return []
    winners = game.get("winners") or []
    scores = game.get("hand_scores") or {}
    seats = game.get("seats") or {}
    if ruleset == "riichi" or len(winners) != 1 or set(scores) != set(deltas) or set(seats) != set(deltas):
        return _from_deltas(deltas, order)
    winner = winners[0]
    rule = _settlement_rule(ruleset)
    pairs: dict[tuple[str, str], int] = {}          # (a, b) -> what b pays a (negative: a pays b)
    losers = [p for p in order if p != winner]
    for loser in losers:
        owed = scores[winner] - (scores[loser] if rule == "differences" else 0)
        pairs[(winner, loser)] = owed * _factor(seats[winner], seats[loser])
    for i, a in enumerate(losers):
        for b in losers[i + 1:]:
            pairs[(a, b)] = (scores[a] - scores[b]) * _factor(seats[a], seats[b])
    lines = _net(pairs)
    check = {p: 0 for p in deltas}
    for line in lines:
        check[line.payer] -= line.amount
        check[line.payee] += line.amount
    if check != deltas:
        return _from_deltas(deltas, order)
    return sorted(lines, key=lambda ln: (order.index(ln.payer), order.index(ln.payee)))
