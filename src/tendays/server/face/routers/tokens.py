"""API tokens: ``POST /api/tokens`` makes a personal token (shown once), ``GET /api/tokens`` lists
them (never their values), ``DELETE /api/tokens/{id}`` revokes one, and ``GET /api/token`` tells a
program whose token it holds (the one call made with a token); the page ``/account/tokens``
(:mod:`~tendays.server.face.routers.pages`) does all three. Each call acts for the signed-in person
with their CSRF token (:mod:`~tendays.server.face.door.session`): a token cannot make or see
tokens. What a token is and its rules: :mod:`~tendays.server.people.api_tokens`; how a request
shows one: :mod:`~tendays.server.face.door.bearer`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Depends, Request, Response
from fastapi import Path as PathParam

from ...people import api_tokens
from ...people.accounts import AccountError
from ...people.api_tokens import TokenScope
from ..door.bearer import Bearer, bearer
from ..door.session import Person, accounts_of, refusal
from ..routing import ErrorAnswer
from .accounts_models import ACCOUNT_ERRORS
from .tokens_models import (
    NewTokenAnswer,
    RevokedToken,
    TokenAsked,
    TokenEntry,
    TokenList,
    TokenOwner,
)

__all__ = ["tokens_router"]

T = TypeVar("T")
AnyToken = Annotated[Bearer, Depends(bearer())]
TokenId = Annotated[
    int, PathParam(description="the token's id, as the list shows it", ge=1, le=2**31 - 1)
]


async def _in_transaction(request: Request, work: Callable[[Any], T]) -> T:
    """``work(db)`` in one transaction on the database thread; an AccountError in words."""
    accounts = accounts_of(request)

    def run() -> T:
        with accounts.engine.begin() as db:
            return work(db)

    try:
        return await accounts.lobby.journal.run(run)
    except AccountError as error:
        raise refusal(error) from None


def tokens_router() -> APIRouter:
    router = APIRouter(tags=["API tokens"])

    @router.post(
        "/api/tokens",
        status_code=201,
        summary="Make an API token",
        description="The answer holds the token, this once; send it as `Authorization: Bearer "
        "<token>`. Only a signed-in person makes tokens (a token cannot).",
        response_model=NewTokenAnswer,
        responses={
            401: ACCOUNT_ERRORS[401],
            403: ACCOUNT_ERRORS[403],
            409: {"model": ErrorAnswer, "description": "the account holds 20 live tokens"},
            422: {"model": ErrorAnswer, "description": "a name or a scope that cannot be"},
        },
    )
    async def make(
        request: Request, response: Response, me: Person, asked: TokenAsked
    ) -> NewTokenAnswer:
        try:
            name = api_tokens.token_name(asked.name)
            scopes = api_tokens.scopes_from(asked.scopes)
        except AccountError as error:
            raise refusal(error) from None
        now = accounts_of(request).clock()
        made = await _in_transaction(
            request, lambda db: api_tokens.make_token(db, me.id, name, scopes, now)
        )
        response.headers["Cache-Control"] = "no-store"
        return NewTokenAnswer(
            id=made.id, name=made.name, scopes=list(made.scopes), token=made.token
        )

    @router.get(
        "/api/tokens",
        summary="Your API tokens",
        response_model=TokenList,
        responses={401: ACCOUNT_ERRORS[401]},
    )
    async def listed(request: Request, response: Response, me: Person) -> TokenList:
        found = await _in_transaction(request, lambda db: api_tokens.list_tokens(db, me.id))
        response.headers["Cache-Control"] = "no-store"
        return TokenList(
            tokens=[
                TokenEntry(
                    id=t.id,
                    name=t.name,
                    scopes=list(t.scopes),
                    created=t.created,
                    last_used=t.last_used,
                    revoked=t.revoked,
                )
                for t in found
            ]
        )

    @router.delete(
        "/api/tokens/{token_id}",
        summary="Revoke an API token",
        description="From now on the token is refused; a stream it opened ends at its next "
        "keep-alive. Revoking a revoked token changes nothing.",
        response_model=RevokedToken,
        responses={
            401: ACCOUNT_ERRORS[401],
            403: ACCOUNT_ERRORS[403],
            404: {"model": ErrorAnswer, "description": "you have no token with this id"},
        },
    )
    async def revoke(request: Request, me: Person, token_id: TokenId) -> RevokedToken:
        now = accounts_of(request).clock()
        await _in_transaction(request, lambda db: api_tokens.revoke_token(db, me.id, token_id, now))
        return RevokedToken(id=token_id, revoked=True)

    @router.get(
        "/api/token",
        summary="The account and scopes of the token you send",
        description="Sent with `Authorization: Bearer <token>`: a program's check of its token "
        "before it starts (any scope will do; it counts against the token's per-minute limit).",
        response_model=TokenOwner,
        responses={
            401: {
                "model": ErrorAnswer,
                "description": "no token, or one unknown or revoked, or "
                "its account suspended or closed",
            },
            429: {
                "model": ErrorAnswer,
                "description": "the token's requests of this minute are made",
            },
        },
    )
    async def owner(token: AnyToken) -> TokenOwner:
        return TokenOwner(
            id=token.token_id,
            name=token.account.name,
            bot_account=token.account.bot,
            scopes=[scope.value for scope in TokenScope if scope in token.scopes],
        )

    return router
