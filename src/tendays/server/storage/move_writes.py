"""Storing moves: the statements built once and executed over a batch of moves of any number of
games, with the lease fence that keeps a move from a process that no longer drives its game out.
:class:`~tendays.server.storage.store.Store` calls it inside its transaction."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import bindparam, insert, update
from sqlalchemy.engine import Connection

from .rows import MoveConflict, MoveRow
from .tables.games import GameTable, MoveTable, SeatTable

#: Tells the other server processes, once the transaction commits, that a game changed (and how).
Announce = Callable[[Connection, str, str], None]

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


_FENCE = (
    update(GameTable)
    .where(GameTable.id == bindparam("b_id"), GameTable.lease_epoch == bindparam("b_epoch"))
    .values(lease_epoch=GameTable.lease_epoch)
)


def write_moves(db: Connection, rows: list[MoveRow], announce: Announce) -> None:
    """Store ``rows`` in ``db``'s transaction: fence each game's lease epoch, insert the moves,
    touch the games and seats the moves changed, and ``announce`` each move to the other
    processes. :class:`MoveConflict` if a game's lease epoch moved on."""
    for game_id, epoch in {(r.game_id, r.epoch) for r in rows if r.epoch is not None}:
        if db.execute(_FENCE, {"b_id": game_id, "b_epoch": epoch}).rowcount != 1:
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
    for row in rows:
        announce(db, row.game_id, row.notice())
