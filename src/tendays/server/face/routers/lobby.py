"""The REST lobby: is the server up, the editions and bots to choose from, and the games to create,
join, list and look at. The account and pairing calls belong beside
these, as routers of their own."""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Query, Request

from tendays import __version__
from tendays.bots import BOTS, LEVELS
from tendays.engine import available_editions, load_edition
from tendays.engine.i18n import gettext as _

from ...matches.chat import QUICK_PHRASES
from ...matches.master import Match
from ...people.blocks import table_refusal
from ...people.bot_accounts import bot_only_refusal
from ...people.game_tournament import tournament_of_game
from ..door.session import refusal as account_refusal
from ..door.session import signed_in
from ..routing import ERRORS, GameId, lobby_of
from .lobby_models import (
    BotChoices,
    BotInfo,
    CreateGame,
    EditionInfo,
    GamePage,
    GameSummary,
    Health,
    JoinGame,
    LevelInfo,
    SeatTicket,
)

__all__ = ["lobby_router"]


def lobby_router() -> APIRouter:
    router = APIRouter()

    @router.get("/health", summary="Is the server up?", response_model=Health)
    async def health(request: Request) -> Health:
        return Health(status="ok", games=len(lobby_of(request).active()), version=__version__)

    @router.get(
        "/api/editions", summary="The editions that can be played", response_model=list[EditionInfo]
    )
    async def editions() -> list[EditionInfo]:
        return [
            EditionInfo(
                id=e,
                name=load_edition(e).name,
                default=load_edition(e).default,
                language=load_edition(e).language,
            )
            for e in available_editions()
        ]

    @router.get(
        "/api/editions/{edition}",
        summary="One edition: regions, colours, borders and tiles",
        description="The same JSON as `tendays map EDITION --json`.",
        responses={404: ERRORS[404]},
    )
    async def edition_detail(edition: str) -> dict[str, Any]:
        if edition not in available_editions():
            raise HTTPException(
                404,
                _("unknown edition '{edition}'; known: {known}").format(
                    edition=edition[:32], known=", ".join(available_editions())
                ),
            )
        return load_edition(edition).to_json()

    @router.get(
        "/api/bots",
        summary="The bots a seat can be given",
        response_model=BotChoices,
        description="From the bot registry: the levels offered to people and every bot. "
        "A bot seat's `bot` names a level or a bot. Also the quick chat "
        "phrases of the table.",
    )
    async def bot_choices() -> BotChoices:
        levels = [
            LevelInfo(
                name=level.name,
                bot=level.bot,
                description=_(level.description),
                rating=level.rating,
            )
            for level in LEVELS.values()
        ]
        bots = [BotInfo(name=entry.name, description=entry.description) for entry in BOTS.values()]
        return BotChoices(levels=levels, bots=bots, phrases=list(QUICK_PHRASES))

    @router.get(
        "/api/games",
        summary="Games to join (or to watch), a page at a time, newest first",
        response_model=GamePage,
    )
    async def list_games(
        request: Request,
        show: Literal["joinable", "playing"] = "joinable",
        page: Annotated[int, Query(ge=1, le=100_000)] = 1,
        per_page: Annotated[int, Query(ge=1, le=100)] = 20,
    ) -> dict[str, Any]:
        matches, total = await lobby_of(request).page(show, page, per_page)
        return {
            "games": [m.summary() for m in matches],
            "page": page,
            "per_page": per_page,
            "total": total,
            "pages": max(1, math.ceil(total / per_page)),
        }

    @router.post(
        "/api/games",
        summary="Create a game and take seat 1",
        status_code=201,
        response_model=SeatTicket,
        responses={k: ERRORS[k] for k in (413, 422, 429, 503)},
    )
    async def create_game(request: Request, body: CreateGame) -> SeatTicket:
        # a signed-in person's seat belongs to the account, under its name
        account = await signed_in(request)
        if account is not None and account.bot:
            raise account_refusal(bot_only_refusal())
        match, token = await lobby_of(request).create(
            body.edition,
            [(s.kind, s.bot) for s in body.seats],
            body.options.model_dump(),
            account.name if account else body.name,
            body.pace.to_pace() if body.pace else None,
            rated=body.rated,
            account_id=account.id if account else None,
        )
        return _ticket(match, 0, token)

    @router.post(
        "/api/games/{game_id}/join",
        summary="Take the first free human seat",
        response_model=SeatTicket,
        responses={k: ERRORS[k] for k in (404, 409, 413, 422, 429)},
    )
    async def join_game(request: Request, game_id: GameId, body: JoinGame) -> SeatTicket:
        account = await signed_in(request)
        if account is not None and account.bot:
            raise account_refusal(bot_only_refusal())
        if account is not None:  # nobody sits with someone who blocked them, or whom they block
            journal = lobby_of(request).journal
            refusal = await journal.run(table_refusal, journal.store.engine, game_id, account.id)
            if refusal is not None:
                raise HTTPException(409, refusal)
        match, seat, token = await lobby_of(request).join(
            game_id, account.name if account else body.name, account.id if account else None
        )
        return _ticket(match, seat, token)

    @router.get(
        "/api/games/{game_id}",
        summary="A game's public summary",
        response_model=GameSummary,
        responses={404: ERRORS[404], 409: ERRORS[409]},
    )
    async def game_summary(request: Request, game_id: GameId) -> dict[str, Any]:
        lobby = lobby_of(request)
        match = await lobby.get(game_id)
        if match is None:
            raise HTTPException(404, _("there is no game '{game}'").format(game=game_id))
        summary = match.summary()
        lobby.release(match)  # a finished game need not stay in memory for a look at it
        journal = lobby.journal
        tournament = await journal.read(tournament_of_game, journal.store.engine, game_id)
        return {**summary, "tournament": tournament}

    return router


def _ticket(match: Match, seat: int, token: str) -> SeatTicket:
    return SeatTicket(id=match.id, seat=seat, token=token, url=f"/play/{match.id}#token={token}")
