"""`mjscore score`: score one hand written in notation, or answer one JSON request.

    mjscore score "[EEE] RRR 234m 88s 45s +6s" --seat E --wind S --self-drawn --ruleset nts-app
    mjscore score "RRR 147m258p369sWh" --seat E --wind S          # a non-winner's own score
    mjscore score --json request.json        (or - for stdin; any request of cases.json form)

Exit status: 0 valid hand / answer; 1 the engine refused the hand (the answer says why);
2 bad input: notation errors (with a caret under the token), unreadable JSON, a request
answered with reason ``syntax``, bad options (the exit status of the error's or the
answer's code, ``mjscore.errors.exit_status``). Problems are one clear message, never a
traceback."""

from __future__ import annotations

import json
from typing import List, Optional

import typer

from ..errors import FailedError, InputError, MjscoreError, exit_status
from .config import RULESETS
from .messages import error_line, reason_text, translate
from .numbers import number
from .request_file import names_a_request, read_request
from .validate import InvalidHand, kongs, tile_total
from .words import WIN_TYPE_WORDS, wind_code, wind_letter

_EXAMPLE = '"[EEE] RRR 234m 88s 45s +6s"'

_WORDS = {
    "en": {"hand": "Hand", "arrangement": "Arrangement", "base": "Base points", "base_total": "Base total",
           "doublings": "Doublings", "doublings_total": "Doublings total", "total": "Total", "limit": "Limit",
           "final": "Final score", "limit_hand": "Limit hand", "half_limit": "Half limit (one tile from)",
           "invalid": "NOT A VALID HAND", "would_be": "would be", "wait": "Waits on", "dead": "Dead hand: scores 0",
           "none": "(none)", **WIN_TYPE_WORDS["en"],
           "seat": "seat", "wind": "wind", "non_winner": "own score (not the winner)",
           "star": "* = the set the winning tile completed"},
    "nl": {"hand": "Hand", "arrangement": "Indeling", "base": "Basispunten", "base_total": "Totaal basispunten",
           "doublings": "Verdubbelingen", "doublings_total": "Totaal verdubbelingen", "total": "Totaal",
           "limit": "Limiet", "final": "Eindscore", "limit_hand": "Limietspel",
           "half_limit": "Halve limiet (één steen van)", "invalid": "GEEN GELDIGE HAND", "would_be": "zou zijn",
           "wait": "Wacht op", "dead": "Dood spel: 0 punten", "none": "(geen)", **WIN_TYPE_WORDS["nl"],
           "seat": "eigen wind",
           "wind": "ronde", "non_winner": "eigen score (niet de winnaar)",
           "star": "* = de set die de winnende steen afmaakte"},
}


def register(app: typer.Typer) -> None:
    app.command("score")(score)


def _config_value(text: str):
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        raise InputError(f"--config value {text!r}: use true/false or a whole number")


def score(
    hand: Optional[str] = typer.Argument(None, help='Hand in notation, e.g. "[EEE] RRR 234m 88s 45s +6s"; '
                                                    "with --json also a request file or - for stdin."),
    seat: Optional[str] = typer.Option(None, "--seat", help="Seat wind of the player (E/S/W/N)."),
    wind: Optional[str] = typer.Option(None, "--wind", help="Prevailing wind (E/S/W/N)."),
    self_drawn: bool = typer.Option(False, "--self-drawn", help="Won on a self-drawn tile (or kong replacement)."),
    discard: bool = typer.Option(False, "--discard", help="Won on a discard."),
    robbed_kong: bool = typer.Option(False, "--robbed-kong", help="Won by robbing a kong."),
    last_wall_tile: bool = typer.Option(False, "--last-wall-tile", help="Won on the last tile of the live wall."),
    kong_replacement: bool = typer.Option(False, "--kong-replacement", help="Won on the loose tile after a kong."),
    kong_on_kong: bool = typer.Option(False, "--kong-on-kong", help="Won on the loose tile after two kongs."),
    heavenly: bool = typer.Option(False, "--heavenly", help="East complete with the 14 dealt tiles."),
    earth: bool = typer.Option(False, "--earth", help="Won on East's very first discard."),
    bonus: Optional[List[str]] = typer.Option(None, "--bonus", help='Flowers/seasons, e.g. --bonus "f1 j3" '
                                                                   "(nts-app; same as / f1 j3 in the hand)."),
    ruleset: str = typer.Option("nts", "--ruleset", help="nts or nts-app."),
    lang: str = typer.Option("en", "--lang", help="Labels in English (en) or Dutch (nl)."),
    config: Optional[List[str]] = typer.Option(None, "--config", help="Switch KEY=VALUE (spec §19), repeatable."),
    as_json: bool = typer.Option(False, "--json", help="Print the JSON answer; with a file or - read a request."),
) -> None:
    """Score one hand (NTS / nts-app) with a full breakdown, or answer one JSON request."""
    try:
        _score(hand, seat, wind, self_drawn, discard, robbed_kong, last_wall_tile, kong_replacement, kong_on_kong,
               heavenly, earth, bonus, ruleset, lang, config, as_json)
    except MjscoreError as exc:         # one line in the chosen language, never a traceback
        typer.echo(error_line(str(exc), lang), err=True)
        raise typer.Exit(exit_status(exc))


def _score(hand, seat, wind, self_drawn, discard, robbed_kong, last_wall_tile, kong_replacement, kong_on_kong,
           heavenly, earth, bonus, ruleset, lang, config, as_json) -> None:
    from . import score_request
    if lang not in _WORDS:
        raise InputError(f"--lang {lang!r}: use en or nl")
    if hand is None:
        raise InputError(f"give a hand in notation, e.g. mjscore score {_EXAMPLE} --seat E --wind S "
                         "--self-drawn, or --json FILE")
    if as_json and names_a_request(hand):
        answer = _ask(score_request, read_request(hand))
        _echo_json(answer)
        raise typer.Exit(_exit_of(answer))

    moments = (("last_wall_tile", last_wall_tile), ("kong_replacement", kong_replacement),
               ("kong_on_kong", kong_on_kong), ("heavenly", heavenly), ("earth", earth))
    request = _hand_request(hand, seat, wind, self_drawn, discard, robbed_kong,
                            [name for name, on in moments if on],
                            bonus or [], ruleset, config or [], lang)
    answer = _ask(score_request, request)
    if as_json:
        _echo_json(answer)
    elif answer.get("valid") is False and answer.get("reason") == "syntax":
        # a request part of the wrong shape (a --config value the engine refuses): bad input, no hand
        typer.echo(error_line(str(answer.get("message")), lang), err=True)
    else:
        typer.echo(render(answer, request, lang))
    raise typer.Exit(_exit_of(answer))


def _ask(engine, request: dict) -> dict:
    """The engine's answer; an unexpected engine failure is one line, not a traceback."""
    try:
        return engine(request)
    except Exception as exc:  # noqa: BLE001 - the CLI promises no tracebacks
        raise FailedError(f"the scoring engine failed on this request: {type(exc).__name__}: {exc}") from None


def _exit_of(answer: dict) -> int:
    """0 for an answer, else the exit status of its reason: 2 for ``syntax`` (a request field
    of the wrong shape), 1 for a hand the rules refuse."""
    if answer.get("valid", True) is not False:
        return 0
    return exit_status(InvalidHand(str(answer.get("reason")), str(answer.get("message"))))


def _echo_json(answer: dict) -> None:
    """The answer as one JSON line; a lone surrogate quoted from the request (``"\\ud800"``)
    goes out as its JSON escape, since stdout cannot encode it."""
    text = json.dumps(answer, ensure_ascii=False)
    typer.echo(text.encode("utf-8", "backslashreplace").decode("utf-8"))


def _hand_request(text: str, seat, wind, self_drawn, discard, robbed_kong, special, bonus, ruleset,
                  config, lang: str = "en") -> dict:
    from .api import hand_to_json
    from .notation import NotationError, parse_hand, parse_tiles
    try:
        parsed = parse_hand(text)
        extra = [t for b in bonus for t in parse_tiles(b, "--bonus")]
    except NotationError as exc:
        typer.echo(error_line(exc.message, lang, exc.where), err=True)
        typer.echo(_indent(exc.caret()), err=True)
        raise typer.Exit(exit_status(exc))
    played = [t for t in extra if not (len(t) == 2 and t[0] in "fj" and t[1] in "1234")]
    if played:
        raise InputError(f"--bonus {played[0]}: only flowers (f1..f4) and seasons (j1..j4) are bonus tiles")
    if tile_total(parsed) == 0:
        raise InputError(f"the hand is empty: write its tiles in notation, e.g. {_EXAMPLE}")
    if ruleset not in RULESETS:
        raise InputError(f"--ruleset {ruleset!r}: use nts or nts-app (riichi settlement goes through --json)")
    for name, value in (("--seat", seat), ("--wind", wind)):
        if value is None:
            raise InputError(f"{name} is missing: give E, S, W or N")
        if wind_code(value) is None:
            raise InputError(f"{name} {value!r}: give E, S, W or N")
    chosen = [n for n, on in (("self_drawn", self_drawn), ("discard", discard), ("robbed_kong", robbed_kong)) if on]
    if len(chosen) > 1:
        raise InputError("give only one of --self-drawn, --discard, --robbed-kong")
    if parsed.winning_tile and not chosen:
        raise InputError("how was the hand won? give --self-drawn, --discard or --robbed-kong")
    if chosen and not parsed.winning_tile:
        raise InputError("the winning tile is missing: write it last in the hand as +tile (e.g. +6s)")
    _check_enough_tiles(parsed)
    data = hand_to_json(parsed)
    data["bonus"] = data.get("bonus", []) + extra
    data["seat_wind"] = wind_code(seat)
    if chosen:
        data["win_type"] = chosen[0]
    if special:
        data["special"] = special
    request = {"ruleset": ruleset, "prevailing_wind": wind_code(wind), "hand": data}
    if config:
        cfg = {}
        for item in config:
            key, sep, value = item.partition("=")
            if not sep:
                raise InputError(f"--config {item!r}: write KEY=VALUE, e.g. wind_pair_points=false")
            cfg[key.strip()] = _config_value(value.strip())
        request["config"] = cfg
    return request


def _check_enough_tiles(parsed) -> None:
    """Too few tiles is a hand not typed in full (bad input, exit 2); the engine would call a
    short non-winner a dead hand (§13), which is for the table to decide, not a typing slip."""
    want = (14 if parsed.winning_tile else 13) + kongs(parsed)
    have = tile_total(parsed)
    if have < want:
        raise InputError(f"only {have} tile(s) where {want} belong (13, 14 for the winner, plus one per kong; "
                         "bonus tiles not counted)")


def _indent(text: str) -> str:
    return "\n".join("  " + line for line in text.splitlines())


def render(answer: dict, request: dict, lang: str = "en") -> str:
    """The readable breakdown of a single-hand answer: every line with its label, then base
    total, doublings, total, limit and final score."""
    from .config import resolve
    from .notation import format_hand
    from .api import hand_from_json
    from .rules import label
    w = _WORDS[lang]
    data = request["hand"]
    how = w[data["win_type"]] if data.get("win_type") else w["non_winner"]
    out = [f"{w['hand']}: {format_hand(hand_from_json(data))}",
           f"  {request['ruleset']}, {w['seat']} {wind_letter(data['seat_wind'], lang)}, "
           f"{w['wind']} {wind_letter(request['prevailing_wind'], lang)}, {how}"
           + (f", {', '.join(label(s, lang) for s in data['special'])}" if data.get("special") else "")]
    if answer.get("valid") is False:
        out.append(f"{w['invalid']}: {reason_text(str(answer.get('reason')), str(answer.get('message')), lang)}")
        if answer.get("base_points"):
            out.append(f"  ({w['would_be']}:)")
            out += _line_block(answer, w, lang)
        return "\n".join(out)
    if answer.get("dead"):
        said = translate(str(answer["message"]), lang) or str(answer["message"]) if answer.get("message") else ""
        out.append(w["dead"] + (f" ({said})" if said else ""))
        return "\n".join(out)
    if answer.get("decomposition"):
        out.append(f"{w['arrangement']}: {' '.join(answer['decomposition'])}")
        if any("*" in part for part in answer["decomposition"]):
            out.append(f"  {w['star']}")
    limit = resolve(request["ruleset"], request.get("config"))["limit"]
    if answer.get("limit_hand"):
        out.append(f"{w['limit_hand']}: {label(answer['limit_hand'], lang)} = "
                   f"{number(answer['total_before_limit'], lang)}")
    elif answer.get("half_limit"):
        out.append(f"{w['half_limit']}: {label(answer['half_limit'], lang)} = "
                   f"{number(answer['total_before_limit'], lang)}")
    else:
        out += _line_block(answer, w, lang)
        out.append(f"{w['total']:<58}{number(answer['base_total'], lang)} x 2^{answer['doublings_total']} = "
                   f"{number(answer['total_before_limit'], lang)}")
    out.append(f"{w['limit']:<58}{number(limit, lang)}")
    out.append(f"{w['final']:<58}{number(answer['final'], lang)}")
    if answer.get("wait"):
        out.append(f"{w['wait']}: {' '.join(answer['wait'])}")
    return "\n".join(out)


def _line_block(answer: dict, w: dict, lang: str) -> list[str]:
    from .rules import label
    out = [f"{w['base']}:"]
    out += [f"  {label(code, lang):<56}{number(pts, lang):>6}" for code, pts in answer.get("base_points", [])] \
        or [f"  {w['none']}"]
    out.append(f"  {w['base_total']:<56}{number(answer.get('base_total', 0), lang):>6}")
    out.append(f"{w['doublings']}:")
    out += [f"  {label(code, lang):<56}{'x2^' + str(n):>6}" for code, n in answer.get("doublings", [])] \
        or [f"  {w['none']}"]
    out.append(f"  {w['doublings_total']:<56}{answer.get('doublings_total', 0):>6}")
    return out
