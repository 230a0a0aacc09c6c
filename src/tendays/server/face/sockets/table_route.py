"""The tables' WebSocket route ``/ws/games/{id}``; what is said over it is
:mod:`tendays.server.face.sockets.table`'s."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket

from ..door.limits import Limits
from ..door.session import accounts_of, socket_session
from ..routing import lobby_of
from .table import SignedIn, serve_table

__all__ = ["table_router"]


def table_router(limits: Limits) -> APIRouter:
    router = APIRouter()

    @router.websocket("/ws/games/{game_id}")
    async def table(websocket: WebSocket, game_id: str) -> None:
        # a signed-in person's hello may ask for their seat
        session = await socket_session(websocket)
        signed_in = None if session is None else SignedIn(session[0].account.id, session[1])
        await serve_table(
            websocket, lobby_of(websocket), limits, game_id, signed_in, accounts_of(websocket).ends
        )

    return router
