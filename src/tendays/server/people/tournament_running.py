"""One step of running a tournament, in one transaction fenced by the director's lease.

:func:`advance` first checks, by updating the event's row, that this process still holds the lease
at ``epoch`` (a paused old owner finds its epoch gone and writes nothing); the row stays locked
until the transaction ends, so nothing else moves the event meanwhile. It reads the event once, and
only what changed since its last step when the director kept that step's state
(:func:`~.tournament_state.read_state`), then the games of the tables being played (their places,
as people/results.py writes them), closes those that ended, settles those whose game can never be
made because a person at them can no longer play (a forfeit; both in :mod:`~.tournament_closing`),
moves the event on (the five-minute reminder, the start, the end) and writes the next pairings:
each table with the id its game will have, before the game exists, its seats under the unique
indexes that make a second pairing of an entrant in a round (Swiss) or a second unfinished table
(arena) impossible. It answers the tables whose game is missing or not seated yet, which the
director then makes: a process killed between the pairing and the game loses no pairing, and the
next owner makes the game, never a second pairing.

Synchronous: run it on the journal's database thread.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection, Engine

from ..storage.schema import (
    BlockTable,
    SeatTable,
    TournamentByeTable,
    TournamentSeatTable,
    TournamentTable,
    TournamentTableTable,
)
from .tournament_closing import RESULT_GRACE, cannot_play, close_ended
from .tournament_leases import LostLease, claim, fence, release, renew
from .tournament_rules import ArenaCandidate, SwissCandidate, TournamentKind, pair_arena, pair_swiss
from .tournament_spec import EventSpec, TournamentStatus
from .tournament_state import ODD_BYE, EntrantRow, EventState, TableRow, read_state

__all__ = [
    "REMINDER",
    "RESULT_GRACE",
    "LostLease",
    "Step",
    "TableToMake",
    "advance",
    "claim",
    "not_due",
    "release",
    "renew",
]

log = logging.getLogger("tendays.server")

REMINDER = 300.0  # seconds before the start when every entrant is told it starts soon


@dataclass(frozen=True)
class TableToMake:
    """A table whose game is missing (``exists`` False) or has seats not taken yet (``unseated``:
    seat numbers of people)."""

    game_id: str
    entrants: tuple[EntrantRow, ...]
    exists: bool
    unseated: tuple[int, ...]


@dataclass(frozen=True)
class Step:
    """What :func:`advance` did and left to the director."""

    spec: EventSpec
    status: TournamentStatus
    to_make: tuple[TableToMake, ...]
    paired: int  # tables written this step
    # the event as this step left it: what the director keeps for its next step (once committed)
    state: EventState


def not_due(engine: Engine, ids: list[int], now: float) -> set[int]:
    """Those of ``ids`` with nothing to do yet: upcoming, and more than five minutes from their
    start (a step would only renew the fence)."""
    if not ids:
        return set()
    with engine.connect() as db:
        return set(
            db.scalars(
                select(TournamentTable.id).where(
                    TournamentTable.id.in_(ids),
                    TournamentTable.status == TournamentStatus.UPCOMING.value,
                    TournamentTable.starts_at - REMINDER > now,
                )
            )
        )


# -- one step ----------------------------------------------------------------------------------


def advance(
    engine: Engine,
    tournament_id: int,
    owner: str,
    epoch: int,
    now: float,
    kept: EventState | None = None,
) -> Step:
    """Move the tournament on as far as it goes now (see the module's words); :class:`LostLease`
    if this process no longer holds it. ``kept``: the :attr:`Step.state` of this process's last
    step of the event at this ``epoch`` (then only what changed since is read: see
    :func:`~.tournament_state.read_state`); None reads it all (a new owner, or after a failure)."""
    with engine.begin() as db:
        fence(db, tournament_id, owner, epoch)
        state = read_state(db, tournament_id, kept)
        assert state is not None  # a leased tournament is never deleted
        close_ended(db, state, now)
        status = TournamentStatus(state.event.status)
        paired = 0
        if status is TournamentStatus.UPCOMING:
            status = _before_start(db, state, now)
        if status is TournamentStatus.RUNNING:
            if state.kind is TournamentKind.ARENA:
                status, paired = _run_arena(db, state, epoch, now)
            else:
                status, paired = _run_swiss(db, state, epoch, now)
        if status is TournamentStatus.FINISHED:
            db.execute(
                update(TournamentTable)
                .where(TournamentTable.id == tournament_id)
                .values(lease_owner=None, lease_expires=None)
            )
        return Step(EventSpec.of_row(state.event), status, _to_make(db, state), paired, state)


def _set_status(db: Connection, state: EventState, status: TournamentStatus, **more: Any) -> None:
    db.execute(
        update(TournamentTable)
        .where(TournamentTable.id == state.event.id)
        .values(status=status.value, **more)
    )


def _before_start(db: Connection, state: EventState, now: float) -> TournamentStatus:
    event = state.event
    if not event.reminded and now >= event.starts_at - REMINDER:
        db.execute(
            update(TournamentTable).where(TournamentTable.id == event.id).values(reminded=True)
        )
        _remind(db, state)
    if now < event.starts_at:
        return TournamentStatus.UPCOMING
    _set_status(db, state, TournamentStatus.RUNNING)
    return TournamentStatus.RUNNING


def _remind(db: Connection, state: EventState) -> None:
    """Tell every person in the event it starts in five minutes (in this transaction: the mark that
    they were told commits with the notices)."""
    from .notifications import NotificationKind, notify

    event = state.event
    for entrant in state.entrants.values():
        if entrant.account_id is not None and not entrant.withdrawn:
            notify(
                db,
                entrant.account_id,
                NotificationKind.TOURNAMENT_STARTING,
                {
                    "tournament": event.id,
                    "name": event.name,
                    "starts_at": event.starts_at,
                    "url": f"/tournaments/{event.id}",
                },
            )


def _blocked(db: Connection, state: EventState) -> set[frozenset[int]]:
    """The pairs of entrants who must never meet: two people either of whom blocks the other, and
    two bots (a table needs a person; bots play people)."""
    by_account = {e.account_id: e.id for e in state.entrants.values() if e.account_id is not None}
    pairs: set[frozenset[int]] = set()
    if by_account:
        for blocker, blocked in db.execute(
            select(BlockTable.blocker_id, BlockTable.blocked_id).where(
                BlockTable.blocker_id.in_(list(by_account)),
                BlockTable.blocked_id.in_(list(by_account)),
            )
        ):
            pairs.add(frozenset((by_account[blocker], by_account[blocked])))
    robots = [e.id for e in state.entrants.values() if e.bot is not None]
    pairs.update(frozenset((a, b)) for i, a in enumerate(robots) for b in robots[i + 1 :])
    return pairs


def _unpairable(db: Connection, state: EventState) -> set[int]:
    """Entrants never paired: those who withdrew, and those who cannot play."""
    return {e.id for e in state.entrants.values() if e.withdrawn} | cannot_play(db, state)


def _write_tables(
    db: Connection,
    state: EventState,
    tables: Iterable[tuple[int, ...]],
    round_: int,
    epoch: int,
    now: float,
) -> int:
    written = 0
    for entrants in tables:
        game_id = secrets.token_urlsafe(8)
        table_id = db.execute(
            insert(TournamentTableTable)
            .values(
                tournament_id=state.event.id,
                round=round_,
                game_id=game_id,
                created=now,
                epoch=epoch,
                playing=True,
            )
            .returning(TournamentTableTable.id)
        ).scalar_one()
        for seat, entrant in enumerate(entrants):
            db.execute(
                insert(TournamentSeatTable).values(
                    table_id=table_id, entrant_id=entrant, seat=seat, round=round_, playing=True
                )
            )
        seats = tuple(entrants)
        state.place([TableRow(table_id, round_, game_id, True, None, seats, (None,) * len(seats))])
        written += 1
    return written


def _run_arena(
    db: Connection, state: EventState, epoch: int, now: float
) -> tuple[TournamentStatus, int]:
    event = state.event
    busy = state.playing()
    if event.ends_at is not None and now >= event.ends_at:
        if busy:  # games playing at the end still count once they end
            return TournamentStatus.RUNNING, 0
        _set_status(db, state, TournamentStatus.FINISHED)
        return TournamentStatus.FINISHED, 0
    kept = state.arena_scores()
    scores = kept.scores(state.entrants)
    gone = _unpairable(db, state)
    free = [
        ArenaCandidate(
            e.id,
            scores.get(e.id, 0.0),
            e.rating,
            e.free_since if e.free_since is not None else event.starts_at,
            kept.last_opponent(e.id),
        )
        for e in state.entrants.values()
        if not e.paused and e.id not in busy and e.id not in gone
    ]
    if len(free) < 2:
        return TournamentStatus.RUNNING, 0
    pairs = pair_arena(free, _blocked(db, state), now)
    return TournamentStatus.RUNNING, _write_tables(db, state, pairs, 0, epoch, now)


def _run_swiss(
    db: Connection, state: EventState, epoch: int, now: float
) -> tuple[TournamentStatus, int]:
    event = state.event
    if state.playing():
        return TournamentStatus.RUNNING, 0
    if event.round >= (event.rounds or 0):
        _set_status(db, state, TournamentStatus.FINISHED, ends_at=now)
        return TournamentStatus.FINISHED, 0
    next_round = event.round + 1
    scores = {s.entrant: s.score for s in state.standings()}
    met: dict[int, set[int]] = {}
    for table in state.tables:
        for entrant in table.entrants:
            met.setdefault(entrant, set()).update(e for e in table.entrants if e != entrant)
    had_bye = {b.entrant for b in state.byes}
    gone = _unpairable(db, state)
    players = [
        SwissCandidate(
            e.id, scores.get(e.id, 0.0), e.rating, frozenset(met.get(e.id, ())), e.id in had_bye
        )
        for e in state.entrants.values()
        if e.first_round <= next_round and e.id not in gone
    ]
    pairing = (
        pair_swiss(players, event.table_size, _blocked(db, state)) if len(players) > 1 else None
    )
    if pairing is None or not pairing.tables:
        # nobody can be seated (one player, or only bots): the event ends here
        _set_status(db, state, TournamentStatus.FINISHED, ends_at=now)
        return TournamentStatus.FINISHED, 0
    written = _write_tables(db, state, pairing.tables, next_round, epoch, now)
    for entrant in pairing.byes:
        db.execute(
            insert(TournamentByeTable).values(entrant_id=entrant, round=next_round, points=ODD_BYE)
        )
    db.execute(
        update(TournamentTable).where(TournamentTable.id == event.id).values(round=next_round)
    )
    return TournamentStatus.RUNNING, written


def _to_make(db: Connection, state: EventState) -> tuple[TableToMake, ...]:
    """The tables being played whose game is missing or not seated as paired."""
    playing = state.open
    if not playing:
        return ()
    seated: dict[str, dict[int, int | None]] = {}
    for row in db.execute(
        select(SeatTable.game_id, SeatTable.seat, SeatTable.account_id).where(
            SeatTable.game_id.in_([t.game_id for t in playing])
        )
    ):
        seated.setdefault(row.game_id, {})[row.seat] = row.account_id
    wanted = []
    for table in playing:
        entrants = tuple(state.entrants[e] for e in table.entrants)
        seats = seated.get(table.game_id)
        unseated = tuple(
            i
            for i, e in enumerate(entrants)
            if e.bot is None and (seats is None or seats.get(i) != e.account_id)
        )
        if seats is None or unseated:
            wanted.append(TableToMake(table.game_id, entrants, seats is not None, unseated))
    return tuple(wanted)
