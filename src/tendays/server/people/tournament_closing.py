"""Closing a tournament's tables: those whose game ended, with the places the game stored (as
people/results.py writes them) or, for a game that ended early with none, the places its leavers
earned; and those whose game can never be made, because a person at it can no longer play (settled
as a forfeit). Part of one step of :func:`~.tournament_running.advance`."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.engine import Connection

from ..storage.schema import (
    AccountTable,
    GameTable,
    SeatTable,
    TournamentEntrantTable,
    TournamentSeatTable,
    TournamentTableTable,
)
from .moderation_types import AccountStatus
from .tournament_state import EventState, TableRow

# A game that ended with no places written this long ago had no result (closed by the operator,
# or an unrated game that ended before it was played out): its table counts nothing.
RESULT_GRACE = 30.0


def close_ended(db: Connection, state: EventState, now: float) -> bool:
    """Close the tables whose game ended, with their places (in the database and in ``state``),
    and settle those whose game can never be made (:func:`_settled`); whether any closed."""
    playing = {t.game_id: t for t in state.open}
    if not playing:
        return False
    games = {
        row.id: row
        for row in db.execute(
            select(
                GameTable.id,
                GameTable.finished,
                GameTable.finished_at,
                GameTable.ended,
                GameTable.rated,
            ).where(GameTable.id.in_(list(playing)))
        )
    }
    seats: dict[str, dict[int, Any]] = {}
    for row in db.execute(
        select(SeatTable.game_id, SeatTable.seat, SeatTable.place, SeatTable.left).where(
            SeatTable.game_id.in_([g for g, row in games.items() if row.finished])
        )
    ):
        seats.setdefault(row.game_id, {})[row.seat] = row
    closed: dict[int, TableRow] = {}
    missing = [t for g, t in playing.items() if g not in games]
    out_of_play = cannot_play(db, state) if missing else set()
    for game_id, table in playing.items():
        game = games.get(game_id)
        if game is None:
            places, ended_at = _settled(table, out_of_play), now
            if places is _WAIT:
                continue
        elif not game.finished:
            continue
        else:
            ended_at = game.finished_at if game.finished_at is not None else now
            places = _places(game, seats.get(game_id, {}), len(table.entrants), ended_at, now)
            if places is _WAIT:
                continue
        for seat, entrant in enumerate(table.entrants):
            db.execute(
                update(TournamentSeatTable)
                .where(
                    TournamentSeatTable.table_id == table.id,
                    TournamentSeatTable.entrant_id == entrant,
                )
                .values(playing=False, place=None if places is None else places[seat])
            )
        db.execute(
            update(TournamentTableTable)
            .where(TournamentTableTable.id == table.id)
            .values(playing=False, finished_at=ended_at)
        )
        db.execute(
            update(TournamentEntrantTable)
            .where(TournamentEntrantTable.id.in_(table.entrants))
            .values(free_since=now)
        )
        closed[table.id] = _closed_here(state, table, places, ended_at, now)
    state.close(closed)
    return bool(closed)


def _closed_here(
    state: EventState, table: TableRow, places: list[int] | None, ended_at: float, now: float
) -> TableRow:
    """``table`` as the database has it once closed (its places), and its entrants free in
    ``state``."""
    for entrant in table.entrants:
        if entrant in state.entrants:
            state.entrants[entrant] = replace(state.entrants[entrant], free_since=now)
    seats = tuple(None for _ in table.entrants) if places is None else tuple(places)
    return replace(table, playing=False, finished_at=ended_at, places=seats)


_WAIT: list[int] = []  # the places are not written yet


def _places(
    game: Any, seats: dict[int, Any], size: int, ended_at: float, now: float
) -> list[int] | None:
    """The places a tournament counts for an ended game: those the game stored (people/results.py);
    for a game that ended early and stored none (an unrated game left by its people, whose bots
    would have played on), the people who left share the last place and the others the first;
    None when nobody left (closed by the operator): no result. :data:`_WAIT` while the places of a
    game that will have them are still being written."""
    stored = [seats[s].place if s in seats else None for s in range(size)]
    if all(p is not None for p in stored):
        return [int(p) for p in stored if p is not None]
    if (game.ended is None or game.rated) and ended_at > now - RESULT_GRACE:
        return _WAIT
    left = [bool(seats[s].left) if s in seats else False for s in range(size)]
    if not any(left):
        return None
    return [2 if gone else 1 for gone in left]


def _settled(table: TableRow, cannot_play: set[int]) -> list[int] | None:
    """The places of a table whose game is not made yet and never can be, because a person at it
    can no longer play (their account was deleted, suspended or closed since the pairing): as if
    they forfeited, those who cannot play share the last place and the others the first (a win
    at a table of two); None (no result) if nobody at it can play. :data:`_WAIT` while all can:
    the game will be made."""
    gone = [entrant in cannot_play for entrant in table.entrants]
    if not any(gone):
        return _WAIT
    if all(gone):
        return None
    return [2 if out else 1 for out in gone]


def cannot_play(db: Connection, state: EventState) -> set[int]:
    """People whose account was deleted, suspended or closed since they joined."""
    people = {e.account_id: e.id for e in state.entrants.values() if e.account_id is not None}
    gone = {e.id for e in state.entrants.values() if e.account_id is None and e.bot is None}
    if people:
        gone |= {
            people[account]
            for account in db.scalars(
                select(AccountTable.id).where(
                    AccountTable.id.in_(list(people)),
                    AccountTable.status != AccountStatus.ACTIVE.value,
                )
            )
        }
    return gone
