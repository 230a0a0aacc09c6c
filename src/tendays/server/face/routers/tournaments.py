"""Tournaments over HTTP (docs/protocol.md, "Tournaments"): create one, list them, read one whole,
join and withdraw, pause in an arena, and the event's chat. Refusals are in words: 404 for no such
tournament, 409 for a rule (over, already joined, rating outside the limits, ...), 422 for a
request that cannot be an event, 429 with ``Retry-After`` for a limit.
"""

from __future__ import annotations

import math
import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse

from ...people.accounts import Account
from ...people.api_tokens import TokenScope
from ...people.tournament_chat import chat_lines, say
from ...people.tournament_spec import TournamentError, TournamentStatus, check_spec
from ...people.tournament_views import player_tournaments, tournament_page, tournaments_list
from ...people.tournaments import create, join, pause, withdraw
from ...storage.journal import Journal
from ..door.bearer import person_or_bearer
from ..door.session import Person, signed_in
from ..routing import ErrorAnswer, lobby_of
from .tournaments_models import (
    ChatLines,
    ChatRequest,
    Created,
    TournamentList,
    TournamentRequest,
    when,
)

__all__ = ["act", "tournament_refusal", "tournaments_router"]

TournamentId = Annotated[int, PathParam(description="the tournament's id", ge=1, le=2**31 - 1)]
# a person signed in, or a program with a bot:play token (a bot account enters as a person does)
Entrant = Annotated[Account, Depends(person_or_bearer(TokenScope.BOT_PLAY))]
_SIGNED: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorAnswer, "description": "nobody is signed in"},
    403: {"model": ErrorAnswer, "description": "the session's X-CSRF-Token header is missing"},
}
_ONE: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorAnswer, "description": "there is no such tournament"}
}
_RULED: dict[int | str, dict[str, Any]] = {
    **_SIGNED,
    **_ONE,
    409: {"model": ErrorAnswer, "description": "a rule refuses it (the reason says which)"},
}


def tournament_refusal(error: TournamentError) -> HTTPException:
    """The HTTP answer to a refused tournament request: its status, its words, and for a limit the
    seconds to wait (``Retry-After``)."""
    headers = (
        None
        if error.retry_after is None
        else {"Retry-After": str(max(1, math.ceil(error.retry_after)))}
    )
    return HTTPException(error.status, error.message, headers=headers)


def _journal(request: Request) -> Journal:
    return lobby_of(request).journal


def _wake(request: Request) -> None:
    director = getattr(request.app.state, "director", None)
    if director is not None:
        director.wake()


async def act(request: Request, function: Any, *args: Any) -> dict[str, bool]:
    """An entrant's ``function(engine, *args)`` on the database thread, then the director woken;
    a refusal in words."""
    journal = _journal(request)
    try:
        await journal.run(function, journal.store.engine, *args)
    except TournamentError as error:
        raise tournament_refusal(error) from None
    _wake(request)
    return {"ok": True}


async def _read_for_reader(request: Request, function: Any, tournament_id: int) -> Any:
    """``function(engine, tournament_id, reader)`` on the database thread, ``reader`` the id of
    the account signed in (or None); a refusal in words."""
    journal = _journal(request)
    reader = await signed_in(request)
    try:
        return await journal.read(
            function, journal.store.engine, tournament_id, None if reader is None else reader.id
        )
    except TournamentError as error:
        raise tournament_refusal(error) from None


def tournaments_router() -> APIRouter:
    router = APIRouter(tags=["tournaments"])

    @router.post(
        "/api/tournaments",
        summary="Create a tournament (an arena or a Swiss event)",
        status_code=201,
        response_model=Created,
        responses={
            **_SIGNED,
            422: {"model": ErrorAnswer, "description": "not a valid event"},
            429: {"model": ErrorAnswer, "description": "too many created today"},
        },
    )
    async def create_tournament(
        request: Request, body: TournamentRequest, person: Person
    ) -> Created:
        journal = _journal(request)
        settings = lobby_of(request).settings
        now = time.time()
        try:
            starts_at = when(body.starts_at, now)
        except ValueError as error:
            raise HTTPException(422, str(error)) from None
        try:
            spec = check_spec(body.spec(), settings)
            made = await journal.run(
                create,
                journal.store.engine,
                spec,
                starts_at,
                now,
                person.id,
                settings.tournaments_per_day,
            )
        except TournamentError as error:
            raise tournament_refusal(error) from None
        _wake(request)
        return Created(id=made, url=f"/tournaments/{made}")

    @router.get(
        "/api/tournaments",
        summary="The tournaments: upcoming, running or finished, or those a player entered",
        response_model=TournamentList,
        responses={404: {"model": ErrorAnswer, "description": "there is no such player"}},
    )
    async def list_tournaments(
        request: Request,
        status: Annotated[
            TournamentStatus | None,
            Query(description="upcoming, running or finished; none: all but cancelled ones"),
        ] = None,
        player: Annotated[
            str | None,
            Query(
                max_length=64,
                description="only the tournaments this player entered, newest first, each with "
                "their line of its standings (`standing`); `status` is then not used",
            ),
        ] = None,
    ) -> TournamentList:
        journal = _journal(request)
        engine = journal.store.engine
        try:
            found = await (
                journal.read(tournaments_list, engine, status)
                if player is None
                else journal.read(player_tournaments, engine, player)
            )
        except TournamentError as error:
            raise tournament_refusal(error) from None
        return TournamentList(tournaments=found)

    @router.get(
        "/api/tournaments/{tournament_id}",
        summary="One tournament: standings, games, podium, and your entry",
        responses=_ONE,
    )
    async def read_tournament(request: Request, tournament_id: TournamentId) -> JSONResponse:
        page = await _read_for_reader(request, tournament_page, tournament_id)
        return JSONResponse(page, headers={"Cache-Control": "no-store"})

    @router.post(
        "/api/tournaments/{tournament_id}/join",
        summary="Join the tournament (or come back after withdrawing)",
        responses=_RULED,
    )
    async def join_tournament(
        request: Request, tournament_id: TournamentId, person: Entrant
    ) -> dict[str, bool]:
        return await act(request, join, tournament_id, person.id, time.time())

    @router.delete(
        "/api/tournaments/{tournament_id}/join",
        summary="Withdraw: never paired again (your results stay)",
        responses=_RULED,
    )
    async def withdraw_from(
        request: Request, tournament_id: TournamentId, person: Entrant
    ) -> dict[str, bool]:
        return await act(request, withdraw, tournament_id, person.id, time.time())

    @router.put(
        "/api/tournaments/{tournament_id}/pause",
        summary="Arena: stop being paired for now",
        responses=_RULED,
    )
    async def pause_in(
        request: Request, tournament_id: TournamentId, person: Person
    ) -> dict[str, bool]:
        return await act(request, pause, tournament_id, person.id, time.time(), True)

    @router.delete(
        "/api/tournaments/{tournament_id}/pause",
        summary="Arena: be paired again",
        responses=_RULED,
    )
    async def come_back(
        request: Request, tournament_id: TournamentId, person: Person
    ) -> dict[str, bool]:
        return await act(request, pause, tournament_id, person.id, time.time(), False)

    @router.get(
        "/api/tournaments/{tournament_id}/chat",
        summary="The tournament's chat (without the lines of people you block)",
        response_model=ChatLines,
        responses=_ONE,
    )
    async def read_chat(request: Request, tournament_id: TournamentId) -> ChatLines:
        lines = await _read_for_reader(request, chat_lines, tournament_id)
        return ChatLines.model_validate({"lines": lines})

    @router.post(
        "/api/tournaments/{tournament_id}/chat",
        summary="Write a line in the tournament's chat",
        status_code=201,
        responses={
            **_SIGNED,
            **_ONE,
            422: {"model": ErrorAnswer, "description": "not a line"},
            429: {"model": ErrorAnswer, "description": "too many lines"},
        },
    )
    async def write_chat(
        request: Request, tournament_id: TournamentId, body: ChatRequest, person: Person
    ) -> dict[str, Any]:
        journal = _journal(request)
        settings = lobby_of(request).settings
        try:
            line: dict[str, Any] = await journal.run(
                say, journal.store.engine, tournament_id, person, body.text, settings, time.time()
            )
        except TournamentError as error:
            raise tournament_refusal(error) from None
        return line

    return router
