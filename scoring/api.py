"""The JSON contract (spec §18): ``score_request(request) -> answer``.

A request is a cases.json ``input`` object plus ``"ruleset"``:
- single hand: ``{ruleset, prevailing_wind, hand: {seat_wind, melds, concealed, winning_tile,
  win_type, special, bonus}, config?}``. Without ``win_type`` and winning tile the hand is
  scored as a non-winner's own hand (§10).
- table: ``{ruleset, prevailing_wind, outcome: "mahjong"|"draw", winner, players: {seat: hand}
  | given_scores: {seat: points}}``. Both may be given; ``players`` wins for a seat in both.
- ``ruleset: "riichi-settlement"`` goes to ``scoring.riichi.settle_riichi_request``.

Invalid requests answer ``{"valid": false, "reason": <§3 code>, "message": ...}``; malformed
JSON shapes (wrong types, unknown keys or values, at any depth) are reported with reason
``syntax``, riichi refusals with their code and ``field``. No request makes it raise."""

from __future__ import annotations

from ..errors import SYNTAX, InputError
from .config import RULESETS, SPECIALS, WIN_TYPES, WIND_NAMES, ConfigError, resolve
from .model import Context, Hand, HandScore
from .notation import NotationError, parse_group, parse_hand, parse_tile, parse_tiles
from .shown import MAX_WHOLE, shown, whole_number
from .nts import score_hand
from .table import SEATS, TableResult, settle_scores, table_copies
from .tiles import BONUS
from .validate import InvalidHand, tile_indices

HAND_KEYS = {"seat_wind", "melds", "concealed", "winning_tile", "win_type", "special", "bonus", "dead",
             "notation"}


def _invalid(reason: str, message: str, **extra) -> dict:
    return {"valid": False, "reason": reason, "message": message, **extra}


def score_request(request: dict) -> dict:
    """Answer one request (single hand, table or riichi) with the fields of cases.json ``expected``."""
    if not isinstance(request, dict):
        return _invalid("syntax", "a request is a JSON object")
    ruleset = request.get("ruleset", "nts")
    if ruleset == "riichi-settlement":
        return _riichi(request)
    if ruleset not in RULESETS:
        return _invalid("syntax", f"unknown ruleset {shown(ruleset)} (known: nts, nts-app, riichi-settlement)")
    try:
        cfg = resolve(ruleset, request.get("config"))
        if "hand" in request:
            return _single(request, ruleset, cfg)
        if "outcome" in request:
            return _table(request, ruleset, cfg).to_json()
        raise InvalidHand("syntax", "a request holds either a 'hand' or an 'outcome' (table)")
    except NotationError as exc:
        return _invalid("syntax", str(exc), token=exc.token, position=exc.position, text=exc.text,
                        caret=exc.caret())
    except (ConfigError, RequestError) as exc:
        return _invalid("syntax", str(exc))
    except InvalidHand as exc:
        return _invalid(exc.code, exc.message)


def _riichi(request: dict) -> dict:
    """A ``riichi-settlement`` request: the answer, or its refusal naming the field."""
    try:
        from .riichi import RiichiInputError, settle_riichi_request
    except ImportError as exc:
        return _invalid("unsupported_ruleset", f"riichi settlement is not available: {exc}")
    try:
        return settle_riichi_request({k: v for k, v in request.items() if k != "ruleset"})
    except RiichiInputError as exc:
        return _invalid(exc.code, str(exc), field=exc.field)


class RequestError(InputError):
    """A request field of the wrong type or with an unknown value (code ``syntax``, as §3)."""

    code = SYNTAX


def _wind(value, field: str) -> str:
    if value not in WIND_NAMES:
        raise RequestError(f"{field} must be one of E, S, W, N (got {shown(value)})")
    return value


def hand_from_json(data: dict, where: str = "hand") -> Hand:
    """The JSON form of §1.3 as a :class:`Hand` (``notation`` may replace the tile fields)."""
    if not isinstance(data, dict):
        raise RequestError(f"{where} must be an object")
    unknown = set(data) - HAND_KEYS
    if unknown:
        raise RequestError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    if "notation" in data:
        if any(k in data for k in ("melds", "concealed", "winning_tile", "bonus")):
            raise RequestError(f"{where}: give either notation or melds/concealed/winning_tile/bonus")
        return parse_hand(_text(data["notation"], f"{where}.notation"), f"{where}.notation")
    melds = data.get("melds") or []
    if not isinstance(melds, list):
        raise RequestError(f"{where}.melds must be a list of groups like \"[555p]\"")
    groups = tuple(parse_group(_text(m, f"{where}.melds[{i}]"), f"{where}.melds[{i}]")
                   for i, m in enumerate(melds))
    concealed = parse_tiles(_text(data.get("concealed", ""), f"{where}.concealed"), f"{where}.concealed")
    bonus_here = [t for t in concealed if t in BONUS]
    concealed = [t for t in concealed if t not in BONUS]
    wt = data.get("winning_tile")
    winning = parse_tile(_text(wt, f"{where}.winning_tile"), f"{where}.winning_tile") if wt else None
    bonus = data.get("bonus") or []
    if isinstance(bonus, str):
        bonus = parse_tiles(bonus, f"{where}.bonus")
    if not isinstance(bonus, list):
        raise RequestError(f"{where}.bonus must be a list like [\"f1\", \"j3\"]")
    tiles = [parse_tile(_text(b, f"{where}.bonus[{i}]"), f"{where}.bonus[{i}]") for i, b in enumerate(bonus)]
    for i, t in enumerate(tiles):
        if t not in BONUS:
            raise NotationError("only flowers (f1..f4) and seasons (j1..j4) are bonus tiles",
                                str(bonus[i]), 0, str(bonus[i]), f"{where}.bonus[{i}]")
    return Hand(groups, tuple(concealed), winning, tuple(bonus_here + tiles))


def hand_to_json(hand: Hand) -> dict:
    """The JSON form of §1.3 of a hand's tiles (context fields are the caller's)."""
    from .notation import format_group
    from .tiles import compact
    out: dict = {"melds": [format_group(g) for g in hand.groups], "concealed": compact(list(hand.concealed))}
    if hand.winning_tile:
        out["winning_tile"] = hand.winning_tile
    if hand.bonus:
        out["bonus"] = list(hand.bonus)
    return out


def _text(value, field: str) -> str:
    if not isinstance(value, str):
        raise RequestError(f"{field} must be a string, not {type(value).__name__}")
    return value


def context_from_json(data: dict, prevailing: str, seat: str | None, winner: bool | None,
                      where: str = "hand") -> Context:
    """Winds, win type and special moments of one player (§2)."""
    seat_wind = _wind(data.get("seat_wind", seat), f"{where}.seat_wind")
    if seat and seat_wind != seat:
        raise RequestError(f"{where}: seat_wind {seat_wind} differs from the seat {seat} it is filed under")
    win_type = data.get("win_type")
    if winner is None:       # single hand: a winner when it says how it won or holds a winning tile
        winner = win_type is not None or data.get("winning_tile") is not None or \
            (isinstance(data.get("notation"), str) and "+" in data["notation"])
    if winner:
        if win_type not in WIN_TYPES:
            raise RequestError(f"{where}.win_type must be one of {', '.join(WIN_TYPES)} (got {shown(win_type)})")
    elif win_type is not None:
        raise RequestError(f"{where}: only the winner has a win_type")
    special = data.get("special") or []
    if not isinstance(special, list) or any(s not in SPECIALS for s in special):
        raise RequestError(f"{where}.special must be a list from {', '.join(SPECIALS)} (got {shown(special)})")
    if special and not winner:
        raise RequestError(f"{where}: special moments belong to the winner")
    dead = data.get("dead", False)
    if not isinstance(dead, bool):
        raise RequestError(f"{where}.dead must be true or false")
    if dead and winner:
        raise RequestError(f"{where}: the winner's hand cannot be dead")
    return Context(seat_wind, prevailing, win_type if winner else None, frozenset(special), dead)


def _single(request: dict, ruleset: str, cfg: dict) -> dict:
    prevailing = _wind(request.get("prevailing_wind"), "prevailing_wind")
    data = request["hand"]
    if not isinstance(data, dict):
        raise RequestError("hand must be an object (spec §1.3)")
    hand = hand_from_json(data)
    ctx = context_from_json(data, prevailing, None, None)
    return score_hand(hand, ctx, ruleset, cfg).to_json()


def _table(request: dict, ruleset: str, cfg: dict) -> TableResult:
    prevailing = _wind(request.get("prevailing_wind"), "prevailing_wind")
    outcome = request.get("outcome")
    if outcome == "draw":
        return TableResult("draw", None, settlement={s: 0 for s in SEATS})
    if outcome != "mahjong":
        raise RequestError(f"outcome must be 'mahjong' or 'draw' (got {shown(outcome)})")
    winner = _wind(request.get("winner"), "winner")
    players = request.get("players") or {}
    given = request.get("given_scores") or {}
    if not isinstance(players, dict) or not isinstance(given, dict):
        raise RequestError("players and given_scores are objects keyed by seat (E, S, W, N)")
    for seat in list(players) + list(given):
        _wind(seat, "seat")
    hands: dict[str, Hand] = {}
    contexts: dict[str, Context] = {}
    for seat in SEATS:
        if seat in players:
            where = f"players.{seat}"
            hands[seat] = hand_from_json(players[seat], where)
            contexts[seat] = context_from_json(players[seat], prevailing, seat, seat == winner, where)
    result = TableResult("mahjong", winner)
    for seat, hand in hands.items():
        score = score_hand(hand, contexts[seat], ruleset, cfg)
        if not score.valid:
            raise InvalidHand(score.reason, f"{seat}: {score.message}")
        result.scores[seat] = score
    if len(hands) == 4:
        problem = table_copies({s: tile_indices(h) for s, h in hands.items()})
        if problem:
            raise InvalidHand("too_many_copies", problem)
    owners: dict[str, str] = {}
    for seat, hand in hands.items():
        for b in hand.bonus:
            if b in owners:
                raise InvalidHand("duplicate_bonus_tile", f"{b} lies in front of both {owners[b]} and {seat}")
            owners[b] = seat
    finals: dict[str, int] = {s: sc.final for s, sc in result.scores.items()}
    for seat, points in given.items():
        if seat in finals:
            continue
        if not whole_number(points):
            raise RequestError(f"given_scores.{seat} must be a whole number of points from 0 to {MAX_WHOLE}")
        finals[seat] = points
        result.given_scores[seat] = points
    missing = [s for s in SEATS if s not in finals]
    if missing:
        result.message = f"no settlement: no hand or score for {', '.join(missing)}"
    else:
        result.settlement = settle_scores(finals, winner, cfg["settlement"])
    return result


def settle(request: dict) -> TableResult:
    """Typed form of a table request (§11): scores per seat and the settlement.
    Raises :class:`InvalidHand`, :class:`NotationError` or :class:`RequestError`."""
    ruleset = request.get("ruleset", "nts")
    if ruleset not in RULESETS:
        raise RequestError(f"unknown ruleset {shown(ruleset)}")
    return _table(request, ruleset, resolve(ruleset, request.get("config")))


__all__ = ["score_request", "settle", "hand_from_json", "context_from_json", "RequestError", "HandScore"]
