"""Quick pairing over HTTP: ``POST /api/seeks`` to play someone now, ``GET /api/seeks/{id}`` to
learn the game once paired (only the seek's owner may read it), ``DELETE
/api/seeks/{id}`` to stop waiting."""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Request
from fastapi import Path as PathParam

from tendays.engine.i18n import gettext as _

from ...people.bot_accounts import bot_only_refusal
from ...people.matchmaker import Matchmaker
from ...people.ratings import START, USUAL, scale_words
from ...people.seeks import Seek
from ..door.session import Person, refusal
from ..routing import ERRORS, ID_PATTERN, ErrorAnswer
from .seeks_models import RatingScale, SeekAnswer, SeekRequest

__all__ = ["seeks_router"]

SeekId = Annotated[str, PathParam(description="the seek's id", max_length=32, pattern=ID_PATTERN)]
_ASKED: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorAnswer, "description": "nobody is signed in"},
    403: {"model": ErrorAnswer, "description": "the session's X-CSRF-Token header is missing"},
}
_ONE: dict[int | str, dict[str, Any]] = {
    **_ASKED,
    404: {"model": ErrorAnswer, "description": "you have no seek of this id"},
}


def matchmaker_of(request: Request) -> Matchmaker:
    """The matchmaker the app started (``app.state.matchmaker``)."""
    matchmaker: Matchmaker = request.app.state.matchmaker
    return matchmaker


def seeks_router() -> APIRouter:
    router = APIRouter()

    @router.get(
        "/api/rating-scale",
        summary="The rating scale, for choosing an opponent's range",
        response_model=RatingScale,
    )
    async def rating_scale() -> RatingScale:
        return RatingScale(start=START.mu, low=USUAL[0], high=USUAL[1], said=scale_words())

    @router.post(
        "/api/seeks",
        summary="Play someone now: wait to be paired into a rated game",
        status_code=201,
        response_model=SeekAnswer,
        response_model_exclude_none=False,
        responses={**_ASKED, 422: ERRORS[422]},
        description="Two seeks of the same edition and pace, each person's rating inside the "
        "other's range, are paired into a new rated two-person game within a second. A person has "
        "one seek at a time: a new one cancels the last. Ask `GET /api/seeks/{id}` for the game.",
    )
    async def post_seek(request: Request, body: SeekRequest, person: Person) -> SeekAnswer:
        if person.bot:
            raise refusal(bot_only_refusal())
        matchmaker = matchmaker_of(request)
        span = body.rating_range
        try:
            seek = await matchmaker.seek(
                person.id,
                body.edition,
                body.pace.to_pace() if body.pace else None,
                (span.min, span.max) if span else (None, None),
            )
        except ValueError as error:
            raise HTTPException(422, str(error)) from None
        return _answer(matchmaker, seek, with_game=False)

    @router.get(
        "/api/seeks/{seek_id}",
        summary="Your seek: still waiting, or the game it was paired into",
        response_model=SeekAnswer,
        responses=_ONE,
    )
    async def get_seek(request: Request, seek_id: SeekId, person: Person) -> SeekAnswer:
        matchmaker = matchmaker_of(request)
        return _answer(matchmaker, _owned(await matchmaker.look(seek_id, person.id), seek_id))

    @router.delete(
        "/api/seeks/{seek_id}",
        summary="Stop waiting (a seek already paired stays paired)",
        response_model=SeekAnswer,
        responses=_ONE,
    )
    async def cancel_seek(request: Request, seek_id: SeekId, person: Person) -> SeekAnswer:
        matchmaker = matchmaker_of(request)
        return _answer(matchmaker, _owned(await matchmaker.cancel(seek_id, person.id), seek_id))

    return router


def _owned(seek: Seek | None, seek_id: str) -> Seek:
    if seek is None:  # someone else's seek reads as none at all
        raise HTTPException(404, _("you have no seek '{seek}'").format(seek=seek_id))
    return seek


def _answer(matchmaker: Matchmaker, seek: Seek, with_game: bool = True) -> SeekAnswer:
    game = seek.game_id if with_game else None
    # forgotten after a while: the seat opens signed in
    token = seek.token if game is not None else None
    url = None if game is None else f"/play/{game}#token={token}" if token else f"/play/{game}"
    return SeekAnswer(
        id=seek.id,
        status=seek.status,
        game=game,
        token=token,
        url=url,
        waited=max(0.0, time.time() - seek.created),
        offer_bot_after=matchmaker.settings.bot_offer_after,
    )
