"""The operator's moderation calls, guarded by the admin token like every admin call
(:func:`~tendays.server.face.routers.admin.admin_guard`): the reports people sent (``GET
/api/admin/reports``, closing one with a note), the accounts flagged for quick losses (``GET
/api/admin/flags``), an account's status (``POST /api/admin/accounts/{name}/ACTION``: suspend,
close, reinstate, hide, unhide, annul) and the audit log (``GET /api/admin/audit``).

Every action is written to the audit log in the transaction that takes it
(:mod:`~tendays.server.people.moderation`). Who acted: the admin token's fingerprint, and the name
in the ``X-Tendays-Operator`` header (percent-encoded UTF-8) if any (``tendays admin --operator``).
After suspending or closing an account, its sessions end everywhere and its connections close
(:meth:`~tendays.server.people.accounts.Accounts.end_sessions`), and its seats in unfinished games
go to bots as if the person had left.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar
from urllib.parse import unquote

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi import Path as PathParam
from pydantic import BaseModel, Field

from tendays.engine.i18n import gettext as _

from ...people import flags, moderation
from ...people.accounts import AccountError
from ...people.audit import MAX_NOTE, Operator, audit_page, clean_note
from ...people.leaving import leave_games
from ...people.moderation_types import OperatorAction, ReportStatus
from ..door.limits import LimitBook
from ..door.session import accounts_of, refusal
from ..routing import STRICT, lobby_of
from .admin import admin_guard

__all__ = ["OPERATOR_HEADER", "admin_moderation_router", "in_transaction", "operator_of"]

log = logging.getLogger("tendays.server")

T = TypeVar("T")

OPERATOR_HEADER = "X-Tendays-Operator"
#: The actions ``POST /api/admin/accounts/{name}/ACTION`` takes.
AccountAction = Literal["suspend", "close", "reinstate", "hide", "unhide", "annul"]


class Note(BaseModel):
    model_config = STRICT

    note: str = Field(default="", max_length=MAX_NOTE, description="why, for the audit log")


class AccountActionRequest(Note):
    games: list[Annotated[str, Field(max_length=32)]] | None = Field(
        default=None,
        max_length=1000,
        description="annul: only these games (default: every counted rated game of the account)",
    )


def operator_of(request: Request, admin_token: str | None) -> Operator:
    """Who calls: the admin token's fingerprint and the name in :data:`OPERATOR_HEADER`; 422 for
    a name that cannot be."""
    try:
        # percent-encoded, so that a name in any script fits a header
        name = unquote(request.headers.get(OPERATOR_HEADER, ""), errors="strict")
        return Operator.of(admin_token or "", name)
    except UnicodeDecodeError:
        raise HTTPException(422, _("the operator's name is not UTF-8")) from None
    except AccountError as error:
        raise refusal(error) from None


async def in_transaction(request: Request, work: Callable[..., T], *args: Any) -> T:
    """``work(db, *args)`` in one transaction on the database thread; refusals in words."""
    journal = lobby_of(request).journal

    def run() -> T:
        with journal.store.engine.begin() as db:
            return work(db, *args)

    try:
        return await journal.run(run)
    except AccountError as error:
        raise refusal(error) from None


def admin_moderation_router(admin_token: str | None, book: LimitBook) -> APIRouter:
    """The moderation calls; ``ValueError`` if ``admin_token`` is too weak."""
    router = APIRouter(prefix="/api/admin", tags=["admin"])
    guard = [Depends(admin_guard(admin_token, book))]

    @router.get("/reports", summary="The reports people sent, open first", dependencies=guard)
    async def reports(
        request: Request,
        status: Literal["open", "closed", "all"] = "all",
        page: Annotated[int, Query(ge=1, le=100_000)] = 1,
        per_page: Annotated[int, Query(ge=1, le=200)] = 50,
    ) -> dict[str, Any]:
        which = None if status == "all" else ReportStatus(status)
        return await in_transaction(request, moderation.reports_page, which, page, per_page)

    @router.post(
        "/reports/{report_id}/close", summary="Close a report with a note", dependencies=guard
    )
    async def close_report(
        request: Request, report_id: Annotated[int, PathParam(ge=1, le=2**31)], body: Note
    ) -> dict[str, Any]:
        who = operator_of(request, admin_token)
        note = _note(body.note)
        return await in_transaction(request, moderation.close_report, who, report_id, note)

    @router.get("/flags", summary="Accounts that lose rated games at once", dependencies=guard)
    async def flagged(request: Request) -> dict[str, Any]:
        journal = lobby_of(request).journal

        def read() -> list[dict[str, Any]]:
            with journal.store.engine.connect() as db:
                return flags.flagged(db)

        return {
            "accounts": await journal.read(read),
            "rule": {
                "quick_loss_moves": flags.QUICK_LOSS_MOVES,
                "losses": flags.FLAG_LOSSES,
                "window_hours": flags.FLAG_WINDOW / 3600,
                "lookback_days": flags.LOOKBACK_DAYS,
            },
        }

    @router.post(
        "/accounts/{name}/{action}",
        summary="Suspend, close, reinstate, hide, unhide an account or annul its rated games",
        dependencies=guard,
    )
    async def account_action(
        request: Request,
        name: Annotated[str, PathParam(min_length=1, max_length=128)],
        action: AccountAction,
        body: AccountActionRequest,
    ) -> dict[str, Any]:
        who = operator_of(request, admin_token)
        note = _note(body.note)
        chosen = OperatorAction(action)
        if chosen is OperatorAction.ANNUL:
            done = await in_transaction(request, moderation.annul, who, name, body.games, note)
        elif chosen in (OperatorAction.HIDE, OperatorAction.UNHIDE):
            hidden = chosen is OperatorAction.HIDE
            done = await in_transaction(request, moderation.set_hidden, who, name, hidden, note)
        else:
            done = await in_transaction(request, moderation.change_status, who, chosen, name, note)
        answer = done.to_json()
        if "unfinished_games" in done.outcome:  # suspended or closed
            await accounts_of(request).end_sessions(done.account_id)
            answer["games_to_bots"] = await leave_games(
                lobby_of(request), done.account_id, done.outcome["unfinished_games"]
            )
        log.info("operator %s: %s %s", who, action, done.name)
        return answer

    @router.get("/audit", summary="Every operator action, newest first", dependencies=guard)
    async def audit(
        request: Request,
        page: Annotated[int, Query(ge=1, le=100_000)] = 1,
        per_page: Annotated[int, Query(ge=1, le=200)] = 50,
    ) -> dict[str, Any]:
        journal = lobby_of(request).journal

        def read() -> dict[str, Any]:
            with journal.store.engine.connect() as db:
                return audit_page(db, page, per_page)

        return await journal.read(read)

    return router


def _note(note: str) -> str:
    try:
        return clean_note(note)
    except AccountError as error:
        raise refusal(error) from None
