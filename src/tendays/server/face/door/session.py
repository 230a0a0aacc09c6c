"""Who is signed in: the session cookie, the CSRF check, and the FastAPI dependencies the routers
use.

The cookie ``tendays_session`` holds the session's random id; it is ``HttpOnly`` (no script reads
it), ``SameSite=Lax`` (no other site's form or script sends it) and ``Secure`` when the request came
over TLS, directly or through a trusted proxy (:func:`~tendays.server.face.door.guard.over_tls`). A
request that carries it, changes something (any method but GET, HEAD and OPTIONS) and acts for the
account must also carry the header ``X-CSRF-Token`` with the session's token: 403 without it. A
request without a (live) session is anonymous and needs no token. A table connection (WebSocket) is
signed in only when its ``Origin`` is this server's own, so another site cannot open a seat with a
visitor's cookie; it holds on its session, and is closed when the session ends
(:mod:`~tendays.server.people.session_ends`).

A good sign-in or sign-up also gives the browser a device cookie, ``tendays_device``, with the same
flags but sent only to ``/api/session``: it lets the owner sign in from that browser while strangers
have used up the name's sign-in limit (:mod:`~tendays.server.people.devices`). Signing out keeps it.
"""

from __future__ import annotations

import hmac
import math
from typing import Annotated
from urllib.parse import urlsplit

from fastapi import Depends, HTTPException, Request, WebSocket
from fastapi.responses import Response

from tendays.engine.i18n import gettext as _

from ...people.accounts import Account, AccountError, Accounts, Session, Ticket, session_hash
from ...people.devices import DEVICE_SECONDS

__all__ = [
    "COOKIE",
    "CSRF_HEADER",
    "DEVICE_COOKIE",
    "Person",
    "accounts_of",
    "clear_cookie",
    "current_session",
    "nobody_signed_in",
    "refusal",
    "require_account",
    "set_cookie",
    "signed_in",
    "socket_session",
]

COOKIE = "tendays_session"
# The browser's device cookie (people/devices.py): sent only to the sign-in, where it chooses the
# limit a sign-in counts against; it signs nobody in.
DEVICE_COOKIE = "tendays_device"
DEVICE_PATH = "/api/session"
CSRF_HEADER = "X-CSRF-Token"
_SAFE = frozenset({"GET", "HEAD", "OPTIONS"})


def refusal(error: AccountError) -> HTTPException:
    """The HTTP answer to a refused request about an account: its status, its words, and for a
    limit the seconds to wait (``Retry-After``)."""
    headers = (
        None
        if error.retry_after is None
        else {"Retry-After": str(max(1, math.ceil(error.retry_after)))}
    )
    return HTTPException(error.status, error.message, headers=headers)


def accounts_of(request: Request | WebSocket) -> Accounts:
    """The accounts the app opened when it started (``app.state.accounts``)."""
    accounts: Accounts = request.app.state.accounts
    return accounts


async def current_session(request: Request) -> Session | None:
    """The live session of the request's cookie, or None; looked up once per request."""
    if hasattr(request.state, "session"):
        session: Session | None = request.state.session
        return session
    session_id = request.cookies.get(COOKIE)
    session = await accounts_of(request).session(session_id) if session_id else None
    request.state.session = session
    return session


async def signed_in(request: Request) -> Account | None:
    """The signed-in account, or None for an anonymous request; 403 for a changing request signed in
    by its cookie that lacks the session's CSRF token."""
    session = await current_session(request)
    if session is None:
        return None
    if request.method not in _SAFE:
        given = request.headers.get(CSRF_HEADER, "")
        if not hmac.compare_digest(given.encode("utf-8", "replace"), session.csrf.encode()):
            raise HTTPException(
                403,
                _(
                    "this request needs the {header} header of your session (sign in again "
                    "if the page is old)"
                ).format(header=CSRF_HEADER),
            )
    return session.account


async def require_account(request: Request) -> Account:
    """The signed-in account; 401 in words when nobody is signed in."""
    account = await signed_in(request)
    if account is None:
        raise nobody_signed_in()
    return account


# a call's signed-in person (401 in words when nobody is signed in)
Person = Annotated[Account, Depends(require_account)]


def nobody_signed_in() -> HTTPException:
    return HTTPException(401, _("sign in first: nobody is signed in"))


def set_cookie(response: Response, request: Request, ticket: Ticket) -> None:
    """Give the browser its new session, and its new device cookie if it has one (with the same
    flags; the device cookie goes only to the sign-in's address)."""
    accounts = accounts_of(request)
    response.set_cookie(
        COOKIE,
        ticket.id,
        max_age=int(accounts.session_seconds),
        path="/",
        httponly=True,
        samesite="lax",
        secure=bool(request.scope.get("tendays.tls")),
    )
    if ticket.device is not None:
        response.set_cookie(
            DEVICE_COOKIE,
            ticket.device,
            max_age=int(DEVICE_SECONDS),
            path=DEVICE_PATH,
            httponly=True,
            samesite="lax",
            secure=bool(request.scope.get("tendays.tls")),
        )


def clear_cookie(response: Response, request: Request) -> None:
    response.delete_cookie(
        COOKIE,
        path="/",
        httponly=True,
        samesite="lax",
        secure=bool(request.scope.get("tendays.tls")),
    )


async def socket_session(websocket: WebSocket) -> tuple[Session, str] | None:
    """The session a table connection is signed in to (its cookie's, if it comes from this server's
    pages) and the session's hash, or None."""
    session_id = websocket.cookies.get(COOKIE)
    if not session_id:
        return None
    origin = websocket.headers.get("origin")
    if (
        origin is not None
        and urlsplit(origin).netloc.lower() != websocket.headers.get("host", "").lower()
    ):
        return None
    session = await accounts_of(websocket).session(session_id)
    return None if session is None else (session, session_hash(session_id))
