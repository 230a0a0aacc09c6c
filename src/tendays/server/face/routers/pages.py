"""The browser client's pages: the lobby, a table, one's account, the tournaments and the operator's
view (their scripts and styles are under ``/static``, mounted by
:func:`~tendays.server.face.app.create_app`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse

from ..routing import GameId, page
from .challenges import ChallengeId

__all__ = ["pages_router"]

# A tournament's page: the page itself asks the API, which answers an unknown id in words.
TournamentPageId = Annotated[str, PathParam(max_length=40, pattern=r"^[A-Za-z0-9_-]+$")]


def pages_router() -> APIRouter:
    router = APIRouter(include_in_schema=False)

    @router.get("/")
    async def lobby_page() -> HTMLResponse:
        return page("index.html")

    @router.get("/play/{game_id}")
    async def table_page(game_id: GameId) -> HTMLResponse:
        return page("play.html")

    @router.get("/challenge/{challenge_id}")
    async def challenge_page(challenge_id: ChallengeId) -> HTMLResponse:
        return page("challenge.html")

    @router.get("/inbox")
    async def inbox_page() -> HTMLResponse:
        return page("inbox.html")

    @router.get("/account")
    async def account_page() -> HTMLResponse:
        return page("account.html")

    @router.get("/account/tokens")
    async def tokens_page() -> HTMLResponse:
        return page("tokens.html")

    @router.get("/tournaments")
    async def tournaments_page() -> HTMLResponse:
        return page("tournaments.html")

    @router.get("/tournaments/{tournament_id}")
    async def tournament_page(tournament_id: TournamentPageId) -> HTMLResponse:
        return page("tournament.html")

    @router.get("/admin")
    async def admin_page() -> HTMLResponse:
        return page("admin.html")

    return router
