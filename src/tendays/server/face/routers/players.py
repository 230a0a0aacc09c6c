"""People's profiles and the leaderboards: ``GET /api/players/{name}``, ``GET /api/leaderboard`` and
their pages, ``/players/{name}`` (with the rating chart the page draws) and ``/leaderboard``.

A name may hold a slash ("AC/DC"): the pages link to ``/players/AC%2FDC``, which the server reads as
two path segments, so the name is matched as a path (``{name:path}``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from tendays.engine import available_editions
from tendays.engine.i18n import gettext as _

from ...matches.wire import listed_name
from ...people.profiles import leaderboard, profile
from ...vocabulary import SeatKind
from ..routing import ERRORS, ErrorAnswer, PlayerName, lobby_of, page
from .players_models import Leaderboard, Profile

__all__ = ["players_router"]


def players_router() -> APIRouter:
    """The players' calls and pages."""
    router = APIRouter()

    @router.get(
        "/api/players/{name:path}",
        summary="A player's profile: ratings, their history and games",
        response_model=Profile,
        responses={404: {"model": ErrorAnswer, "description": "nobody has this name"}},
    )
    async def player(
        request: Request,
        name: PlayerName,
        page: Annotated[int, Query(ge=1, le=100_000)] = 1,
        per_page: Annotated[int, Query(ge=1, le=100)] = 20,
    ) -> dict[str, Any]:
        journal = lobby_of(request).journal
        found = await journal.read(profile, journal.store.engine, name, page, per_page)
        if found is None:
            raise HTTPException(404, _("there is no player called '{name}'").format(name=name[:64]))
        # a deleted account's seat, as every table says it: in the reader's language
        for game in found["games"]:
            for other in game["others"]:
                if other["bot"] is None:
                    other["name"] = listed_name(0, SeatKind.HUMAN, other["name"], None)
        return found

    @router.get(
        "/api/leaderboard",
        summary="An edition's best players, with the bots' ratings beside them",
        response_model=Leaderboard,
        responses={422: ERRORS[422]},
    )
    async def best(
        request: Request,
        edition: Annotated[str, Query(max_length=32)] = "usa",
        page: Annotated[int, Query(ge=1, le=100_000)] = 1,
        per_page: Annotated[int, Query(ge=1, le=100)] = 50,
        bots: Annotated[
            bool, Query(description="false: leave the bot accounts off (shown, marked, by default)")
        ] = True,
    ) -> dict[str, Any]:
        if edition not in available_editions():
            raise HTTPException(
                422,
                _("unknown edition '{edition}'; known: {known}").format(
                    edition=edition, known=", ".join(available_editions())
                ),
            )
        journal = lobby_of(request).journal
        return await journal.read(leaderboard, journal.store.engine, edition, page, per_page, bots)

    @router.get("/players/{name:path}", include_in_schema=False, response_model=None)
    async def player_page(name: PlayerName) -> HTMLResponse | RedirectResponse:
        if not name:  # the name taken off the address: everyone's ranks instead
            return RedirectResponse("/leaderboard")
        return page("player.html")

    @router.get("/players", include_in_schema=False)
    async def players_page() -> RedirectResponse:
        return RedirectResponse("/leaderboard")

    @router.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page() -> HTMLResponse:
        return page("leaderboard.html")

    return router
