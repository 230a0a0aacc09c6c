"""Replays in the browser: the ``/replay/{id}`` page, a finished game's record, its moves as tables,
a record opened from a file, and an analysis of its moves on request.

Nothing of a game is told before it is over: while it is played the answer is 409. A game played out
(won, or the turn limit reached) gives its record, every rack and its analysis; a game ended early
(abandoned, or closed by the operator) keeps its racks hidden, as its table did: its replay shows
what its watchers saw, and its record and analysis are 409. The replay (:func:`replay_json`) is
every position of the game as the table's ``game`` object (docs/protocol.md) with every rack and its
verdict (when shown), the log and the chat, in the reader's language; the page steps through it and
knows no rule. A record opened from a file is checked by the engine here (it must replay, move by
move) and answered the same way.

The analysis runs in the bot workers, one move at a time
(:meth:`~tendays.server.matches.thinking.Thinker.compute`), and is kept in this process's memory per
game (:class:`AnalysisCache`, the newest 64 games).
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from tendays.engine import (
    GameRecord,
    Move,
    RecordError,
    checker_for,
    describe_event,
    view,
)
from tendays.engine.i18n import current_language
from tendays.engine.i18n import gettext as _
from tendays.engine.wire import event_to_json, view_to_json

from ...matches.notices import render_notice
from ...matches.wire import seat_name
from ...storage.rows import StoredGame
from ...vocabulary import AnalysisStatus, ChatKind, SeatKind
from ..routing import ERRORS, ErrorAnswer, GameId, lobby_of, page
from .replay_analysis import ANALYST, AnalysisCache

__all__ = [
    "ReplayCache",
    "finished_game",
    "played_out",
    "record_of",
    "replay_json",
    "replays_router",
]

NAME_LENGTH = 64  # the longest player's name a record opened from a file may carry
KEPT = 64  # games whose replay (per language) a process keeps
FINISHED_ONLY: dict[int | str, dict[str, Any]] = {
    404: ERRORS[404],
    409: {
        "model": ErrorAnswer,
        "description": "the game is still being played (or this server cannot replay it)",
    },
}
PLAYED_OUT_ONLY: dict[int | str, dict[str, Any]] = {
    404: ERRORS[404],
    409: {
        "model": ErrorAnswer,
        "description": "the game is still being played, ended before it was played out "
        "(its racks stay hidden), or this server cannot replay it",
    },
}


def replay_json(
    record: GameRecord,
    seats: Sequence[dict[str, Any]],
    chat: Sequence[dict[str, Any]],
    game_id: str | None = None,
    ended: str | None = None,
) -> dict[str, Any]:
    """Every position of a finished game, as the page steps through it, in the current language.

    ``frames[n]`` is the table after ``n`` moves, every rack and the tile in hand shown (the game is
    over), each rack's verdict an index into ``verdicts`` (a rack unchanged by a move is checked
    once); ``log`` is the whole log, of which ``frames[n].log_length`` entries had happened. A game
    ``ended`` early shows only what its watchers saw (``view(state, None)``): as at the table,
    nobody shows a rack when a game is abandoned, so its racks stay hidden (``racks_hidden``) unless
    it was played with open hands.
    """
    states = record.states()
    final = states[-1]
    edition = final.edition
    lang = current_language()
    checker = checker_for(edition)
    names = tuple(seat_name(s["seat"], s["kind"], s["name"], s["bot"]) for s in seats)
    verdicts: list[dict[str, Any]] = []
    known: dict[tuple[int | None, ...], int] = {}

    def verdict(rack: tuple[int | None, ...]) -> int:
        if rack not in known:
            known[rack] = len(verdicts)
            verdicts.append(checker.check(rack, lang=lang).to_json())
        return known[rack]

    frames = []
    for number, state in enumerate(states):
        seen = view(state, None)
        # played out (or a record its reader holds): every rack and the tile in hand
        if ended is None:
            seen = replace(seen, racks=state.racks, in_hand=state.in_hand)
        frame = view_to_json(seen, events=False)
        for shared in ("edition", "options", "player", "events", "legal_moves"):
            del frame[shared]
        frame["journeys"] = None if seen.racks is None else [verdict(rack) for rack in seen.racks]
        frame["log_length"] = len(state.events)
        frame["move"] = (
            None
            if number == 0
            else {"text": str(record.moves[number - 1]), "seat": states[number - 1].current}
        )
        frames.append(frame)
    return {
        "id": game_id,
        "edition": edition.id,
        "options": final.options.to_json(),
        "ended": ended,
        "racks_hidden": frames[-1]["racks"] is None,
        "winner": final.winner,
        "seats": [
            {
                "seat": s["seat"],
                "name": names[s["seat"]],
                "kind": s["kind"],
                "bot": s["bot"],
                # a signed-in person's seat (a record opened from a file has none)
                "account": bool(s.get("account")),
            }
            for s in seats
        ],
        "log": [
            {"text": describe_event(edition, event, names), **event_to_json(edition, event)}
            for event in final.events
        ],
        "chat": list(chat),
        "verdicts": verdicts,
        "frames": frames,
        "analyst": ANALYST,
    }


def _stored_record(stored: StoredGame) -> GameRecord:
    # as Match.record keeps them
    names = tuple(s.name or f"Player {s.seat + 1}" for s in stored.seats)
    return GameRecord(
        stored.edition,
        stored.options,
        stored.seed,
        tuple(Move.from_text(m) for m in stored.moves),
        names,
    )


def _stored_seats(stored: StoredGame) -> list[dict[str, Any]]:
    return [
        {
            "seat": s.seat,
            "kind": s.kind,
            "name": s.name,
            "bot": s.bot,
            "account": s.account_id is not None,
        }
        for s in stored.seats
    ]


def _stored_chat(stored: StoredGame) -> list[dict[str, Any]]:
    """The table's talk as the table shows it: a notice in the reader's language."""

    def name(seat: int | None) -> str | None:
        if seat is None or seat >= len(stored.seats):
            return None
        return stored.seats[seat].name or f"Player {seat + 1}"

    return [
        {
            "n": row.number,
            "seat": row.seat,
            "name": name(row.seat),
            "kind": row.kind,
            "text": render_notice(row.text) if row.kind == ChatKind.NOTICE else row.text,
            "at": row.at,
        }
        for row in stored.chat
    ]


async def finished_game(request: Request, game_id: str) -> StoredGame:
    """A finished game from the database: 404 if there is none, 409 while it is played."""
    journal = lobby_of(request).journal
    stored = await journal.run(journal.store.load_game, game_id)
    if stored is None:
        raise HTTPException(404, _("there is no game '{game}'").format(game=game_id))
    if not stored.finished:
        raise HTTPException(
            409,
            _(
                "game {game} is still being played: its record and replay open once it is over"
            ).format(game=game_id),
        )
    return stored


def record_of(stored: StoredGame) -> GameRecord:
    """A stored game's record; 409 if this server cannot replay it."""
    try:
        return _stored_record(stored)
    except ValueError as error:
        raise HTTPException(
            409,
            _("game {game} cannot be replayed by this server: {error}").format(
                game=stored.id, error=error
            ),
        ) from None


async def played_out(request: Request, game_id: str) -> StoredGame:
    """A game over by the rules: one ended early keeps its racks hidden, and its record (whose
    seed tells every rack) and analysis (which reads them) with them."""
    stored = await finished_game(request, game_id)
    if stored.ended is not None:
        raise HTTPException(
            409,
            _(
                "game {game} ended before it was played out: its racks stay hidden, so it "
                "has no record and no analysis"
            ).format(game=game_id),
        )
    return stored


class ReplayCache:
    """The replays this process made, per (game, language), the newest :data:`KEPT`; each with the
    seats' names it shows, so that a seat renamed since makes it anew."""

    def __init__(self) -> None:
        self._replays: OrderedDict[tuple[str, str], tuple[Any, dict[str, Any]]] = OrderedDict()

    def get(self, key: tuple[str, str], names: Any) -> dict[str, Any] | None:
        held = self._replays.get(key)
        if held is None or held[0] != names:
            return None
        self._replays.move_to_end(key)
        return held[1]

    def put(self, key: tuple[str, str], names: Any, answer: dict[str, Any]) -> None:
        self._replays[key] = (names, answer)
        self._replays.move_to_end(key)
        while len(self._replays) > KEPT:
            self._replays.popitem(last=False)


def replays_router() -> APIRouter:
    router = APIRouter(tags=["replays"])
    # per app: its games' analyses and replays
    cache = AnalysisCache()
    replays = ReplayCache()

    @router.get("/replay/{game_id}", include_in_schema=False)
    async def replay_page(game_id: GameId) -> HTMLResponse:
        return page("replay.html")

    @router.get("/replay", include_in_schema=False)
    async def open_page() -> HTMLResponse:
        return page("replay.html")

    @router.get(
        "/api/games/{game_id}/record",
        summary="A finished game's record, as tendays replay reads it",
        description="`tendays-record/1`: edition, options, seed, moves and names. 409 while the "
        "game is played, and for a game ended early (the record would tell every rack).",
        responses=PLAYED_OUT_ONLY,
    )
    async def game_record(request: Request, game_id: GameId) -> Response:
        record = record_of(await played_out(request, game_id))
        return Response(
            record.dumps() + "\n",
            media_type="application/json",
            headers={"Content-Disposition": f'inline; filename="tendays-{game_id}.json"'},
        )

    @router.get(
        "/api/games/{game_id}/replay",
        summary="A finished game, every position with every rack",
        description="The table after each move (every rack revealed, with its verdict), the log "
        "and the chat, in the reader's language. A game ended early shows what its watchers saw "
        "(`racks_hidden`). 409 while the game is played.",
        responses=FINISHED_ONLY,
    )
    async def game_replay(request: Request, game_id: GameId) -> dict[str, Any]:
        # first: a game deleted since is gone from here too
        stored = await finished_game(request, game_id)
        key = (game_id, current_language())
        seats = _stored_seats(stored)
        # a seat renamed since (its account deleted, in any process) is a replay to make anew
        names = tuple(tuple(seat.values()) for seat in seats)
        # what a rated result did is decided just after the end: read with the game, not cached
        outcome = {"rated": stored.rated, "rated_outcome": stored.rated_outcome}
        held = replays.get(key, names)
        if held is not None:
            return {**held, **outcome}
        record = record_of(stored)
        try:
            answer = await lobby_of(request).thinker.run(
                replay_json,
                record,
                seats,
                _stored_chat(stored),
                game_id,
                stored.ended,
            )
        except RecordError as error:
            raise HTTPException(409, str(error)) from None
        replays.put(key, names, answer)
        return {**answer, **outcome}

    @router.post(
        "/api/replays",
        summary="Open a record from a file: its replay, or why it is refused",
        description="The body is a record as `GET /api/games/{id}/record` gives it (or a save of "
        "`tendays play`). 422 with the reason if it is not one or does not replay.",
        responses={k: ERRORS[k] for k in (413, 422)},
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {
                        "schema": {
                            "type": "object",
                            "description": "a game record (tendays-record/1)",
                        }
                    }
                },
            }
        },
    )
    async def open_record(request: Request) -> dict[str, Any]:
        try:
            data = json.loads(await request.body() or b"null")
        except ValueError:
            data = None
        if not isinstance(data, dict):
            raise HTTPException(
                422,
                _("not a tendays game record: {error}").format(
                    error=_("the file holds no JSON object")
                ),
            )
        try:
            record = GameRecord.from_json(data)
            _check_names(record)
            seats = [
                {
                    "seat": i,
                    "kind": SeatKind.HUMAN,
                    "name": record.names[i] if record.names else None,
                    "bot": None,
                }
                for i in range(record.options.players)
            ]
            return await lobby_of(request).thinker.run(replay_json, record, seats, [])
        except RecordError as error:
            raise HTTPException(422, str(error)) from None

    @router.post(
        "/api/games/{game_id}/analysis",
        summary="Analyse a finished game's moves (started on request)",
        description="202 with `done` of `total` while the bot workers analyse it; 200 with `moves` "
        "once ready: per move the mover's journey distance before and after, and the hard bot's "
        "move there. Kept per game in the server's memory. 409 for a game ended early.",
        responses=PLAYED_OUT_ONLY,
    )
    async def analyse(request: Request, game_id: GameId) -> JSONResponse:
        stored = await played_out(request, game_id)
        analysis = cache.get(game_id)
        if analysis is None or analysis.error:
            analysis = cache.start(lobby_of(request), game_id, record_of(stored))
        answer = analysis.to_json()
        ready = answer["status"] == AnalysisStatus.READY
        return JSONResponse(answer, status_code=200 if ready else 202)

    @router.get(
        "/api/games/{game_id}/analysis",
        summary="A game's analysis, as far as it has gone",
        responses={
            **PLAYED_OUT_ONLY,
            404: {
                "model": ErrorAnswer,
                "description": "no such game, or not asked for in this process",
            },
        },
    )
    async def analysis_so_far(request: Request, game_id: GameId) -> JSONResponse:
        await played_out(request, game_id)
        analysis = cache.get(game_id)
        if analysis is None:
            raise HTTPException(
                404,
                _("game {game} has not been analysed here; ask for it with POST").format(
                    game=game_id
                ),
            )
        answer = analysis.to_json()
        ready = answer["status"] == AnalysisStatus.READY
        return JSONResponse(answer, status_code=200 if ready else 202)

    return router


def _check_names(record: GameRecord) -> None:
    if record.names and len(record.names) != record.options.players:
        raise RecordError(
            _("the record names {names} players for a game of {players}").format(
                names=len(record.names), players=record.options.players
            )
        )
    for name in record.names:
        if not isinstance(name, str) or not name.strip() or len(name) > NAME_LENGTH:
            raise RecordError(
                _(
                    "not a tendays game record: a player's name must be text of at most {most} "
                    "characters"
                ).format(most=NAME_LENGTH)
            )
