"""The tournaments' leases: which server process runs each tournament not over, renewed, claimed
when they run out (or were given back), given back at a clean stop, and the fence every step of a
tournament passes first (its epoch, raised by every takeover, must still be the step's)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import exists, func, or_, select, update
from sqlalchemy.engine import Connection, Engine

from ..storage.schema import TournamentSeriesTable, TournamentTable
from .tournament_spec import TournamentStatus

_ACTIVE = [TournamentStatus.UPCOMING.value, TournamentStatus.RUNNING.value]


class LostLease(Exception):
    """Another process runs the tournament now: this one writes nothing."""


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


def anything_to_run(engine: Engine) -> bool:
    """Whether any tournament is not over or any series is active: if not, a director's look has
    nothing to make, claim or step (one read, where the look is several statements)."""
    with engine.connect() as db:
        running = exists().where(TournamentTable.status.in_(_ACTIVE))
        series = exists().where(TournamentSeriesTable.active.is_(True))
        return bool(db.scalar(select(or_(running, series))))


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


def fence(db: Connection, tournament_id: int, owner: str, epoch: int) -> None:
    """Hold the tournament's row locked for this transaction, and :class:`LostLease` unless
    this process still holds its lease at ``epoch``."""
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
