"""One account's own data, as the JSON its owner downloads: the account, its sessions (when they
began and end, never their ids), its seats in games, its ratings and their history, and its seeks.
Nothing of any other account, and never the password's hash."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from ..storage.schema import (
    AccountTable,
    GameTable,
    RatingHistoryTable,
    RatingTable,
    SeatTable,
    SeekTable,
    SessionTable,
)

__all__ = ["account_data"]


def account_data(db: Connection, account_id: int) -> dict[str, Any]:
    account = db.execute(
        select(AccountTable.name, AccountTable.created).where(AccountTable.id == account_id)
    ).one()
    sessions = db.execute(
        select(SessionTable.created, SessionTable.expires)
        .where(SessionTable.account_id == account_id)
        .order_by(SessionTable.created)
    ).all()
    seats = db.execute(
        select(
            SeatTable.game_id,
            SeatTable.seat,
            SeatTable.name,
            SeatTable.place,
            GameTable.edition,
            GameTable.created,
            GameTable.finished,
            GameTable.ended,
            GameTable.rated,
        )
        .join(GameTable, GameTable.id == SeatTable.game_id)
        .where(SeatTable.account_id == account_id)
        .order_by(GameTable.created)
    ).all()
    ratings = db.execute(
        select(RatingTable)
        .where(RatingTable.account_id == account_id)
        .order_by(RatingTable.edition)
    ).all()
    history = db.execute(
        select(RatingHistoryTable)
        .where(RatingHistoryTable.account_id == account_id)
        .order_by(RatingHistoryTable.at)
    ).all()
    seeks = db.execute(
        select(SeekTable).where(SeekTable.account_id == account_id).order_by(SeekTable.created)
    ).all()
    return {
        "account": {"name": account.name, "created": account.created},
        "sessions": [{"created": s.created, "expires": s.expires} for s in sessions],
        "games": [
            {
                "id": s.game_id,
                "edition": s.edition,
                "seat": s.seat,
                "name": s.name,
                "created": s.created.isoformat(),
                "finished": bool(s.finished),
                "ended": s.ended,
                "rated": bool(s.rated),
                "place": s.place,
            }
            for s in seats
        ],
        "ratings": [
            {
                "edition": r.edition,
                "rating": r.rating,
                "mu": r.mu,
                "sigma": r.sigma,
                "games": r.games,
                "updated": r.updated,
            }
            for r in ratings
        ],
        "rating_history": [
            {
                "edition": h.edition,
                "game": h.game_id,
                "at": h.at,
                "rating": h.rating,
                "deviation": h.deviation,
            }
            for h in history
        ],
        "seeks": [
            {
                "id": s.id,
                "edition": s.edition,
                "pace": json.loads(s.pace) if s.pace else None,
                "rating_min": s.rating_min,
                "rating_max": s.rating_max,
                "created": s.created,
                "status": s.status,
                "game": s.game_id,
            }
            for s in seeks
        ],
    }
