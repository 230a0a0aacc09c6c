"""The operator's tournament calls, guarded by the admin token like every admin call
(:func:`~tendays.server.face.routers.admin.admin_guard`): create a site event (``POST
/api/admin/tournaments``, no daily limit, no creator), list every tournament and series, cancel an
event, and schedule or stop a repeating series (``/api/admin/tournament-series``), whose events
each server process's director makes an hour ahead (:mod:`~tendays.server.people.tournaments`).
Each action is written to the audit log in its own transaction, with who took it (as the
moderation calls: :func:`~tendays.server.face.routers.admin_moderation.operator_of`).
``tendays admin tournament ...`` calls them.
"""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi import Path as PathParam
from pydantic import Field

from tendays.engine.i18n import gettext as _

from ...people.tournament_spec import TournamentError, check_spec
from ...people.tournament_views import tournaments_list
from ...people.tournaments import cancel, create, schedule, series_list, unschedule
from ..door.limits import LimitBook
from ..routing import lobby_of
from .admin import admin_guard
from .admin_moderation import operator_of
from .tournaments import tournament_refusal
from .tournaments_models import Created, TournamentRequest, when

__all__ = ["SeriesRequest", "admin_tournaments_router", "checked_spec", "tournament_call"]

Id = Annotated[int, PathParam(ge=1, le=2**31 - 1)]


class SeriesRequest(TournamentRequest):
    every: int = Field(
        ge=10, le=7 * 24 * 60, description="minutes from one event's start to the next (10 or more)"
    )


async def tournament_call(request: Request, function: Any, *args: Any) -> Any:
    """``function(engine, *args)`` on the database thread; a tournament's refusal in words."""
    journal = lobby_of(request).journal
    try:
        return await journal.run(function, journal.store.engine, *args)
    except TournamentError as error:
        raise tournament_refusal(error) from None


def checked_spec(request: Request, body: TournamentRequest) -> tuple[Any, float]:
    """The request's checked spec and its start; 422 or a tournament's refusal in words."""
    now = time.time()
    try:
        starts_at = when(body.starts_at, now)
        return check_spec(body.spec(), lobby_of(request).settings), starts_at
    except ValueError as error:
        raise HTTPException(422, str(error)) from None
    except TournamentError as error:
        raise tournament_refusal(error) from None


def admin_tournaments_router(admin_token: str | None, book: LimitBook) -> APIRouter:
    router = APIRouter(prefix="/api/admin", tags=["admin"])
    guard = [Depends(admin_guard(admin_token, book))]

    @router.post(
        "/tournaments",
        summary="Create a site tournament",
        status_code=201,
        response_model=Created,
        dependencies=guard,
    )
    async def create_event(request: Request, body: TournamentRequest) -> Created:
        spec, starts_at = checked_spec(request, body)
        who = operator_of(request, admin_token)
        made = await tournament_call(request, create, spec, starts_at, time.time(), None, 0, who)
        director = getattr(request.app.state, "director", None)
        if director is not None:
            director.wake()
        return Created(id=made, url=f"/tournaments/{made}")

    @router.get("/tournaments", summary="Every tournament and series", dependencies=guard)
    async def every_event(request: Request) -> dict[str, Any]:
        journal = lobby_of(request).journal
        engine = journal.store.engine
        events = await journal.read(tournaments_list, engine, None)
        return {"tournaments": events, "series": await journal.read(series_list, engine)}

    @router.post(
        "/tournaments/{tournament_id}/cancel", summary="Cancel a tournament", dependencies=guard
    )
    async def cancel_event(request: Request, tournament_id: Id) -> dict[str, Any]:
        who = operator_of(request, admin_token)
        if not await tournament_call(request, cancel, tournament_id, who, time.time()):
            raise HTTPException(409, _("this tournament is over already"))
        return {"id": tournament_id, "status": "cancelled"}

    @router.post(
        "/tournament-series",
        summary="Schedule a repeating site tournament",
        status_code=201,
        dependencies=guard,
    )
    async def schedule_series(request: Request, body: SeriesRequest) -> dict[str, Any]:
        spec, first = checked_spec(request, body)
        who = operator_of(request, admin_token)
        made = await tournament_call(
            request, schedule, spec, body.every * 60.0, first, time.time(), who
        )
        director = getattr(request.app.state, "director", None)
        if director is not None:
            director.wake()
        return {"id": made}

    @router.delete("/tournament-series/{series_id}", summary="Stop a series", dependencies=guard)
    async def stop_series(request: Request, series_id: Id) -> dict[str, Any]:
        who = operator_of(request, admin_token)
        if not await tournament_call(request, unschedule, series_id, who, time.time()):
            raise HTTPException(404, _("there is no active series {id}").format(id=series_id))
        return {"id": series_id, "active": False}

    return router
