"""The inbox over HTTP and its live socket: ``GET /api/notifications`` (newest first, paged),
``POST /api/notifications/read``, ``GET /api/games/your-move`` (the lobby's list of correspondence
games waiting for the signed-in person) and ``/ws/me`` (:mod:`~tendays.server.face.sockets.me`)."""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, WebSocket

from ...people.game_notices import games_to_play
from ...people.notifications import inbox_of, mark_read, unread_count
from ..door.session import Person, socket_session
from ..routing import ErrorAnswer, lobby_of
from ..sockets.me import InboxSockets, serve_me
from .notifications_models import (
    InboxAnswer,
    MarkedAnswer,
    MarkRead,
    NotificationAnswer,
    YourMoveAnswer,
    YourMoveGame,
)

__all__ = ["inbox_sockets_of", "notifications_router"]

_ASKED: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorAnswer, "description": "nobody is signed in"},
    403: {"model": ErrorAnswer, "description": "the session's X-CSRF-Token header is missing"},
}
#: The most notifications one page of the inbox holds.
PAGE_MOST = 100


def inbox_sockets_of(request: Request | WebSocket) -> InboxSockets:
    """The app's ``/ws/me`` sockets (``app.state.inbox_sockets``)."""
    sockets: InboxSockets = request.app.state.inbox_sockets
    return sockets


def notifications_router() -> APIRouter:
    router = APIRouter()

    @router.get(
        "/api/notifications",
        summary="Your inbox: notifications, newest first",
        response_model=InboxAnswer,
        responses=_ASKED,
        description="Kept until read; read ones for 30 days; at most the 200 newest. Page on with "
        "`before` (the id of the last one shown). Live on the WebSocket `/ws/me`.",
    )
    async def inbox(
        request: Request,
        person: Person,
        before: Annotated[int | None, Query(ge=1, description="older than this id")] = None,
        limit: Annotated[int, Query(ge=1, le=PAGE_MOST, description="how many")] = 50,
    ) -> InboxAnswer:
        journal = lobby_of(request).journal
        engine = journal.store.engine

        def read() -> InboxAnswer:
            with engine.connect() as db:
                found = inbox_of(db, person.id, before, limit)
            return InboxAnswer(
                notifications=[NotificationAnswer(**n.to_json()) for n in found.notifications],
                unread=found.unread,
            )

        return await journal.read(read)

    @router.post(
        "/api/notifications/read",
        summary="Mark notifications read (all of them without ids)",
        response_model=MarkedAnswer,
        responses={**_ASKED, 422: {"model": ErrorAnswer, "description": "not a list of ids"}},
    )
    async def read_some(request: Request, body: MarkRead, person: Person) -> MarkedAnswer:
        journal = lobby_of(request).journal
        engine = journal.store.engine
        now = time.time()

        def work() -> MarkedAnswer:
            with engine.begin() as db:
                marked = mark_read(db, person.id, body.ids, now)
                return MarkedAnswer(marked=marked, unread=unread_count(db, person.id))

        return await journal.run(work)

    @router.get(
        "/api/games/your-move",
        summary="Your correspondence games waiting for your move",
        response_model=YourMoveAnswer,
        responses=_ASKED,
    )
    async def your_move(request: Request, person: Person) -> YourMoveAnswer:
        journal = lobby_of(request).journal
        engine = journal.store.engine

        def read() -> YourMoveAnswer:
            with engine.connect() as db:
                games = games_to_play(db, person.id)
            return YourMoveAnswer(games=[YourMoveGame(**g.to_json()) for g in games])

        return await journal.read(read)

    @router.websocket("/ws/me")
    async def me(websocket: WebSocket) -> None:
        session = await socket_session(websocket)
        await serve_me(
            websocket,
            inbox_sockets_of(websocket),
            None if session is None else session[0].account.id,
            None if session is None else session[1],
        )

    return router
