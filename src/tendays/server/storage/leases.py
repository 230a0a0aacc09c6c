"""The leases of games in the database: which server process drives each unfinished game, until
when, and the epoch its moves are fenced with (see :mod:`tendays.server.storage.cluster`).
PostgreSQL only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import func, or_, select, update
from sqlalchemy.engine import Connection, Engine

from ..vocabulary import ChangeKind
from .schema import GameTable

__all__ = ["Announce", "LeaseStore", "taken"]

# (transaction, game id, what changed): tell the others
Announce = Callable[[Connection, str, str], None]


def taken(epoch: int) -> str:
    """The WHAT of a notice: the sender took the game's lease, at ``epoch``."""
    return f"{ChangeKind.TAKEN} {epoch}"


class LeaseStore:
    """The lease statements of one server process (``owner``), held by the
    :class:`~tendays.server.storage.store.Store`, which tells the other processes
    (``announce``) of a release."""

    def __init__(self, engine: Engine, owner: str, announce: Announce) -> None:
        self.engine = engine
        self.owner = owner
        self._announce = announce

    @staticmethod
    def now() -> Any:
        """The database's clock in Unix seconds: every process measures leases by the same clock."""
        return func.extract("epoch", func.clock_timestamp())

    def renew(self, seconds: float) -> dict[str, int]:
        """Extend this process's leases of unfinished games; {game id:
        epoch} of those it still holds."""
        with self.engine.begin() as db:
            rows = db.execute(
                update(GameTable)
                .where(GameTable.lease_owner == self.owner, GameTable.finished.is_(False))
                .values(lease_expires=self.now() + seconds)
                .returning(GameTable.id, GameTable.lease_epoch)
            ).all()
        return {row[0]: int(row[1]) for row in rows}

    def claim(self, seconds: float, limit: int) -> dict[str, int]:
        """Take up to ``limit`` unfinished games whose lease ran out or was given back: {game id:
        new epoch}.

        Rows another transaction holds (a move being stored) are skipped, not waited for."""
        now = self.now()
        free = (
            select(GameTable.id)
            .where(
                GameTable.finished.is_(False),
                or_(GameTable.lease_expires.is_(None), GameTable.lease_expires < now),
            )
            .order_by(GameTable.last_move_at)
            .limit(limit)
            .with_for_update(skip_locked=True)
        )
        with self.engine.begin() as db:
            rows = db.execute(
                update(GameTable)
                .where(GameTable.id.in_(free.scalar_subquery()))
                .values(
                    lease_owner=self.owner,
                    lease_epoch=GameTable.lease_epoch + 1,
                    lease_expires=now + seconds,
                )
                .returning(GameTable.id, GameTable.lease_epoch)
            ).all()
        return {row[0]: int(row[1]) for row in rows}

    def take(self, game_id: str, seconds: float) -> int | None:
        """Take the lease of an unfinished game from whoever holds it, for ``seconds``: its new
        epoch, or None if the game is over (or gone). The holder's fenced moves are refused from
        now on; it hears of it (a ``taken`` notice) and stops driving the game."""
        with self.engine.begin() as db:
            epoch = db.scalar(
                update(GameTable)
                .where(GameTable.id == game_id, GameTable.finished.is_(False))
                .values(
                    lease_owner=self.owner,
                    lease_epoch=GameTable.lease_epoch + 1,
                    lease_expires=self.now() + seconds,
                )
                .returning(GameTable.lease_epoch)
            )
            if epoch is not None:
                self._announce(db, game_id, taken(int(epoch)))
        return None if epoch is None else int(epoch)

    def release(self, ids: list[str] | None = None) -> int:
        """Give back this process's leases (of ``ids``, or all when it stops):
        the others take them at once."""
        where = [GameTable.lease_owner == self.owner] + (
            [] if ids is None else [GameTable.id.in_(ids)]
        )
        with self.engine.begin() as db:
            released = db.execute(
                update(GameTable).where(*where).values(lease_owner=None, lease_expires=None)
            ).rowcount
            self._announce(db, "*", ChangeKind.RELEASED)
        return int(released or 0)
