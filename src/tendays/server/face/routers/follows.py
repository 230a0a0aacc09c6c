"""Following players: ``PUT`` and ``DELETE /api/following/{name}`` follow and unfollow a player,
``GET /api/following`` lists the players followed with who is online and who is playing, and
``/following`` is the page that shows the list. Each call acts for the signed-in account, with its
CSRF token (:mod:`~tendays.server.face.door.session`); what a follow is, and its limits, is
:mod:`~tendays.server.people.follows`'.
"""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse

from ...people import follows
from ...people.accounts import AccountError
from ...people.presence import online_among
from ..door.session import Person, refusal
from ..routing import ErrorAnswer, PlayerName, lobby_of, page
from .accounts_models import ACCOUNT_ERRORS
from .follows_models import FollowAnswer, FollowedPlayer, FollowingList

__all__ = ["follows_router"]

_ASKED: dict[int | str, dict[str, Any]] = {
    401: ACCOUNT_ERRORS[401],
    403: ACCOUNT_ERRORS[403],
    404: {"model": ErrorAnswer, "description": "nobody has this name"},
}


def follows_router() -> APIRouter:
    router = APIRouter(tags=["following"])

    @router.get("/following", include_in_schema=False)
    async def following_page() -> HTMLResponse:
        return page("following.html")

    @router.get(
        "/api/following",
        summary="The players you follow, with who is online and who is playing",
        response_model=FollowingList,
        responses={401: ACCOUNT_ERRORS[401]},
    )
    async def my_following(request: Request, response: Response, me: Person) -> FollowingList:
        journal = lobby_of(request).journal
        found = await journal.read(
            follows.following, journal.store.engine, me, time.time(), online_among
        )
        response.headers["Cache-Control"] = "no-store"
        return FollowingList(
            following=[
                FollowedPlayer(
                    name=f.name,
                    online=f.online,
                    playing=f.playing,
                    rating=f.rating,
                    edition=f.edition,
                )
                for f in found
            ]
        )

    @router.put(
        "/api/following/{name:path}",
        summary="Follow a player",
        description=f"Following someone already followed changes nothing. At most "
        f"{follows.FOLLOWING_CAP} players per person.",
        response_model=FollowAnswer,
        responses={
            **_ASKED,
            409: {
                "model": ErrorAnswer,
                "description": "yourself, a pair that either blocks, an account suspended or "
                "closed by the operator, or a full list (in words)",
            },
        },
    )
    async def follow(request: Request, me: Person, name: PlayerName) -> FollowAnswer:
        journal = lobby_of(request).journal
        try:
            other = await journal.run(follows.follow, journal.store.engine, me, name, time.time())
        except AccountError as error:
            raise refusal(error) from None
        return FollowAnswer(name=other.name, following=True)

    @router.delete(
        "/api/following/{name:path}",
        summary="Unfollow a player",
        response_model=FollowAnswer,
        responses=_ASKED,
    )
    async def unfollow(request: Request, me: Person, name: PlayerName) -> FollowAnswer:
        journal = lobby_of(request).journal
        try:
            other = await journal.run(follows.unfollow, journal.store.engine, me, name)
        except AccountError as error:
            raise refusal(error) from None
        return FollowAnswer(name=other.name, following=False)

    return router
