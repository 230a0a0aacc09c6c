"""The tables' WebSocket route ``/ws/games/{id}``; what is said over it is
:mod:`tendays.server.face.table`'s."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket

from .guard import Limits
from .routing import lobby_of
from .session import socket_account
from .table import serve_table

__all__ = ["table_router"]


def table_router(limits: Limits) -> APIRouter:
    router = APIRouter()

    @router.websocket("/ws/games/{game_id}")
    async def table(websocket: WebSocket, game_id: str) -> None:
        # a signed-in person's hello may ask for their seat
        account = await socket_account(websocket)
        await serve_table(
            websocket, lobby_of(websocket), limits, game_id, account.id if account else None
        )

    return router
