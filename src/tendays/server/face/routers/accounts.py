"""The account calls: sign up, sign in and out, who is signed in, a new password, signing out
everywhere, deleting the account, and downloading one's own data (docs/protocol.md, "Accounts").

Every call acts on the signed-in account only: none takes another account's name or id, so no
account can read or change another's data. The session and CSRF rules are
:mod:`~tendays.server.face.door.session`'s.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse, Response

from tendays.engine.i18n import gettext as _

from ...people.accounts import AccountError, Ticket
from ..door.session import (
    COOKIE,
    DEVICE_COOKIE,
    accounts_of,
    clear_cookie,
    current_session,
    refusal,
    require_account,
    set_cookie,
)
from ..routing import ERRORS, GameId, lobby_of
from .accounts_models import (
    ACCOUNT_ERRORS,
    AccountSeat,
    Credentials,
    DeleteAccount,
    NewPassword,
    SessionInfo,
)

__all__ = ["accounts_router"]


def _address(request: Request) -> str:
    return str(
        request.scope.get("tendays.client")
        or (request.client.host if request.client else "unknown")
    )


def _signed_in(request: Request, ticket: Ticket, status: int) -> JSONResponse:
    response = JSONResponse(
        {"name": ticket.session.account.name, "csrf": ticket.session.csrf}, status_code=status
    )
    set_cookie(response, request, ticket)
    response.headers["Cache-Control"] = "no-store"
    return response


def accounts_router() -> APIRouter:
    router = APIRouter(tags=["accounts"])

    @router.post(
        "/api/accounts",
        summary="Sign up: a new account, signed in",
        status_code=201,
        response_model=SessionInfo,
        responses={k: ACCOUNT_ERRORS[k] for k in (409, 422, 429)},
    )
    async def sign_up(request: Request, body: Credentials) -> JSONResponse:
        try:
            ticket = await accounts_of(request).sign_up(
                body.name, body.password, request.cookies.get(COOKIE), _address(request)
            )
        except AccountError as error:
            raise refusal(error) from None
        return _signed_in(request, ticket, 201)

    @router.post(
        "/api/session",
        summary="Sign in (a new session, whatever the browser had)",
        response_model=SessionInfo,
        responses={k: ACCOUNT_ERRORS[k] for k in (401, 429)},
    )
    async def sign_in(request: Request, body: Credentials) -> JSONResponse:
        try:
            ticket = await accounts_of(request).sign_in(
                body.name,
                body.password,
                _address(request),
                request.cookies.get(COOKIE),
                device=request.cookies.get(DEVICE_COOKIE),
            )
        except AccountError as error:
            raise refusal(error) from None
        return _signed_in(request, ticket, 200)

    @router.get(
        "/api/session",
        summary="Who is signed in, and the session's CSRF token",
        response_model=SessionInfo,
        responses={204: {"description": "nobody is signed in"}},
    )
    async def who(request: Request, response: Response) -> SessionInfo | Response:
        session = await current_session(request)
        # Not being signed in is an answer, not an error: every page asks this of every visitor,
        # and a browser logs each 4xx as an error in its console.
        if session is None:
            return Response(status_code=204, headers={"Cache-Control": "no-store"})
        response.headers["Cache-Control"] = "no-store"
        return SessionInfo(name=session.account.name, csrf=session.csrf)

    @router.delete(
        "/api/session",
        summary="Sign out: this session ends",
        status_code=204,
        responses={k: ACCOUNT_ERRORS[k] for k in (401, 403)},
    )
    async def sign_out(request: Request) -> Response:
        await require_account(request)
        await accounts_of(request).sign_out(request.cookies[COOKIE])
        response = Response(status_code=204)
        clear_cookie(response, request)
        return response

    @router.delete(
        "/api/account/sessions",
        summary="Sign out everywhere: every session of the account ends",
        status_code=204,
        responses={k: ACCOUNT_ERRORS[k] for k in (401, 403)},
    )
    async def sign_out_everywhere(request: Request) -> Response:
        account = await require_account(request)
        await accounts_of(request).sign_out_everywhere(account)
        response = Response(status_code=204)
        clear_cookie(response, request)
        return response

    @router.post(
        "/api/account/password",
        summary="A new password (the other sessions end)",
        status_code=204,
        responses={k: ACCOUNT_ERRORS[k] for k in (401, 403, 422, 429)},
    )
    async def change_password(request: Request, body: NewPassword) -> Response:
        account = await require_account(request)
        try:
            await accounts_of(request).change_password(
                account,
                body.password,
                body.new_password,
                _address(request),
                request.cookies[COOKIE],
            )
        except AccountError as error:
            raise refusal(error) from None
        return Response(status_code=204)

    @router.delete(
        "/api/account",
        summary='Delete the account (its games stay, under "deleted player")',
        status_code=204,
        responses={k: ACCOUNT_ERRORS[k] for k in (401, 403, 429)},
    )
    async def delete_account(request: Request, body: DeleteAccount) -> Response:
        account = await require_account(request)
        try:
            await accounts_of(request).delete(account, body.password, _address(request))
        except AccountError as error:
            raise refusal(error) from None
        response = Response(status_code=204)
        clear_cookie(response, request)
        return response

    @router.get(
        "/api/account/data",
        summary="Download everything the server keeps about the account",
        responses={401: ACCOUNT_ERRORS[401]},
    )
    async def account_data(request: Request) -> JSONResponse:
        account = await require_account(request)
        data: dict[str, Any] = await accounts_of(request).export(account)
        return JSONResponse(
            data,
            headers={
                "Content-Disposition": 'attachment; filename="tendays-account.json"',
                "Cache-Control": "no-store",
            },
        )

    @router.get(
        "/api/games/{game_id}/seat",
        summary="The signed-in account's seat at a game",
        description='Opening the game signed in to this account (the hello\'s `"account": true`) '
        "resumes this seat on any device.",
        response_model=AccountSeat,
        responses={401: ACCOUNT_ERRORS[401], 404: ERRORS[404]},
    )
    async def my_seat(request: Request, game_id: GameId) -> AccountSeat:
        account = await require_account(request)
        lobby = lobby_of(request)
        match = await lobby.get(game_id)
        seat = None if match is None else match.seat_of_account(account.id)
        if match is not None:
            lobby.release(match)
        if seat is None:
            raise HTTPException(
                404, _("you have no seat at this game in the account you are signed in to")
            )
        return AccountSeat(id=game_id, seat=seat)

    return router
