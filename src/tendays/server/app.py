"""The web application: REST lobby, WebSocket tables, the browser client's files, and a health check.

``create_app`` builds a FastAPI app around a :class:`~tendays.server.master.Lobby`. The protocol is
described in docs/protocol.md; the REST part also at ``/docs`` (OpenAPI).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import unicodedata
from collections import deque
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, field_validator

from tendays import __version__
from tendays.bots import BOTS, LEVELS, bot_names
from tendays.engine import MAX_DAYS, MIN_DAYS, available_editions, load_edition

from .lobby import Lobby
from .master import LobbyError, MasterSettings, Match, Rejected, Subscriber
from .store import Journal, Store
from .wire import Outgoing

__all__ = ["Limits", "create_app", "static_dir"]

log = logging.getLogger("tendays.server")

GameId = Annotated[str, PathParam(description="the game's id", max_length=32, pattern=r"^[A-Za-z0-9_-]+$")]


def static_dir() -> Path:
    """The browser client's files inside the installed package."""
    return Path(str(resources.files("tendays.web"))) / "static"


@dataclass
class Limits:
    """What one WebSocket connection may send."""

    max_message_bytes: int = 4096
    messages_per_second: int = 20
    clock: Callable[[], float] = field(default=time.monotonic)  # tests pin it


class RateLimiter:
    """A sliding one-second window of accepted messages."""

    def __init__(self, per_second: int, clock: Callable[[], float]) -> None:
        self.per_second = per_second
        self.clock = clock
        self._accepted: deque[float] = deque()
        self.refused = 0  # refused in a row; a flood of them closes the connection

    def allow(self) -> bool:
        now = self.clock()
        while self._accepted and now - self._accepted[0] >= 1.0:
            self._accepted.popleft()
        if len(self._accepted) >= self.per_second:
            self.refused += 1
            return False
        self._accepted.append(now)
        self.refused = 0
        return True


# -- REST models ---------------------------------------------------------------------------


def _clean_name(name: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise ValueError("a name needs at least one visible character")
    if any(unicodedata.category(c).startswith("C") for c in name):
        raise ValueError("a name cannot contain control characters")
    return name


class SeatRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["human", "bot"] = Field(description="a person (who joins by the link) or a bot")
    bot: str | None = Field(None, description=f"for a bot seat, a level or a bot (GET /api/bots): one of "
                                              f"{', '.join(bot_names())}", examples=["normal"])


class OptionsRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    days: int = Field(10, ge=MIN_DAYS, le=MAX_DAYS,
                      description="days in each rack (10, or 5 for '5 Days'); how many the tiles allow depends on "
                                  "the edition and the number of seats")
    swap: bool = Field(False, description="the swap variant: a turn may swap two of one's own tiles")
    open_hands: bool = Field(False, description="every rack visible to everyone (for learning)")
    turn_limit: int | None = Field(None, ge=1, description="end with no winner after this many turns")
    first_seat: int | None = Field(None, description="the seat that takes the first turn, from 0; "
                                                     "null: chosen by chance", examples=[0])


class CreateGame(BaseModel):
    model_config = ConfigDict(extra="forbid")

    edition: str = Field(description="the edition's id", examples=["usa"])
    name: str = Field(min_length=1, max_length=32, description="the creator's display name (seat 1)")
    seats: list[SeatRequest] = Field(min_length=1, max_length=4, description="every seat; seat 1 must be human")
    options: OptionsRequest = Field(default_factory=lambda: OptionsRequest.model_validate({}))

    _name = field_validator("name")(_clean_name)


class JoinGame(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=32, description="the display name at the table")

    _name = field_validator("name")(_clean_name)


class SeatTicket(BaseModel):
    id: str = Field(description="the game's id")
    seat: int = Field(description="the seat taken, from 0")
    token: str = Field(description="the seat's secret token: whoever holds it plays this seat")
    url: str = Field(description="the seat link, /play/{id}#token={token}; it resumes the seat on any device")


class SeatSummary(BaseModel):
    seat: int
    kind: Literal["human", "bot"]
    name: str | None = Field(description="the display name; null for a free seat")
    bot: str | None = Field(description="the bot level of a bot seat")
    taken: bool = Field(description="whether the seat has a player (bots always do)")


class GameSummary(BaseModel):
    id: str
    edition: str
    status: Literal["waiting", "playing", "over"] = Field(description="waiting: human seats are free")
    seats: list[SeatSummary]
    created: str = Field(description="when the game was created, ISO 8601")


class EditionInfo(BaseModel):
    id: str
    name: str
    default: bool = Field(description="whether this is the edition played when none is chosen")


class LevelInfo(BaseModel):
    name: str = Field(description="the level's name, for a bot seat's `bot`", examples=["normal"])
    bot: str = Field(description="the bot that plays this level", examples=["greedy"])
    description: str


class BotInfo(BaseModel):
    name: str = Field(description="the bot's name, for a bot seat's `bot`", examples=["greedy"])
    description: str


class BotChoices(BaseModel):
    levels: list[LevelInfo] = Field(description="the difficulty levels offered to people, easiest first")
    bots: list[BotInfo] = Field(description="every bot, which a seat may also name directly")


class Health(BaseModel):
    status: Literal["ok"]
    games: int = Field(description="unfinished games held by the server")
    version: str


class ErrorAnswer(BaseModel):
    detail: str


_ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorAnswer, "description": "no such game"},
    409: {"model": ErrorAnswer, "description": "every seat is taken, or this server cannot play the game "
                                               "(stored under rules it does not know)"},
    422: {"model": ErrorAnswer, "description": "the request breaks a rule (the message says which)"},
    503: {"model": ErrorAnswer, "description": "the server is full or its database is unavailable"},
}


# -- the app -------------------------------------------------------------------------------


def create_app(database_url: str = "sqlite:///tendays.db", settings: MasterSettings | None = None,
               limits: Limits | None = None) -> FastAPI:
    """The server. The database is opened, and unfinished games restored, when the app starts."""
    settings = settings or MasterSettings()
    limits = limits or Limits()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
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

    app = FastAPI(
        title="tendays",
        version=__version__,
        summary="Play the 10 Days travel games in the browser.",
        description="The REST lobby of the tendays server. Tables are played over the WebSocket "
                    "`/ws/games/{id}?token=TOKEN`, described in docs/protocol.md.",
        lifespan=lifespan,
    )

    def lobby_of(request: Request | WebSocket) -> Lobby:
        lobby: Lobby = request.app.state.lobby
        return lobby

    @app.exception_handler(LobbyError)
    async def _lobby_error(_request: Request, error: LobbyError) -> JSONResponse:
        return JSONResponse({"detail": error.message}, status_code=error.status)

    # -- pages ---------------------------------------------------------------------------

    def page(name: str) -> FileResponse:
        path = static_dir() / name
        if not path.is_file():
            raise HTTPException(404, f"the browser client is not installed ({name} is missing)")
        return FileResponse(path, media_type="text/html")

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return page("index.html")

    @app.get("/play/{game_id}", include_in_schema=False)
    async def table_page(game_id: GameId) -> FileResponse:
        return page("play.html")

    app.mount("/static", StaticFiles(directory=static_dir(), check_dir=False), name="static")

    # -- REST ----------------------------------------------------------------------------

    @app.get("/health", summary="Is the server up?", response_model=Health)
    async def health(request: Request) -> Health:
        return Health(status="ok", games=len(lobby_of(request).active()), version=__version__)

    @app.get("/api/editions", summary="The editions that can be played", response_model=list[EditionInfo])
    async def editions() -> list[EditionInfo]:
        return [EditionInfo(id=e, name=load_edition(e).name, default=load_edition(e).default)
                for e in available_editions()]

    @app.get("/api/editions/{edition}", summary="One edition: regions, colours, borders and tiles",
             description="The same JSON as `tendays map EDITION --json`.", responses={404: _ERRORS[404]})
    async def edition_detail(edition: str) -> dict[str, Any]:
        if edition not in available_editions():
            raise HTTPException(404, f"unknown edition {edition!r}; known: {', '.join(available_editions())}")
        return load_edition(edition).to_json()

    @app.get("/api/bots", summary="The bots a seat can be given", response_model=BotChoices,
             description="From the bot registry: the levels offered to people and every bot. A bot seat's "
                         "`bot` names a level or a bot.")
    async def bot_choices() -> BotChoices:
        return BotChoices(
            levels=[LevelInfo(name=level.name, bot=level.bot, description=level.description)
                    for level in LEVELS.values()],
            bots=[BotInfo(name=entry.name, description=entry.description) for entry in BOTS.values()],
        )

    @app.get("/api/games", summary="Open and running games", response_model=list[GameSummary])
    async def list_games(request: Request) -> list[dict[str, Any]]:
        return [m.summary() for m in sorted(lobby_of(request).active(), key=lambda m: m.created, reverse=True)]

    @app.post("/api/games", summary="Create a game and take seat 1", status_code=201, response_model=SeatTicket,
              responses={422: _ERRORS[422], 503: _ERRORS[503]})
    async def create_game(request: Request, body: CreateGame) -> SeatTicket:
        match, token = await lobby_of(request).create(
            body.edition, [(s.kind, s.bot) for s in body.seats], body.options.model_dump(), body.name)
        return _ticket(match, 0, token)

    @app.post("/api/games/{game_id}/join", summary="Take the first free human seat", response_model=SeatTicket,
              responses={404: _ERRORS[404], 409: _ERRORS[409]})
    async def join_game(request: Request, game_id: GameId, body: JoinGame) -> SeatTicket:
        match, seat, token = await lobby_of(request).join(game_id, body.name)
        return _ticket(match, seat, token)

    @app.get("/api/games/{game_id}", summary="A game's public summary", response_model=GameSummary,
             responses={404: _ERRORS[404], 409: _ERRORS[409]})
    async def game_summary(request: Request, game_id: GameId) -> dict[str, Any]:
        lobby = lobby_of(request)
        match = await lobby.get(game_id)
        if match is None:
            raise HTTPException(404, f"there is no game {game_id!r}")
        summary = match.summary()
        lobby.release(match)  # a finished game need not stay in memory for a look at it
        return summary

    # -- the table -----------------------------------------------------------------------

    @app.websocket("/ws/games/{game_id}")
    async def table(websocket: WebSocket, game_id: str, token: str | None = None) -> None:
        await websocket.accept()
        lobby = lobby_of(websocket)
        try:
            match = await lobby.get(game_id) if len(game_id) <= 32 else None
        except LobbyError as error:
            await _refuse(websocket, "unavailable", error.message, 4409)
            return
        if match is None:
            await _refuse(websocket, "not_found", f"there is no game {game_id[:32]!r}", 4404)
            return
        seat = None
        if token:
            seat = match.seat_for(token)
            if seat is None:
                await _refuse(websocket, "forbidden", "this seat link is not valid for this game", 4403)
                return
        subscriber = match.subscribe(seat)
        sender = asyncio.create_task(_send_all(websocket, subscriber))
        limiter = RateLimiter(limits.messages_per_second, limits.clock)
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if not limiter.allow():
                    if limiter.refused > 2 * limits.messages_per_second:
                        await websocket.close(1008, "too many messages")
                        break
                    subscriber.put(Rejected("rate_limited", f"more than {limits.messages_per_second} messages "
                                                            "a second; slow down").to_message())
                    continue
                for reply in await _answer(match, seat, message, limits):
                    subscriber.put(reply)
        except WebSocketDisconnect:
            pass
        finally:
            sender.cancel()
            match.unsubscribe(subscriber)
            lobby.release(match)

    return app


def _ticket(match: Match, seat: int, token: str) -> SeatTicket:
    return SeatTicket(id=match.id, seat=seat, token=token, url=f"/play/{match.id}#token={token}")


async def _refuse(websocket: WebSocket, code: str, message: str, close_code: int) -> None:
    await websocket.send_text(Rejected(code, message).to_message().text)
    await websocket.close(close_code, message[:120])


async def _send_all(websocket: WebSocket, subscriber: Subscriber) -> None:
    with contextlib.suppress(Exception):  # the connection went away; the receiving side cleans up
        while True:
            await websocket.send_text(await subscriber.get())


async def _answer(match: Match, seat: int | None, message: Mapping[str, Any], limits: Limits) -> list[Outgoing]:
    """Handle one client message; the replies for this connection only (the new table goes to everyone)."""
    text = message.get("text")
    if text is None:
        data = message.get("bytes") or b""
        if len(data) > limits.max_message_bytes:
            return [Rejected("too_large", f"messages are limited to {limits.max_message_bytes} bytes").to_message()]
        return [Rejected("malformed", "messages are JSON text, not binary").to_message()]
    if len(text) > limits.max_message_bytes or len(text.encode("utf-8")) > limits.max_message_bytes:
        return [Rejected("too_large", f"messages are limited to {limits.max_message_bytes} bytes").to_message()]
    try:
        request = json.loads(text)
    except ValueError:
        request = None
    if not isinstance(request, dict):
        return [Rejected("malformed", "a message must be a JSON object").to_message()]
    kind = request.get("type")
    try:
        if kind == "move":
            await match.play(seat, request.get("move"), request.get("version"))
            return []
        if kind == "hint":
            return [await match.hint(seat)]
        if kind == "ping":
            return [Outgoing.of({"type": "pong"})]
        raise Rejected("malformed", "unknown message type; send 'move', 'hint' or 'ping'")
    except Rejected as rejected:
        if rejected.code == "stale":
            # The current table follows, so a client that missed it can choose again at once.
            return [rejected.to_message(), match.state_message(seat)]
        return [rejected.to_message()]
