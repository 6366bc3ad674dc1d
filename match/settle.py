"""Turn one reported game into ``score_request`` requests and the answers into deltas.

Only the request/answer dict contract of ``scoring.score_request`` is used (the format of
``cases.json``, spec §18), with seats as keys; this module maps player names to the seat
winds of this game and back. The engine is passed in (``engine``), so the session logic
can be tested with a stand-in and so a web front end can reuse it.

NTS / nts-app (spec §11, §13):
- all four hands known -> one table request (``players``), which also checks the tile
  count over the whole table;
- otherwise each known hand is scored on its own and the table is settled from the
  scores (``given_scores``). A dead player without a hand scores 0, which under §11 is
  exactly the dead-hand rule: pays the winner and the others their scores, receives
  nothing.
Riichi (spec §16): one ``riichi-settlement`` request with the counters and the pot
before the hand; the answer's ``next`` drives the dealer rotation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..errors import MjscoreError
from .model import NtsGame, RiichiGame, SessionError, MatchState
from .notation import NotationError, split_hand

Engine = Callable[[dict], dict]


@dataclass
class Settlement:
    """Result of one game: money moves by player name, plus what the engine said."""

    deltas: dict[str, int]
    hand_scores: dict[str, int] | None = None
    next: dict | None = None                        # riichi: dealer_stays, honba, pot
    exchanges: list[dict] = field(default_factory=list)   # [{request, answer}] for the record


def call_engine(engine: Engine, request: dict, what: str) -> dict:
    """Ask the engine; turn a refusal into a ``SessionError`` that says what was refused."""
    try:
        answer = engine(request)
    except SessionError:
        raise
    except Exception as exc:  # the engine's own validation errors: show, do not crash
        raise SessionError(f"{what}: {_engine_message(exc)}") from exc
    if not isinstance(answer, dict):
        raise SessionError(f"{what}: the scoring engine gave no answer")
    if answer.get("valid") is False or answer.get("error"):
        reason = answer.get("reason") or answer.get("error") or "invalid"
        detail = answer.get("message") or answer.get("detail")
        raise SessionError(f"{what}: {reason}" + (f" ({detail})" if detail else ""))
    return answer


def _engine_message(exc: Exception) -> str:
    code = exc.code if isinstance(exc, MjscoreError) else None
    text = str(exc) or type(exc).__name__
    return f"{code}: {text}" if code and str(code) not in text else text


def _hand_dict(notation: str, owner: str) -> dict:
    try:
        return split_hand(notation)
    except NotationError as exc:
        raise SessionError(f"hand of {owner}: {exc}") from exc


# -- NTS / nts-app ------------------------------------------------------------------


def settle_nts(engine: Engine, ruleset: str, prevailing_wind: str,
               seat_of: dict[str, str], game: NtsGame) -> Settlement:
    """Deltas for one NTS or nts-app game (mahjong or draw)."""
    name_of = {seat: name for name, seat in seat_of.items()}
    if game.winner is None:
        request = {"ruleset": ruleset, "prevailing_wind": prevailing_wind,
                   "outcome": "draw", "players": {}}
        answer = call_engine(engine, request, "draw")
        deltas = {name_of[s]: int(v) for s, v in answer["settlement"].items()}
        return Settlement(deltas=deltas, hand_scores={n: 0 for n in seat_of},
                          exchanges=[{"request": request, "answer": answer}])

    winner = game.winner
    hands: dict[str, dict] = {}
    if game.winner_hand is not None:
        hand = _hand_dict(game.winner_hand, winner)
        tile = hand.get("winning_tile")
        if game.winning_tile and tile and game.winning_tile != tile:
            raise SessionError(f"the winning tile is given twice and differs: +{tile} in the "
                               f"hand, {game.winning_tile} in --winning-tile")
        tile = tile or game.winning_tile
        if not tile:
            raise SessionError(f"the winning tile of {winner} is missing: write it last as "
                               "+tile in the hand, or give --winning-tile")
        hand = {"seat_wind": seat_of[winner], "melds": hand["melds"],
                "concealed": hand["concealed"], "winning_tile": tile,
                "win_type": game.win_type, "special": list(game.special),
                **({"bonus": hand["bonus"]} if "bonus" in hand else {})}
        hands[winner] = hand
    for name, notation in game.hands.items():
        hand = _hand_dict(notation, name)
        if "winning_tile" in hand:
            raise SessionError(f"hand of {name}: only the winner's hand has a +winning tile")
        hand = {"seat_wind": seat_of[name], **hand}
        if name in game.dead:
            hand["dead"] = True
        hands[name] = hand

    missing = [n for n in seat_of
               if n not in hands and n not in game.scores and n not in game.dead]
    if missing:
        raise SessionError("no hand or score for " + ", ".join(missing) +
                           ": give --hand-of NAME=HAND or --score-of NAME=POINTS (or --dead NAME)")
    exchanges: list[dict] = []
    if len(hands) == 4:
        request = {"ruleset": ruleset, "prevailing_wind": prevailing_wind, "outcome": "mahjong",
                   "winner": seat_of[winner], "players": _by_seat(hands, seat_of)}
        answer = call_engine(engine, request, "table")
        exchanges.append({"request": request, "answer": answer})
        scores = {name_of[s]: int(v["final"]) for s, v in answer["scores"].items()}
        deltas = {name_of[s]: int(v) for s, v in answer["settlement"].items()}
        return Settlement(deltas=deltas, hand_scores=scores, exchanges=exchanges)

    scores: dict[str, int] = {}
    for name in seat_of:
        if name in game.dead and name not in hands:
            scores[name] = 0
        elif name in game.scores:
            scores[name] = game.scores[name]
    if winner in hands:
        request = {"ruleset": ruleset, "prevailing_wind": prevailing_wind, "hand": hands[winner]}
        answer = call_engine(engine, request, f"hand of {winner}")
        exchanges.append({"request": request, "answer": answer})
        scores[winner] = int(answer["final"])
    loser_hands = {n: h for n, h in hands.items() if n != winner}
    if loser_hands:
        scores.update(_loser_scores(engine, ruleset, prevailing_wind, seat_of, winner,
                                    hands.get(winner), loser_hands, exchanges))
    request = {"ruleset": ruleset, "prevailing_wind": prevailing_wind, "outcome": "mahjong",
               "winner": seat_of[winner],
               "given_scores": {seat_of[n]: s for n, s in scores.items()}}
    answer = call_engine(engine, request, "settlement")
    exchanges.append({"request": request, "answer": answer})
    deltas = {name_of[s]: int(v) for s, v in answer["settlement"].items()}
    return Settlement(deltas=deltas, hand_scores=scores, exchanges=exchanges)


def _loser_scores(engine: Engine, ruleset: str, prevailing_wind: str, seat_of: dict[str, str],
                  winner: str, winner_hand: dict | None, loser_hands: dict[str, dict],
                  exchanges: list[dict]) -> dict[str, int]:
    """Own scores of non-winners whose hands are known while some other hand is not.

    A non-winner's score needs the table context (who won), which only the table request
    carries; it is asked with the hands that are known. Without the winner's hand the
    engine has nothing to settle against, so that combination is refused."""
    if winner_hand is None:
        raise SessionError(f"hands of the other players can only be scored together with the "
                           f"winner's hand: give {winner}'s hand, or give the others' scores "
                           "with --score-of")
    players = _by_seat({winner: winner_hand, **loser_hands}, seat_of)
    request = {"ruleset": ruleset, "prevailing_wind": prevailing_wind, "outcome": "mahjong",
               "winner": seat_of[winner], "players": players}
    answer = call_engine(engine, request, "hands of " + ", ".join(loser_hands))
    exchanges.append({"request": request, "answer": answer})
    name_of = {seat: name for name, seat in seat_of.items()}
    return {name_of[s]: int(v["final"]) for s, v in answer["scores"].items()
            if name_of[s] in loser_hands}


def _by_seat(hands: dict[str, dict], seat_of: dict[str, str]) -> dict[str, dict]:
    """Table requests key the hands by seat (cases.json form), so the hands drop
    ``seat_wind``."""
    return {seat_of[n]: {k: v for k, v in h.items() if k != "seat_wind"}
            for n, h in hands.items()}


# -- riichi -------------------------------------------------------------------------


def settle_riichi(engine: Engine, seat_of: dict[str, str], state: MatchState,
                  game: RiichiGame) -> Settlement:
    """Deltas and the next counters/pot for one riichi hand (spec §16)."""
    name_of = {seat: name for name, seat in seat_of.items()}
    if game.outcome == "ron":
        result = {"type": "ron", "discarder": seat_of[game.discarder],
                  "winners": [_riichi_win(w, seat_of) for w in game.wins]}
    elif game.outcome == "tsumo":
        win = game.wins[0]
        result = {"type": "tsumo", "winner": seat_of[win.player], **_riichi_value(win)}
    elif game.outcome == "draw":
        result = {"type": "draw", "tenpai": [seat_of[n] for n in game.tenpai]}
    elif game.outcome == "chombo":
        result = {"type": "chombo", "offender": seat_of[game.chombo]}
    else:
        raise SessionError(f"unknown riichi outcome {game.outcome!r}")
    request = {"ruleset": "riichi-settlement", "honba": state.honba, "pot_before": state.pot,
               "riichi_declared": [seat_of[n] for n in game.riichi], "result": result}
    answer = call_engine(engine, request, f"riichi {game.outcome}")
    deltas = {name_of[s]: int(v) for s, v in answer["deltas"].items()}
    for name in seat_of:
        deltas.setdefault(name, 0)
    return Settlement(deltas=deltas, next=dict(answer["next"]),
                      exchanges=[{"request": request, "answer": answer}])


def _riichi_value(win) -> dict:
    value: dict = {"han": win.han}
    if win.fu is not None:
        value["fu"] = win.fu
    if win.yakuman:
        value["yakuman"] = True
    return value


def _riichi_win(win, seat_of: dict[str, str]) -> dict:
    return {"seat": seat_of[win.player], **_riichi_value(win)}


def riichi_game_end(engine: Engine, seat_of: dict[str, str], totals: dict[str, int],
                    pot: int) -> dict[str, int]:
    """Final scores once leftover deposit sticks went to first place (§16.4)."""
    name_of = {seat: name for name, seat in seat_of.items()}
    request = {"ruleset": "riichi-settlement",
               "game_end": {"scores": {seat_of[n]: s for n, s in totals.items()}, "pot": pot}}
    answer = call_engine(engine, request, "end of game")
    return {name_of[s]: _number(v) for s, v in answer["final_scores"].items()}


def _number(value) -> int | float:
    """Whole numbers as int; a three-way split of a stick stays a fraction (§17.25)."""
    return int(value) if float(value).is_integer() else float(value)
