"""Requests signed with a personal API token (``Authorization: Bearer <token>``): the FastAPI
dependencies of the Bot API.

``Depends(bearer(TokenScope.BOT_PLAY))`` answers who the token acts for, or refuses in words:

- 401 with ``WWW-Authenticate: Bearer`` for a request without a token, and for a token that is
  unknown or revoked, or whose account is suspended, closed or deleted;
- 429 with ``Retry-After`` once the token has made its requests of this minute (the server's
  ``--token-requests-per-minute``, counted in the database, so shared by every server process);
- 403 naming the scopes when the token holds none of those the call needs.

A token needs no CSRF header: no browser sends it by itself, as it sends a cookie.
:func:`person_or_bearer` lets one call serve both a program (its token) and the signed-in person
(the cookie, with CSRF on changing requests, exactly as
:func:`~tendays.server.face.door.session.require_account`). An open stream asks :func:`token_alive`
at each keep-alive, and ends once its token is revoked or its account is no longer active.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from fastapi import HTTPException, Request, WebSocket
from starlette.applications import Starlette

from tendays.engine.i18n import gettext as _

from ...people import api_tokens
from ...people.accounts import Account, Accounts
from ...people.api_tokens import TokenHolder, TokenScope
from ...people.limits import counting
from .limits import Limits
from .session import accounts_of, require_account

__all__ = ["AUTHORIZATION", "Bearer", "bearer", "person_or_bearer", "token_alive"]

AUTHORIZATION = "authorization"
_CHALLENGE = {"WWW-Authenticate": "Bearer"}


@dataclass(frozen=True)
class Bearer:
    """A request's live token: whose account (``account.bot`` says whether it is a bot account),
    which token, and its scopes."""

    account: Account
    token_id: int
    scopes: frozenset[TokenScope]


def _token_of(request: Request) -> str:
    """The token of the request's ``Authorization`` header; 401 in words without one."""
    scheme, _space, token = request.headers.get(AUTHORIZATION, "").strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise HTTPException(
            401,
            _(
                "this call needs an API token: send the header 'Authorization: Bearer <token>' "
                "(make a token on your account's page /account/tokens)"
            ),
            headers=_CHALLENGE,
        )
    return token.strip()


def _per_minute(request: Request) -> int:
    limits: Limits = request.app.state.limits
    return limits.token_requests_per_minute


async def _holder(request: Request) -> TokenHolder:
    """The request's token checked and counted: 401 or 429 in words when it may not act."""
    token = _token_of(request)
    accounts = accounts_of(request)
    per_minute = _per_minute(request)
    now = accounts.clock()

    def run() -> TokenHolder | float | None:
        with counting(accounts.engine) as db:
            return api_tokens.authenticate(db, token, per_minute, now)

    found = await accounts.lobby.journal.run(run)
    if found is None:
        raise HTTPException(
            401,
            _(
                "this API token is not valid: it is unknown or revoked, or its account is "
                "suspended or closed"
            ),
            headers=_CHALLENGE,
        )
    if isinstance(found, float):
        seconds = max(1, math.ceil(found))
        raise HTTPException(
            429,
            _(
                "this API token has made its {most} requests of this minute; wait {seconds} s"
            ).format(most=per_minute, seconds=seconds),
            headers={"Retry-After": str(seconds)},
        )
    return found


def bearer(*scopes: TokenScope) -> Callable[..., Awaitable[Bearer]]:
    """A dependency: the request's token (see the module's text), which must hold at least one of
    ``scopes`` (none given: any token will do)."""

    async def dependency(request: Request) -> Bearer:
        holder = await _holder(request)
        if scopes and not holder.scopes.intersection(scopes):
            raise HTTPException(403, _missing_scope(scopes))
        found = Bearer(holder.account, holder.token_id, holder.scopes)
        request.state.bearer = found
        return found

    return dependency


def person_or_bearer(*scopes: TokenScope) -> Callable[..., Awaitable[Account]]:
    """A dependency: the account of the request's token when it shows one (checked as
    :func:`bearer`), else the signed-in person (cookie and CSRF, as
    :func:`~tendays.server.face.door.session.require_account`)."""
    by_token = bearer(*scopes)

    async def dependency(request: Request) -> Account:
        if AUTHORIZATION in request.headers:
            return (await by_token(request)).account
        return await require_account(request)

    return dependency


def _missing_scope(scopes: tuple[TokenScope, ...]) -> str:
    if len(scopes) == 1:
        return _(
            "this call needs a token with the scope {scope}; this token does not have it"
        ).format(scope=scopes[0].value)
    return _(
        "this call needs a token with one of the scopes {scopes}; this token has none of them"
    ).format(scopes=", ".join(scope.value for scope in scopes))


async def token_alive(where: Request | WebSocket | Starlette, token_id: int) -> bool:
    """Whether the token still works (not revoked, its account active); for open streams, which
    ask at each keep-alive. ``where``: the stream's request, or the app."""
    accounts: Accounts = (
        where.state.accounts if isinstance(where, Starlette) else accounts_of(where)
    )

    def look() -> bool:
        with accounts.engine.connect() as db:
            return api_tokens.token_alive(db, token_id)

    return await accounts.lobby.journal.read(look)
