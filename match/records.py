"""Shape checks of what a session file holds: the session row, its setup and end, and
every game record, before anything reads them.

Why: records are JSON written by this program, but a file can be damaged or edited by
hand, and the match book, the tables and the exports index into records freely. A
record of the wrong shape is refused here, once, with the session, the game and the
field named, instead of failing later with a traceback. Pure functions; the caller adds
the file name (``session.MatchBook.view``)."""

from __future__ import annotations

import math

from .rotation import RULESETS, WINDS

NTS_KINDS = ("mahjong", "draw")
RIICHI_KINDS = ("ron", "tsumo", "draw", "chombo")
_STATE_INTS = ("games_played", "moves", "honba", "pot")


class BadRecord(ValueError):
    """What is wrong, as words for people (``session 3 game 2: 'deltas' is missing``)."""


def is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value) -> bool:
    return (is_int(value) or isinstance(value, float)) and math.isfinite(value)


def _need(data: dict, key: str, ok, what: str, where: str):
    """``data[key]`` when ``ok(value)``; otherwise a :class:`BadRecord` naming it."""
    if key not in data:
        raise BadRecord(f"{where}: {key!r} is missing")
    value = data[key]
    if not ok(value):
        raise BadRecord(f"{where}: {key!r} should be {what}, not {_short(value)}")
    return value


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _dict(value) -> bool:
    return isinstance(value, dict)


def _str_list(value) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _optional(ok):
    return lambda value: value is None or ok(value)


def _per_player(players: list[str], ok):
    """A dict with exactly the players as keys and ``ok`` values."""
    return lambda value: (isinstance(value, dict) and set(value) == set(players)
                          and all(ok(v) for v in value.values()))


def _some_players(players: list[str], ok):
    """A dict whose keys are players of the session and whose values are ``ok``."""
    return lambda value: (isinstance(value, dict) and set(value) <= set(players)
                          and all(ok(v) for v in value.values()))


def check_row(row: dict) -> None:
    """The session row: name, ruleset, times and four different player names."""
    where = f"session {row.get('id')}"
    _need(row, "name", lambda v: isinstance(v, str), "text", where)
    _need(row, "ruleset", lambda v: v in RULESETS, "one of " + ", ".join(RULESETS), where)
    _need(row, "created_at", lambda v: isinstance(v, str), "text", where)
    _need(row, "ended_at", _optional(lambda v: isinstance(v, str)), "a time or empty", where)
    _need(row, "players", lambda v: (isinstance(v, list) and len(v) == 4 and len(set(v)) == 4
                                     and all(isinstance(p, str) and p for p in v)),
          "four different names", where)


def check_state(state, ruleset: str, where: str) -> None:
    """A match state (``model.MatchState``) as stored: counters and the next wind."""
    if not isinstance(state, dict):
        raise BadRecord(f"{where} should be an object, not {_short(state)}")
    for key in _STATE_INTS:
        if key in state and not (is_int(state[key]) and state[key] >= 0):
            raise BadRecord(f"{where}: {key!r} should be a whole number >= 0, "
                            f"not {_short(state[key])}")
    wind_ok = (lambda v: v in WINDS) if ruleset == "nts-app" else _optional(lambda v: v in WINDS)
    if ruleset == "nts-app" or state.get("next_wind") is not None:
        _need(state, "next_wind", wind_ok, "E, S, W or N", where)
    if state.get("next_wind_pips") is not None and not is_int(state["next_wind_pips"]):
        raise BadRecord(f"{where}: 'next_wind_pips' should be a whole number")


def check_setup(setup, ruleset: str, players: list[str], where: str) -> None:
    """What ``MatchBook.new_session`` stored: rounds, start, first East, dice, first state."""
    if not isinstance(setup, dict):
        raise BadRecord(f"{where}: the setup should be an object, not {_short(setup)}")
    _need(setup, "rounds", lambda v: is_int(v) and v >= 0, "a whole number >= 0", where)
    _need(setup, "start_points", is_number, "a number", where)
    _need(setup, "first_east", lambda v: is_int(v) and 0 <= v < 4, "a seat 0 to 3", where)
    _need(setup, "seat_throws", _optional(lambda v: isinstance(v, list) and all(
        _some_players(players, is_int)(r) for r in v)), "the dice throws per player", where)
    check_state(_need(setup, "initial_state", _dict, "an object", where), ruleset,
                f"{where}: initial_state")


def check_end(end, players: list[str], where: str) -> None:
    """How a finished session ended (``None`` while it is open)."""
    if end is None:
        return
    if not isinstance(end, dict):
        raise BadRecord(f"{where}: the end should be an object, not {_short(end)}")
    if "reason" in end and not isinstance(end["reason"], str):
        raise BadRecord(f"{where}: the end reason should be text")
    if end.get("final_scores") is not None:
        _need(end, "final_scores", _per_player(players, is_number), "a number per player", where)
    if end.get("pot_awarded") is not None:
        _need(end, "pot_awarded", is_int, "a whole number", where)


def check_game(game, number: int, ruleset: str, players: list[str], where: str) -> None:
    """One stored game: the fields the match book, tables and exports read."""
    where = f"{where} game {number}"
    if not isinstance(game, dict):
        raise BadRecord(f"{where} should be an object, not {_short(game)}")
    _need(game, "number", lambda v: v == number and is_int(v), f"{number}", where)
    _need(game, "seats", _per_player(players, lambda v: v in WINDS), "a seat wind per player",
          where)
    _need(game, "deltas", _per_player(players, is_number), "a number per player", where)
    check_state(_need(game, "state_after", _dict, "an object", where), ruleset,
                f"{where}: state_after")
    for key in ("special", "riichi", "dead", "tenpai"):
        if key in game:
            _need(game, key, _str_list, "a list of names", where)
    if game.get("discarder") is not None:
        _need(game, "discarder", lambda v: isinstance(v, str), "a name", where)
    _need(game, "exchanges", lambda v: isinstance(v, list) and all(
        isinstance(e, dict) and _optional(_dict)(e.get("request"))
        and _optional(_dict)(e.get("answer")) for e in v), "a list of engine calls", where)
    if ruleset == "riichi":
        _check_riichi_game(game, players, where)
    else:
        _check_nts_game(game, players, where)


def _check_nts_game(game: dict, players: list[str], where: str) -> None:
    kind = _need(game, "kind", lambda v: v in NTS_KINDS, " or ".join(NTS_KINDS), where)
    _need(game, "prevailing_wind", lambda v: v in WINDS, "E, S, W or N", where)
    scores_ok = _some_players(players, is_int)
    if kind == "mahjong":
        winners = _need(game, "winners", lambda v: (_str_list(v) and len(v) == 1
                                                    and v[0] in players), "one player", where)
        _need(game, "hand_scores", lambda v: scores_ok(v) and winners[0] in v,
              "a score per player", where)
        _need(game, "win_type", _optional(lambda v: isinstance(v, str)), "text", where)
    elif "hand_scores" in game:
        _need(game, "hand_scores", _optional(scores_ok), "a score per player", where)
    for key in ("hands", "given_scores"):
        if key in game:
            _need(game, key, _some_players(players, lambda v: isinstance(v, (str, int))),
                  "an entry per player", where)
    for exchange in game["exchanges"]:
        _check_breakdowns(exchange, game["seats"], where)


def _check_breakdowns(exchange: dict, seats: dict, where: str) -> None:
    """The engine's scoring lines that ``render.game_detail`` shows per player."""
    answer, request = exchange.get("answer") or {}, exchange.get("request") or {}
    entries = []
    scores = answer.get("scores")
    if scores is not None:
        if not (isinstance(scores, dict) and set(scores) <= set(seats.values())):
            raise BadRecord(f"{where}: the engine's scores should be given per seat wind")
        entries += list(scores.values())
    if "hand" in request and "final" in answer:
        hand = request["hand"]
        if not (isinstance(hand, dict) and hand.get("seat_wind") in seats.values()):
            raise BadRecord(f"{where}: the engine request's hand has no seat wind")
        entries.append(answer)
    for entry in entries:
        if not isinstance(entry, dict):
            raise BadRecord(f"{where}: a player's scoring lines should be an object")
        for key, ok in (("base_points", is_number), ("doublings", is_int)):
            lines = entry.get(key) or []
            if not (isinstance(lines, list) and all(
                    isinstance(line, list) and len(line) == 2 and isinstance(line[0], str)
                    and ok(line[1]) for line in lines)):
                raise BadRecord(f"{where}: {key!r} should be a list of [code, number]")
        if entry.get("limit_hand") is not None and not isinstance(entry["limit_hand"], str):
            raise BadRecord(f"{where}: 'limit_hand' should be a code")


def _check_riichi_game(game: dict, players: list[str], where: str) -> None:
    kind = _need(game, "kind", lambda v: v in RIICHI_KINDS, " or ".join(RIICHI_KINDS), where)
    _need(game, "round", lambda v: (isinstance(v, list) and len(v) == 2 and v[0] in WINDS
                                    and is_int(v[1])), "[wind, dealer number]", where)
    for key in ("honba_before", "pot_before"):
        _need(game, key, lambda v: is_int(v) and v >= 0, "a whole number >= 0", where)
    if kind in ("ron", "tsumo"):
        _need(game, "wins", lambda v: isinstance(v, list) and v and all(
            _riichi_win_ok(w, players) for w in v), "a list of winners with han and fu", where)
    if kind == "ron":
        _need(game, "discarder", lambda v: isinstance(v, str), "a name", where)
    if kind == "draw":
        _need(game, "tenpai", _str_list, "a list of names", where)
    if kind == "chombo":
        _need(game, "chombo", lambda v: isinstance(v, str), "a name", where)


def _riichi_win_ok(win, players: list[str]) -> bool:
    return (isinstance(win, dict) and win.get("player") in players
            and (win.get("yakuman") or is_int(win.get("han")))
            and _optional(is_int)(win.get("fu"))
            and _optional(lambda v: isinstance(v, str))(win.get("hand"))
            and _str_list(win.get("yaku", [])))


def check_session(row: dict, games: list) -> None:
    """A whole session as stored: row, setup, end and every game, in order."""
    check_row(row)
    where = f"session {row['id']}"
    ruleset, players = row["ruleset"], row["players"]
    check_setup(row["setup"], ruleset, players, where)
    check_end(row["end"], players, where)
    for number, game in enumerate(games, 1):
        check_game(game, number, ruleset, players, where)
