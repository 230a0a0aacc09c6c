"""Watching: ``GET /api/tv`` names the best-rated game being played now
(:mod:`~tendays.server.people.tv` chooses it), and ``/tv`` is the page that shows it as any
spectator sees it, then the next one when it ends."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from ...people.tv import best_game
from ..routing import lobby_of, page

__all__ = ["TvAnswer", "TvSeatAnswer", "tv_router"]


class TvSeatAnswer(BaseModel):
    name: str | None = Field(description="the name a spectator reads (null: a free seat)")
    rating: float | None = Field(
        description="the rating counted: the account's in the game's edition, a bot's ladder "
        "rating; null for an anonymous person"
    )
    bot_account: bool = Field(False, description="a bot account's seat (marked BOT)")


class TvAnswer(BaseModel):
    game: str | None = Field(description="the game's id (watch it at /play/{id}); null: none now")
    edition: str | None = Field(description="the game's edition")
    seats: list[TvSeatAnswer] = Field(description="the game's seats, in order")


def tv_router() -> APIRouter:
    router = APIRouter(tags=["watching"])

    @router.get("/tv", include_in_schema=False)
    async def tv_page() -> HTMLResponse:
        return page("play.html")

    @router.get(
        "/api/tv",
        summary="The best-rated game being played now",
        description="Unfinished, every seat taken; the highest mean rating of its seats (an "
        "account's in the game's edition, a bot's ladder rating), ties by the most recent move.",
        response_model=TvAnswer,
    )
    async def tv(request: Request, response: Response) -> TvAnswer:
        journal = lobby_of(request).journal
        chosen = await journal.read(best_game, journal.store.engine)
        response.headers["Cache-Control"] = "no-store"
        if chosen is None:
            return TvAnswer(game=None, edition=None, seats=[])
        return TvAnswer(
            game=chosen.id,
            edition=chosen.edition,
            seats=[
                TvSeatAnswer(name=s.name, rating=s.rating, bot_account=s.bot_account)
                for s in chosen.seats
            ],
        )

    return router
