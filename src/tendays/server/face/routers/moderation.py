"""A person's moderation calls: report a player to the operator (``POST /api/reports``), block and
unblock a player (``PUT`` and ``DELETE /api/blocks/{name}``) and list one's blocks (``GET
/api/blocks``). Each acts for the signed-in account, with its CSRF token
(:mod:`~tendays.server.face.door.session`); what a report and a block do is
:mod:`~tendays.server.people.reports`' and :mod:`~tendays.server.people.blocks`'.

A block takes effect at once in this process: the blocker's open tables hide the blocked player's
chat; tables open on another process hide it from their next connection on.
"""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from ...people import blocks, reports
from ...people.accounts import Account, AccountError
from ...people.moderation_types import ReportReason
from ..door.session import Person, refusal
from ..routing import ErrorAnswer, PlayerName, lobby_of
from .accounts_models import ACCOUNT_ERRORS
from .moderation_models import (
    BlockAnswer,
    BlockedPlayer,
    BlockList,
    ReportReceipt,
    ReportRequest,
)

__all__ = ["moderation_router"]

_ASKED: dict[int | str, dict[str, Any]] = {
    401: ACCOUNT_ERRORS[401],
    403: ACCOUNT_ERRORS[403],
    404: {"model": ErrorAnswer, "description": "nobody has this name"},
    422: {"model": ErrorAnswer, "description": "oneself, or a request that cannot be (in words)"},
}


async def _change_block(request: Request, me: Account, name: str, blocked: bool) -> BlockAnswer:
    """Block or unblock ``name`` for ``me``; the blocker's tables open here read it at once."""
    journal = lobby_of(request).journal
    engine = journal.store.engine
    try:
        if blocked:
            other = await journal.run(blocks.block, engine, me, name, time.time())
        else:
            other = await journal.run(blocks.unblock, engine, me, name)
    except AccountError as error:
        raise refusal(error) from None
    _hide_chat_now(request, me.id, await journal.run(blocks.blocked_by, engine, me.id))
    return BlockAnswer(name=other.name, blocked=blocked)


def _hide_chat_now(request: Request, account_id: int, hidden: frozenset[int]) -> None:
    """The blocker's tables open on this process read the blocks as they now stand."""
    for match in lobby_of(request).active():
        match.hide_chat(account_id, hidden)


def moderation_router() -> APIRouter:
    router = APIRouter(tags=["moderation"])

    @router.get(
        "/api/report-reasons",
        summary="The reasons a report may give",
        response_model=list[str],
    )
    async def report_reasons() -> list[str]:
        return [reason.value for reason in ReportReason]

    @router.post(
        "/api/reports",
        summary="Report a player to the operator",
        description=f"At most {reports.REPORTS_PER_DAY} reports a day per person; the same "
        "report again (this player, this game) while it is open is the same report.",
        status_code=201,
        response_model=ReportReceipt,
        responses={
            200: {"model": ReportReceipt, "description": "the same report was already open"},
            **_ASKED,
            429: {
                "model": ErrorAnswer,
                "description": "the day's reports are sent; see Retry-After",
            },
        },
    )
    async def report(request: Request, me: Person, body: ReportRequest) -> JSONResponse:
        journal = lobby_of(request).journal
        try:
            filed = await journal.run(
                reports.report,
                journal.store.engine,
                me,
                body.player,
                body.reason,
                body.game,
                body.text,
                time.time(),
            )
        except AccountError as error:
            raise refusal(error) from None
        receipt = ReportReceipt(id=filed.id, new=filed.new)
        return JSONResponse(receipt.model_dump(), status_code=201 if filed.new else 200)

    @router.get(
        "/api/blocks",
        summary="Everyone the signed-in person blocks",
        response_model=BlockList,
        responses={401: ACCOUNT_ERRORS[401]},
    )
    async def my_blocks(request: Request, response: Response, me: Person) -> BlockList:
        journal = lobby_of(request).journal

        def read() -> list[blocks.Blocked]:
            with journal.store.engine.connect() as db:
                return blocks.blocks_of(db, me.id)

        found = await journal.read(read)
        response.headers["Cache-Control"] = "no-store"
        return BlockList(players=[BlockedPlayer(name=b.name, since=b.since) for b in found])

    @router.put(
        "/api/blocks/{name:path}",
        summary="Block a player: no pairing or table with them, and their chat hidden from you",
        response_model=BlockAnswer,
        responses=_ASKED,
    )
    async def block(request: Request, me: Person, name: PlayerName) -> BlockAnswer:
        return await _change_block(request, me, name, blocked=True)

    @router.delete(
        "/api/blocks/{name:path}",
        summary="Unblock a player",
        response_model=BlockAnswer,
        responses=_ASKED,
    )
    async def unblock(request: Request, me: Person, name: PlayerName) -> BlockAnswer:
        return await _change_block(request, me, name, blocked=False)

    return router
