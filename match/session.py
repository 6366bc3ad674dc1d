"""Keeping score over a whole match: sessions, games, rotation, undo, end.

``MatchBook`` joins the storage (``Store``), the rotation rules (``rotation``), the dice
(``dice``) and the settlement (``settle`` + the scoring engine). Everything it needs to
know about a match is derived from the session's setup and its list of game records, so
undo is simply "delete the last record" and nothing can drift out of step.

Starting scores (DECISION, documented in docs/session.md): ``nts`` and ``nts-app`` start
at 0 — the NTS settlement is zero-sum and the score sheet of seed 1 ("puntenteller")
simply adds up each game's settlement; ``riichi`` starts at 30,000 per player (EMA
rules, which the NMB follows; seed 3). ``--start`` overrides either.
"""

from __future__ import annotations

import random

from . import dice, rotation
from .model import (EngineMissing, MatchState, NoSuchSession, NtsGame, RiichiGame, SessionError,
                                 SessionView, fold_name)
from .checks import check_nts, check_riichi
from .settle import Engine, riichi_game_end, settle_nts, settle_riichi
from .records import BadRecord, check_session
from .store import DamagedStore, Store, damaged_message, now_iso

DEFAULT_START = {"nts": 0, "nts-app": 0, "riichi": 30000}


def default_engine() -> Engine:
    """``scoring.score_request``, imported when first needed."""
    try:
        from ..scoring import score_request
    except ImportError as exc:
        raise EngineMissing("the scoring engine (scoring.score_request) is not installed; "
                            "games cannot be settled") from exc
    return score_request


def open_book(path, mode: str = "read", engine: Engine | None = None) -> "MatchBook":
    """The match book of a file, opened in ``mode`` (``store.Store``) with every session in
    it checked first: a command reports a damaged file before it reads or writes anything."""
    store = Store(path, mode)
    book = MatchBook(store, engine)
    try:
        book.list_sessions()
    except BaseException:
        store.close()
        raise
    return book


def _text(value: str, what: str) -> str:
    """Text that can be stored: a name typed as bytes that are not UTF-8 is refused."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise SessionError(f"{what} {value!r} is not valid text (not UTF-8)") from None
    return value


def check_new_session(players: list[str], ruleset: str, rounds: int | None,
                      name: str | None = None) -> tuple[list[str], int]:
    """Players and rounds of a new session, checked before any file is opened or made."""
    players = [_text(p.strip(), "player name") for p in players]
    if len(players) != 4 or any(not p for p in players):
        raise SessionError("a session needs exactly four player names, e.g. "
                           "--players Anna,Bram,Cor,Dirk")
    if len({fold_name(p) for p in players}) != 4:
        raise SessionError("player names must differ: " + ", ".join(players))
    if ruleset not in rotation.RULESETS:
        raise SessionError(f"unknown ruleset {ruleset!r}; choose nts, nts-app or riichi")
    rounds = rotation.DEFAULT_ROUNDS[ruleset] if rounds is None else rounds
    if ruleset in ("nts", "riichi") and not 1 <= rounds <= 4:
        raise SessionError(f"{ruleset} plays 1 to 4 rounds (prevailing winds), not {rounds}")
    if rounds < 0:
        raise SessionError("the number of rounds cannot be negative")
    if name is not None:
        _text(name, "session name")
    return players, rounds


class MatchBook:
    """The session service used by the CLI (and usable by a web front end)."""

    def __init__(self, store: Store, engine: Engine | None = None,
                 rng: random.Random | None = None):
        self.store = store
        self._engine = engine
        self._rng = rng

    def engine(self, request: dict) -> dict:
        """Ask the scoring engine, importing it on first use (input checks come first)."""
        if self._engine is None:
            self._engine = default_engine()
        return self._engine(request)

    def _dice(self, setup: dict, purpose: str) -> random.Random:
        if self._rng is not None:
            return self._rng
        seed = setup.get("seed")
        return random.Random(f"{seed}/{purpose}") if seed is not None else random.Random()

    # -- sessions -------------------------------------------------------------------

    def new_session(self, players: list[str], ruleset: str, name: str | None = None,
                    seats_by_dice: bool = False, seed: int | None = None,
                    rounds: int | None = None, start_points: int | None = None) -> SessionView:
        players, rounds = check_new_session(players, ruleset, rounds, name)
        setup: dict = {"rounds": rounds,
                       "start_points": DEFAULT_START[ruleset] if start_points is None
                       else start_points,
                       "seed": seed, "first_east": 0, "seat_throws": None}
        if seats_by_dice:
            throws = dice.throw_for_east(players, self._dice(setup, "seats"))
            setup["first_east"] = throws.east_position
            setup["seat_throws"] = throws.rounds
        state = MatchState()
        if ruleset == "nts-app":
            wind, pips = dice.throw_prevailing_wind(self._dice(setup, "wind/1"))
            state = MatchState(next_wind=wind, next_wind_pips=pips)
        setup["initial_state"] = state.to_dict()
        name = (name or "").strip() or f"{ruleset} {now_iso()[:10]}"
        session_id = self.store.create_session(name, ruleset, players, setup)
        return self.view(session_id)

    def resolve(self, ref: str | int | None) -> int:
        """Session id from ``--session`` (id or name); default the latest open session."""
        if ref is None or str(ref).strip() == "":
            open_ids = self.store.session_ids(open_only=True)
            if not open_ids:
                hint = ""
                all_ids = self.store.session_ids()
                if all_ids:
                    last = self.store.session(all_ids[-1])
                    hint = f" (the latest, {last['id']} \"{last['name']}\", is finished)"
                raise SessionError(f"there is no open session{hint}; start one with "
                                   "`mjscore session new --players A,B,C,D --ruleset nts`")
            return open_ids[-1]
        text = _text(str(ref).strip(), "session")
        if text.isascii() and text.isdigit():
            if self.store.session(int(text)) is None:
                raise NoSuchSession(f"there is no session {text}; see `mjscore session list`")
            return int(text)
        ids = self.store.sessions_named(text)
        if not ids:
            raise NoSuchSession(f"there is no session named {text!r}; see `mjscore session list`")
        open_ids = [i for i in ids if i in set(self.store.session_ids(open_only=True))]
        return (open_ids or ids)[-1]

    def view(self, session_id: int) -> SessionView:
        row = self.store.session(session_id)
        if row is None:
            raise NoSuchSession(f"there is no session {session_id}")
        games = self.store.games(session_id)
        try:
            check_session(row, games)
        except BadRecord as exc:
            raise DamagedStore(damaged_message(self.store.path, str(exc))) from None
        setup = row["setup"]
        state = MatchState.from_dict(games[-1]["state_after"] if games else setup["initial_state"])
        totals: dict[str, int | float] = {p: setup["start_points"] for p in row["players"]}
        running = []
        for game in games:
            for player, delta in game["deltas"].items():
                totals[player] += delta
            running.append(dict(totals))
        end = row["end"]
        if end and end.get("final_scores"):
            totals = dict(end["final_scores"])
        seats = self._seats(row["players"], setup, state)
        return SessionView(
            id=row["id"], name=row["name"], ruleset=row["ruleset"], players=row["players"],
            created_at=row["created_at"], rounds=setup["rounds"],
            start_points=setup["start_points"], setup=setup, state=state, seats=seats,
            prevailing_wind=self._prevailing(row["ruleset"], state), games=games,
            totals=totals, ended_at=row["ended_at"], end=end, running=running)

    def list_sessions(self) -> list[SessionView]:
        return [self.view(i) for i in self.store.session_ids()]

    @staticmethod
    def _seats(players: list[str], setup: dict, state: MatchState) -> dict[str, str]:
        winds = rotation.seat_winds(len(players), setup["first_east"], state.moves)
        return dict(zip(players, winds))

    @staticmethod
    def _prevailing(ruleset: str, state: MatchState) -> str | None:
        if ruleset == "nts":
            return rotation.nts_prevailing_wind(state.games_played)
        if ruleset == "nts-app":
            return state.next_wind
        return rotation.riichi_round(state.moves)[0]

    # -- games ----------------------------------------------------------------------

    def add_game(self, session_id: int, game: NtsGame | RiichiGame) -> dict:
        """Settle one game and store it (one transaction). Returns the stored record."""
        view = self.view(session_id)
        if view.finished:
            raise SessionError(
                f"session {view.id} ({view.name}) is finished after {len(view.games)} games; "
                "no more games can be added (`session undo` re-opens it, "
                "`session new` starts another)")
        state = view.state
        seats = view.seats
        number = len(view.games) + 1
        record: dict = {"number": number, "seats": seats, "honba_before": state.honba,
                        "pot_before": state.pot}
        if view.ruleset == "riichi":
            if not isinstance(game, RiichiGame):
                raise SessionError("this is a riichi session: report han/fu with --han/--fu, "
                                   "--tsumo or --ron-from, or --draw")
            game = check_riichi(view, game)
            prevailing = view.prevailing_wind
            result = settle_riichi(self.engine, seats, state, game)
            record.update(self._riichi_record(game))
            nxt = result.next
            moves = rotation.next_moves("riichi", state.moves, bool(nxt["dealer_stays"]))
            new_state = MatchState(games_played=number, moves=moves, honba=int(nxt["honba"]),
                                   pot=int(nxt["pot"]))
        else:
            if not isinstance(game, NtsGame):
                raise SessionError(f"this is an {view.ruleset} session: han/fu, tsumo/ron and "
                                   "riichi options belong to riichi sessions")
            game = check_nts(view, game)
            prevailing = self._nts_prevailing(view, game)
            result = settle_nts(self.engine, view.ruleset, prevailing, seats, game)
            record.update(self._nts_record(game))
            record["hand_scores"] = result.hand_scores
            if view.ruleset == "nts-app":
                record["wind_pips"] = (state.next_wind_pips
                                       if game.prevailing_wind is None else None)
            new_state = MatchState(games_played=number,
                                   moves=rotation.next_moves(view.ruleset, state.moves))
            if view.ruleset == "nts-app":
                wind, pips = dice.throw_prevailing_wind(self._dice(view.setup,
                                                                   f"wind/{number + 1}"))
                new_state = MatchState(games_played=number, moves=new_state.moves,
                                       next_wind=wind, next_wind_pips=pips)
        record.update({"prevailing_wind": prevailing, "deltas": result.deltas,
                       "exchanges": result.exchanges, "state_after": new_state.to_dict()})
        if view.ruleset == "riichi":
            record["round"] = list(view.riichi_label())
        end = None
        if rotation.match_length_reached(view.ruleset, view.rounds, number, new_state.moves):
            end = {"reason": "complete"}
            if view.ruleset == "riichi":
                end.update(self._riichi_final(view, result.deltas, new_state))
        self.store.append_game(view.id, number, record, end)
        return record

    def _nts_prevailing(self, view: SessionView, game: NtsGame) -> str:
        if view.ruleset == "nts":
            if game.prevailing_wind and game.prevailing_wind != view.prevailing_wind:
                raise SessionError(f"in nts the prevailing wind of game {len(view.games) + 1} is "
                                   f"{view.prevailing_wind} (four games per wind); --wind is for "
                                   "nts-app sessions")
            return view.prevailing_wind
        wind = game.prevailing_wind or view.state.next_wind
        if wind not in rotation.WINDS:
            raise SessionError(f"prevailing wind must be one of E, S, W, N, not {wind!r}")
        return wind

    @staticmethod
    def _nts_record(game: NtsGame) -> dict:
        kind = "draw" if game.winner is None else "mahjong"
        hands = dict(game.hands)
        if game.winner_hand is not None:
            hands = {game.winner: game.winner_hand, **hands}
        return {"kind": kind, "winners": [game.winner] if game.winner else [],
                "win_type": game.win_type if game.winner else None,
                "discarder": game.discarder, "special": list(game.special),
                "winning_tile": game.winning_tile, "hands": hands,
                "given_scores": dict(game.scores), "dead": list(game.dead),
                "photo": game.photo}

    @staticmethod
    def _riichi_record(game: RiichiGame) -> dict:
        return {"kind": game.outcome, "winners": [w.player for w in game.wins],
                "wins": [{"player": w.player, "han": w.han, "fu": w.fu, "yakuman": w.yakuman,
                          **({"hand": w.hand, "yaku": list(w.yaku)} if w.hand else {})}
                         for w in game.wins],
                "dora": list(game.dora), "ura_dora": list(game.ura_dora),
                "special": list(game.special),
                "discarder": game.discarder, "riichi": list(game.riichi),
                "tenpai": list(game.tenpai), "chombo": game.chombo}

    # -- undo / end -----------------------------------------------------------------

    def undo(self, session_id: int) -> str:
        """Undo the last thing: a manual end first, otherwise the last game."""
        view = self.view(session_id)
        if view.end and view.end.get("reason") == "stopped":
            self.store.set_end(view.id, None)
            return "reopened"
        if not view.games:
            raise SessionError(f"session {view.id} ({view.name}) has no games to undo")
        self.store.delete_last_game(view.id, len(view.games))
        return f"game {len(view.games)}"

    def end(self, session_id: int) -> SessionView:
        """Stop a match early (agreed time or rounds); riichi leftovers go to first place."""
        view = self.view(session_id)
        if view.finished:
            raise SessionError(f"session {view.id} ({view.name}) is already finished")
        end: dict = {"reason": "stopped"}
        if view.ruleset == "riichi" and view.state.pot:
            end.update(self._riichi_final(view, None, view.state))
        self.store.set_end(view.id, end)
        return self.view(view.id)

    def _riichi_final(self, view: SessionView, deltas: dict | None, state: MatchState) -> dict:
        totals = dict(view.totals)
        for player, delta in (deltas or {}).items():
            totals[player] += delta
        if not state.pot:
            return {}
        seats = self._seats(view.players, view.setup, state)
        final = riichi_game_end(self.engine, seats, totals, state.pot)
        return {"final_scores": final, "pot_awarded": state.pot}
