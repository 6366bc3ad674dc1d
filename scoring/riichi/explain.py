"""Readable explanation of a riichi settlement, in English (``en``) or Dutch (``nl``),
for the match scorekeeping and the web page: one sentence per step (value, payments,
sticks, result, next hand)."""

from __future__ import annotations

from ..words import WIND_NAMES
from .errors import RiichiInputError
from .model import (DEALER, SEATS, Chombo, Draw, GameEnd, Ron, Settlement, Tsumo,
                                  WinScore)

SEAT_NAMES = WIND_NAMES
TEXT = {
    "en": {
        "ron": "{winner} wins by ron on {discarder}'s discard: {value}.",
        "tsumo": "{winner} wins by tsumo (self-drawn): {value}.",
        "draw": "Exhaustive draw; tenpai: {tenpai}.",
        "nobody": "nobody",
        "chombo": "Chombo by {offender}: the hand is replayed, no payments here "
                  "(the penalty is settled separately).",
        "han_fu": "{han} han {fu} fu, basic points {basic}",
        "limit": "{han} han, {limit} (basic points {basic})",
        "kazoe": "{han} han, counted as sanbaiman (EMA: no counted yakuman; basic points {basic})",
        "yakuman": "yakuman (basic points 8000)",
        "pays": "{payer} pays {payee} {amount}.",
        "pays_counters": "{payer} pays {payee} {hand} + {counters} for {honba} = {amount}.",
        "noten": "Noten payment: {payer} pays {payee} {amount}.",
        "declared_one": "Riichi: {who} puts 1000 in the pot.",
        "declared": "Riichi: {who} put 1000 each in the pot.",
        "returned": "Chombo: this hand's riichi stick goes back to {who}.",
        "takes": "{who} takes {n} = {points}.",
        "takes_own": "{who} takes back his own riichi stick (1000).",
        "takes_rest": "{who}, first winner after the discarder, takes {n} = {points}.",
        "stays_on_table": "Riichi sticks on the table: {n}.",
        "counter": ("counter", "counters"), "stick": ("riichi stick", "riichi sticks"),
        "deltas": "Result: {deltas}.",
        "next_stays": "Next hand: the dealer ({dealer}) stays; {honba}; pot {pot}.",
        "next_passes": "Next hand: the deal passes to {next_dealer}; {honba}; pot {pot}.",
        "end_none": "End of game: no riichi sticks left.",
        "end_one": "End of game: {n} ({points}) go to {first}, first place.",
        "end_tie": "End of game: {n} ({points}) are split between {first}, "
                   "tied for first: {share} each.",
        "final": "Final scores: {scores}.",
        "and": "and",
    },
    "nl": {
        "ron": "{winner} wint met ron op de afgooi van {discarder}: {value}.",
        "tsumo": "{winner} wint met tsumo (zelf getrokken): {value}.",
        "draw": "Remise (muur op); tenpai: {tenpai}.",
        "nobody": "niemand",
        "chombo": "Chombo door {offender}: de hand wordt overgespeeld, hier geen betalingen "
                  "(de straf wordt apart verrekend).",
        "han_fu": "{han} han {fu} fu, basispunten {basic}",
        "limit": "{han} han, {limit} (basispunten {basic})",
        "kazoe": "{han} han, telt als sanbaiman (EMA: geen geteld yakuman; basispunten {basic})",
        "yakuman": "yakuman (basispunten 8000)",
        "pays": "{payer} betaalt {payee} {amount}.",
        "pays_counters": "{payer} betaalt {payee} {hand} + {counters} voor {honba} (honba) "
                         "= {amount}.",
        "noten": "Noten-betaling: {payer} betaalt {payee} {amount}.",
        "declared_one": "Riichi: {who} legt 1000 in de pot.",
        "declared": "Riichi: {who} leggen elk 1000 in de pot.",
        "returned": "Chombo: het riichi-stokje van deze hand gaat terug naar {who}.",
        "takes": "{who} krijgt {n} = {points}.",
        "takes_own": "{who} krijgt zijn eigen riichi-stokje terug (1000).",
        "takes_rest": "{who}, de eerste winnaar na de afgooier, krijgt {n} = {points}.",
        "stays_on_table": "Riichi-stokjes op tafel: {n}.",
        "counter": ("telstokje", "telstokjes"), "stick": ("riichi-stokje", "riichi-stokjes"),
        "deltas": "Uitkomst: {deltas}.",
        "next_stays": "Volgende hand: de gever ({dealer}) blijft; {honba}; pot {pot}.",
        "next_passes": "Volgende hand: {next_dealer} wordt gever; {honba}; pot {pot}.",
        "end_none": "Einde van het spel: geen riichi-stokjes over.",
        "end_one": "Einde van het spel: {n} ({points}) naar {first}, de nummer één.",
        "end_tie": "Einde van het spel: {n} ({points}) verdeeld tussen "
                   "{first}, gedeeld eerste: {share} elk.",
        "final": "Eindstand: {scores}.",
        "and": "en",
    },
}


def settlement_lines(outcome: Settlement | GameEnd | dict, lang: str = "en") -> list[str]:
    """Sentences explaining a settled hand or game end. A dict is taken as a
    ``riichi-settlement`` request and settled first."""
    if lang not in TEXT:
        raise RiichiInputError("lang", f"{lang!r} is not supported (en or nl)")
    if isinstance(outcome, dict):
        from .parse import parse_request
        from .settle import settle
        outcome = settle(parse_request(outcome))
    t, seat = TEXT[lang], SEAT_NAMES[lang]
    if isinstance(outcome, GameEnd):
        return _game_end_lines(outcome, t, seat)
    return _hand_lines(outcome, t, seat)


def _join(names: list[str], t: dict) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + f" {t['and']} " + names[-1]


def _value(score: WinScore, t: dict) -> str:
    v = score.value
    if score.limit == "yakuman":
        return t["yakuman"]
    if score.kazoe:
        return t["kazoe"].format(han=v.han, basic=score.basic_points)
    if score.limit and (v.han >= 5 or v.fu is None):
        return t["limit"].format(han=v.han, limit=score.limit, basic=score.basic_points)
    text = t["han_fu"].format(han=v.han, fu=v.fu, basic=score.basic_points)
    return text + (f" → {score.limit}" if score.limit else "")


def _count(n: int, forms: tuple[str, str]) -> str:
    return f"{n} {forms[0] if n == 1 else forms[1]}"


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else (f"−{-value}" if value < 0 else "0")


def _hand_lines(s: Settlement, t: dict, seat: dict) -> list[str]:
    result, request = s.request.result, s.request
    lines = []
    if isinstance(result, Ron):
        for score in s.wins:
            lines.append(t["ron"].format(winner=seat[score.seat], discarder=seat[result.discarder],
                                         value=_value(score, t)))
    elif isinstance(result, Tsumo):
        lines.append(t["tsumo"].format(winner=seat[result.winner], value=_value(s.wins[0], t)))
    elif isinstance(result, Draw):
        lines.append(t["draw"].format(tenpai=_join([seat[x] for x in result.tenpai], t)
                                      or t["nobody"]))
    elif isinstance(result, Chombo):
        lines.append(t["chombo"].format(offender=seat[result.offender]))

    counters = {(p.payer, p.payee): p.amount for p in s.payments if p.kind == "honba"}
    for p in s.payments:
        if p.kind == "noten":
            lines.append(t["noten"].format(payer=seat[p.payer], payee=seat[p.payee],
                                           amount=p.amount))
        elif p.kind == "hand":
            extra = counters.get((p.payer, p.payee), 0)
            key = "pays_counters" if extra else "pays"
            lines.append(t[key].format(payer=seat[p.payer], payee=seat[p.payee], hand=p.amount,
                                       counters=extra, honba=_count(request.honba, t["counter"]),
                                       amount=p.amount + extra))
    sticks = s.deposits
    if sticks.declared:
        key = "declared_one" if len(sticks.declared) == 1 else "declared"
        lines.append(t[key].format(who=_join([seat[x] for x in sticks.declared], t)))
    if sticks.returned:
        lines.append(t["returned"].format(who=_join([seat[x] for x in sticks.returned], t)))
    several = isinstance(result, Ron) and len(result.winners) > 1
    for who, n in sticks.taken.items():
        own = 1 if several and who in sticks.declared else 0
        if own:
            lines.append(t["takes_own"].format(who=seat[who]))
        if n - own:
            key = "takes_rest" if several else "takes"
            lines.append(t[key].format(who=seat[who], n=_count(n - own, t["stick"]),
                                       points=(n - own) * 1000))
    if s.next.pot and not sticks.taken:
        lines.append(t["stays_on_table"].format(n=s.next.pot))
    lines.append(t["deltas"].format(deltas=", ".join(f"{seat[x]} {_signed(s.deltas[x])}"
                                                     for x in SEATS)))
    honba, pot = _count(s.next.honba, t["counter"]), _count(s.next.pot, t["stick"])
    if s.next.dealer_stays:
        lines.append(t["next_stays"].format(dealer=seat[DEALER], honba=honba, pot=pot))
    else:
        lines.append(t["next_passes"].format(next_dealer=seat["S"], honba=honba, pot=pot))
    return lines


def _game_end_lines(g: GameEnd, t: dict, seat: dict) -> list[str]:
    n = g.request.pot
    if n == 0:
        head = t["end_none"]
    elif len(g.first) == 1:
        head = t["end_one"].format(n=_count(n, t["stick"]), points=n * 1000, first=seat[g.first[0]])
    else:
        head = t["end_tie"].format(n=_count(n, t["stick"]), points=n * 1000, first=_join([seat[x] for x in g.first], t),
                                   share=_number(g.share))
    scores = ", ".join(f"{seat[x]} {_number(g.final_scores[x])}" for x in SEATS)
    return [head, t["final"].format(scores=scores)]


def _number(value: int | float) -> str:
    return str(value) if isinstance(value, int) else f"{value:.2f}"
