"""Export a session for a spreadsheet (CSV, one row per player per game) or for other
programs (JSON, the whole session including every game record)."""

from __future__ import annotations

import csv
import io
import json

from .model import SessionView

CSV_COLUMNS = ["session", "game", "prevailing_wind", "result", "player", "seat",
               "hand_score", "delta", "total"]


def to_csv(view: SessionView) -> str:
    from .render import game_result

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for game, after in zip(view.games, view.running):
        result = game_result(game, "en")
        for player in view.players:
            score = (game.get("hand_scores") or {}).get(player)
            writer.writerow([view.id, game["number"], game.get("prevailing_wind") or "",
                             result, player, game["seats"][player],
                             "" if score is None else score, game["deltas"][player],
                             after[player]])
    return out.getvalue()


def to_dict(view: SessionView) -> dict:
    return {
        "id": view.id, "name": view.name, "ruleset": view.ruleset,
        "created_at": view.created_at, "ended_at": view.ended_at, "end": view.end,
        "players": view.players, "rounds": view.rounds, "start_points": view.start_points,
        "setup": view.setup, "state": view.state.to_dict(),
        "seats": view.seats, "prevailing_wind": view.prevailing_wind,
        "standings": [{"rank": r, "player": p, "total": t} for r, p, t in view.standings()],
        "games": view.games,
    }


def to_json(view: SessionView) -> str:
    return json.dumps(to_dict(view), indent=2, ensure_ascii=False) + "\n"
