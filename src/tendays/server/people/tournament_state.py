"""A tournament as its database rows say it now: the event, its entrants, its tables and their
places, its byes, and the standings the rules make of them.

Read by the director before it pairs (:mod:`~.tournament_director`) and by the pages
(:mod:`~.tournament_views`): one reading, so the standings a page shows are the ones the next
pairing uses.
"""

from __future__ import annotations

import bisect
import heapq
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select, true
from sqlalchemy.engine import Connection

from ..storage.schema import (
    AccountTable,
    TournamentByeTable,
    TournamentEntrantTable,
    TournamentSeatTable,
    TournamentTable,
    TournamentTableTable,
)
from .tournament_arena_scores import ArenaScores
from .tournament_rows import EntrantRow, TableRow
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


@dataclass
class EventState:
    event: Any  # the tournaments row
    entrants: dict[int, EntrantRow] = field(default_factory=dict)
    # the tables, apart: those closed (they no longer change) and those being played, each in the
    # order paired, so a step looks only at the open ones
    closed: list[TableRow] = field(default_factory=list)
    open: list[TableRow] = field(default_factory=list)
    byes: list[Bye] = field(default_factory=list)
    # an arena's scores as the director pairs by them, kept between its steps with the tables
    arena: ArenaScores | None = None

    @property
    def tables(self) -> list[TableRow]:
        """Every table, in the order paired."""
        return list(heapq.merge(self.closed, self.open, key=lambda t: t.id))

    def place(self, tables: Iterable[TableRow]) -> None:
        """Tables read or written (open or closed), in the order paired."""
        for table in tables:
            bisect.insort(self.open if table.playing else self.closed, table, key=lambda t: t.id)

    def close(self, done: Mapping[int, TableRow]) -> None:
        """Open tables closed (by id, as the database has them now)."""
        if not done:
            return
        self.open = [t for t in self.open if t.id not in done]
        self.place(done.values())
        if self.arena is not None:
            for table in done.values():
                self.arena.add(table)

    def arena_scores(self) -> ArenaScores:
        if self.arena is None:
            self.arena = ArenaScores(self.closed)
        return self.arena

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
        return {e: t for t in self.open for e in t.entrants}


def read_state(
    db: Connection, tournament_id: int, kept: EventState | None = None
) -> EventState | None:
    """The tournament's state, or None if there is no such tournament.

    ``kept``: the state this process wrote at the end of its last step of the event under the
    lease it still holds (the director's memory between steps). Then only what can have changed
    is read: the event, its entrants and byes (bounded by the field, not by the games), the tables
    that were being played and those paired since; the closed tables are taken from ``kept``
    (a table is closed, and its places written, only by the lease holder: none changes behind its
    back). Should the database say a table ``kept`` had open is closed, everything is read again.
    """
    event = db.execute(select(TournamentTable).where(TournamentTable.id == tournament_id)).first()
    if event is None:
        return None
    state = EventState(event)
    _read_entrants(db, state)
    if kept is None or not _read_tables_since(db, state, kept):
        state.place(_read_tables(db, tournament_id, true()))
    _read_byes(db, state)
    return state


def _read_entrants(db: Connection, state: EventState) -> None:
    tournament_id = state.event.id
    for row in db.execute(
        select(TournamentEntrantTable, AccountTable.bot.label("bot_account"))
        .outerjoin(AccountTable, AccountTable.id == TournamentEntrantTable.account_id)
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
            bool(row.bot_account),
        )


def _read_tables(db: Connection, tournament_id: int, which: Any) -> list[TableRow]:
    """The tournament's tables that ``which`` selects, with their seats, in the order paired."""
    seats: dict[int, list[Any]] = {}
    for seat in db.execute(
        select(TournamentSeatTable)
        .join(TournamentTableTable, TournamentTableTable.id == TournamentSeatTable.table_id)
        .where(TournamentTableTable.tournament_id == tournament_id, which)
        .order_by(TournamentSeatTable.table_id, TournamentSeatTable.seat)
    ).all():
        seats.setdefault(seat.table_id, []).append(seat)
    tables = []
    for table in db.execute(
        select(TournamentTableTable)
        .where(TournamentTableTable.tournament_id == tournament_id, which)
        .order_by(TournamentTableTable.id)
    ).all():
        sat = seats.get(table.id, [])
        tables.append(
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
    return tables


def _read_tables_since(db: Connection, state: EventState, kept: EventState) -> bool:
    """Fill ``state``'s tables from ``kept``'s closed ones and the database's open and newer ones;
    False (nothing filled) if the database closed a table ``kept`` had open."""
    was_open = [t.id for t in kept.open]
    seen = max([t.id for t in kept.open] + [t.id for t in kept.closed[-1:]], default=0)
    fresh = _read_tables(db, state.event.id, TournamentTableTable.id > seen)
    if was_open:
        fresh += _read_tables(db, state.event.id, TournamentTableTable.id.in_(was_open))
    if any(not t.playing for t in fresh if t.id <= seen):
        return False
    state.closed = list(kept.closed)
    state.place(fresh)
    state.arena = kept.arena
    return True


def _read_byes(db: Connection, state: EventState) -> None:
    tournament_id = state.event.id
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
