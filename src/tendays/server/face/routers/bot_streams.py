"""The Bot API's streams: newline-delimited JSON over HTTP (``application/x-ndjson``), one object a
line, so that ``curl -N`` reads them.

- ``GET /api/stream/event`` (a token with any scope): the account's events
  (:mod:`~tendays.server.people.bot_events`): first its unfinished games (``gameStart``) and the
  open challenges to it (``challenge``), then each change as it commits, in any server process. At
  most :data:`EVENT_STREAMS` open at once per account on one server process (429 beyond).
- ``GET /api/bot/game/stream/{id}`` (``bot:play``, a bot account) and
  ``GET /api/board/game/stream/{id}`` (``board:play``, a person's own game): first ``gameFull``,
  the table's ``game`` object as the seat's table connection first gets it (log and chat from 0),
  then ``gameState`` for each new table (log and chat from where the last stopped) and
  ``chatLine`` for chat, from the match's own subscriber for that seat: exactly what the seat's
  table connection reads. The stream ends after the table that shows the game over (or the seat
  left). While it is open the seat counts as connected, and opening it takes back a seat a bot
  played while its player was away.

Both send an empty line every ``stream_keepalive`` seconds while idle, and end at that moment if
the token was revoked or its account is no longer active. They end at once when the server stops
(:class:`StreamEndingServer`), since uvicorn waits for open answers before it shuts the app down.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any

import orjson
import uvicorn
from fastapi import APIRouter, Depends, HTTPException, Request
from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from tendays.engine.i18n import gettext as _

from ...matches.lobby import Lobby
from ...matches.master import Match
from ...matches.seats import LobbyError, Subscriber
from ...people.blocks import blocked_by
from ...people.bot_events import (
    AccountEvents,
    EventFollower,
    challenge_statuses,
    read_account_events,
)
from ...people.notifications import listen
from ...vocabulary import MatchStatus
from ..door.bearer import Bearer, bearer, token_alive
from ..routing import ErrorAnswer, GameId, lobby_of
from .bot_game import PlayedBy, no_seat, player_of, seat_at

__all__ = ["EVENT_STREAMS", "NDJSON", "OpenStreams", "StreamEndingServer", "bot_streams_router"]

log = logging.getLogger("tendays.server")

NDJSON = "application/x-ndjson"
#: Event streams one account may hold open at once on one server process.
EVENT_STREAMS = 4
_KEEP_ALIVE = b"\n"


class OpenStreams:
    """This process's open streams: woken when an account's events change, ended when the server
    stops."""

    def __init__(self) -> None:
        self.stopping = False
        self._events: dict[int, set[asyncio.Event]] = {}
        self._games: set[asyncio.Event] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop_listening: Callable[[], None] | None = None

    def start(self, lobby: Lobby) -> None:
        """Hear of changed accounts: the cluster's inbox notices (beside the inbox pages'), or this
        process's commits."""
        self._loop = asyncio.get_running_loop()
        cluster = lobby.cluster
        if cluster is None:
            self._stop_listening = listen(lobby.journal.store.engine, self._committed)
            return
        told = cluster.on_inbox

        def both(account_id: int) -> None:
            if told is not None:
                told(account_id)
            self.changed(account_id)

        cluster.on_inbox = both

    def close(self) -> None:
        self.stop()
        if self._stop_listening is not None:
            self._stop_listening()
            self._stop_listening = None

    def stop(self) -> None:
        """End every open stream (the server stops)."""
        self.stopping = True
        for woken in [*self._games, *(w for ws in self._events.values() for w in ws)]:
            woken.set()

    def changed(self, account_id: int) -> None:
        for woken in self._events.get(account_id, ()):
            woken.set()

    def _committed(self, account_id: int) -> None:
        """A commit of this process changed the account (called on the committing thread)."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(self.changed, account_id)

    def open_events(self, account_id: int) -> asyncio.Event:
        """A new event stream of the account; 429 in words beyond :data:`EVENT_STREAMS` (counted
        and taken in one step of the event loop, so requests at once cannot pass it)."""
        streams = self._events.setdefault(account_id, set())
        if len(streams) >= EVENT_STREAMS:
            raise HTTPException(
                429,
                _("this account has {most} event streams open already; close one first").format(
                    most=EVENT_STREAMS
                ),
                headers={"Retry-After": "10"},
            )
        woken = asyncio.Event()
        streams.add(woken)
        return woken

    def close_events(self, account_id: int, woken: asyncio.Event) -> None:
        streams = self._events.get(account_id)
        if streams is not None:
            streams.discard(woken)
            if not streams:
                del self._events[account_id]

    def open_game(self) -> asyncio.Event:
        woken = asyncio.Event()
        self._games.add(woken)
        return woken

    def close_game(self, woken: asyncio.Event) -> None:
        self._games.discard(woken)

    def event_streams(self, account_id: int) -> int:
        """How many event streams of the account this process holds."""
        return len(self._events.get(account_id, ()))


class StreamEndingServer(uvicorn.Server):
    """uvicorn's server, which ends the open streams as it begins to stop: uvicorn waits for every
    open answer before it shuts the app down, and a stream would never end by itself."""

    def __init__(self, config: uvicorn.Config, streams: OpenStreams) -> None:
        super().__init__(config)
        self.streams = streams

    async def shutdown(self, sockets: Any = None) -> None:
        self.streams.stop()
        await super().shutdown(sockets)


class _Stream(StreamingResponse):
    """An ndjson answer that gives back what it holds however it ends."""

    def __init__(self, lines: AsyncIterator[bytes], done: Callable[[], None]) -> None:
        super().__init__(
            lines,
            media_type=NDJSON,
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )
        self._done = done

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._done()
            closing = getattr(self.body_iterator, "aclose", None)
            if closing is not None:  # at once, not when it is collected: it holds a seat
                with contextlib.suppress(Exception):
                    await closing()


def streams_of(request: Request) -> OpenStreams:
    streams: OpenStreams = request.app.state.open_streams
    return streams


def _line(message: dict[str, Any]) -> bytes:
    return orjson.dumps(message) + b"\n"


async def _woken_or_due(woken: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(max(0.0, seconds)):
            await woken.wait()


# -- the account's events ---------------------------------------------------------------------


async def _event_lines(
    request: Request, held: Bearer, woken: asyncio.Event, keep_alive: float
) -> AsyncIterator[bytes]:
    streams, lobby = streams_of(request), lobby_of(request)
    journal = lobby.journal
    engine, account_id = journal.store.engine, held.account.id
    # SQLite: read on the writer's thread, after the commit that woke the stream
    run = journal.read if journal.store.shared else journal.run
    follower, opened = EventFollower(), time.time()

    async def changes() -> tuple[list[dict[str, Any]], AccountEvents]:
        now = time.time()
        found = await run(read_account_events, engine, account_id, opened, now)
        gone = follower.vanished(found)
        statuses = await run(challenge_statuses, engine, gone, now) if gone else {}
        return follower.events(found, statuses), found

    try:
        woken.clear()
        lines, found = await changes()
        yield b"".join(_line(line) for line in lines) or _KEEP_ALIVE
        beat = time.monotonic()
        while not streams.stopping:
            lapses = min((c.expires_at for c in found.incoming), default=math.inf)
            due = keep_alive - (time.monotonic() - beat)
            await _woken_or_due(woken, min(due, lapses - time.time() + 0.05))
            if streams.stopping:
                break
            if time.monotonic() - beat >= keep_alive:
                if not await token_alive(request, held.token_id):
                    break
                yield _KEEP_ALIVE
                beat = time.monotonic()
            woken.clear()
            lines, found = await changes()
            if lines:
                yield b"".join(_line(line) for line in lines)
    except Exception:  # the database failed: the program opens its stream again
        log.exception("an account's event stream failed")


# -- one game -----------------------------------------------------------------------------------


def _translated(text: str, first: bool, seat: int) -> tuple[dict[str, Any] | None, bool]:
    """The stream's line for one of the table's messages, and whether the stream ends after it."""
    message = orjson.loads(text)
    kind = message.get("type")
    if kind == "state":
        game = message["game"]
        over = game.get("status") == MatchStatus.OVER or bool(game["seats"][seat].get("left"))
        return {
            "type": "gameFull" if first else "gameState",
            "version": message.get("version"),
            "game": game,
        }, over
    if kind == "chat":
        return {"type": "chatLine", **{k: v for k, v in message.items() if k != "type"}}, False
    return message, False


async def _next_message(subscriber: Subscriber, woken: asyncio.Event, seconds: float) -> str | None:
    """The subscriber's next message, or None when ``seconds`` passed or ``woken`` was set."""
    getting = asyncio.ensure_future(subscriber.get())
    halted = asyncio.ensure_future(woken.wait())
    try:
        await asyncio.wait(
            {getting, halted}, timeout=max(0.0, seconds), return_when=asyncio.FIRST_COMPLETED
        )
    finally:
        halted.cancel()
        if not getting.done():
            getting.cancel()
    if getting.done() and not getting.cancelled():
        return getting.result()
    return None


async def _game_lines(
    request: Request, held: Bearer, game_id: str, woken: asyncio.Event, keep_alive: float
) -> AsyncIterator[bytes]:
    streams, lobby = streams_of(request), lobby_of(request)
    try:
        match: Match | None = await lobby.get(game_id)
    except LobbyError:  # it cannot be played here since the stream was asked for
        return
    if match is None:
        return
    try:
        seat = seat_at(match, held.account.id)
        if seat is None:
            return
        if match.seats[seat].away and match.status == MatchStatus.PLAYING:
            await match.come_back(seat)
        hidden = await lobby.journal.run(blocked_by, lobby.journal.store.engine, held.account.id)
        subscriber = match.subscribe(seat, held.account.id, hidden)
        try:
            first, beat = True, time.monotonic()
            while not streams.stopping:
                text = await _next_message(
                    subscriber, woken, keep_alive - (time.monotonic() - beat)
                )
                if streams.stopping:
                    break
                if text is None:
                    if not await token_alive(request, held.token_id):
                        break
                    yield _KEEP_ALIVE
                    beat = time.monotonic()
                    continue
                line, over = _translated(text, first, seat)
                if line is None:
                    continue
                first = first and line["type"] != "gameFull"
                yield _line(line)
                if over:
                    break
        finally:
            match.unsubscribe(subscriber)
    except Exception:
        log.exception("game %s: a game stream failed", game_id)
    finally:
        lobby.release(match)


# -- the routes ---------------------------------------------------------------------------------


# any token opens the account's event stream
AnyToken = Annotated[Bearer, Depends(bearer())]

_STREAM_ANSWERS: dict[int | str, dict[str, Any]] = {
    200: {"content": {NDJSON: {}}, "description": "one JSON object a line; an empty line idle"},
    401: {"model": ErrorAnswer, "description": "no token, or one that is unknown or revoked"},
    403: {"model": ErrorAnswer, "description": "the token lacks the scope, or the wrong family"},
}


def bot_streams_router() -> APIRouter:
    router = APIRouter()

    @router.get(
        "/api/stream/event",
        summary="Your account's events, as they happen (ndjson)",
        response_class=StreamingResponse,
        responses={
            **_STREAM_ANSWERS,
            429: {"model": ErrorAnswer, "description": "too many event streams open"},
        },
        description="First `gameStart` for each unfinished game and `challenge` for each open "
        "challenge to you, then `challenge`, `challengeCanceled`, `challengeDeclined`, "
        "`gameStart` and `gameFinish` as they happen; an empty line every keep-alive.",
    )
    async def event_stream(request: Request, held: AnyToken) -> StreamingResponse:
        streams = streams_of(request)
        woken = streams.open_events(held.account.id)
        keep_alive = lobby_of(request).settings.stream_keepalive
        return _Stream(
            _event_lines(request, held, woken, keep_alive),
            lambda: streams.close_events(held.account.id, woken),
        )

    for played_by in PlayedBy:
        _add_game_stream(router, played_by)
    return router


def _add_game_stream(router: APIRouter, played_by: PlayedBy) -> None:
    whose = "a bot account's game" if played_by is PlayedBy.BOT else "your own game"
    # a default, not an annotation: the annotations are read as text, without this function's names
    token_of = Depends(bearer(played_by.scope))

    @router.get(
        f"/api/{played_by.value}/game/stream/{{game_id}}",
        summary=f"The table of {whose} as your seat sees it (ndjson)",
        response_class=StreamingResponse,
        responses={
            **_STREAM_ANSWERS,
            404: {"model": ErrorAnswer, "description": "you have no seat at this game"},
        },
        name=f"{played_by.value}_game_stream",
        description="First `gameFull` (the table's `game` object for your seat, as its table "
        "connection first gets it), then `gameState` for each new table and `chatLine` for chat; "
        "ends after the game is over. An empty line every keep-alive.",
    )
    async def game_stream(
        request: Request, game_id: GameId, token: Bearer = token_of
    ) -> StreamingResponse:
        account = player_of(token, played_by)
        lobby = lobby_of(request)
        match = await lobby.get(game_id)
        try:
            if match is None or seat_at(match, account.id) is None:
                raise no_seat(game_id)
        finally:
            if match is not None:
                lobby.release(match)
        streams = streams_of(request)
        woken = streams.open_game()
        return _Stream(
            _game_lines(request, token, game_id, woken, lobby.settings.stream_keepalive),
            lambda: streams.close_game(woken),
        )

    del game_stream  # registered on the router
