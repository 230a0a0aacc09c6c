"""Reading games: whole records (or what changed since a process last looked), the lobby's pages
of open games and the operator's list. :class:`~tendays.server.storage.store.Store` answers with
these."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Row, bindparam, exists, func, select
from sqlalchemy.engine import Engine

from tendays.engine import Options

from ..settings import Pace
from ..vocabulary import ChatKind, SeatKind
from .rows import ChatRow, StoredGame, StoredSeat, read_options
from .tables.accounts import AccountTable
from .tables.games import ChatLineTable, GameTable, MoveTable, SeatTable

log = logging.getLogger("tendays.server")


def open_game_page(engine: Engine, show: str, offset: int, limit: int) -> tuple[list[str], int]:
    """Unfinished games a newcomer may join (``show="joinable"``) or watch ("playing"), newest
    first: one page of ids, and how many there are in all."""
    # EXISTS, not IN: "NOT IN" cannot become an anti-join (NULL's rules), so PostgreSQL read
    # every seat of every game ever played for each page of the games being played.
    free = exists().where(
        SeatTable.game_id == GameTable.id,
        SeatTable.kind == SeatKind.HUMAN,
        SeatTable.token_hash.is_(None),
    )
    seats = (
        free.where(func.coalesce(SeatTable.reserved, False).is_(False))
        if show == "joinable"
        else ~free
    )
    where = GameTable.finished.is_(False) & seats
    with engine.connect() as db:  # the page and the count in one round trip
        rows = db.execute(
            select(GameTable.id, func.count().over())
            .where(where)
            .order_by(GameTable.created.desc())
            .offset(offset)
            .limit(limit)
        ).all()
        total = (
            rows[0][1]
            if rows
            else db.scalar(select(func.count()).select_from(GameTable).where(where))
        )
    return [row[0] for row in rows], int(total or 0)


def operator_game_page(
    engine: Engine, finished: bool | None, offset: int, limit: int
) -> tuple[list[dict[str, Any]], int]:
    """Games for the operator, newest first: (id, edition, created, finished,
    ended, moves, names), total."""
    where = [] if finished is None else [GameTable.finished.is_(finished)]
    moves = (
        select(MoveTable.game_id, func.count().label("moves"))
        .group_by(MoveTable.game_id)
        .subquery()
    )
    with engine.connect() as db:
        total = db.scalar(select(func.count()).select_from(GameTable).where(*where)) or 0
        rows = db.execute(
            select(
                GameTable.id,
                GameTable.edition,
                GameTable.created,
                GameTable.finished,
                GameTable.ended,
                GameTable.last_move_at,
                func.coalesce(moves.c.moves, 0),
            )
            .outerjoin(moves, moves.c.game_id == GameTable.id)
            .where(*where)
            .order_by(GameTable.created.desc())
            .offset(offset)
            .limit(limit)
        ).all()
    return [
        {
            "id": r[0],
            "edition": r[1],
            "created": _utc(r[2]).isoformat(),
            "finished": bool(r[3]),
            "ended": r[4],
            "last_move_at": r[5],
            "moves": int(r[6]),
        }
        for r in rows
    ], int(total)


def load_stored_games(
    engine: Engine, where: Any, moves_known: int = 0, chat_known: int = 0
) -> list[StoredGame]:
    """The games ``where`` selects, in the order of creation, with their seats, the moves after
    the first ``moves_known`` and the chat lines numbered above ``chat_known``; a row that cannot
    be read is logged and left out."""
    with engine.connect() as db:
        games = _games(db.execute(select(GameTable).where(where).order_by(GameTable.created)))
        if not games:
            return []
        ids = list(games)
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            _add_seats(games, db.execute(_SEATS.where(SeatTable.game_id.in_(chunk))))
            moves = MoveTable.game_id.in_(chunk), MoveTable.number > moves_known
            _add_moves(games, db.execute(_MOVES.where(*moves)))
            chat = ChatLineTable.game_id.in_(chunk), ChatLineTable.number > chat_known
            _add_chat(games, db.execute(_CHAT.where(*chat)))
    return list(games.values())


def load_stored_game(
    engine: Engine, game_id: str, moves_known: int = 0, chat_known: int = 0
) -> StoredGame | None:
    """:func:`load_stored_games` of one game (None: no such game, or unreadable), with statements
    built once: a game is read this way each time a process takes it over or follows another
    process's change to it, and building and keying four statements cost more than running
    them."""
    with engine.connect() as db:
        games = _games(db.execute(_ONE_GAME, {"b_id": game_id}))
        if not games:
            return None
        known = {"b_id": game_id, "b_moves": moves_known, "b_chat": chat_known}
        _add_seats(games, db.execute(_ONE_SEATS, known))
        _add_moves(games, db.execute(_ONE_MOVES, known))
        _add_chat(games, db.execute(_ONE_CHAT, known))
    return games[game_id]


# The parts of a game's record, each in its order; the statements of one game built once.
_SEATS = (
    select(SeatTable, AccountTable.bot.label("bot_account"))
    .outerjoin(AccountTable, AccountTable.id == SeatTable.account_id)
    .order_by(SeatTable.game_id, SeatTable.seat)
)
_MOVES = select(MoveTable.game_id, MoveTable.move).order_by(MoveTable.game_id, MoveTable.number)
_CHAT = select(ChatLineTable).order_by(ChatLineTable.game_id, ChatLineTable.number)
_ONE_GAME = select(GameTable).where(GameTable.id == bindparam("b_id"))
_ONE_SEATS = _SEATS.where(SeatTable.game_id == bindparam("b_id"))
_ONE_MOVES = _MOVES.where(
    MoveTable.game_id == bindparam("b_id"), MoveTable.number > bindparam("b_moves")
)
_ONE_CHAT = _CHAT.where(
    ChatLineTable.game_id == bindparam("b_id"), ChatLineTable.number > bindparam("b_chat")
)


def _games(rows: Iterable[Row[Any]]) -> dict[str, StoredGame]:
    """The games of ``rows`` (of the games' table) by id, without seats, moves or chat."""
    games: dict[str, StoredGame] = {}
    for row in rows:
        try:
            options = read_options(row.options)
            pace = Pace.from_json(json.loads(row.clock)) if row.clock else None
        # one unreadable row must not stop the others
        except (ValueError, KeyError, TypeError) as error:
            log.error("game %s cannot be read, so it is not served: its options: %s", row.id, error)
            continue
        games[row.id] = _stored_game(row, options, pace)
    return games


def _add_seats(games: dict[str, StoredGame], rows: Iterable[Row[Any]]) -> None:
    for seat in rows:
        games[seat.game_id].seats.append(
            StoredSeat(
                seat.seat,
                seat.kind,
                seat.bot,
                seat.name,
                seat.token_hash,
                seat.bank,
                seat.timeouts or 0,
                bool(seat.away),
                bool(seat.left),
                bool(seat.reserved),
                bool(seat.end_vote),
                seat.account_id,
                moved_after_draft=bool(seat.moved_after_draft),
                bot_account=bool(seat.bot_account),
            )
        )


def _add_moves(games: dict[str, StoredGame], rows: Iterable[Row[Any]]) -> None:
    for move in rows:
        games[move.game_id].moves.append(move.move)


def _add_chat(games: dict[str, StoredGame], rows: Iterable[Row[Any]]) -> None:
    for line in rows:
        games[line.game_id].chat.append(
            ChatRow(line.number, line.seat, ChatKind(line.kind), line.text, line.at)
        )


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _stored_game(row: Row[Any], options: Options, pace: Pace | None) -> StoredGame:
    return StoredGame(
        row.id,
        row.edition,
        options,
        row.seed,
        _utc(row.created),
        [],
        [],
        bool(row.finished),
        pace=pace,
        deadline=row.deadline,
        turn_started=row.turn_started,
        last_move_at=row.last_move_at,
        finished_at=row.finished_at,
        ended=row.ended,
        rematch=row.rematch,
        rated=bool(row.rated),
        rated_outcome=row.rated_outcome,
    )
