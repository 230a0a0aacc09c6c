"""Storing moves: the statements built once and executed over a batch of moves of any number of
games, with the lease fence that keeps a move from a process that no longer drives its game out.
:class:`~tendays.server.storage.store.Store` calls it inside its transaction.

A batch costs the same few statements however many moves and games it holds: on PostgreSQL one
statement (:data:`_BATCH`) and, when another process needs them, one for the notices; on SQLite one
each for the fence, the insert, the games and the seats. The round trips to the database, not the
rows, are what a commit pays for, and a process with few moves a turn (one of several sharing the
site) pays them for fewer.

On PostgreSQL the statement locks the row of every game of the batch and reads who else needs
its moves' notices (the lease owner and the followers, :mod:`tendays.server.storage.leases`): a
move of a game that no other process holds is announced to nobody. A process that registers as a
follower updates the same row, so it comes wholly before the batch (and is told) or after it (and
reads the move).

The batch's statements go straight to the driver's cursor, each compiled once for the dialect from
its SQLAlchemy statement below (:func:`_compiled`): SQLAlchemy's execution of a statement (its
compiled form's cache, its parameters, its result) cost more than the database's own work on the
batch. They run in the same transaction, and a
driver's error is raised as SQLAlchemy would raise it (:func:`_driver`)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from sqlalchemy import bindparam, insert, text, tuple_, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError

from .rows import MoveConflict, MoveRow
from .tables.games import GameTable, MoveTable, SeatTable

#: Tells the other server processes, once the transaction commits, that games changed (and how):
#: (game id, what) in order, with one statement.
AnnounceAll = Callable[[Connection, list[tuple[str, str]]], None]

# Built once: a move is stored with the same statements every time (executemany over a batch).
_INSERT_MOVE = insert(MoveTable)
_AFTER_MOVE = (
    update(GameTable)
    .where(GameTable.id == bindparam("b_id"))
    .values(
        last_move_at=bindparam("b_at"),
        deadline=bindparam("b_deadline"),
        turn_started=bindparam("b_started"),
        to_move=bindparam("b_to_move"),
    )
)
_FINISHED = (
    update(GameTable)
    .where(GameTable.id == bindparam("b_id"))
    .values(finished=True, finished_at=bindparam("b_at"), deadline=None, turn_started=None)
)
_SEAT_CLOCK = (
    update(SeatTable)
    .where(SeatTable.game_id == bindparam("b_id"), SeatTable.seat == bindparam("b_seat"))
    .values(bank=bindparam("b_bank"), timeouts=bindparam("b_timeouts"))
)


_MOVED_AFTER_DRAFT = (
    update(SeatTable)
    .where(SeatTable.game_id == bindparam("b_id"), SeatTable.seat == bindparam("b_seat"))
    .values(moved_after_draft=True)
)


# Every (game, epoch) of a batch in one statement; those that still hold come back.
_FENCE = (
    update(GameTable)
    .where(tuple_(GameTable.id, GameTable.lease_epoch).in_(bindparam("b_fenced", expanding=True)))
    .values(lease_epoch=GameTable.lease_epoch)
    .returning(GameTable.id, GameTable.lease_epoch)
)
# PostgreSQL: a whole batch in one statement (one round trip): each game's row updated once (its
# last touched move's clock, its ending) and returned with its epoch and who holds it, the moves
# inserted, each seat's row updated once. An UPDATE's RETURNING gives the row as it is once its lock
# is had, so a follower's registration that committed meanwhile is seen.
_BATCH = text(
    """
WITH g_in AS (
  SELECT * FROM unnest(CAST(:g_id AS text[]), CAST(:g_touch AS boolean[]),
    CAST(:g_at AS float8[]), CAST(:g_deadline AS float8[]), CAST(:g_started AS float8[]),
    CAST(:g_to_move AS integer[]), CAST(:g_finished AS boolean[]), CAST(:g_ended_at AS float8[]))
    AS t(id, touch, at, deadline, started, to_move, finished, ended_at)
), fenced AS (
  UPDATE games SET
    last_move_at = CASE WHEN g_in.touch THEN g_in.at ELSE games.last_move_at END,
    deadline = CASE WHEN g_in.finished THEN NULL
      WHEN g_in.touch THEN g_in.deadline ELSE games.deadline END,
    turn_started = CASE WHEN g_in.finished THEN NULL
      WHEN g_in.touch THEN g_in.started ELSE games.turn_started END,
    to_move = CASE WHEN g_in.touch THEN g_in.to_move ELSE games.to_move END,
    finished = CASE WHEN g_in.finished THEN true ELSE games.finished END,
    finished_at = CASE WHEN g_in.finished THEN g_in.ended_at ELSE games.finished_at END
  FROM g_in WHERE games.id = g_in.id
  RETURNING games.id, games.lease_epoch, games.lease_owner, games.followers
), moved AS (
  INSERT INTO moves (game_id, number, seat, move)
  SELECT * FROM unnest(CAST(:m_game AS text[]), CAST(:m_number AS integer[]),
    CAST(:m_seat AS integer[]), CAST(:m_move AS text[]))
), seated AS (
  UPDATE seats SET
    bank = CASE WHEN s_in.clock THEN s_in.bank ELSE seats.bank END,
    timeouts = CASE WHEN s_in.clock THEN s_in.timeouts ELSE seats.timeouts END,
    moved_after_draft = CASE WHEN s_in.first THEN true ELSE seats.moved_after_draft END
  FROM unnest(CAST(:s_game AS text[]), CAST(:s_seat AS integer[]), CAST(:s_clock AS boolean[]),
    CAST(:s_bank AS float8[]), CAST(:s_timeouts AS integer[]), CAST(:s_first AS boolean[]))
    AS s_in(game_id, seat, clock, bank, timeouts, first)
  WHERE seats.game_id = s_in.game_id AND seats.seat = s_in.seat
)
SELECT id, lease_epoch, lease_owner, followers FROM fenced
"""
)

# What a statement compiles to for a dialect, kept: its SQL and, for a positional paramstyle, its
# parameters in order, each the name a row's values give it by or the value the statement fixes
# (``finished=True``); None for a named paramstyle. The statements above are the one home of each.
_GIVEN = object()
Compiled = tuple[str, tuple[tuple[str, Any], ...] | None]
_COMPILED: dict[tuple[int, str], Compiled] = {}


def _compiled(db: Connection, statement: Any) -> Compiled:
    key = (id(statement), db.dialect.name)
    found = _COMPILED.get(key)
    if found is None:
        compiled = statement.compile(dialect=db.dialect)
        fixed = compiled.params  # the statement's own values (and None where a row gives one)
        order = compiled.positiontup
        found = (
            compiled.string,
            None
            if order is None
            else tuple(
                (name, _GIVEN if compiled.binds[name].required else fixed[name]) for name in order
            ),
        )
        _COMPILED[key] = found
    return found


def write_moves(db: Connection, rows: list[MoveRow], announce: AnnounceAll, writer: str) -> None:
    """Store ``rows`` in ``db``'s transaction: fence each game's lease epoch, insert the moves,
    touch the games and seats the moves changed, and ``announce`` the moves to the other
    processes that hold their games (``writer``: this process). :class:`MoveConflict` if a game's
    lease epoch moved on."""
    fenced = sorted({(r.game_id, r.epoch) for r in rows if r.epoch is not None})
    dialect = db.dialect.name
    if dialect == "postgresql":
        found = _run(db, _BATCH, [_batch_values(rows)], many=False)
        _check_fence(fenced, {(row[0], int(row[1])) for row in found})
        heard = {row[0] for row in found if _others(writer, row[2], row[3])}
        if heard:
            announce(db, [(r.game_id, r.notice()) for r in rows if r.game_id in heard])
        return
    if fenced:
        held = {(row[0], int(row[1])) for row in db.execute(_FENCE, {"b_fenced": fenced})}
        _check_fence(fenced, held)
    _run(
        db,
        _INSERT_MOVE,
        [{"game_id": r.game_id, "number": r.number, "seat": r.seat, "move": r.move} for r in rows],
    )
    touched = [
        {
            "b_id": r.game_id,
            "b_at": r.at,
            "b_deadline": r.deadline,
            "b_started": r.turn_started,
            "b_to_move": r.to_move,
        }
        for r in rows
        if r.touch
    ]
    if touched:
        _run(db, _AFTER_MOVE, touched)
    finished = [{"b_id": r.game_id, "b_at": r.at} for r in rows if r.finished]
    if finished:
        _run(db, _FINISHED, finished)
    seats = [
        {"b_id": r.game_id, "b_seat": r.seat, "b_bank": r.bank, "b_timeouts": r.timeouts}
        for r in rows
        if r.timeouts is not None
    ]
    if seats:
        _run(db, _SEAT_CLOCK, seats)
    firsts = [{"b_id": r.game_id, "b_seat": r.seat} for r in rows if r.first_after_draft]
    if firsts:
        _run(db, _MOVED_AFTER_DRAFT, firsts)
    # SQLite is one process alone: nobody to announce the moves to


def _run(db: Connection, statement: Any, values: list[dict[str, Any]], many: bool = True) -> Any:
    """``statement`` over each of ``values`` on the driver's cursor, its SQL compiled once for the
    dialect (``many`` False: once, with ``values[0]``, and the rows it returns)."""
    sql, order = _compiled(db, statement)
    params: list[Any] = (
        values
        if order is None
        else [tuple(v[n] if f is _GIVEN else f for n, f in order) for v in values]
    )
    return _driver(db, sql, params if many else params[0], many=many)


def _driver(db: Connection, sql: str, params: Any, many: bool = True) -> list[Any]:
    """Run ``sql`` on the driver's cursor of ``db``, in its transaction (``many``: once for each
    of ``params``); the rows it returns. A driver's error is raised as SQLAlchemy's (an
    :class:`~sqlalchemy.exc.IntegrityError` for a key taken), and a connection that was lost is
    invalidated, as SQLAlchemy does, so that the store replaces it."""
    raw = db.connection.dbapi_connection
    assert raw is not None
    cursor = raw.cursor()
    try:
        if many:
            cursor.executemany(sql, params)
            return []
        cursor.execute(sql, params)
        return list(cursor.fetchall())
    except db.dialect.loaded_dbapi.Error as error:
        lost = db.dialect.is_disconnect(error, raw, cursor)
        if lost:
            db.invalidate(error)
        raise DBAPIError.instance(
            sql,
            None,
            error,
            db.dialect.loaded_dbapi.Error,
            hide_parameters=True,
            connection_invalidated=lost,
            dialect=db.dialect,
            ismulti=many,
        ) from error
    finally:
        with contextlib.suppress(Exception):  # a connection invalidated closed it already
            cursor.close()


def _check_fence(fenced: list[tuple[str, int]], held: set[tuple[str, int]]) -> None:
    """:class:`MoveConflict` unless every (game, epoch) of ``fenced`` is ``held``."""
    for game_id, epoch in fenced:
        if (game_id, epoch) not in held:
            raise MoveConflict(
                f"game {game_id} is driven by another server process now (its lease "
                f"epoch is no longer {epoch})",
                lease_lost=True,
            )


def _batch_values(rows: list[MoveRow]) -> dict[str, list[Any]]:
    """The arrays of :data:`_BATCH`: one entry a game (its last touched move's clock, and whether
    a move ended it), one a move, one a seat (its last clock, and a first move after the draft),
    as the statements one at a time would leave the rows."""
    games: dict[str, list[Any]] = {}  # id: [touch, at, deadline, started, to_move, finished, at]
    seats: dict[tuple[str, int], list[Any]] = {}  # (game, seat): [clock, bank, timeouts, first]
    for r in rows:
        game = games.setdefault(r.game_id, [False, None, None, None, None, False, None])
        if r.touch:
            game[:5] = [True, r.at, r.deadline, r.turn_started, r.to_move]
        if r.finished:
            game[5:] = [True, r.at]
        if r.timeouts is not None or r.first_after_draft:
            seat = seats.setdefault((r.game_id, r.seat), [False, None, None, False])
            if r.timeouts is not None:
                seat[:3] = [True, r.bank, r.timeouts]
            seat[3] = seat[3] or r.first_after_draft
    columns = list(zip(*games.values(), strict=True))
    seat_columns: list[tuple[Any, ...]] = list(zip(*seats.values(), strict=True)) or [()] * 4
    names = ["g_touch", "g_at", "g_deadline", "g_started", "g_to_move", "g_finished", "g_ended_at"]
    values: dict[str, list[Any]] = {"g_id": list(games)}
    values |= {name: list(column) for name, column in zip(names, columns, strict=True)}
    values |= {
        "m_game": [r.game_id for r in rows],
        "m_number": [r.number for r in rows],
        "m_seat": [r.seat for r in rows],
        "m_move": [r.move for r in rows],
        "s_game": [game_id for game_id, _ in seats],
        "s_seat": [seat for _, seat in seats],
    }
    names = ["s_clock", "s_bank", "s_timeouts", "s_first"]
    values |= {name: list(column) for name, column in zip(names, seat_columns, strict=True)}
    return values


def _others(writer: str, owner: str | None, followers: list[str] | None) -> bool:
    """Whether a process other than ``writer`` holds the game: its lease owner or a follower."""
    return (owner is not None and owner != writer) or any(f != writer for f in followers or ())
