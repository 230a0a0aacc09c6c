"""A batch of moves leaves the games', seats' and moves' rows the same on SQLite (a statement each) and
PostgreSQL (one statement for the batch): each game's last touched move's clock, its ending, each seat's
last clock and its first move after the draft, whatever the order and the mix of games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from server_helpers import write_game_row
from sqlalchemy import select
from sqlalchemy.exc import DBAPIError

from tendays.server.storage.rows import MoveConflict, MoveRow
from tendays.server.storage.schema import GameTable, MoveTable, SeatTable
from tendays.server.storage.store import Store

OPTIONS = {"players": 2}
GAME_COLUMNS = ("last_move_at", "deadline", "turn_started", "to_move", "finished", "finished_at")
SEAT_COLUMNS = ("game_id", "seat", "bank", "timeouts", "moved_after_draft")
MOVE_COLUMNS = ("game_id", "number", "seat", "move")

BATCH = [
    MoveRow("a", 1, 0, "m1", at=10.0, deadline=40.0, turn_started=10.0, to_move=1, first_after_draft=True),
    MoveRow("b", 1, 1, "n1", at=11.0, touch=False, bank=5.0, timeouts=1),
    MoveRow("a", 2, 1, "m2", at=12.0, touch=False, bank=3.5, timeouts=0),
    MoveRow("a", 3, 1, "m3", at=13.0, deadline=50.0, turn_started=13.0, to_move=0, bank=2.0, timeouts=2),
    MoveRow("b", 2, 0, "n2", at=14.0, finished=True, to_move=None, first_after_draft=True),
]


def _rows(url: str) -> dict[str, Any]:
    store = Store(url)
    try:
        with store.engine.connect() as db:
            games = {
                row[0]: tuple(row[1:])
                for row in db.execute(select(GameTable.id, *(getattr(GameTable, c) for c in GAME_COLUMNS)))
            }
            seats = sorted(
                db.execute(
                    select(
                        SeatTable.game_id,
                        SeatTable.seat,
                        SeatTable.bank,
                        SeatTable.timeouts,
                        SeatTable.moved_after_draft,
                    )
                ).all()
            )
            moves = sorted(db.execute(select(*(getattr(MoveTable, c) for c in MOVE_COLUMNS))).all())
    finally:
        store.close()
    return {"games": games, "seats": seats, "moves": moves}


def _write(url: str) -> dict[str, Any]:
    for game_id in ("a", "b"):
        write_game_row(url, game_id, OPTIONS)
    store = Store(url)
    try:
        store.append_moves(BATCH)
        with pytest.raises(MoveConflict):  # a move whose number is stored: none of the batch is
            store.append_moves([MoveRow("a", 4, 0, "m4", at=20.0), MoveRow("b", 2, 1, "again", at=20.0)])
        store.append_moves([MoveRow("a", 4, 0, "m4", at=21.0, touch=False)])  # and its connection writes on
    finally:
        store.close()
    return _rows(url)


@pytest.mark.slow  # starts PostgreSQL
def test_a_batch_leaves_the_same_rows_on_sqlite_and_postgresql(tmp_path: Path, postgres_url: str) -> None:
    on_sqlite = _write(f"sqlite:///{tmp_path / 'batch.db'}")
    on_postgres = _write(postgres_url)
    assert on_postgres == on_sqlite
    assert on_sqlite["games"]["a"][:4] == (13.0, 50.0, 13.0, 0)  # the last touched move's clock
    assert on_sqlite["games"]["b"][4:] == (True, 14.0)  # ended by its last move
    assert len(on_sqlite["moves"]) == len(BATCH) + 1  # and the move after the refused batch


def test_a_lost_connection_fails_its_batch_and_the_next_batch_is_stored(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'lost.db'}"
    write_game_row(url, "a", OPTIONS)
    store = Store(url)
    try:
        store.append_moves([MoveRow("a", 1, 0, "m1", at=1.0)])
        held = store._writer()
        raw = held.connection.dbapi_connection
        assert raw is not None
        raw.close()  # the database went away under the kept connection
        with pytest.raises(DBAPIError):
            store.append_moves([MoveRow("a", 2, 1, "m2", at=2.0)])
        assert held.invalidated
        store.append_moves([MoveRow("a", 2, 1, "m2", at=2.0)])  # on a new connection
    finally:
        store.close()
    assert [move[1] for move in _rows(url)["moves"]] == [1, 2]
