"""Playing a game from a program, by POST: ``/api/bot/game/{id}/move``, ``/chat`` and ``/resign``
for a bot account's games (a token with ``bot:play``), and the same under ``/api/board/game/{id}``
for a person's own games (``board:play``; a bot account is refused there).

Each call acts for the account's seat at the game, in the process that serves it, exactly as the
seat's table connection would (:meth:`~tendays.server.matches.master.Match.submit`, ``say``,
``leave``), and is refused with the game's own words in the request's language: 409 with the
table's error ``code`` (``illegal`` with the broken rule, ``out_of_turn``, ``stale``, ``forbidden``
once the seat is left or the game is over), 422 for a malformed body or a move that is no move, 404
for a game the account has no seat at.
"""

from __future__ import annotations

import enum
from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from tendays.engine.i18n import gettext as _

from ...matches.master import Match
from ...matches.seats import Rejected
from ...people.accounts import Account
from ...people.api_tokens import TokenScope
from ...people.bot_events import wake_accounts
from ...vocabulary import MatchStatus, RejectionCode
from ..door.bearer import Bearer, bearer
from ..routing import ErrorAnswer, GameId, lobby_of

__all__ = ["PlayedBy", "bot_game_router", "player_of", "seat_at"]


class PlayedBy(enum.StrEnum):
    """Who plays through a family of calls: a bot account (``/api/bot``) or a person's program
    (``/api/board``)."""

    BOT = "bot"
    BOARD = "board"

    @property
    def scope(self) -> TokenScope:
        return TokenScope.BOT_PLAY if self is PlayedBy.BOT else TokenScope.BOARD_PLAY


def player_of(bearer_of: Bearer, played_by: PlayedBy) -> Account:
    """The token's account, if it plays through this family of calls; 403 in words if not."""
    account = bearer_of.account
    if played_by is PlayedBy.BOT and not account.bot:
        raise HTTPException(
            403,
            _(
                "/api/bot/ is for bot accounts; this account is a person's: play your own games "
                "under /api/board/ with a board:play token, or make the account a bot account"
            ),
        )
    if played_by is PlayedBy.BOARD and account.bot:
        raise HTTPException(403, _("a bot account plays under /api/bot/, not under /api/board/"))
    return account


def seat_at(match: Match, account_id: int) -> int | None:
    """The account's seat at the game (left or not), or None."""
    return next((s.index for s in match.seats if s.account_id == account_id), None)


def no_seat(game_id: str) -> HTTPException:
    return HTTPException(404, _("you have no seat at game {game}").format(game=game_id))


class MoveRequest(BaseModel):
    """A move in the game's notation, as ``legal_moves[].text`` writes it."""

    model_config = ConfigDict(extra="forbid")
    move: str = Field(min_length=1, max_length=64, examples=["replace 5 1"])
    version: int | None = Field(
        default=None,
        ge=0,
        description="the table's version the move was chosen on (refused as stale if the table "
        "moved on); without it, the current one",
    )


class ChatRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(min_length=1, max_length=2000)


class PlayAnswer(BaseModel):
    ok: bool
    version: int


class RefusalAnswer(BaseModel):
    detail: str
    code: str


_REFUSED: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorAnswer, "description": "no token, or one that is unknown or revoked"},
    403: {"model": ErrorAnswer, "description": "the token lacks the scope, or the wrong family"},
    404: {"model": ErrorAnswer, "description": "you have no seat at this game"},
    409: {"model": RefusalAnswer, "description": "the game refused it, in its words"},
    422: {"model": RefusalAnswer, "description": "a malformed body, or a move that is no move"},
}


def _refused(refusal: Rejected) -> JSONResponse:
    status = (
        422
        if refusal.code == RejectionCode.MALFORMED
        else 503
        if refusal.code == RejectionCode.UNAVAILABLE
        else 409
    )
    return JSONResponse({"detail": refusal.message, "code": refusal.code}, status_code=status)


async def _act(
    request: Request, account: Account, game_id: str, kind: str, body: Any = None
) -> PlayAnswer | JSONResponse:
    """Do ``kind`` (move, chat, resign) at the account's seat of the game."""
    lobby = lobby_of(request)
    match = await lobby.get(game_id)
    if match is None:
        raise no_seat(game_id)
    try:
        seat = seat_at(match, account.id)
        if seat is None:
            raise no_seat(game_id)
        try:
            if kind == "move":
                version = body.version if body.version is not None else match.version
                await match.submit(seat, body.move, version)
            elif kind == "chat":
                await match.say(seat, body.text)
            else:
                if match.status == MatchStatus.OVER or match.seats[seat].left:
                    raise Rejected(RejectionCode.FORBIDDEN, _("this game is over for you already"))
                await match.leave(seat)
                journal = lobby.journal
                await journal.run(wake_accounts, journal.store.engine, [account.id])
        except Rejected as refusal:
            return _refused(refusal)
        return PlayAnswer(ok=True, version=match.version)
    finally:
        lobby.release(match)


def bot_game_router() -> APIRouter:
    router = APIRouter()
    for played_by in PlayedBy:
        _add_calls(router, played_by)
    return router


def _add_calls(router: APIRouter, played_by: PlayedBy) -> None:
    # a default, not an annotation: the annotations are read as text, without this function's names
    token_of = Depends(bearer(played_by.scope))
    base = f"/api/{played_by.value}/game/{{game_id}}"
    whose = "a bot account's game" if played_by is PlayedBy.BOT else "your own game"

    @router.post(
        f"{base}/move",
        summary=f"Play a move in {whose}",
        response_model=PlayAnswer,
        responses=_REFUSED,
        name=f"{played_by.value}_move",
    )
    async def move(
        request: Request, game_id: GameId, body: MoveRequest, token: Bearer = token_of
    ) -> PlayAnswer | JSONResponse:
        return await _act(request, player_of(token, played_by), game_id, "move", body)

    @router.post(
        f"{base}/chat",
        summary=f"Write in the chat of {whose}",
        response_model=PlayAnswer,
        responses=_REFUSED,
        name=f"{played_by.value}_chat",
    )
    async def chat(
        request: Request, game_id: GameId, body: ChatRequest, token: Bearer = token_of
    ) -> PlayAnswer | JSONResponse:
        return await _act(request, player_of(token, played_by), game_id, "chat", body)

    @router.post(
        f"{base}/resign",
        summary=f"Leave {whose} (a bot plays the seat; a rated game is lost)",
        response_model=PlayAnswer,
        responses=_REFUSED,
        name=f"{played_by.value}_resign",
    )
    async def resign(
        request: Request, game_id: GameId, token: Bearer = token_of
    ) -> PlayAnswer | JSONResponse:
        return await _act(request, player_of(token, played_by), game_id, "resign")

    del move, chat, resign  # registered on the router
