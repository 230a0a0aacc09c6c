"""Challenges over HTTP: ``POST /api/challenges`` to challenge a player (or make an open link),
``GET /api/challenges`` for one's own, ``GET /api/challenges/{id}`` for one (its page polls it), and
``accept``, ``decline`` and ``DELETE`` (the challenger cancels). The rules are in
:mod:`~tendays.server.people.challenges`.

A program may make every call but the one challenge's page with an API token instead of a session
(``Authorization: Bearer``, no CSRF): one with ``challenge:write``, or ``bot:play`` for a bot
account (a person's token needs ``challenge:write`` to make a challenge)."""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi import Path as PathParam

from tendays.engine.i18n import gettext as _

from ...people.accounts import Account, AccountError
from ...people.api_tokens import TokenScope
from ...people.challenge_games import ChallengeDesk
from ...people.challenge_types import Challenge, DeclineReason
from ..door.bearer import Bearer, person_or_bearer
from ..door.session import refusal, signed_in
from ..routing import ID_PATTERN, ErrorAnswer, lobby_of
from .challenges_models import (
    AcceptAnswer,
    ChallengeAnswer,
    ChallengeList,
    ChallengeRequest,
    DeclineRequest,
)

__all__ = ["challenges_router"]

ChallengeId = Annotated[
    str, PathParam(description="the challenge's id", max_length=16, pattern=ID_PATTERN)
]
# the signed-in person, or a program with its token
Person = Annotated[
    Account, Depends(person_or_bearer(TokenScope.CHALLENGE_WRITE, TokenScope.BOT_PLAY))
]
_ASKED: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorAnswer, "description": "nobody is signed in"},
    403: {"model": ErrorAnswer, "description": "the session's X-CSRF-Token header is missing"},
}
_ONE: dict[int | str, dict[str, Any]] = {
    **_ASKED,
    404: {"model": ErrorAnswer, "description": "no challenge of this id for you"},
    409: {
        "model": ErrorAnswer,
        "description": "answered, cancelled or expired already, your own, or a block either way",
    },
}


def desk_of(request: Request) -> ChallengeDesk:
    """The challenges' desk of the request's lobby (it keeps nothing but the lobby)."""
    return ChallengeDesk(lobby_of(request))


def challenges_router() -> APIRouter:
    router = APIRouter()

    @router.post(
        "/api/challenges",
        summary="Challenge a player, or make an open link",
        status_code=201,
        response_model=ChallengeAnswer,
        responses={
            **_ASKED,
            404: {"model": ErrorAnswer, "description": "there is no player of that name"},
            409: {
                "model": ErrorAnswer,
                "description": "yourself, a suspended or closed account, a block either way, or "
                "3 open challenges to them already",
            },
            422: {"model": ErrorAnswer, "description": "an edition, options or clock not played"},
            429: {"model": ErrorAnswer, "description": "20 challenges within the hour"},
        },
        description="The challenged player is told at once on every open page. A challenge with "
        "a live clock lapses after 10 minutes, one with a correspondence clock or none after 3 "
        'days. `"to": null` makes an open link: the first signed-in person who accepts it plays.',
    )
    async def post_challenge(
        request: Request, body: ChallengeRequest, person: Person
    ) -> ChallengeAnswer:
        held: Bearer | None = getattr(request.state, "bearer", None)
        if (
            held is not None
            and not held.account.bot
            and TokenScope.CHALLENGE_WRITE not in held.scopes
        ):
            raise HTTPException(
                403,
                _(
                    "a person's token needs the scope challenge:write to make challenges; "
                    "bot:play makes them for bot accounts only"
                ),
            )
        try:
            challenge = await desk_of(request).challenge(
                person,
                body.to,
                body.edition,
                body.options.model_dump(),
                body.clock.to_pace() if body.clock else None,
                body.rated,
            )
        except AccountError as error:
            raise refusal(error) from None
        except ValueError as error:
            raise HTTPException(422, str(error)) from None
        return answer(challenge)

    @router.get(
        "/api/challenges",
        summary="Your challenges: the open ones to you, and yours",
        response_model=ChallengeList,
        responses=_ASKED,
    )
    async def list_challenges(request: Request, person: Person) -> ChallengeList:
        incoming, outgoing = await desk_of(request).listing(person.id)
        return ChallengeList(
            incoming=[answer(c) for c in incoming], outgoing=[answer(c) for c in outgoing]
        )

    @router.get(
        "/api/challenges/{challenge_id}",
        summary="One challenge (its people's; anyone's for an open link)",
        response_model=ChallengeAnswer,
        responses={404: _ONE[404]},
    )
    async def get_challenge(request: Request, challenge_id: ChallengeId) -> ChallengeAnswer:
        reader = await signed_in(request)
        challenge = await desk_of(request).get(challenge_id, reader.id if reader else None)
        if challenge is None:
            raise refusal(AccountError(404, _("there is no challenge here for you")))
        return answer(challenge)

    @router.post(
        "/api/challenges/{challenge_id}/accept",
        summary="Accept a challenge: its game is made, and you take your seat",
        response_model=AcceptAnswer,
        responses={**_ONE, 503: {"model": ErrorAnswer, "description": "the server is full"}},
        description="Of two accepts at once (or an accept and a cancel) exactly one wins.",
    )
    async def accept(request: Request, challenge_id: ChallengeId, person: Person) -> AcceptAnswer:
        try:
            taken = await desk_of(request).accept(challenge_id, person)
        except AccountError as error:
            raise refusal(error) from None
        return AcceptAnswer(
            game=taken.game_id,
            token=taken.token,
            url=f"/play/{taken.game_id}#token={taken.token}",
        )

    @router.post(
        "/api/challenges/{challenge_id}/decline",
        summary="Decline a challenge to you, with a reason the challenger reads",
        response_model=ChallengeAnswer,
        responses=_ONE,
    )
    async def decline(
        request: Request,
        challenge_id: ChallengeId,
        person: Person,
        body: DeclineRequest | None = None,
    ) -> ChallengeAnswer:
        reason = DeclineReason.GENERIC if body is None else body.reason
        try:
            challenge = await desk_of(request).decline(challenge_id, person, reason)
        except AccountError as error:
            raise refusal(error) from None
        return answer(challenge)

    @router.delete(
        "/api/challenges/{challenge_id}",
        summary="Cancel your open challenge",
        response_model=ChallengeAnswer,
        responses=_ONE,
    )
    async def cancel(
        request: Request, challenge_id: ChallengeId, person: Person
    ) -> ChallengeAnswer:
        try:
            challenge = await desk_of(request).cancel(challenge_id, person)
        except AccountError as error:
            raise refusal(error) from None
        return answer(challenge)

    return router


def answer(challenge: Challenge) -> ChallengeAnswer:
    """A challenge as the API shows it, the decline's reason in the reader's language."""
    return ChallengeAnswer.model_validate(
        {
            "id": challenge.id,
            "from": challenge.challenger,
            "to": challenge.challenged,
            "edition": challenge.edition,
            "options": challenge.options,
            "clock": None if challenge.pace is None else challenge.pace.to_json(),
            "rated": challenge.rated,
            "status": challenge.status_at(time.time()).value,
            "reason": challenge.reason,
            "reason_said": None if challenge.reason is None else challenge.reason.said(),
            "expires_at": challenge.expires_at,
            "url": challenge.url,
            "game": challenge.game_id,
        }
    )
