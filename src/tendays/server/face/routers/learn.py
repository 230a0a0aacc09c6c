"""The guided first game over HTTP: the ``/learn`` page and a JSON API that walks a newcomer through
a lesson.

A step is sent as the table's own ``game`` object (so the page draws it with the table's panels) and
the lesson's words around it: what to do, where (``pointer``), why, and the rules explained there. A
tried move is posted back and judged by :class:`tendays.learn.Tutor`: the next step, or why not, in
the sender's language. The page knows no rule and never sees the lesson's moves; the server keeps no
state (the step's number says where the newcomer is, and the browser remembers it).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from tendays.engine import InvalidMoveError, Move, load_edition
from tendays.engine.i18n import gettext as _
from tendays.learn import Step, Tutor, available_lessons, load_lesson
from tendays.learn.sentences import bot_name

from ...matches.wire import SeatInfo, TableEncoder
from ...vocabulary import MatchStatus, SeatKind
from ..routing import page

__all__ = ["learn_router"]

Number = Annotated[
    int, PathParam(description="the step: the newcomer's decisions made so far", ge=0, le=1000)
]


class TriedMove(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    move: str = Field(
        description="the move in its notation", max_length=40, examples=["draft 3", "take 2"]
    )


@cache
def _tutor(edition: str) -> Tutor:
    return Tutor(load_lesson(edition))


def _lesson(edition: str) -> Tutor:
    if edition not in available_lessons():
        raise HTTPException(
            404,
            _(
                "there is no guided game for the edition '{edition}'; there is one for {known}"
            ).format(edition=edition[:32], known=", ".join(available_lessons())),
        )
    return _tutor(edition)


def _step(tutor: Tutor, number: int) -> Step:
    try:
        return tutor.step(number)
    except IndexError as error:
        raise HTTPException(404, str(error)) from None


def step_json(tutor: Tutor, step: Step) -> dict[str, Any]:
    """A step as the page reads it: the table's ``game`` and the lesson's
    words, in the current language."""
    lesson = tutor.lesson
    edition = step.view.edition
    seats = [
        SeatInfo(s, SeatKind.HUMAN, None, None, True)
        if s == lesson.seat
        else SeatInfo(s, SeatKind.BOT, bot_name(s), lesson.bot, True)
        for s in range(lesson.options.players)
    ]
    encoder = TableEncoder(f"learn-{edition.id}", edition)
    status = MatchStatus.OVER if step.done else MatchStatus.PLAYING
    shared = encoder.shared(step.view, step.number, status, seats)
    message = json.loads(encoder.table(shared, step.view, step.number, status, 0, 0, {}).text)
    game = message["game"]
    game["log"], game["chat"] = [], []
    pointer = step.pointer
    return {
        "edition": edition.id,
        "number": step.number,
        "total": step.total,
        "done": step.done,
        "game": game,
        "topics": [str(t) for t in step.topics],
        "lessons": list(step.lessons),
        "news": list(step.news),
        "instruction": step.instruction,
        "why": step.why,
        "pointer": {"area": pointer.area, "day": pointer.day or None, "pile": pointer.pile or None},
        "map_days": list(step.map_days),
    }


def learn_router() -> APIRouter:
    router = APIRouter(tags=["learn"])

    @router.get("/learn", include_in_schema=False)
    async def learn_page() -> HTMLResponse:
        return page("learn.html")

    @router.get("/api/learn", summary="The guided first games: one per edition")
    async def lessons() -> dict[str, Any]:
        return {
            "lessons": [
                {
                    "edition": e,
                    "name": load_edition(e).name,
                    "language": load_edition(e).language,
                    "steps": _tutor(e).total,
                }
                for e in available_lessons()
            ]
        }

    @router.get(
        "/api/learn/{edition}/steps/{number}",
        summary="One step of a guided game",
        description="The table as the newcomer sees it, what to do now and why, and the rules "
        "explained here. Step `total` is the end.",
    )
    async def lesson_step(edition: str, number: Number) -> dict[str, Any]:
        tutor = _lesson(edition)
        return step_json(tutor, _step(tutor, number))

    @router.post(
        "/api/learn/{edition}/steps/{number}",
        summary="Try a move at one step of a guided game",
        description="`ok` with the next step, or `ok: false` and why the lesson wants another "
        "move.",
    )
    async def try_move(edition: str, number: Number, body: TriedMove) -> dict[str, Any]:
        tutor = _lesson(edition)
        _step(tutor, number)
        try:
            move = Move.from_text(body.move)
        except InvalidMoveError as error:
            raise HTTPException(422, str(error)) from None
        check = tutor.check(number, move)
        if not check.ok:
            return {"ok": False, "message": check.message, "step": None}
        return {"ok": True, "message": "", "step": step_json(tutor, tutor.step(number + 1))}

    return router
