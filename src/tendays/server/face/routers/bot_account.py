"""Becoming a bot account over HTTP: ``POST /api/bot/account/upgrade`` with an API token of scope
``bot:play`` (docs/protocol.md "Bot API"). The rules are in
:mod:`~tendays.server.people.bot_accounts`."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel

from ...people import bot_accounts
from ...people.accounts import AccountError
from ...people.api_tokens import TokenScope
from ..door.bearer import Bearer, bearer
from ..door.session import refusal
from ..routing import ErrorAnswer, lobby_of

__all__ = ["bot_account_router"]

BotToken = Annotated[Bearer, Depends(bearer(TokenScope.BOT_PLAY))]


class UpgradeAnswer(BaseModel):
    """The account that is now a bot account."""

    name: str
    bot: bool


_ANSWERS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorAnswer, "description": "no token, or one unknown, revoked or closed"},
    403: {"model": ErrorAnswer, "description": "the token lacks the scope bot:play"},
    409: {
        "model": ErrorAnswer,
        "description": "already a bot account; or the account has played a game, has an open "
        "seek or a tournament entry",
    },
    429: {"model": ErrorAnswer, "description": "the token's requests of this minute are made"},
}


def bot_account_router() -> APIRouter:
    router = APIRouter()

    @router.post(
        "/api/bot/account/upgrade",
        summary="Make the token's account a bot account (for good)",
        response_model=UpgradeAnswer,
        responses=_ANSWERS,
        description="Only an account that has never had a seat in a game, and has no open seek "
        "or tournament entry, may become a bot account. It cannot be undone. A bot account is "
        "marked BOT wherever its name shows and plays only through the Bot API.",
    )
    async def upgrade(request: Request, token: BotToken) -> UpgradeAnswer:
        journal = lobby_of(request).journal

        def run() -> Any:
            with journal.store.engine.begin() as db:
                return bot_accounts.upgrade(db, token.account.id)

        try:
            account = await journal.run(run)
        except AccountError as error:
            raise refusal(error) from None
        return UpgradeAnswer(name=account.name, bot=True)

    return router
