"""One step of running a tournament, in one transaction fenced by the director's lease.

:func:`advance` first checks, by updating the event's row, that this process still holds the lease
at ``epoch`` (a paused old owner finds its epoch gone and writes nothing); the row stays locked
until the transaction ends, so nothing else moves the event meanwhile. It reads the event once, and
only what changed since its last step when the director kept that step's state
(:func:`~.tournament_state.read_state`), then the games of the tables being played (their places,
as people/results.py writes them), closes those that ended, settles those whose game can never be
made because a person at them can no longer play (a forfeit: :func:`_settled`), moves the event on
(the five-minute reminder, the start, the end) and writes the next pairings: each table with the id
its game will have, before the game exists, its seats under the unique indexes that make a second
pairing of an entrant in a round (Swiss) or a second unfinished table (arena) impossible. It
answers the tables whose game is missing or not seated yet, which the director then makes: a
process killed between the pairing and the game loses no pairing, and the next owner makes the
game, never a second pairing.

Synchronous: run it on the journal's database thread.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import func, insert, or_, select, update
from sqlalchemy.engine import Connection, Engine

from ..storage.schema import (
    AccountTable,
    BlockTable,
    GameTable,
    SeatTable,
    TournamentByeTable,
    TournamentEntrantTable,
    TournamentSeatTable,
    TournamentTable,
    TournamentTableTable,
)
from .moderation_types import AccountStatus
from .tournament_rules import (
    ArenaCandidate,
    SwissCandidate,
    TournamentKind,
    pair_arena,
    pair_swiss,
)
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
# A game that ended with no places written this long ago had no result (closed by the operator,
# or an unrated game that ended before it was played out): its table counts nothing.
RESULT_GRACE = 30.0
_ACTIVE = [TournamentStatus.UPCOMING.value, TournamentStatus.RUNNING.value]


class LostLease(Exception):
    """Another process runs the tournament now: this one writes nothing."""


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


# -- leases ------------------------------------------------------------------------------------


def _now(db: Connection, now: float) -> Any:
    """The clock leases are measured by: the database's on PostgreSQL (every process agrees)."""
    if db.dialect.name == "postgresql":
        return func.extract("epoch", func.clock_timestamp())
    return now


def renew(engine: Engine, owner: str, ttl: float, now: float) -> dict[int, int]:
    """Extend this process's leases of tournaments not over: {id: epoch} of those it holds."""
    with engine.begin() as db:
        rows = db.execute(
            update(TournamentTable)
            .where(TournamentTable.lease_owner == owner, TournamentTable.status.in_(_ACTIVE))
            .values(lease_expires=_now(db, now) + ttl)
            .returning(TournamentTable.id, TournamentTable.lease_epoch)
        ).all()
    return {int(row[0]): int(row[1]) for row in rows}


def claim(engine: Engine, owner: str, ttl: float, now: float, limit: int = 100) -> dict[int, int]:
    """Take tournaments not over whose lease ran out or was given back: {id: new epoch}. Rows
    another transaction holds are skipped, not waited for."""
    with engine.begin() as db:
        clock = _now(db, now)
        free = (
            select(TournamentTable.id)
            .where(
                TournamentTable.status.in_(_ACTIVE),
                or_(TournamentTable.lease_owner.is_(None), TournamentTable.lease_expires < clock),
            )
            .order_by(TournamentTable.starts_at)
            .limit(limit)
            .with_for_update(skip_locked=True)
        )
        rows = db.execute(
            update(TournamentTable)
            .where(TournamentTable.id.in_(free.scalar_subquery()))
            .values(
                lease_owner=owner,
                lease_epoch=TournamentTable.lease_epoch + 1,
                lease_expires=clock + ttl,
            )
            .returning(TournamentTable.id, TournamentTable.lease_epoch)
        ).all()
    return {int(row[0]): int(row[1]) for row in rows}


def release(engine: Engine, owner: str) -> int:
    """Give back every lease of this process (a clean stop): the others take them at once."""
    with engine.begin() as db:
        done = db.execute(
            update(TournamentTable)
            .where(TournamentTable.lease_owner == owner)
            .values(lease_owner=None, lease_expires=None)
        ).rowcount
    return int(done or 0)


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


def _fence(db: Connection, tournament_id: int, owner: str, epoch: int) -> None:
    held = db.execute(
        update(TournamentTable)
        .where(
            TournamentTable.id == tournament_id,
            TournamentTable.lease_owner == owner,
            TournamentTable.lease_epoch == epoch,
        )
        .values(lease_epoch=epoch)
    ).rowcount
    if held != 1:
        raise LostLease(tournament_id)


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
        _fence(db, tournament_id, owner, epoch)
        state = read_state(db, tournament_id, kept)
        assert state is not None  # a leased tournament is never deleted
        _close_ended(db, state, now)
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


def _close_ended(db: Connection, state: EventState, now: float) -> bool:
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
    cannot_play = _cannot_play(db, state) if missing else set()
    for game_id, table in playing.items():
        game = games.get(game_id)
        if game is None:
            places, ended_at = _settled(table, cannot_play), now
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
    return {e.id for e in state.entrants.values() if e.withdrawn} | _cannot_play(db, state)


def _cannot_play(db: Connection, state: EventState) -> set[int]:
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
