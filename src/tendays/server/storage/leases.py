"""The leases of games in the database: which server process drives each unfinished game, until
when, and the epoch its moves are fenced with (see :mod:`tendays.server.storage.cluster`); and who
else follows each game. PostgreSQL only.

A move's notice is sent only when a process other than the one storing it needs it: the lease owner,
or a *follower* (``games.followers``), a process that holds the game in memory without driving it.
A process starts following a game by listening to its channel, then registering (:meth:`follow`, an
``UPDATE`` of the game's row), then reading the game. The batch that stores a move locks the same
row and reads the owner and the followers in that statement
(:mod:`tendays.server.storage.move_writes`), so either the registration came first and the notice is
sent, or the batch committed first and the follower's read has the move. Whoever loses a lease (to
:meth:`take`, :meth:`claim` or a :meth:`release` of some games) is made a follower in the same
statement, since it may still show the game; a process lets go (:meth:`unfollow`) of games it
forgot. A dead process's registrations only cost notices nobody hears, until its games end: a slow
process cannot be told from a dead one, and a slow one still shows its games.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import String, any_, case, func, literal, or_, select, update
from sqlalchemy.engine import Connection, Engine

from ..vocabulary import ChangeKind
from .schema import GameTable

__all__ = ["Announce", "LeaseStore", "taken"]

# (transaction, game id, what changed): tell the others
Announce = Callable[[Connection, str, str], None]


def _with(who: Any) -> Any:
    """The game's followers with ``who`` among them."""
    followers = GameTable.followers
    if isinstance(who, str):
        who = literal(who, String(64))
    return case((who == any_(followers), followers), else_=func.array_append(followers, who))


def _handed_on(owner: str) -> Any:
    """The followers once ``owner`` takes the lease: with the process that held it (it may still
    show the game, and is no longer the owner that every move's notice goes to)."""
    held = GameTable.lease_owner
    return case((or_(held.is_(None), held == owner), GameTable.followers), else_=_with(held))


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
                    followers=_handed_on(self.owner),
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
                    followers=_handed_on(self.owner),
                )
                .returning(GameTable.lease_epoch)
            )
            if epoch is not None:
                self._announce(db, game_id, taken(int(epoch)))
        return None if epoch is None else int(epoch)

    def release(self, ids: list[str] | None = None) -> int:
        """Give back this process's leases (of ``ids``, or all when it stops):
        the others take them at once. Given back while running (``ids``), it follows the games
        (it may still show them); when it stops, it does not."""
        where = [GameTable.lease_owner == self.owner] + (
            [] if ids is None else [GameTable.id.in_(ids)]
        )
        kept = {} if ids is None else {"followers": _with(self.owner)}
        with self.engine.begin() as db:
            released = db.execute(
                update(GameTable).where(*where).values(lease_owner=None, lease_expires=None, **kept)
            ).rowcount
            self._announce(db, "*", ChangeKind.RELEASED)
        return int(released or 0)

    def follow(self, game_id: str) -> None:
        """Register this process as following ``game_id`` (it listens to the game's channel
        already, and reads the game after this): moves stored from now on are announced to it."""
        with self.engine.begin() as db:
            db.execute(
                update(GameTable).where(GameTable.id == game_id).values(followers=_with(self.owner))
            )

    def unfollow(self, ids: list[str]) -> None:
        """This process no longer holds ``ids`` in memory: their moves need no notice for it."""
        if not ids:
            return
        with self.engine.begin() as db:
            db.execute(
                update(GameTable)
                .where(
                    GameTable.id.in_(ids),
                    literal(self.owner, String(64)) == any_(GameTable.followers),
                )
                .values(followers=func.array_remove(GameTable.followers, self.owner))
            )
