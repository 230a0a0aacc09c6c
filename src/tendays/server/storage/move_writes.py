"""Storing moves: the statements built once and executed over a batch of moves of any number of
games, with the lease fence that keeps a move from a process that no longer drives its game out.
:class:`~tendays.server.storage.store.Store` calls it inside its transaction.

A batch costs the same few statements however many moves and games it holds (one fence, one insert,
one notice statement, ...): the round trips to the database, not the rows, are what a commit pays
for, and a process with few moves a turn (one of several sharing the site) pays them for fewer."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import bindparam, insert, tuple_, update
from sqlalchemy.engine import Connection

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


def write_moves(db: Connection, rows: list[MoveRow], announce: AnnounceAll) -> None:
    """Store ``rows`` in ``db``'s transaction: fence each game's lease epoch, insert the moves,
    touch the games and seats the moves changed, and ``announce`` the moves to the other
    processes. :class:`MoveConflict` if a game's lease epoch moved on."""
    fenced = sorted({(r.game_id, r.epoch) for r in rows if r.epoch is not None})
    if fenced:
        held = {(row[0], int(row[1])) for row in db.execute(_FENCE, {"b_fenced": fenced})}
        for game_id, epoch in fenced:
            if (game_id, epoch) not in held:
                raise MoveConflict(
                    f"game {game_id} is driven by another server process now (its lease "
                    f"epoch is no longer {epoch})",
                    lease_lost=True,
                )
    db.execute(
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
        db.execute(_AFTER_MOVE, touched)
    finished = [{"b_id": r.game_id, "b_at": r.at} for r in rows if r.finished]
    if finished:
        db.execute(_FINISHED, finished)
    seats = [
        {"b_id": r.game_id, "b_seat": r.seat, "b_bank": r.bank, "b_timeouts": r.timeouts}
        for r in rows
        if r.timeouts is not None
    ]
    if seats:
        db.execute(_SEAT_CLOCK, seats)
    firsts = [{"b_id": r.game_id, "b_seat": r.seat} for r in rows if r.first_after_draft]
    if firsts:
        db.execute(_MOVED_AFTER_DRAFT, firsts)
    announce(db, [(row.game_id, row.notice()) for row in rows])
