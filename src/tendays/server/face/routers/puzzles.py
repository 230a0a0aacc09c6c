"""Puzzles over HTTP: the ``/puzzles`` page and a JSON API that hands out puzzles and judges
answers.

A puzzle is sent without its solution; ``POST .../answer`` says whether an answer is right and why,
in the sender's language (the engine judges, :func:`tendays.puzzles.explain.judge`), so the page
knows no rule.
"""

from __future__ import annotations

import datetime
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from tendays.engine import available_editions
from tendays.engine.chance import Purpose, stream
from tendays.engine.i18n import gettext as _
from tendays.puzzles import (
    Answer,
    Kind,
    Puzzle,
    PuzzleError,
    daily,
    daily_date,
    puzzle_by_id,
    shipped,
)
from tendays.puzzles.explain import judge

from ..routing import page

__all__ = ["puzzles_router"]

PuzzleId = Annotated[
    str, PathParam(description="the puzzle's id", max_length=32, pattern=r"^[A-Za-z0-9_-]+$")
]
NEAR = 150  # a next puzzle is rated within this of the player's rating, where there are such


class AnswerRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    pile: int = Field(description="the discard pile, 1-3", examples=[2])
    day: int | None = Field(None, description="the day, 1-10 (finish puzzles only)", examples=[7])


def _edition(edition: str) -> str:
    if edition not in available_editions():
        raise HTTPException(
            404,
            _("unknown edition '{edition}'; known: {known}").format(
                edition=edition[:32], known=", ".join(available_editions())
            ),
        )
    if not shipped(edition):
        raise HTTPException(404, _("no puzzles are shipped for {edition}").format(edition=edition))
    return edition


def _public(puzzle: Puzzle, **extra: Any) -> dict[str, Any]:
    return {**puzzle.to_json(with_solution=False), **extra}


def puzzles_router() -> APIRouter:
    router = APIRouter(tags=["puzzles"])

    @router.get("/puzzles", include_in_schema=False)
    async def puzzles_page() -> HTMLResponse:
        return page("puzzles.html")

    @router.get(
        "/api/puzzles/{edition}/daily",
        summary="The puzzle of the day: the same for everyone on a date",
    )
    async def daily_puzzle(
        edition: str, date: Annotated[str | None, Query(max_length=10)] = None
    ) -> dict[str, Any]:
        edition = _edition(edition)
        try:
            day = datetime.date.fromisoformat(date) if date else daily_date()
        except ValueError:
            raise HTTPException(
                422, _("{date} is not a date; give it as YYYY-MM-DD").format(date=repr(date))
            ) from None
        return _public(daily(edition, day), daily=day.isoformat())

    @router.get("/api/puzzles/{edition}/next", summary="A puzzle near a rating, chosen by a seed")
    async def next_puzzle(
        edition: str,
        rating: Annotated[int, Query(ge=0, le=4000)] = 1200,
        seed: Annotated[int, Query(ge=0, le=2**53)] = 0,
        kind: Kind | None = None,
    ) -> dict[str, Any]:
        pool = [p for p in shipped(_edition(edition)) if kind is None or p.kind is kind]
        near = [p for p in pool if abs(p.rating - rating) <= NEAR] or pool
        return _public(stream(Purpose.NEXT_PUZZLE, edition, seed).choice(near))

    @router.get("/api/puzzles/{edition}/{puzzle_id}", summary="One puzzle, without its solution")
    async def one_puzzle(edition: str, puzzle_id: PuzzleId) -> dict[str, Any]:
        return _public(_find(_edition(edition), puzzle_id))

    @router.post(
        "/api/puzzles/{edition}/{puzzle_id}/answer", summary="Judge an answer and say why, in words"
    )
    async def answer(edition: str, puzzle_id: PuzzleId, body: AnswerRequest) -> dict[str, Any]:
        puzzle = _find(_edition(edition), puzzle_id)
        try:
            judged = judge(puzzle, Answer(body.pile, body.day or 0)).to_json(puzzle)
        except PuzzleError as error:
            raise HTTPException(422, str(error)) from None
        # a wrong answer leaves the puzzle to solve: the solution is asked for apart
        if not judged["correct"]:
            del judged["solution"], judged["solution_explanation"]
        return judged

    @router.get(
        "/api/puzzles/{edition}/{puzzle_id}/solution", summary="The solution, and why it is the one"
    )
    async def solution(edition: str, puzzle_id: PuzzleId) -> dict[str, Any]:
        puzzle = _find(_edition(edition), puzzle_id)
        judged = judge(puzzle, puzzle.solution).to_json(puzzle)
        return {
            "solution": judged["solution"],
            "explanation": judged["solution_explanation"],
            "rack": judged["rack"],
            "verdict": judged["verdict"],
        }

    return router


def _find(edition: str, puzzle_id: str) -> Puzzle:
    puzzle = puzzle_by_id(edition, puzzle_id)
    if puzzle is None:
        raise HTTPException(404, _("there is no puzzle '{id}'").format(id=puzzle_id))
    return puzzle
