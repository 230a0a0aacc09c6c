"""Deleting an account in the database: its games stay, their seats read "deleted player"
(:data:`~tendays.server.matches.wire.DELETED_PLAYER`); its ratings, their history, its seeks,
sessions and seat links go."""

from __future__ import annotations

from sqlalchemy import delete, select
from sqlalchemy.engine import Connection

from ..matches.text import name_key
from ..matches.wire import DELETED_PLAYER
from ..storage.schema import (
    AccountTable,
    GameTable,
    RatingHistoryTable,
    RatingTable,
    SeatTable,
    SeekTable,
    SessionTable,
)
from ..storage.store import Store
from .limits import clear_count, name_key_of
from .session_ends import Revoked, revoke_seat_links


def forget_account(
    db: Connection, store: Store, account_id: int, name: str, sender: str
) -> Revoked:
    """Delete the account in ``db``'s transaction; the seat links it revoked (their connections
    are closed once it commits)."""
    # first, while the seats still name the account: their links end with it
    revoked = revoke_seat_links(db, account_id, sender)
    store.forget_account_seats(db, account_id, DELETED_PLAYER)
    for table in (RatingHistoryTable, RatingTable, SeekTable, SessionTable):
        db.execute(delete(table).where(table.account_id == account_id))
    clear_count(db, name_key_of(name_key(name)))
    db.execute(delete(AccountTable).where(AccountTable.id == account_id))
    return revoked


def rated_games_playing(db: Connection, account_id: int) -> list[str]:
    """The unfinished rated games the account has a seat at."""
    return list(
        db.scalars(
            select(SeatTable.game_id)
            .join(GameTable, GameTable.id == SeatTable.game_id)
            .where(
                SeatTable.account_id == account_id,
                GameTable.rated.is_(True),
                GameTable.finished.is_(False),
            )
            .distinct()
        )
    )
