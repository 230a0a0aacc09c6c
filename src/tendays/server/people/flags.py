"""Accounts flagged for the operator: those that repeatedly lose rated games at once.

A *quick loss* is a rated game that ended with the account's seat given up, by leaving or by
timing out until a bot took the seat, before the account made :data:`QUICK_LOSS_MOVES` moves after
the draft (so also every game aborted because it left before its first move). An account with
:data:`FLAG_LOSSES` quick losses within any :data:`FLAG_WINDOW` (24 hours) of the last
:data:`LOOKBACK_DAYS` days is flagged, with those games as the evidence.

Why these numbers: a person whose connection drops may give up a rated game early once or twice in
a day, and a bad day is not a pattern; three rated games thrown before a second move in one day
are what feeding points to a partner looks like (the farming run of the fair-play audit threw 30
in 5 seconds), while an honest player's early losses are spread over weeks. Thirty days keeps the
evidence in view long enough for an operator who looks in once a week or so.

The flags are read when the operator looks (no table of their own): from the rated games finished
in the last :data:`LOOKBACK_DAYS` days (``ix_games_finished_at``), their seats that were given up,
and each such seat's moves (the moves' primary key).
"""

from __future__ import annotations

import time
from collections import defaultdict
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.engine import Connection

from tendays.engine.moves import MoveKind

from ..storage.schema import AccountTable, GameTable, MoveTable, SeatTable

__all__ = ["FLAG_LOSSES", "FLAG_WINDOW", "LOOKBACK_DAYS", "QUICK_LOSS_MOVES", "flagged"]

#: A game given up before the account made this many moves after the draft is a quick loss.
QUICK_LOSS_MOVES = 2
#: This many quick losses ...
FLAG_LOSSES = 3
#: ... within this many seconds flag an account.
FLAG_WINDOW = 24 * 3600.0
#: How far back the flags look.
LOOKBACK_DAYS = 30

_PLAYED = (
    select(func.count())
    .where(
        MoveTable.game_id == SeatTable.game_id,
        MoveTable.seat == SeatTable.seat,
        MoveTable.move.not_like(f"{MoveKind.DRAFT.value} %"),
    )
    .scalar_subquery()
)


def flagged(db: Connection, now: float | None = None) -> list[dict[str, Any]]:
    """The flagged accounts, the most recent evidence first, each with its quick losses (the games
    of the busiest 24 hours and any since), as ``GET /api/admin/flags`` answers them."""
    at = time.time() if now is None else now
    rows = db.execute(
        select(
            SeatTable.account_id,
            AccountTable.name,
            AccountTable.status,
            AccountTable.hidden,
            SeatTable.game_id,
            GameTable.edition,
            GameTable.finished_at,
            SeatTable.left,
            _PLAYED.label("played"),
        )
        .join(GameTable, GameTable.id == SeatTable.game_id)
        .join(AccountTable, AccountTable.id == SeatTable.account_id)
        .where(
            GameTable.rated.is_(True),
            GameTable.finished.is_(True),
            GameTable.finished_at > at - LOOKBACK_DAYS * 86400,
            or_(SeatTable.left.is_(True), SeatTable.away.is_(True)),
        )
        .order_by(SeatTable.account_id, GameTable.finished_at)
    ).all()
    losses: dict[int, list[Any]] = defaultdict(list)
    for row in rows:
        if row.played < QUICK_LOSS_MOVES:
            losses[row.account_id].append(row)
    flags = []
    for quick in losses.values():
        busiest = _busiest_window(quick)
        if busiest < FLAG_LOSSES:
            continue
        first = quick[0]
        flags.append(
            {
                "account": first.name,
                "status": first.status,
                "hidden": bool(first.hidden),
                "quick_losses": len(quick),
                "in_a_day": busiest,
                "latest": quick[-1].finished_at,
                "games": [
                    {
                        "id": r.game_id,
                        "edition": r.edition,
                        "finished_at": r.finished_at,
                        "how": "left" if r.left else "timed_out",
                        "moves": r.played,
                    }
                    for r in reversed(quick)
                ],
            }
        )
    flags.sort(key=lambda f: f["latest"], reverse=True)
    return flags


def _busiest_window(losses: list[Any]) -> int:
    """The most quick losses within any :data:`FLAG_WINDOW` (``losses`` in time order)."""
    most, start = 0, 0
    for end, loss in enumerate(losses):
        while loss.finished_at - losses[start].finished_at > FLAG_WINDOW:
            start += 1
        most = max(most, end - start + 1)
    return most
