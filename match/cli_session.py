"""`mjscore session ...`: keep score over a whole match from the command line.

Commands: new, hand, show, undo, end, list, export. Every command takes ``--db PATH``
(default: the user's data directory) and reports problems as one clear line on stderr,
never a traceback, with the exit status of the error's code (``mjscore.errors``: 1 for a
session problem, 3 for a damaged or foreign database file, which is left untouched).
"""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..errors import cli_command
from ..scoring.words import wind_code
from .model import NtsGame, RiichiGame, RiichiWin, SessionError

session_app = typer.Typer(
    help="Keep score over a whole match: seats, rotation, every game, standings.",
    no_args_is_help=True,
)

DbOption = typer.Option(None, "--db", help="Session database file (default: user data dir).")
SessionOption = typer.Option(None, "--session", "-s",
                             help="Session id or name (default: the latest open session).")
LangOption = typer.Option("en", "--lang", help="Labels in English (en) or Dutch (nl).")


def register(app: typer.Typer) -> None:
    app.add_typer(session_app, name="session")


def _book(db: Optional[Path], mode: str):
    """The match book of ``--db``: ``read`` for show/list/export, ``write`` for commands
    that change a session, ``create`` (may make the file) for ``new`` only."""
    from .session import open_book
    from .store import default_db_path

    return open_book(db or default_db_path(), mode)


def _names(values: Optional[List[str]]) -> list[str]:
    """`--riichi Anna,Cor` and `--riichi Anna --riichi Cor` both give [Anna, Cor]."""
    out: list[str] = []
    for value in values or []:
        out += [v.strip() for v in value.split(",") if v.strip()]
    return out


def _pairs(values: Optional[List[str]], option: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for value in values or []:
        name, eq, text = value.partition("=")
        if not eq or not name.strip():
            raise SessionError(f"{option} takes NAME=VALUE, not {value!r}")
        if name.strip() in out:
            raise SessionError(f"{name.strip()} is named twice in {option}")
        out[name.strip()] = text.strip()
    return out


def _lang(lang: str) -> str:
    if lang not in ("en", "nl"):
        raise SessionError(f"--lang takes en or nl, not {lang!r}")
    return lang


@session_app.command("new")
@cli_command
def new(
    players: str = typer.Option(..., "--players", help="Four names in seating order (counter-clockwise), e.g. Anna,Bram,Cor,Dirk; the first is East unless --seats-by-dice."),
    ruleset: str = typer.Option("nts", "--ruleset", help="nts, nts-app or riichi."),
    name: Optional[str] = typer.Option(None, "--name", help="A name for the session."),
    seats_by_dice: bool = typer.Option(False, "--seats-by-dice", help="Throw two dice each: the highest becomes East (ties re-thrown)."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed for the program's dice (reproducible throws)."),
    rounds: Optional[int] = typer.Option(None, "--rounds", help="Rounds of four East turns: nts 4 (16 games), riichi 2 (hanchan), nts-app open-ended (0)."),
    start: Optional[int] = typer.Option(None, "--start", help="Starting score per player (nts/nts-app 0, riichi 30000)."),
    db: Optional[Path] = DbOption,
    lang: str = LangOption,
):
    """Start a session: four players, a ruleset, seats (optionally by dice)."""
    from .render import show
    from .session import check_new_session

    check_new_session(players.split(","), ruleset, rounds, name)   # before the file is made
    book = _book(db, "create")
    view = book.new_session(players.split(","), ruleset, name=name,
                            seats_by_dice=seats_by_dice, seed=seed, rounds=rounds,
                            start_points=start)
    typer.echo(show(view, _lang(lang)))


@session_app.command("hand")
@cli_command
def hand(
    winner: Optional[List[str]] = typer.Option(None, "--winner", help="Who won (riichi: repeat for several winners, each followed by its --han/--fu)."),
    hand_text: Optional[List[str]] = typer.Option(None, "--hand", help="The winner's hand in notation, e.g. \"[EEE] RRR 234m 88s 45s +6s\" (riichi: one per winner, instead of --han/--fu)."),
    photo: Optional[Path] = typer.Option(None, "--photo", help="A photo of the winner's hand (read by handscan)."),
    winning_tile: Optional[str] = typer.Option(None, "--winning-tile", help="The winning tile, if not written as +tile in the hand."),
    discard: bool = typer.Option(False, "--discard", help="Won on a discard (the default in nts)."),
    self_drawn: bool = typer.Option(False, "--self-drawn", help="Won on a self-drawn tile (wall or kong replacement)."),
    robbed_kong: bool = typer.Option(False, "--robbed-kong", help="Won by robbing a kong."),
    discarder: Optional[str] = typer.Option(None, "--from", help="Who discarded the winning tile (nts: for the record)."),
    special: Optional[List[str]] = typer.Option(None, "--special", help="last_wall_tile, kong_replacement, kong_on_kong, heavenly, earth."),
    hand_of: Optional[List[str]] = typer.Option(None, "--hand-of", help="Another player's hand: NAME=\"notation\"."),
    score_of: Optional[List[str]] = typer.Option(None, "--score-of", help="A player's own score as counted at the table: NAME=POINTS."),
    dead: Optional[List[str]] = typer.Option(None, "--dead", help="A player with a dead hand (scores 0, still pays)."),
    draw: bool = typer.Option(False, "--draw", help="Exhausted wall: a draw (remise)."),
    wind: Optional[str] = typer.Option(None, "--wind", help="nts-app: the prevailing wind thrown at the table (default: the program's throw)."),
    han: Optional[List[str]] = typer.Option(None, "--han", help="riichi: han of each winner, or 'yakuman'."),
    fu: Optional[List[int]] = typer.Option(None, "--fu", help="riichi: fu of each winner (needed up to 4 han)."),
    ron_from: Optional[str] = typer.Option(None, "--ron-from", help="riichi: ron, on this player's discard."),
    tsumo: bool = typer.Option(False, "--tsumo", help="riichi: the winner drew the tile himself."),
    riichi: Optional[List[str]] = typer.Option(None, "--riichi", help="riichi: players who declared riichi in this hand (Anna,Cor)."),
    tenpai: Optional[List[str]] = typer.Option(None, "--tenpai", help="riichi draw: players who were tenpai."),
    chombo: Optional[str] = typer.Option(None, "--chombo", help="riichi: the player who made a chombo (hand replayed)."),
    dora: Optional[List[str]] = typer.Option(None, "--dora", help="riichi with --hand: dora indicator tiles (3m,E)."),
    ura_dora: Optional[List[str]] = typer.Option(None, "--ura-dora", help="riichi with --hand: ura dora indicator tiles."),
    session: Optional[str] = SessionOption,
    db: Optional[Path] = DbOption,
    lang: str = LangOption,
):
    """Add one game: the winner's hand or score, the others' hands or scores, or a draw."""
    from .render import game_summary

    lang = _lang(lang)
    book = _book(db, "write")
    session_id = book.resolve(session)
    view = book.view(session_id)
    winners = _names(winner)
    if view.ruleset == "riichi":
        nts_only = {"--photo": photo, "--winning-tile": winning_tile,
                    "--discard": discard, "--self-drawn": self_drawn,
                    "--robbed-kong": robbed_kong, "--from": discarder,
                    "--hand-of": hand_of, "--score-of": score_of, "--dead": dead,
                    "--wind": wind}
        _refuse(nts_only, "riichi")
        game = _riichi_game(winners, han, fu, ron_from, tsumo, draw, chombo,
                            _names(riichi), _names(tenpai), list(hand_text or []))
        game = RiichiGame(**{**game.__dict__, "dora": tuple(_names(dora)),
                             "ura_dora": tuple(_names(ura_dora)),
                             "special": tuple(_names(special))})
    else:
        riichi_only = {"--han": han, "--fu": fu, "--ron-from": ron_from, "--tsumo": tsumo,
                       "--riichi": riichi, "--tenpai": tenpai, "--chombo": chombo,
                       "--dora": dora, "--ura-dora": ura_dora}
        _refuse(riichi_only, view.ruleset)
        if wind is not None and view.ruleset == "nts":
            raise SessionError("--wind is for nts-app sessions; in nts the prevailing wind "
                               "follows from the game number")
        if hand_text and len(hand_text) > 1:
            raise SessionError("--hand is the winner's hand: give it once "
                               "(the others' hands with --hand-of NAME=...)")
        game = _nts_game(winners, hand_text[0] if hand_text else None, photo, winning_tile, discard, self_drawn,
                         robbed_kong, discarder, special, hand_of, score_of, _names(dead),
                         draw, wind)
    record = book.add_game(session_id, game)
    view = book.view(session_id)
    typer.echo(game_summary(view, record, lang))
    if view.finished:
        from .render import labels, standings_table

        typer.echo(f"\n{labels(lang)['finished']}\n{standings_table(view, lang)}")


def _refuse(options: dict, ruleset: str) -> None:
    given = [flag for flag, value in options.items() if value not in (None, False, [], ())]
    if given:
        raise SessionError(", ".join(given) + f" cannot be used in a {ruleset} session")


def _nts_game(winners, hand_text, photo, winning_tile, discard, self_drawn, robbed_kong,
              discarder, special, hand_of, score_of, dead, draw, wind) -> NtsGame:
    if sum([discard, self_drawn, robbed_kong]) > 1:
        raise SessionError("choose one of --discard, --self-drawn, --robbed-kong")
    if draw:
        if winners or hand_text or photo:
            raise SessionError("a draw (--draw) has no winner")
        if hand_of or score_of or dead or discarder:
            raise SessionError("a draw (remise) takes no hands, scores or dead hands: "
                               "nobody scores and nobody pays")
        return NtsGame(prevailing_wind=_wind(wind))
    if len(winners) != 1:
        raise SessionError("name the winner with --winner NAME (or report a --draw)"
                           if not winners else "NTS has one winner per game")
    if hand_text and photo:
        raise SessionError("give the winner's hand with --hand or --photo, not both")
    if photo is not None:
        hand_text = _hand_from_photo(photo, winning_tile)
    scores = {}
    for name, text in _pairs(score_of, "--score-of").items():
        try:
            scores[name] = int(text)
        except ValueError:
            raise SessionError(f"--score-of {name} needs a whole number, not {text!r}") from None
    win_type = "self_drawn" if self_drawn else "robbed_kong" if robbed_kong else "discard"
    return NtsGame(winner=winners[0], winner_hand=hand_text, winning_tile=winning_tile,
                   win_type=win_type, discarder=discarder, special=tuple(_names(special)),
                   hands=_pairs(hand_of, "--hand-of"), scores=scores, dead=tuple(dead),
                   prevailing_wind=_wind(wind), photo=str(photo) if photo else None)


def _wind(wind: Optional[str]) -> Optional[str]:
    if wind is None:
        return None
    code = wind_code(wind)
    if code is None:
        raise SessionError(f"--wind takes E, S, W or N, not {wind!r}")
    return code


def _riichi_game(winners, han, fu, ron_from, tsumo, draw, chombo, riichi, tenpai,
                 hands) -> RiichiGame:
    chosen = [flag for flag, on in (("--ron-from", ron_from is not None), ("--tsumo", tsumo),
                                    ("--draw", draw), ("--chombo", chombo is not None)) if on]
    if len(chosen) != 1:
        raise SessionError("say how the hand ended with exactly one of --ron-from NAME, --tsumo, "
                           "--draw, --chombo NAME" + (f" (got {', '.join(chosen)})" if chosen
                                                       else ""))
    han = list(han or [])
    fu = list(fu or [])
    if draw or chombo:
        if winners or han or fu or hands:
            raise SessionError("a draw or chombo has no winners, han or fu")
        if tenpai and not draw:
            raise SessionError("--tenpai is only for a draw")
        return RiichiGame(outcome="draw" if draw else "chombo", riichi=tuple(riichi),
                          tenpai=tuple(tenpai), chombo=chombo)
    if not winners:
        raise SessionError("name the winner with --winner NAME --han N --fu N")
    if hands:
        if han or fu:
            raise SessionError("give every winner either tiles (--hand) or --han/--fu, "
                               "not a mix")
        if len(hands) != len(winners):
            raise SessionError(f"give one --hand per winner ({len(winners)} winners, "
                               f"{len(hands)} --hand)")
        if tenpai:
            raise SessionError("--tenpai is only for a draw")
        return RiichiGame(outcome="ron" if ron_from is not None else "tsumo",
                          wins=tuple(RiichiWin(player=p, hand=h) for p, h in zip(winners, hands)),
                          discarder=ron_from, riichi=tuple(riichi))
    if len(han) != len(winners):
        raise SessionError(f"give one --han per winner ({len(winners)} winners, {len(han)} --han)")
    wins = []
    fu_iter = iter(fu)
    for player, han_text in zip(winners, han):
        if han_text.strip().lower() in ("yakuman", "y"):
            wins.append(RiichiWin(player=player, han=13, yakuman=True))
            continue
        try:
            value = int(han_text)
        except ValueError:
            raise SessionError(f"--han takes a number or 'yakuman', not {han_text!r}") from None
        needs_fu = value <= 4
        wins.append(RiichiWin(player=player, han=value,
                              fu=next(fu_iter, None) if needs_fu else None))
    if next(fu_iter, None) is not None:
        raise SessionError("more --fu than winners with 1 to 4 han (give --fu only for those)")
    if tenpai:
        raise SessionError("--tenpai is only for a draw")
    return RiichiGame(outcome="ron" if ron_from is not None else "tsumo", wins=tuple(wins),
                      discarder=ron_from, riichi=tuple(riichi))


def _hand_from_photo(photo: Path, winning_tile: Optional[str]) -> str:
    """The winner's hand read from a photo by the scan pipeline (``handscan.pipeline``), as
    notation for the game record.

    The photo cannot show which tile won, so ``--winning-tile`` is passed on to the pipeline
    (it takes one copy out of the concealed tiles). What was read is echoed, with any
    doubtful tiles, so the table can check it (``session undo`` if it is wrong)."""
    from ..handscan.context import ContextError, make_context
    from ..handscan.pipeline import scan_photo

    if not photo.is_file():
        raise SessionError(f"photo {photo} not found")
    try:
        context = make_context(winning_tile=winning_tile)
    except ContextError as exc:
        raise SessionError(str(exc)) from None
    result = scan_photo(photo, context)
    if result.error or not result.notation:
        raise SessionError(f"could not read a hand from {photo}: {result.error or 'no tiles found'}")
    typer.echo(f"read from {photo.name}: {result.notation}", err=True)
    if result.low_confidence:
        typer.echo("doubtful tiles (numbered left to right): "
                   + ", ".join(map(str, result.low_confidence))
                   + " - check the hand; `session undo` and --hand fix a wrong read", err=True)
    for warning in result.warnings:
        typer.echo(f"note: {warning}", err=True)
    return result.notation


@session_app.command("show")
@cli_command
def show_cmd(session: Optional[str] = SessionOption, db: Optional[Path] = DbOption,
             lang: str = LangOption,
             game: Optional[int] = typer.Option(None, "--game", "-g", help="Show this game in full: hands, scoring lines, settlement.")):
    """Standings, seats and prevailing wind, and every game with its settlement."""
    from .render import game_detail, show

    book = _book(db, "read")
    session_id = book.resolve(session) if session else _latest_any(book)
    view = book.view(session_id)
    typer.echo(game_detail(view, game, _lang(lang)) if game is not None
               else show(view, _lang(lang)))


@session_app.command("undo")
@cli_command
def undo(session: Optional[str] = SessionOption, db: Optional[Path] = DbOption):
    """Remove the last game (or re-open a session that was ended with `session end`)."""
    book = _book(db, "write")
    session_id = book.resolve(session) if session else _latest_any(book)
    what = book.undo(session_id)
    typer.echo(f"session {session_id}: " + ("re-opened" if what == "reopened"
                                            else f"{what} removed"))


def _latest_any(book) -> int:
    """Undo without --session: the latest open session, or else the latest session."""
    open_ids = book.store.session_ids(open_only=True)
    all_ids = book.store.session_ids()
    if not all_ids:
        raise SessionError("there are no sessions yet")
    return (open_ids or all_ids)[-1]


@session_app.command("end")
@cli_command
def end(session: Optional[str] = SessionOption, db: Optional[Path] = DbOption,
        lang: str = LangOption):
    """Stop the match now (agreed time or rounds) and show the final standings."""
    from .render import show

    book = _book(db, "write")
    view = book.end(book.resolve(session))
    typer.echo(show(view, _lang(lang)))


@session_app.command("list")
@cli_command
def list_cmd(db: Optional[Path] = DbOption, lang: str = LangOption):
    """All sessions, open and finished."""
    from .render import labels, sessions_table

    lang = _lang(lang)
    book = _book(db, "read")
    views = book.list_sessions()
    typer.echo(sessions_table(views, lang) if views else labels(lang)["no_sessions"])


@session_app.command("export")
@cli_command
def export(
    as_csv: bool = typer.Option(False, "--csv", help="One row per player per game."),
    as_json: bool = typer.Option(False, "--json", help="The whole session with every game."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Write to this file instead of the screen."),
    session: Optional[str] = SessionOption,
    db: Optional[Path] = DbOption,
):
    """Export a session as CSV or JSON."""
    from .export import to_csv, to_json

    if as_csv == as_json:
        raise SessionError("choose one of --csv or --json")
    book = _book(db, "read")
    view = book.view(book.resolve(session) if session else _latest_any(book))
    text = to_csv(view) if as_csv else to_json(view)
    if out is None:
        typer.echo(text, nl=False)
    else:
        try:
            out.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise SessionError(f"cannot write {out}: {exc}") from exc
        typer.echo(f"wrote {out}")
