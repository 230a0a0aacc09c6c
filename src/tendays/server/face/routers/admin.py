"""The operator's view: every game (unfinished and ended), closing one, and the per-client limits
being hit.

Off unless the server has an admin token (``TENDAYS_ADMIN_TOKEN``); every call then needs
``Authorization: Bearer TOKEN``. The page ``/admin`` asks for the token and uses these calls; so
does ``tendays admin``. A token that does not look random is refused at start
(:func:`weak_token`). A wrong token is recorded among the refusals the admin view lists, and after
``FAILURES_PER_MINUTE`` of them in a minute an address is refused (429) until the minute has passed,
right token or not.
"""

from __future__ import annotations

import hashlib
import hmac
import math
from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Query, Request

from tendays.engine.i18n import gettext as _

from ...matches.notices import N_
from ...people.strength import estimate, shannon_bits
from ...vocabulary import EndReason, MatchStatus
from ..door.limits import LimitBook, Limits
from ..routing import lobby_of

__all__ = ["FAILURES_PER_MINUTE", "MAKE_TOKEN", "admin_guard", "admin_router", "weak_token"]

FAILURES_PER_MINUTE = 10  # wrong admin tokens one address may send a minute
# 16 random bytes in hex are 104 bits by zxcvbn's count; 12345678 four times is 4, a phrase of
# seven common words about 114 by zxcvbn but far less in truth, hence both estimates
MIN_TOKEN_BITS = 100
MAKE_TOKEN = 'python3 -c "import secrets; print(secrets.token_urlsafe(32))"'


def weak_token(token: str) -> str | None:
    """Why ``token`` is too weak to guard the admin view, or None if it is strong enough: it must
    hold :data:`MIN_TOKEN_BITS` by zxcvbn's count of guesses (which sees words, repeats, sequences
    and keyboard rows) and by the Shannon entropy of its characters (which sees a few characters
    used over and over)."""
    bits = min(estimate(token).bits, shannon_bits(token))
    if bits < MIN_TOKEN_BITS:
        return _(
            "the admin token must be a random secret: this one holds about {bits} bits, at least "
            "{least} are needed; make one with: {command}"
        ).format(bits=round(bits), least=MIN_TOKEN_BITS, command=MAKE_TOKEN)
    return None


def _digest(token: str) -> bytes:
    """Tokens are compared as digests: in constant time, whatever their lengths."""
    return hashlib.sha256(token.encode("utf-8", "surrogateescape")).digest()


def admin_guard(admin_token: str | None, book: LimitBook) -> Callable[[Request], None]:
    """The dependency every admin call has: 404 while the admin view is off, 401 for a missing or
    wrong token, 429 for an address that sent too many wrong ones. ``ValueError`` if
    ``admin_token`` is too weak (:func:`weak_token`)."""
    reason = weak_token(admin_token) if admin_token else None
    if reason is not None:
        raise ValueError(reason)
    expected = _digest(admin_token) if admin_token else b""

    def authorised(request: Request) -> None:
        if not admin_token:
            raise HTTPException(
                404, "the admin view is off: start the server with TENDAYS_ADMIN_TOKEN set"
            )
        address = str(
            request.scope.get("tendays.client") or (request.client.host if request.client else "")
        )
        wait = book.waiting("admin", address, FAILURES_PER_MINUTE)
        if wait:
            book.note_refusal("admin", address)
            seconds = max(1, round(wait))
            raise HTTPException(
                429,
                _("too many wrong admin tokens from your address; try again in {seconds} s").format(
                    seconds=seconds
                ),
                headers={"Retry-After": str(seconds)},
            )
        scheme, _space, token = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(_digest(token.strip()), expected):
            book.allow("admin", address, FAILURES_PER_MINUTE)  # counts this failure
            book.note_refusal("admin", address)
            raise HTTPException(
                401, "the admin token is missing or wrong", headers={"WWW-Authenticate": "Bearer"}
            )

    return authorised


def admin_router(admin_token: str | None, limits: Limits, book: LimitBook) -> APIRouter:
    """The admin calls on games and limits; ``ValueError`` if ``admin_token`` is too weak
    (:func:`weak_token`). The moderation calls are in :mod:`.admin_moderation`."""
    router = APIRouter(prefix="/api/admin", tags=["admin"])
    authorised = admin_guard(admin_token, book)
    guard = [Depends(authorised)]

    @router.get("/games", summary="Every game, newest first", dependencies=guard)
    async def games(
        request: Request,
        status: Literal["unfinished", "ended", "all"] = "unfinished",
        page: Annotated[int, Query(ge=1, le=100_000)] = 1,
        per_page: Annotated[int, Query(ge=1, le=200)] = 50,
    ) -> dict[str, Any]:
        lobby = lobby_of(request)
        finished = {"unfinished": False, "ended": True, "all": None}[status]
        store = lobby.journal.store
        rows, total = await lobby.journal.run(
            store.list_games, finished, (page - 1) * per_page, per_page
        )
        for row in rows:
            match = lobby.matches.get(row["id"])
            stored = MatchStatus.OVER if row["finished"] else "not loaded"
            row["status"] = match.status if match is not None else stored
            row["watchers"] = match.watchers if match is not None else 0
            row["seats"] = (
                [
                    {
                        "name": s.display_name,
                        "kind": s.kind,
                        "bot": s.bot,
                        "away": s.away,
                        "left": s.left,
                        "connected": match.connected(s.index),
                    }
                    for s in match.seats
                ]
                if match is not None
                else None
            )
        return {
            "games": rows,
            "page": page,
            "per_page": per_page,
            "total": total,
            "pages": max(1, math.ceil(total / per_page)),
            "held": len(lobby.active()),
        }

    @router.post(
        "/games/{game_id}/close",
        summary="Close a game: it ends, with no winner",
        dependencies=guard,
    )
    async def close(request: Request, game_id: str) -> dict[str, Any]:
        lobby = lobby_of(request)
        match = await lobby.get(game_id)
        if match is None:
            raise HTTPException(404, f"there is no game {game_id!r}")
        try:
            if match.status == MatchStatus.OVER:
                raise HTTPException(409, f"game {game_id} is already over")
            await match.end(EndReason.CLOSED, N_("the server's operator closed the game"))
            return match.summary()
        finally:
            lobby.release(match)

    @router.get("/limits", summary="The per-client limits and who hit them", dependencies=guard)
    async def limits_hit() -> dict[str, Any]:
        return book.to_json(limits)

    @router.post(
        "/sweep", summary="Expire idle games and delete old ended ones now", dependencies=guard
    )
    async def sweep(request: Request) -> dict[str, int]:
        closed, deleted = await lobby_of(request).sweep()
        return {"closed": closed, "deleted": deleted}

    return router
