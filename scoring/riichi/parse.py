"""Read a ``riichi-settlement`` request dict (cases.json form, spec §18) into typed data.

Every problem raises ``RiichiInputError`` naming the field. Missing ``honba``,
``pot_before`` and ``riichi_declared`` mean 0, 0 and nobody (as in cases.json). Han/fu
combinations that cannot occur under EMA (the "–" cells of §16.2) are refused, since they
point at a miscount at the table: 20 fu on a ron, 1 han with 20 or 25 fu, 25 fu tsumo
with 2 han."""

from __future__ import annotations

from numbers import Real
from typing import Any

from ..shown import MAX_WHOLE, shown
from .errors import IMPOSSIBLE, RiichiInputError
from .model import (SEATS, Chombo, Draw, GameEndRequest, HandRequest, HandValue,
                                  Ron, RonWin, Tsumo)

RESULT_TYPES = ("ron", "tsumo", "draw", "chombo")
HAND_KEYS = {"ruleset", "honba", "pot_before", "riichi_declared", "result"}
VALUE_KEYS = {"han", "fu", "yakuman"}


def parse_request(data: Any) -> HandRequest | GameEndRequest:
    if not isinstance(data, dict):
        raise RiichiInputError("input", f"expected an object, got {type(data).__name__}")
    if data.get("ruleset", "riichi-settlement") != "riichi-settlement":
        raise RiichiInputError("ruleset", f"{shown(data['ruleset'])} is not riichi-settlement")
    if "game_end" in data:
        extra = set(data) - {"ruleset", "game_end"}
        if extra:
            raise RiichiInputError(sorted(extra)[0], "not allowed next to game_end")
        return parse_game_end(data["game_end"])
    unknown = set(data) - HAND_KEYS
    if unknown:
        raise RiichiInputError(sorted(unknown)[0], "unknown field (expected honba, pot_before, "
                               "riichi_declared, result or game_end)")
    if "result" not in data:
        raise RiichiInputError("result", "missing (or give game_end)")
    honba = count(data.get("honba", 0), "honba")
    pot = count(data.get("pot_before", 0), "pot_before")
    declared = seat_list(data.get("riichi_declared", []), "riichi_declared")
    result = parse_result(data["result"])
    if isinstance(result, Draw):
        noten_riichi = [s for s in declared if s not in result.tenpai]
        if noten_riichi:
            raise RiichiInputError("result.tenpai", f"{', '.join(noten_riichi)} declared riichi "
                                   "but is not tenpai; a noten riichi at the draw is a chombo", IMPOSSIBLE)
    return HandRequest(honba=honba, pot_before=pot, riichi_declared=declared, result=result)


def parse_result(data: Any):
    if not isinstance(data, dict):
        raise RiichiInputError("result", "expected an object with a type")
    kind = data.get("type")
    if kind not in RESULT_TYPES:
        raise RiichiInputError("result.type", f"{shown(kind)} is not one of {', '.join(RESULT_TYPES)}")
    allowed = {"ron": {"discarder", "winners"}, "tsumo": {"winner"} | VALUE_KEYS,
               "draw": {"tenpai"}, "chombo": {"offender"}}[kind] | {"type"}
    unknown = set(data) - allowed
    if unknown:
        raise RiichiInputError(f"result.{sorted(unknown)[0]}", f"not used by a {kind}")
    if kind == "ron":
        return parse_ron(data)
    if kind == "tsumo":
        winner = seat(data.get("winner"), "result.winner")
        return Tsumo(winner=winner, value=hand_value(data, "result", tsumo=True))
    if kind == "draw":
        return Draw(tenpai=seat_list(data.get("tenpai", []), "result.tenpai"))
    return Chombo(offender=seat(data.get("offender"), "result.offender"))


def parse_ron(data: dict) -> Ron:
    discarder = seat(data.get("discarder"), "result.discarder")
    winners = data.get("winners")
    if not isinstance(winners, list) or not winners:
        raise RiichiInputError("result.winners", "give a list of one to three winners")
    if len(winners) > 3:
        raise RiichiInputError("result.winners", "at most three players can win on one discard")
    parsed = []
    for i, win in enumerate(winners):
        where = f"result.winners[{i}]"
        if not isinstance(win, dict):
            raise RiichiInputError(where, "expected an object with seat, han, fu")
        unknown = set(win) - VALUE_KEYS - {"seat"}
        if unknown:
            raise RiichiInputError(f"{where}.{sorted(unknown)[0]}", "unknown field")
        who = seat(win.get("seat"), f"{where}.seat")
        if who == discarder:
            raise RiichiInputError(f"{where}.seat", f"{who} cannot win on his own discard", IMPOSSIBLE)
        if who in [w.seat for w in parsed]:
            raise RiichiInputError(f"{where}.seat", f"{who} is listed twice")
        parsed.append(RonWin(seat=who, value=hand_value(win, where, tsumo=False)))
    return Ron(discarder=discarder, winners=tuple(parsed))


def hand_value(data: dict, where: str, *, tsumo: bool) -> HandValue:
    """Han/fu/yakuman of one winner, checked against what EMA scoring can produce."""
    yakuman = data.get("yakuman", False)
    if not isinstance(yakuman, bool):
        raise RiichiInputError(f"{where}.yakuman", "must be true or false")
    if yakuman and "han" not in data:
        return HandValue(han=13, fu=None, yakuman=True)
    if "han" not in data:
        raise RiichiInputError(f"{where}.han", "missing (or set yakuman: true)")
    han = count(data["han"], f"{where}.han")
    if han < 1:
        raise RiichiInputError(f"{where}.han", "a winning hand has at least 1 han", IMPOSSIBLE)
    fu = data.get("fu")
    if yakuman:                          # a yakuman pays the same whatever the fu (kokushi: 0)
        if fu is not None:
            count(fu, f"{where}.fu")
        return HandValue(han=han, fu=None, yakuman=True)
    if fu is None:
        if han < 5:
            raise RiichiInputError(f"{where}.fu", f"missing; {han} han needs the fu")
        return HandValue(han=han, fu=None)
    fu = count(fu, f"{where}.fu")
    if fu != 25 and (fu % 10 or not 20 <= fu <= 130):
        raise RiichiInputError(f"{where}.fu", f"{fu} is not a fu count (20, 25, 30, 40 … 130)")
    if han < 5:
        if fu == 20 and not tsumo:
            raise RiichiInputError(f"{where}.fu", "20 fu only occurs on a tsumo (pinfu); a ron "
                                   "is at least 30 fu (seven pairs 25)", IMPOSSIBLE)
        if han == 1 and fu in (20, 25):
            raise RiichiInputError(f"{where}.fu", f"1 han {fu} fu cannot occur (pinfu tsumo and "
                                   "seven pairs are at least 2 han)", IMPOSSIBLE)
        if han == 2 and fu == 25 and tsumo:
            raise RiichiInputError(f"{where}.fu", "2 han 25 fu tsumo cannot occur (seven pairs "
                                   "by tsumo is at least 3 han)", IMPOSSIBLE)
    return HandValue(han=han, fu=fu)


def parse_game_end(data: Any) -> GameEndRequest:
    if not isinstance(data, dict):
        raise RiichiInputError("game_end", "expected an object with scores and pot")
    unknown = set(data) - {"scores", "pot"}
    if unknown:
        raise RiichiInputError(f"game_end.{sorted(unknown)[0]}", "unknown field")
    scores = data.get("scores")
    if not isinstance(scores, dict) or set(scores) != set(SEATS):
        raise RiichiInputError("game_end.scores", "give a score for each of E, S, W, N")
    for who, value in scores.items():
        if isinstance(value, bool) or not isinstance(value, Real) or not -MAX_WHOLE <= value <= MAX_WHOLE:
            raise RiichiInputError(f"game_end.scores.{who}", f"{shown(value)} is not a number "
                                   f"from -{MAX_WHOLE} to {MAX_WHOLE}")
    pot = count(data.get("pot", 0), "game_end.pot")
    ordered = {who: scores[who] for who in SEATS}
    return GameEndRequest(scores=ordered, pot=pot)


def count(value: Any, field: str) -> int:
    """A whole number 0..MAX_WHOLE (bools, fractions and absurd sizes refused)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RiichiInputError(field, f"{shown(value)} is not a whole number")
    if value < 0:
        raise RiichiInputError(field, f"{shown(value)} is negative")
    if value > MAX_WHOLE:
        raise RiichiInputError(field, f"{shown(value)} is more than {MAX_WHOLE}")
    return value


def seat(value: Any, field: str) -> str:
    if value not in SEATS:
        raise RiichiInputError(field, f"{shown(value)} is not a seat (E, S, W or N)")
    return value


def seat_list(value: Any, field: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise RiichiInputError(field, "expected a list of seats")
    seats = tuple(seat(v, f"{field}[{i}]") for i, v in enumerate(value))
    if len(set(seats)) != len(seats):
        raise RiichiInputError(field, "a seat is listed twice")
    return seats
