"""The web application: REST lobby, WebSocket tables, the browser client's files, a health check, the
operator's admin calls and an API page that works offline.

``create_app`` builds a FastAPI app around a :class:`~tendays.server.lobby.Lobby`. The protocol is
described in docs/protocol.md; the REST part also at ``/docs`` (OpenAPI).
"""

from __future__ import annotations

import contextlib
import logging
import math
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, HTTPException, Query, Request, WebSocket
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from tendays import __version__
from tendays.bots import BOTS, LEVELS
from tendays.engine import available_editions, load_edition
from tendays.engine.i18n import gettext as _

from .admin import admin_router
from .chat import QUICK_PHRASES
from .docs import add_docs
from .guard import LimitBook, Limits, RequestGuard, RequestLanguage
from .journal import Journal
from .learn import learn_router
from .lobby import Lobby
from .master import Match
from .models import (
    ERRORS,
    BotChoices,
    BotInfo,
    CreateGame,
    EditionInfo,
    GamePage,
    GameSummary,
    Health,
    JoinGame,
    LevelInfo,
    SeatTicket,
    errors_in_words,
)
from .puzzles import puzzles_router
from .replays import replays_router
from .seats import LobbyError
from .settings import MasterSettings
from .store import DatabaseLock, Store
from .table import serve_table

__all__ = ["Limits", "MasterSettings", "create_app", "static_dir"]

log = logging.getLogger("tendays.server")

GameId = Annotated[str, PathParam(description="the game's id", max_length=32, pattern=r"^[A-Za-z0-9_-]+$")]


def static_dir() -> Path:
    """The browser client's files inside the installed package."""
    return Path(str(resources.files("tendays.web"))) / "static"


def create_app(database_url: str = "sqlite:///tendays.db", settings: MasterSettings | None = None,
               limits: Limits | None = None, admin_token: str | None = None) -> FastAPI:
    """The server. The database is opened (and locked against a second server), and unfinished games
    restored, when the app starts."""
    settings = settings or MasterSettings()
    limits = limits or Limits()
    book = LimitBook()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        lock = DatabaseLock(database_url)
        lock.acquire()
        try:
            journal = Journal(Store(database_url))
            lobby = Lobby(journal, settings)
            restored = lobby.restore()
            if restored:
                log.info("restored %d unfinished game(s) from the database", restored)
            lobby.start()
            app.state.lobby = lobby
            try:
                yield
            finally:
                await lobby.close()
                await journal.close()
        finally:
            lock.release()

    app = FastAPI(
        title="tendays",
        version=__version__,
        summary="Play the 10 Days travel games in the browser.",
        description="The REST lobby of the tendays server. Tables are played over the WebSocket "
                    "`/ws/games/{id}` (the first message says hello with the seat token), described in "
                    "docs/protocol.md.",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    app.add_middleware(RequestGuard, limits=limits, book=book)
    app.add_middleware(RequestLanguage)  # added last, so it runs first: the guard's refusals are in words too
    add_docs(app)
    app.include_router(admin_router(admin_token, limits, book))
    app.include_router(puzzles_router())
    app.include_router(learn_router())
    app.include_router(replays_router())

    def lobby_of(request: Request | WebSocket) -> Lobby:
        lobby: Lobby = request.app.state.lobby
        return lobby

    @app.exception_handler(LobbyError)
    async def _lobby_error(_request: Request, error: LobbyError) -> JSONResponse:
        return JSONResponse({"detail": error.message}, status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": errors_in_words(error.errors())}, status_code=422)

    # -- pages ---------------------------------------------------------------------------

    def page(name: str) -> FileResponse:
        path = static_dir() / name
        if not path.is_file():
            raise HTTPException(404, _("the browser client is not installed ({name} is missing)").format(name=name))
        return FileResponse(path, media_type="text/html")

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return page("index.html")

    @app.get("/play/{game_id}", include_in_schema=False)
    async def table_page(game_id: GameId) -> FileResponse:
        return page("play.html")

    @app.get("/admin", include_in_schema=False)
    async def admin_page() -> FileResponse:
        return page("admin.html")

    app.mount("/static", StaticFiles(directory=static_dir(), check_dir=False), name="static")

    # -- REST ----------------------------------------------------------------------------

    @app.get("/health", summary="Is the server up?", response_model=Health)
    async def health(request: Request) -> Health:
        return Health(status="ok", games=len(lobby_of(request).active()), version=__version__)

    @app.get("/api/editions", summary="The editions that can be played", response_model=list[EditionInfo])
    async def editions() -> list[EditionInfo]:
        return [EditionInfo(id=e, name=load_edition(e).name, default=load_edition(e).default,
                            language=load_edition(e).language)
                for e in available_editions()]

    @app.get("/api/editions/{edition}", summary="One edition: regions, colours, borders and tiles",
             description="The same JSON as `tendays map EDITION --json`.", responses={404: ERRORS[404]})
    async def edition_detail(edition: str) -> dict[str, Any]:
        if edition not in available_editions():
            raise HTTPException(404, _("unknown edition '{edition}'; known: {known}").format(
                edition=edition[:32], known=", ".join(available_editions())))
        return load_edition(edition).to_json()

    @app.get("/api/bots", summary="The bots a seat can be given", response_model=BotChoices,
             description="From the bot registry: the levels offered to people and every bot. A bot seat's "
                         "`bot` names a level or a bot. Also the quick chat phrases of the table.")
    async def bot_choices() -> BotChoices:
        return BotChoices(
            levels=[LevelInfo(name=level.name, bot=level.bot, description=_(level.description), rating=level.rating)
                    for level in LEVELS.values()],
            bots=[BotInfo(name=entry.name, description=entry.description) for entry in BOTS.values()],
            phrases=list(QUICK_PHRASES),
        )

    @app.get("/api/games", summary="Games to join (or to watch), a page at a time, newest first",
             response_model=GamePage)
    async def list_games(request: Request, show: Literal["joinable", "playing"] = "joinable",
                         page: Annotated[int, Query(ge=1, le=100_000)] = 1,
                         per_page: Annotated[int, Query(ge=1, le=100)] = 20) -> dict[str, Any]:
        matches, total = await lobby_of(request).page(show, page, per_page)
        return {"games": [m.summary() for m in matches], "page": page, "per_page": per_page, "total": total,
                "pages": max(1, math.ceil(total / per_page))}

    @app.post("/api/games", summary="Create a game and take seat 1", status_code=201, response_model=SeatTicket,
              responses={k: ERRORS[k] for k in (413, 422, 429, 503)})
    async def create_game(request: Request, body: CreateGame) -> SeatTicket:
        match, token = await lobby_of(request).create(
            body.edition, [(s.kind, s.bot) for s in body.seats], body.options.model_dump(), body.name,
            body.pace.to_pace() if body.pace else None)
        return _ticket(match, 0, token)

    @app.post("/api/games/{game_id}/join", summary="Take the first free human seat", response_model=SeatTicket,
              responses={k: ERRORS[k] for k in (404, 409, 413, 422, 429)})
    async def join_game(request: Request, game_id: GameId, body: JoinGame) -> SeatTicket:
        match, seat, token = await lobby_of(request).join(game_id, body.name)
        return _ticket(match, seat, token)

    @app.get("/api/games/{game_id}", summary="A game's public summary", response_model=GameSummary,
             responses={404: ERRORS[404], 409: ERRORS[409]})
    async def game_summary(request: Request, game_id: GameId) -> dict[str, Any]:
        lobby = lobby_of(request)
        match = await lobby.get(game_id)
        if match is None:
            raise HTTPException(404, _("there is no game '{game}'").format(game=game_id))
        summary = match.summary()
        lobby.release(match)  # a finished game need not stay in memory for a look at it
        return summary

    # -- the table -----------------------------------------------------------------------

    @app.websocket("/ws/games/{game_id}")
    async def table(websocket: WebSocket, game_id: str) -> None:
        await serve_table(websocket, lobby_of(websocket), limits, game_id)

    return app


def _ticket(match: Match, seat: int, token: str) -> SeatTicket:
    return SeatTicket(id=match.id, seat=seat, token=token, url=f"/play/{match.id}#token={token}")

