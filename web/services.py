"""The one place where the web layer meets the rest of the project.

HTTP handlers (``web.app``) call only this module; it runs the one photo -> tiles -> layout
-> hand -> score pipeline (``handscan.pipeline``, the same one the CLI and the batch run)
and the match book (``match``). When one of those changes, only this file follows.

Every failure a client can cause comes out as an :class:`mjscore.errors.MjscoreError` whose
code ``web.app`` turns into the HTTP status (``errors.http_status``) with a message that
names the problem; a missing model or engine is 503, never a crash.

DECISIONS:
- The server keeps no photo and no scan state. ``scan`` returns the tiles; the page sends
  the (corrected) tiles back with the context to ``score``, which groups them again. The
  API is therefore stateless and safe under concurrent use.
- A corrected tile gets confidence 1 and no alternatives (the user has seen it).
- Recognition runs at most ``scan_slots`` photos at a time (it is CPU-heavy); further
  requests wait their turn.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Sequence

from ..errors import InputError
from ..scoring.reasons import label
from .photo import decode_photo

MAX_TILES = 60
GENERAL = "-"                 # tile_set of a scan read without a taught set (never a set name)
Recognize = Callable[..., list]           # rgb array -> list[TileRead]


def default_recognize(rgb, tile_set=None, finer=None):
    """The shipped recognizer (``vision.recognizer.recognize_image``), with a taught set or not;
    ``finer``: the upload's windows decoded finer (:attr:`web.photo.Photo.finer_reader`)."""
    from ..vision.recognizer import recognize_image

    return recognize_image(rgb, tile_set=tile_set, finer=finer)


@dataclass
class Context:
    """What the photo cannot show, as the page sends it (raw strings; checked by handscan)."""
    seat: str | None = None
    prevailing_wind: str | None = None
    winning_tile: str | None = None
    win_type: str | None = None
    ruleset: str = "nts"
    special: Sequence[str] = ()
    lang: str = "en"


class WebServices:
    def __init__(self, recognize: Recognize | None = None, db_path: str | Path | None = None,
                 scan_slots: int = 2, tile_set: str | None = None):
        self._recognize = recognize or default_recognize
        self.tile_set = tile_set                  # the taught set photos are read with (serve --set)
        self._db_path = Path(db_path) if db_path else None
        self._scan_slots = threading.BoundedSemaphore(scan_slots)
        self._session_lock = threading.Lock()

    # ------------------------------------------------------------------ status

    def health(self) -> dict:
        """Which parts are installed (the page warns when one is missing)."""
        out = {"recognizer": True, "engine": True, "sessions": True}
        if self._recognize is default_recognize:
            try:
                from ..vision.models import CLASSIFIER, DETECTOR, MODELS_DIR
                out["recognizer"] = all((MODELS_DIR / n).exists() for n in (DETECTOR, CLASSIFIER))
            except Exception:
                out["recognizer"] = False
        try:
            from ..scoring import score_request  # noqa: F401
        except Exception:
            out["engine"] = False
        try:
            from ..match import session  # noqa: F401
        except Exception:
            out["sessions"] = False
        return out

    # ------------------------------------------------------------------ scan

    def scan(self, data: bytes, tile_set: str | None = None) -> dict:
        """Photo bytes -> tiles (boxes in upright full-resolution pixels), grouping and notation.
        ``tile_set``: the taught set to read with (``-`` = none, the general reader; None = the
        server's, serve --set)."""
        from ..handscan.pipeline import LOW_CONFIDENCE, lay_out, low_confidence_tiles, recognize_upload
        from ..vision.boxes import rescale
        from ..vision.types import TileRead

        start = time.perf_counter()
        photo = decode_photo(data)
        decoded = time.perf_counter()
        recognize = self._recognize
        name = self.tile_set if tile_set is None else (None if tile_set == GENERAL else tile_set)
        if recognize is default_recognize:
            from functools import partial

            from ..vision.sets import load_set
            recognize = partial(default_recognize, tile_set=load_set(name) if name else None, finer=photo.finer_reader)
        with self._scan_slots:
            tiles = recognize_upload(recognize, photo.rgb)
        recognised = time.perf_counter()
        if photo.scale != 1.0:
            tiles = [replace(t, box=rescale(t.box, 1.0 / photo.scale)) for t in tiles]
        tiles = [t if isinstance(t, TileRead) else TileRead(**t) for t in tiles][:MAX_TILES]
        layout = lay_out(tiles)
        return {
            "width": photo.width, "height": photo.height, "format": photo.format, "tile_set": name or None,
            "tiles": _tiles_json(layout.tiles),
            "layout": layout.to_json(),
            "hand": layout.notation,
            "low_confidence_tiles": low_confidence_tiles(layout.tiles),
            "low_confidence_threshold": LOW_CONFIDENCE,
            "timing_ms": {"decode": round((decoded - start) * 1000, 1),
                          "recognize": round((recognised - decoded) * 1000, 1),
                          "total": round((time.perf_counter() - start) * 1000, 1)},
        }

    # ------------------------------------------------------------------ score

    def score(self, tiles: Sequence[dict] | None, hand: str | None, ctx: Context,
              groups: Sequence[dict] | None = None) -> dict:
        """Tiles (as ``scan`` returned them, possibly corrected) or a hand in notation, plus
        the context -> hand notation and the engine's breakdown with readable labels.
        ``groups`` (the page's sets, tile numbers 1-based) keep the grouping the player
        sees; without them the layout step groups the tiles again."""
        from ..handscan.context import make_context
        from ..handscan.pipeline import evaluate, lay_out
        from .regroup import layout_of
        from .sets_view import engine_sets

        context = make_context(ctx.seat, ctx.prevailing_wind, ctx.winning_tile, ctx.win_type,
                               ctx.ruleset, list(ctx.special), ctx.lang)
        if hand is not None and not hand.strip():
            hand = None
        if not tiles and hand is None and not groups:
            raise InputError("send the tiles from a scan or a hand in notation")
        read = _tiles_from_json(tiles or [])
        layout = layout_of(read, groups) if groups is not None else lay_out(read)
        res = evaluate("upload", layout, context, hand=hand)
        out = res.to_json()
        out.pop("photo", None)
        # what is still needed, also when nothing of the context was given yet (the pipeline
        # then answers with the reading only)
        out["missing"] = ([] if res.score or "bad_hand" in res.flags
                          else [name.replace(" ", "_") for name in res.context.missing()])
        out["breakdown"] = breakdown(out["score"], ctx.lang) if res.score else None
        decomposition = (out["score"] or {}).get("decomposition") or []
        out["sets"] = engine_sets(layout, decomposition) if hand is None else []
        return out

    def regroup(self, tiles: Sequence[dict], groups: Sequence[dict] | None, edit) -> dict:
        """One set edit from the page (``web.regroup``): the tiles and groups after it."""
        from .regroup import apply_edit, layout_of

        layout, before = apply_edit(layout_of(_tiles_from_json(tiles), groups), edit)
        return {"tiles": _tiles_json(layout.tiles), "layout": layout.to_json(), "before": before,
                "hand": layout.notation}

    # ------------------------------------------------------------------ taught sets

    def sets(self) -> dict:
        """The taught sets on this computer and the one photos are read with."""
        from ..vision.sets import list_sets

        return {"sets": list_sets(), "reading": self.tile_set}

    def teach(self, name: str, data: bytes, tiles_json: str) -> dict:
        """The corrected photo added to set ``name`` (``web.teach``); scans that name the set
        read with it (the server itself keeps no state: the page sends its set with each scan)."""
        from .teach import teach_photo

        with self._scan_slots:
            return teach_photo(name, data, tiles_json)

    # ------------------------------------------------------------------ sessions

    def _session_call(self, mode: str, func):
        """One book call at a time, the database opened in ``mode`` (``match.store.Store``:
        read, write, or create for a new session) and closed after it; errors pass through
        typed (a damaged file is 503 and stays as it is)."""
        from ..match.session import open_book
        from ..match.store import default_db_path

        with self._session_lock:
            book = open_book(self._db_path or default_db_path(), mode)
            try:
                return func(book)
            finally:
                book.store.close()

    def list_sessions(self, open_only: bool = True, lang: str = "en") -> list[dict]:
        return self._session_call("read", lambda book: [session_json(v, lang) for v in book.list_sessions()
                                                        if not (open_only and v.finished)])

    def get_session(self, session_id: int, lang: str = "en") -> dict:
        return self._session_call("read", lambda book: session_json(book.view(session_id), lang))

    def new_session(self, players: list[str], ruleset: str, name: str | None = None, lang: str = "en") -> dict:
        from ..match.session import check_new_session

        check_new_session(players, ruleset, None, name)          # before the file is made
        return self._session_call("create", lambda book: session_json(book.new_session(players, ruleset, name),
                                                                      lang))

    def add_game(self, session_id: int, *, winner: str | None, hand: str | None = None,
                 win_type: str = "discard", seat: str | None = None, special: Sequence[str] = (),
                 discarder: str | None = None, scores: dict[str, int] | None = None,
                 prevailing_wind: str | None = None, hands: dict[str, str] | None = None,
                 dead: Sequence[str] = (), draw: bool = False, lang: str = "en") -> dict:
        """Record an NTS / nts-app game: a win (the winner's hand in notation with ``+tile``
        or his score; the others' hands or scores as counted at the table; dead hands) or a
        draw. ``seat``, when given, must be the winner's seat in the session (the hand was
        scored with it)."""
        from ..match.model import NtsGame

        def add(book):
            view = book.view(session_id)
            if view.ruleset == "riichi":
                raise InputError("this is a riichi session: record the hand with han and fu")
            names = _Names(view)
            if draw:
                if winner or hand or scores or hands or dead:
                    raise InputError("a draw (remise) has no winner, hands, scores or dead hands")
                game = NtsGame(winner=None, prevailing_wind=prevailing_wind if view.ruleset == "nts-app" else None)
            else:
                if not winner:
                    raise InputError("say who won, or record a draw")
                who = names(winner)
                if seat and view.seats[who] != seat:
                    raise InputError(f"{who} sits {view.seats[who]} in this game of the session, "
                                     f"but the hand was scored for seat {seat}: set the seat wind to "
                                     f"{view.seats[who]}")
                wind = prevailing_wind
                if view.ruleset == "nts" and wind and wind != view.prevailing_wind:
                    raise InputError(f"the prevailing wind of this game is {view.prevailing_wind}, "
                                     f"but the hand was scored with {wind}")
                given = {names(p): int(v) for p, v in (scores or {}).items()}
                others = {names(p): h for p, h in (hands or {}).items() if h and h.strip()}
                game = NtsGame(winner=who, winner_hand=hand or None, win_type=win_type,
                               discarder=names(discarder) if discarder else None, special=tuple(special),
                               scores=given, hands=others, dead=tuple(names(p) for p in dead),
                               prevailing_wind=wind if view.ruleset == "nts-app" else None,
                               photo="web upload" if hand else None)
            record = book.add_game(view.id, game)
            return {"game": game_json(book.view(view.id), record, lang),
                    "session": session_json(book.view(view.id), lang)}

        return self._session_call("write", add)

    def add_riichi_game(self, session_id: int, *, outcome: str, wins: Sequence[dict] = (),
                        discarder: str | None = None, riichi: Sequence[str] = (),
                        tenpai: Sequence[str] = (), chombo: str | None = None, lang: str = "en") -> dict:
        """Record a riichi hand as counted at the table: ron / tsumo with han and fu per
        winner, a draw with the tenpai players (noten payments), or a chombo; ``riichi``
        names who declared riichi (a stick each into the pot)."""
        from ..match.model import RiichiGame, RiichiWin

        def add(book):
            view = book.view(session_id)
            if view.ruleset != "riichi":
                raise InputError(f"this is an {view.ruleset} session: record the winner's hand or score")
            names = _Names(view)
            game = RiichiGame(
                outcome=outcome,
                wins=tuple(RiichiWin(player=names(w["player"]), han=w.get("han"), fu=w.get("fu"),
                                     yakuman=bool(w.get("yakuman"))) for w in wins),
                discarder=names(discarder) if discarder else None,
                riichi=tuple(names(p) for p in riichi), tenpai=tuple(names(p) for p in tenpai),
                chombo=names(chombo) if chombo else None)
            record = book.add_game(view.id, game)
            return {"game": game_json(book.view(view.id), record, lang),
                    "session": session_json(book.view(view.id), lang)}

        return self._session_call("write", add)

    def undo(self, session_id: int, lang: str = "en") -> dict:
        """Take back the last game (or re-open a session that was ended)."""
        def undo(book):
            from ..match.render import undone_text

            what = book.undo(book.view(session_id).id)
            return {"undone": what, "undone_text": undone_text(what, lang),
                    "session": session_json(book.view(session_id), lang)}

        return self._session_call("write", undo)

    def end_session(self, session_id: int, lang: str = "en") -> dict:
        return self._session_call("write", lambda book: session_json(book.end(book.view(session_id).id), lang))


class _Names:
    """A player name as typed -> the session's spelling; an unknown name is refused."""

    def __init__(self, view):
        self.view = view

    def __call__(self, typed: str) -> str:
        from ..match.model import find_player

        who = find_player(self.view.players, str(typed))
        if who is None:
            raise InputError(f"{typed!r} does not play in session {self.view.id} ({', '.join(self.view.players)})")
        return who


# ---------------------------------------------------------------------- JSON helpers

def _tiles_json(tiles) -> list[dict]:
    return [dict(t.to_json(), number=i + 1) for i, t in enumerate(tiles)]


def _tiles_from_json(items: Sequence[dict]) -> list:
    """Tiles sent back by the page, checked: known kinds, four finite box numbers."""
    import math

    from ..vision.kinds import KIND_INDEX
    from ..vision.types import TileRead

    if len(items) > MAX_TILES:
        raise InputError(f"{len(items)} tiles sent; at most {MAX_TILES} are accepted")
    tiles = []
    for n, item in enumerate(items, 1):
        kind = item.get("kind")
        if kind not in KIND_INDEX:
            raise InputError(f"tile {n}: {kind!r} is not a tile kind (1m..9m, 1p..9p, 1s..9s, "
                             "E S W N, R G Wh, f1..f4, j1..j4, X)")
        box = item.get("box")
        if (not isinstance(box, (list, tuple)) or len(box) != 4
                or not all(isinstance(v, (int, float)) and math.isfinite(v) for v in box)):
            raise InputError(f"tile {n}: box must be four numbers x1, y1, x2, y2")
        angle = int(item.get("angle") or 0)
        if angle not in (0, 90, 180, 270):
            raise InputError(f"tile {n}: angle must be 0, 90, 180 or 270, not {angle}")
        conf = float(item.get("confidence", 1.0))
        alts = tuple((str(k), float(p)) for k, p in item.get("alternatives") or () if k in KIND_INDEX)
        tiles.append(TileRead(kind, tuple(float(v) for v in box), min(max(conf, 0.0), 1.0), alts, angle))
    return tiles


def breakdown(score: dict, lang: str = "en") -> dict:
    """The engine's answer as labelled lines for the page."""
    if not score.get("valid"):
        reason = score.get("reason") or "error"
        return {"valid": False, "reason": reason, "reason_label": label(reason, lang),
                "message": score.get("message")}
    limit = score.get("limit_hand")
    return {
        "valid": True,
        "decomposition": score.get("decomposition", []),
        "base_points": [{"code": c, "label": label(c, lang), "points": p} for c, p in score.get("base_points") or []],
        "doublings": [{"code": c, "label": label(c, lang), "doublings": n} for c, n in score.get("doublings") or []],
        "base_total": score.get("base_total"),
        "doublings_total": score.get("doublings_total"),
        "total_before_limit": score.get("total_before_limit"),
        "limit_hand": limit,
        "limit_label": label(limit, lang) if limit else None,
        "final": score.get("final"),
    }


def session_json(view, lang: str = "en") -> dict:
    """A session for the page: seats and wind of the next game, standings, and every game
    with its payments (who pays whom)."""
    from ..match.render import next_game_line

    out = {
        "id": view.id, "name": view.name, "ruleset": view.ruleset, "players": list(view.players),
        "seats": dict(view.seats), "prevailing_wind": view.prevailing_wind,
        "games_played": len(view.games), "finished": view.finished,
        "standings": [{"rank": r, "player": p, "total": t} for r, p, t in view.standings()],
        "state": view.state.to_dict(),
        "next": None if view.finished else next_game_line(view, lang),
        "games": [game_json(view, g, lang) for g in view.games],
    }
    if view.ruleset == "riichi":
        wind, n = view.riichi_label()
        out["round"] = {"wind": wind, "number": n}
    return out


def game_json(view, record: dict, lang: str = "en") -> dict:
    """One game of the history: result, seats, scores, deltas, the totals after it and the
    payment lines (``match.payments``; riichi: the engine's sentences)."""
    from ..match.payments import payment_lines
    from ..match.render import riichi_explanation, game_result

    keep = ("number", "kind", "winners", "winner_hand", "win_type", "discarder", "prevailing_wind", "seats",
            "deltas", "hand_scores", "dead", "given_scores", "riichi", "tenpai", "wins", "honba_before",
            "pot_before")
    out = {k: record[k] for k in keep if k in record}
    out["winner"] = (record.get("winners") or [None])[0]
    out["result"] = game_result(record, lang)
    number = record.get("number", 0)
    if 1 <= number <= len(view.running):
        out["totals_after"] = dict(view.running[number - 1])
    if view.ruleset == "riichi":
        out["payments"] = []
        out["explanation"] = riichi_explanation(record, lang)
    else:
        out["payments"] = [p.to_json() for p in payment_lines(record, view.ruleset, view.players)]
    return out
