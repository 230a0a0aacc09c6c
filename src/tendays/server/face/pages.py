"""The browser client's pages: the lobby, a table, one's account and the operator's view (their
scripts and styles are under ``/static``, mounted by
:func:`~tendays.server.face.app.create_app`)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import FileResponse

from .routing import GameId, page

__all__ = ["pages_router"]


def pages_router() -> APIRouter:
    router = APIRouter(include_in_schema=False)

    @router.get("/")
    async def lobby_page() -> FileResponse:
        return page("index.html")

    @router.get("/play/{game_id}")
    async def table_page(game_id: GameId) -> FileResponse:
        return page("play.html")

    @router.get("/account")
    async def account_page() -> FileResponse:
        return page("account.html")

    @router.get("/admin")
    async def admin_page() -> FileResponse:
        return page("admin.html")

    return router
