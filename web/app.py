"""The ASGI app: the phone page (``web/static``) and the JSON API it uses.

The API is documented by FastAPI itself: ``/docs`` (Swagger UI), ``/redoc`` and ``/openapi.json``;
the pages' scripts and styles come from the ``fastapi-offline`` package, not a CDN, so the
docs work on a table with no internet.
Handlers only translate HTTP <-> :class:`web.services.WebServices`; every error leaves as
JSON ``{"detail": "message"}`` with a 4xx/5xx status, and nothing a client sends can stop
the server (unexpected exceptions become a 500 answer)."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Literal

from fastapi import FastAPI, File, Form, Request, UploadFile
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from ..errors import TIMED_OUT, TOO_LARGE, InputError, MjscoreError, http_status
from ..scoring.config import RULESETS, SPECIALS, WIN_TYPES, WIND_NAMES
from .docs_pages import add_redoc
from .i18n import layout_answer, request_lang, say, score_answer, validation_details
from .photo import MAX_UPLOAD_BYTES, PhotoError, size_text
from .words import page_words
from .services import Context, Recognize, WebServices

STATIC = Path(__file__).resolve().parent / "static"
log = logging.getLogger("mjscore.web")

# the engine's own lists (scoring.config), as pydantic choices
Wind = Literal.__getitem__(WIND_NAMES)
WinType = Literal.__getitem__(WIN_TYPES)
Ruleset = Literal.__getitem__(RULESETS)
Special = Literal.__getitem__(SPECIALS)
Lang = Literal["en", "nl"]


class ContextIn(BaseModel):
    """What the photo cannot show. Missing values are reported back in ``missing``."""
    seat: Wind | None = Field(None, description="seat wind of the winner")
    prevailing_wind: Wind | None = None
    winning_tile: str | None = Field(None, description="tile token, e.g. 6s, R, Wh")
    win_type: WinType | None = None
    ruleset: Ruleset = "nts"
    special: list[Special] = []
    lang: Literal["en", "nl"] = "en"


class TileIn(BaseModel):
    kind: str = Field(..., description="spec §1.1 token or X (face down)", examples=["5p"])
    box: list[float] = Field(..., min_length=4, max_length=4, description="x1, y1, x2, y2 in photo pixels")
    confidence: float = 1.0
    alternatives: list[tuple[str, float]] = []
    angle: int = 0


GroupKind = Literal["concealed", "exposed", "concealed_kong", "bonus"]


class GroupIn(BaseModel):
    """One set as the page shows it: its kind and its tiles' numbers (1-based, as in ``tiles``)."""
    kind: GroupKind
    tiles: list[int] = Field(..., max_length=60)
    reason: str | None = Field(None, max_length=300, description="why the layout chose it (kept for display)")
    confidence: float = 1.0


class ScoreIn(BaseModel):
    """Score the tiles of a scan (corrected or not) or a hand in notation, in a context."""
    tiles: list[TileIn] | None = Field(None, description="tiles as /api/scan returned them, corrected")
    groups: list[GroupIn] | None = Field(None, max_length=60, description=(
        "the sets as the player sees them (layout.groups of /api/scan or /api/regroup); "
        "without them the tiles are grouped again from the photo"))
    hand: str | None = Field(None, description="spec §1.2 notation; overrides the tiles",
                             examples=["[EEE] RRR 234m 88s 45s +6s"])
    context: ContextIn = ContextIn()


class EditIn(BaseModel):
    """One tap on the page's sets: ``kind`` (group -> exposed / concealed / concealed_kong /
    bonus), ``move`` (tile -> group number, new, concealed or bonus), ``split`` (tiles of a
    group -> a new exposed set), ``merge`` (group -> into group ``to``), ``add`` (a missed
    tile of ``kind``), ``remove`` (a false detection), ``fix`` (tile -> ``kind``)."""
    op: Literal["kind", "move", "split", "merge", "add", "remove", "fix"]
    tile: int | None = None
    group: int | None = None
    to: int | Literal["new", "concealed", "bonus"] | None = None
    kind: str | None = Field(None, max_length=16, description="tile kind (add, fix) or set kind (kind)")
    tiles: list[int] = Field([], max_length=60)


class RegroupIn(BaseModel):
    tiles: list[TileIn] = Field([], max_length=60)
    groups: list[GroupIn] | None = Field(None, max_length=60)
    edit: EditIn
    lang: Literal["en", "nl"] = "en"


class SessionIn(BaseModel):
    players: list[str] = Field(..., min_length=4, max_length=4, description="in seating order; the first is East")
    ruleset: Literal["nts", "nts-app", "riichi"] = "nts"
    name: str | None = Field(None, max_length=100)
    lang: Lang = "en"


class GameIn(BaseModel):
    """An NTS / nts-app game: a win (the winner's hand in notation with ``+winning tile``,
    or his score in ``scores``; every other player's hand, score or dead hand) or a draw."""
    winner: str | None = Field(None, max_length=100)
    hand: str | None = Field(None, max_length=300, examples=["[EEE] RRR 234m 88s 45s +6s"])
    win_type: WinType = "discard"
    seat: Wind | None = Field(None, description="the seat the hand was scored for (checked)")
    prevailing_wind: Wind | None = Field(None, description="nts-app: the wind thrown at the table")
    special: list[Special] = []
    discarder: str | None = Field(None, max_length=100)
    scores: dict[str, int] = Field({}, description="players' scores counted at the table")
    hands: dict[str, str] = Field({}, description="other players' hands in notation (the engine counts them)")
    dead: list[str] = Field([], max_length=4, description="players with a dead hand (score 0, still pay)")
    draw: bool = Field(False, description="exhausted wall (remise): nobody pays")
    lang: Lang = "en"


class RiichiWinIn(BaseModel):
    player: str = Field(..., max_length=100)
    han: int | None = Field(None, ge=1, le=13)
    fu: int | None = Field(None, ge=20, le=110)
    yakuman: bool = False


class RiichiGameIn(BaseModel):
    """A riichi hand as counted at the table (spec §16): ron or tsumo with han/fu per
    winner, a draw with the tenpai players (noten payments), or a chombo."""
    outcome: Literal["ron", "tsumo", "draw", "chombo"]
    wins: list[RiichiWinIn] = Field([], max_length=3)
    discarder: str | None = Field(None, max_length=100)
    riichi: list[str] = Field([], max_length=4, description="who declared riichi (a 1,000 stick each)")
    tenpai: list[str] = Field([], max_length=4)
    chombo: str | None = Field(None, max_length=100)
    lang: Lang = "en"


class SafeJSONResponse(JSONResponse):
    """JSON as FastAPI writes it, but text that is not valid Unicode (a lone surrogate sent
    as ``\\ud800`` and echoed in a message) is escaped instead of failing the answer."""

    def render(self, content) -> bytes:
        try:
            return super().render(content)
        except UnicodeEncodeError:
            return json.dumps(content, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode("ascii")


def _error_response(exc: MjscoreError, headers: dict | None = None, lang: str = "en") -> JSONResponse:
    """Every known error leaves as ``{"detail": message}`` with the status of its code, in the
    language the request asked for (``web.i18n``)."""
    return SafeJSONResponse({"detail": say(str(exc), lang)}, status_code=http_status(exc), headers=headers)


def _lang_of(request: Request) -> str:
    return request_lang(request.query_params.get("lang"), request.headers.get("accept-language"))


def _scope_lang(scope) -> str:
    headers = dict(scope.get("headers") or [])
    query = dict(p.split("=", 1) for p in scope.get("query_string", b"").decode("latin-1").split("&") if "=" in p)
    return request_lang(query.get("lang"), headers.get(b"accept-language", b"").decode("latin-1"))


def _validation_details(exc: RequestValidationError) -> list[dict]:
    """FastAPI's list of what is wrong, without the rejected input (which can be any bytes)."""
    return [{"loc": [p if isinstance(p, int) else str(p) for p in e.get("loc", ())],
             "msg": str(e.get("msg", "")), "type": str(e.get("type", ""))} for e in exc.errors()]


BODY_SLACK = 64 * 1024        # multipart headers and boundaries around the photo


class BodyTimeout(InputError):
    """The client stopped sending its body (HTTP 408)."""

    code = TIMED_OUT


BODY_IDLE_SECONDS = 5.0      # a body that stops arriving for this long is answered 408


class LimitBody:
    """ASGI middleware: refuse a request body over ``max_bytes``, from its Content-Length
    before reading anything, or while reading it when it comes chunked (no length), so an
    oversized upload is never parsed or spooled in full; and answer 408 (connection
    closed) when the body stops coming for ``idle_seconds``, so a client that sends less
    than its Content-Length cannot hold a worker."""

    def __init__(self, app, max_bytes: int, idle_seconds: float = BODY_IDLE_SECONDS):
        self.app = app
        self.max_bytes = max_bytes
        self.idle_seconds = idle_seconds

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = dict(scope["headers"]).get(b"content-length", b"")
        if length.isdigit() and int(length) > self.max_bytes:
            message = f"the upload is {size_text(int(length))}; at most {size_text(self.max_bytes)} is accepted"
            return await _error_response(PhotoError(TOO_LARGE, message), lang=_scope_lang(scope))(scope, receive, send)
        seen = 0
        refused = False
        complete = False

        async def refuse(error: MjscoreError, headers: dict | None = None):
            # answer now; the app sees the client gone and its own answer is dropped
            nonlocal refused
            refused = True
            await _error_response(error, headers, _scope_lang(scope))(scope, receive, send)
            return {"type": "http.disconnect"}

        async def limited_receive():
            nonlocal seen, complete
            if refused:
                return {"type": "http.disconnect"}
            if complete:
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), self.idle_seconds)
            except asyncio.TimeoutError:
                return await refuse(BodyTimeout(f"the request body stopped arriving (nothing for "
                                                f"{self.idle_seconds:g} s); send all of it"),
                                    {"Connection": "close"})
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                complete = not message.get("more_body", False)
                if seen > self.max_bytes:
                    text = f"the upload is over {size_text(self.max_bytes)}; at most that is accepted"
                    return await refuse(PhotoError(TOO_LARGE, text))
            return message

        async def guarded_send(message):
            if not refused:
                await send(message)

        await self.app(scope, limited_receive, guarded_send)


def create_app(*, recognize: Recognize | None = None, db_path: str | Path | None = None,
               max_upload_bytes: int = MAX_UPLOAD_BYTES,
               body_idle_seconds: float = BODY_IDLE_SECONDS, tile_set: str | None = None) -> FastAPI:
    """The app. ``recognize`` replaces the shipped recognizer (rgb -> list[TileRead]);
    ``tile_set`` names a taught set the shipped recognizer reads photos with."""
    services = WebServices(recognize=recognize, db_path=db_path, tile_set=tile_set)
    app = FastAPIOffline(title="mjscore", version="0.1.0", default_response_class=SafeJSONResponse, redoc_url=None,
                         description="Score a mahjong hand from a photo: scan, correct, score, keep a session.")
    add_redoc(app)
    app.state.services = services

    @app.exception_handler(MjscoreError)
    async def _known_error(request: Request, exc: MjscoreError):
        return _error_response(exc, lang=_lang_of(request))

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError):
        return SafeJSONResponse({"detail": validation_details(_validation_details(exc), _lang_of(request))},
                                status_code=422)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception):
        log.exception("unexpected error")          # the details go to the log, never to the client
        text = ("interne fout (het serverlog heeft de details)" if _lang_of(request) == "nl"
                else "internal error (the server log has the details)")
        return SafeJSONResponse({"detail": text}, status_code=500)

    app.add_middleware(LimitBody, max_bytes=max_upload_bytes + BODY_SLACK,
                       idle_seconds=body_idle_seconds)

    @app.middleware("http")
    async def _headers(request: Request, call_next):
        response = await call_next(request)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        response.headers.setdefault("X-Frame-Options", "DENY")
        return response

    @app.get("/", include_in_schema=False)
    def index():
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/api/health", summary="Which parts (recognizer model, engine, sessions) are installed")
    def health() -> dict:
        return services.health()

    @app.get("/api/words", summary="Every word the page shows, in English or Dutch")
    def words(lang: Lang = "en") -> dict:
        return dict(page_words(lang), max_upload_bytes=max_upload_bytes,
                    max_upload_text=size_text(max_upload_bytes))

    @app.post("/api/scan", summary="Photo -> tiles with boxes, grouping and hand notation")
    async def scan(request: Request,
                   photo: UploadFile = File(..., description="JPEG, PNG or WebP photo of the hand"),
                   tile_set: str | None = Form(None, max_length=64, description=(
                       "taught set to read with (GET /api/sets); '-': the general reader; "
                       "left out: the server's (serve --set)"))) -> dict:
        data = await _photo_bytes(photo)
        out = await run_in_threadpool(services.scan, data, tile_set)
        layout_answer(out.get("layout"), _lang_of(request))
        return out

    async def _photo_bytes(photo: UploadFile) -> bytes:
        data = await photo.read(max_upload_bytes + 1)
        if len(data) > max_upload_bytes:
            raise PhotoError(TOO_LARGE, f"the photo is larger than {size_text(max_upload_bytes)}; "
                                        f"at most {size_text(max_upload_bytes)} is accepted")
        return data

    @app.get("/api/sets", summary="Taught tile sets, and the one photos are read with")
    def sets() -> dict:
        return services.sets()

    @app.post("/api/sets/{name}/photos", status_code=201,
              summary="Teach a set from one corrected photo (made when new); later scans read with it")
    async def teach(name: str, photo: UploadFile = File(..., description="the photo that was scanned"),
                    tiles: str = Form(..., max_length=20000, description='JSON [{"kind": "5p", "box": [x1, y1, x2, y2]}]')) -> dict:
        data = await _photo_bytes(photo)
        return await run_in_threadpool(services.teach, name, data, tiles)

    @app.post("/api/score", summary="Tiles or notation + context -> hand and score breakdown")
    def score(body: ScoreIn) -> dict:
        c = body.context
        ctx = Context(c.seat, c.prevailing_wind, c.winning_tile, c.win_type, c.ruleset, c.special, c.lang)
        tiles = [t.model_dump() for t in body.tiles] if body.tiles else None
        groups = [g.model_dump() for g in body.groups] if body.groups is not None else None
        return score_answer(services.score(tiles, body.hand, ctx, groups), c.lang)

    @app.post("/api/regroup", summary="One set edit (open/concealed/kong, move, split, merge, add, remove, fix)")
    def regroup(body: RegroupIn) -> dict:
        from .regroup import Edit

        e = body.edit
        edit = Edit(e.op, e.tile, e.group, e.to, e.kind, tuple(e.tiles))
        groups = [g.model_dump() for g in body.groups] if body.groups is not None else None
        out = services.regroup([t.model_dump() for t in body.tiles], groups, edit)
        layout_answer(out["layout"], body.lang)
        return out

    @app.get("/api/sessions", summary="Sessions with seats, prevailing wind, standings and history")
    def sessions(all: bool = False, lang: Lang = "en") -> list[dict]:
        return services.list_sessions(open_only=not all, lang=lang)

    @app.post("/api/sessions", status_code=201, summary="Start a session (nts, nts-app or riichi)")
    def new_session(body: SessionIn) -> dict:
        return services.new_session(body.players, body.ruleset, body.name, body.lang)

    @app.get("/api/sessions/{session_id}", summary="One session, with every game and who paid whom")
    def session(session_id: int, lang: Lang = "en") -> dict:
        return services.get_session(session_id, lang)

    @app.post("/api/sessions/{session_id}/games", status_code=201,
              summary="Add an NTS / nts-app game (a win or a draw) to a session")
    def add_game(session_id: int, body: GameIn) -> dict:
        return services.add_game(session_id, winner=body.winner, hand=body.hand, win_type=body.win_type,
                                 seat=body.seat, special=body.special, discarder=body.discarder,
                                 scores=body.scores, prevailing_wind=body.prevailing_wind, hands=body.hands,
                                 dead=body.dead, draw=body.draw, lang=body.lang)

    @app.post("/api/sessions/{session_id}/riichi", status_code=201,
              summary="Add a riichi hand (ron, tsumo, draw with noten payments, chombo)")
    def add_riichi(session_id: int, body: RiichiGameIn) -> dict:
        return services.add_riichi_game(session_id, outcome=body.outcome, wins=[w.model_dump() for w in body.wins],
                                        discarder=body.discarder, riichi=body.riichi, tenpai=body.tenpai,
                                        chombo=body.chombo, lang=body.lang)

    @app.post("/api/sessions/{session_id}/undo", summary="Take back the last game (or re-open an ended session)")
    def undo(session_id: int, lang: Lang = "en") -> dict:
        return services.undo(session_id, lang)

    @app.post("/api/sessions/{session_id}/end", summary="End the session now (agreed time)")
    def end(session_id: int, lang: Lang = "en") -> dict:
        return services.end_session(session_id, lang)

    return app
