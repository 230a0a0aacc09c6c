"""A tournament as its database rows say it now: the event, its entrants, its tables and their
places, its byes, and the standings the rules make of them.

Read by the director before it pairs (:mod:`~.tournament_director`) and by the pages
(:mod:`~.tournament_views`): one reading, so the standings a page shows are the ones the next
pairing uses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from ..storage.schema import (
    TournamentByeTable,
    TournamentEntrantTable,
    TournamentSeatTable,
    TournamentTable,
    TournamentTableTable,
)
from .tournament_rules import (
    Bye,
    Entrant,
    Standing,
    TableResult,
    TournamentKind,
    arena_standings,
    swiss_standings,
)

__all__ = ["LATE_BYE", "ODD_BYE", "EntrantRow", "EventState", "TableRow", "read_state"]

ODD_BYE = 1.0  # the points of a Swiss round sat out as the odd one out
LATE_BYE = 0.5  # the points of each Swiss round paired before a late joiner joined


@dataclass(frozen=True)
class EntrantRow:
    id: int
    account_id: int | None
    bot: str | None
    name: str
    rating: float
    first_round: int
    withdrawn: bool
    paused: bool
    free_since: float | None


@dataclass(frozen=True)
class TableRow:
    """A table: its game, round, entrants by seat, and places once its game ended (None for a
    seat of a game with no result)."""

    id: int
    round: int
    game_id: str
    playing: bool
    finished_at: float | None
    entrants: tuple[int, ...]
    places: tuple[int | None, ...]

    @property
    def result(self) -> TableResult | None:
        """The result the rules count, or None (still playing, or ended with no result)."""
        if self.playing or self.finished_at is None or None in self.places:
            return None
        places = {e: int(p) for e, p in zip(self.entrants, self.places, strict=True) if p}
        return TableResult(self.round, places, self.finished_at)


@dataclass
class EventState:
    event: Any  # the tournaments row
    entrants: dict[int, EntrantRow] = field(default_factory=dict)
    tables: list[TableRow] = field(default_factory=list)
    byes: list[Bye] = field(default_factory=list)

    @property
    def kind(self) -> TournamentKind:
        return TournamentKind(self.event.kind)

    def results(self) -> list[TableResult]:
        return [r for t in self.tables if (r := t.result) is not None]

    def all_byes(self) -> list[Bye]:
        """The odd-one-out byes stored, and a late joiner's half-point byes: one for each round
        paired before they joined (a Swiss event only)."""
        late = [
            Bye(e.id, r, LATE_BYE)
            for e in self.entrants.values()
            for r in range(1, min(e.first_round, self.event.round + 1))
        ]
        return self.byes + late

    def standings(self) -> list[Standing]:
        entrants = [Entrant(e.id, e.name, e.rating) for e in self.entrants.values()]
        if self.kind is TournamentKind.ARENA:
            return arena_standings(entrants, self.results())
        return swiss_standings(entrants, self.results(), self.all_byes())

    def playing(self) -> dict[int, TableRow]:
        """The unfinished table of each entrant at one."""
        return {e: t for t in self.tables if t.playing for e in t.entrants}


def read_state(db: Connection, tournament_id: int) -> EventState | None:
    """The tournament's state, or None if there is no such tournament."""
    event = db.execute(select(TournamentTable).where(TournamentTable.id == tournament_id)).first()
    if event is None:
        return None
    state = EventState(event)
    for row in db.execute(
        select(TournamentEntrantTable)
        .where(TournamentEntrantTable.tournament_id == tournament_id)
        .order_by(TournamentEntrantTable.id)
    ).all():
        state.entrants[row.id] = EntrantRow(
            row.id,
            row.account_id,
            row.bot,
            row.name,
            row.rating,
            row.first_round,
            row.withdrawn,
            row.paused,
            row.free_since,
        )
    seats: dict[int, list[Any]] = {}
    for seat in db.execute(
        select(TournamentSeatTable)
        .join(TournamentTableTable, TournamentTableTable.id == TournamentSeatTable.table_id)
        .where(TournamentTableTable.tournament_id == tournament_id)
        .order_by(TournamentSeatTable.table_id, TournamentSeatTable.seat)
    ).all():
        seats.setdefault(seat.table_id, []).append(seat)
    for table in db.execute(
        select(TournamentTableTable)
        .where(TournamentTableTable.tournament_id == tournament_id)
        .order_by(TournamentTableTable.id)
    ).all():
        sat = seats.get(table.id, [])
        state.tables.append(
            TableRow(
                table.id,
                table.round,
                table.game_id,
                table.playing,
                table.finished_at,
                tuple(s.entrant_id for s in sat),
                tuple(s.place for s in sat),
            )
        )
    state.byes = [
        Bye(row.entrant_id, row.round, row.points)
        for row in db.execute(
            select(TournamentByeTable)
            .join(
                TournamentEntrantTable, TournamentEntrantTable.id == TournamentByeTable.entrant_id
            )
            .where(TournamentEntrantTable.tournament_id == tournament_id)
        ).all()
    ]
    return state
