"""Seeks: a person's wish to play someone now, kept in the database, and the pairing of two
compatible ones.

Two seeks are compatible when they ask for the same edition and pace, come from two accounts, and
each person's rating (in that edition) lies inside the other's range, where one is given, and
neither person blocks the other (:mod:`~tendays.server.people.blocks`, read in the same statements
that choose and claim the pair). Pairing claims both rows with conditional updates (``... WHERE
status = 'open'``), in the order of their ids, in one transaction that is kept only when both
updates changed a row: with several server processes on one PostgreSQL database a seek is paired at
most once, and two pairings never wait on each other in a circle. The statements are synchronous:
run them on the journal's database thread.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from sqlalchemy import Row, and_, insert, or_, select, update
from sqlalchemy.engine import Connection, Engine

from ..settings import Pace
from ..storage.schema import AccountTable, RatingTable, SeekTable
from .blocks import blocked_between

__all__ = ["PAIRING_GRACE", "Pairing", "Seek", "SeekBook", "SeekStatus"]

CANDIDATES = 50  # open seeks looked at per pairing, oldest first
# A paired seek with no game this long after its pairing lost its game to a process that died making
# it (games are made within a second): the sweep lets it wait again.
PAIRING_GRACE = 30.0


class SeekStatus(StrEnum):
    OPEN = "open"
    PAIRED = "paired"  # a game was made for it (its id and seat token follow once the game exists)
    CANCELLED = "cancelled"  # by its owner, or because they sought again
    EXPIRED = "expired"  # nobody compatible came in time


@dataclass(frozen=True, slots=True)
class Seek:
    """One seek as stored. ``token`` is the owner's seat token in the
    paired game: show it to them only."""

    id: str
    account_id: int
    edition: str
    pace: Pace | None
    rating_min: float | None
    rating_max: float | None
    # when it was made; once paired, when it was paired (the sweep's grace counts from it)
    created: float
    status: SeekStatus
    game_id: str | None = None
    token: str | None = None

    def accepts(self, rating: float) -> bool:
        """Whether an opponent of this rating is inside the range asked for."""
        return (self.rating_min is None or rating >= self.rating_min) and (
            self.rating_max is None or rating <= self.rating_max
        )


@dataclass(frozen=True, slots=True)
class Pairing:
    """Two seeks claimed for one game, the older first."""

    first: Seek
    second: Seek

    @property
    def seeks(self) -> tuple[Seek, Seek]:
        return self.first, self.second


def pace_text(pace: Pace | None) -> str | None:
    """The pace as stored: one text for equal paces, so that the database compares them."""
    if pace is None:
        return None
    return json.dumps(Pace.from_json(pace.to_json()).to_json(), sort_keys=True)  # 60 and 60.0 alike


class SeekBook:
    """The seeks table. ``expiry``: seconds an open seek waits before it lapses; ``new_rating``: the
    rating of someone who has played no rated game of the edition yet."""

    def __init__(self, engine: Engine, expiry: float, new_rating: float) -> None:
        self.engine = engine
        self.expiry = expiry
        self.new_rating = new_rating

    def post(
        self,
        account_id: int,
        edition: str,
        pace: Pace | None,
        rating_min: float | None,
        rating_max: float | None,
        now: float,
    ) -> Seek:
        """Store an open seek; the person's other open seeks are cancelled (one at a time)."""
        seek = Seek(
            secrets.token_urlsafe(12),
            account_id,
            edition,
            pace,
            rating_min,
            rating_max,
            now,
            SeekStatus.OPEN,
        )
        with self.engine.begin() as db:
            db.execute(
                update(SeekTable)
                .where(SeekTable.account_id == account_id, SeekTable.status == SeekStatus.OPEN)
                .values(status=SeekStatus.CANCELLED)
            )
            db.execute(
                insert(SeekTable).values(
                    id=seek.id,
                    account_id=account_id,
                    edition=edition,
                    pace=pace_text(pace),
                    rating_min=rating_min,
                    rating_max=rating_max,
                    created=now,
                    status=SeekStatus.OPEN,
                )
            )
        return seek

    def get(self, seek_id: str) -> Seek | None:
        with self.engine.connect() as db:
            row = db.execute(select(SeekTable).where(SeekTable.id == seek_id)).first()
        return None if row is None else _seek(row)

    def cancel(self, seek_id: str) -> bool:
        """Cancel an open seek; False if it is no longer open (paired, cancelled or lapsed)."""
        with self.engine.begin() as db:
            done = db.execute(
                update(SeekTable)
                .where(SeekTable.id == seek_id, SeekTable.status == SeekStatus.OPEN)
                .values(status=SeekStatus.CANCELLED)
            )
        return done.rowcount == 1

    def pair(self, seek_id: str, now: float) -> Pairing | None:
        """Pair the open seek ``seek_id`` with the oldest compatible open seek, if there is one.
        Both are marked paired (without a game yet: :meth:`settle` writes it);
        None if no pairing was made."""
        with self.engine.connect() as db:
            row = db.execute(select(SeekTable).where(SeekTable.id == seek_id)).first()
            if row is None or row.status != SeekStatus.OPEN or row.created < now - self.expiry:
                return None
            mine = _seek(row)
            others = [
                _seek(r)
                for r in db.execute(
                    select(SeekTable)
                    .where(
                        SeekTable.status == SeekStatus.OPEN,
                        SeekTable.edition == mine.edition,
                        _same_pace(mine.pace),
                        SeekTable.account_id != mine.account_id,
                        SeekTable.created >= now - self.expiry,
                        ~blocked_between(SeekTable.account_id, mine.account_id),
                    )
                    .order_by(SeekTable.created, SeekTable.id)
                    .limit(CANDIDATES)
                )
            ]
            ratings = self._ratings(
                db, mine.edition, {mine.account_id, *(o.account_id for o in others)}
            )
        mine_rating = ratings.get(mine.account_id, self.new_rating)
        for other in others:
            other_rating = ratings.get(other.account_id, self.new_rating)
            if not (mine.accepts(other_rating) and other.accepts(mine_rating)):
                continue
            pairing = self._claim(mine, other, now)
            if pairing is not None:
                return pairing
            if not self._still_open(mine.id):  # paired by another process meanwhile
                return None
        return None

    def _claim(self, mine: Seek, other: Seek, now: float) -> Pairing | None:
        """Mark both seeks paired in one transaction, or neither (one was
        taken, cancelled or lapsed)."""
        with self.engine.connect() as db, db.begin() as transaction:
            # one order everywhere: no deadlock
            for seek in sorted((mine, other), key=lambda s: s.id):
                claimed = db.execute(
                    update(SeekTable)
                    .where(
                        SeekTable.id == seek.id,
                        SeekTable.status == SeekStatus.OPEN,
                        SeekTable.created >= now - self.expiry,
                        # a block made since the candidates were read
                        ~blocked_between(mine.account_id, other.account_id),
                    )
                    .values(status=SeekStatus.PAIRED, created=now)
                )  # paired at
                if claimed.rowcount != 1:
                    transaction.rollback()
                    return None
        first, second = sorted((mine, other), key=lambda s: (s.created, s.id))
        return Pairing(
            replace(first, status=SeekStatus.PAIRED), replace(second, status=SeekStatus.PAIRED)
        )

    def _still_open(self, seek_id: str) -> bool:
        seek = self.get(seek_id)
        return seek is not None and seek.status == SeekStatus.OPEN

    def settle(self, pairing: Pairing, game_id: str, tokens: dict[str, str]) -> bool:
        """The paired game exists: each seek gets its id and its owner's seat token (``tokens`` by
        seek id). False, and nothing written, if the sweep let the seeks wait
        again meanwhile (past the grace)."""
        with self.engine.connect() as db, db.begin() as transaction:
            for seek in pairing.seeks:
                done = db.execute(
                    update(SeekTable)
                    .where(
                        SeekTable.id == seek.id,
                        SeekTable.status == SeekStatus.PAIRED,
                        SeekTable.game_id.is_(None),
                    )
                    .values(game_id=game_id, token=tokens[seek.id])
                )
                if done.rowcount != 1:
                    transaction.rollback()
                    return False
        return True

    def reopen(self, pairing: Pairing) -> None:
        """The game of a pairing could not be made: both seeks wait again."""
        with self.engine.begin() as db:
            db.execute(
                update(SeekTable)
                .where(
                    SeekTable.id.in_([s.id for s in pairing.seeks]),
                    SeekTable.status == SeekStatus.PAIRED,
                    SeekTable.game_id.is_(None),
                )
                .values(status=SeekStatus.OPEN)
            )

    def sweep(self, now: float) -> list[str]:
        """Let paired seeks whose game was never made wait again (:data:`PAIRING_GRACE`), open seeks
        past their time lapse, and forget the seat tokens of old pairings (the seat is the
        account's: it opens signed in, so a copy of the database need not hold its token); the ids
        of the seeks still open (oldest first), to pair again. Most sweeps find nothing to do:
        one look says so (every process sweeps twice a second, idle or not)."""
        waiting = SeekTable.status == SeekStatus.OPEN
        unmade = and_(SeekTable.status == SeekStatus.PAIRED, SeekTable.game_id.is_(None))
        old_token = and_(
            SeekTable.status == SeekStatus.PAIRED,
            SeekTable.token.is_not(None),
            SeekTable.created < now - self.expiry,
        )
        with self.engine.connect() as db:
            due = or_(waiting, unmade, old_token)
            if db.scalar(select(SeekTable.id).where(due).limit(1)) is None:
                return []
        with self.engine.begin() as db:
            db.execute(
                update(SeekTable)
                .where(unmade, SeekTable.created < now - PAIRING_GRACE)
                # its game was never made: waits again
                .values(status=SeekStatus.OPEN, created=now)
            )
            db.execute(
                update(SeekTable)
                .where(waiting, SeekTable.created < now - self.expiry)
                .values(status=SeekStatus.EXPIRED)
            )
            db.execute(update(SeekTable).where(old_token).values(token=None))
            return list(
                db.scalars(
                    select(SeekTable.id).where(waiting).order_by(SeekTable.created, SeekTable.id)
                )
            )

    def names(self, accounts: Iterable[int]) -> dict[int, str]:
        """The accounts' names, by id."""
        with self.engine.connect() as db:
            rows = db.execute(
                select(AccountTable.id, AccountTable.name).where(
                    AccountTable.id.in_(list(accounts))
                )
            )
            return {int(row[0]): str(row[1]) for row in rows}

    @staticmethod
    def _ratings(db: Connection, edition: str, accounts: Iterable[int]) -> dict[int, float]:
        rows = db.execute(
            select(RatingTable.account_id, RatingTable.rating).where(
                RatingTable.edition == edition, RatingTable.account_id.in_(list(accounts))
            )
        )
        return {int(row[0]): float(row[1]) for row in rows}


def _same_pace(pace: Pace | None) -> Any:
    text = pace_text(pace)
    return SeekTable.pace.is_(None) if text is None else SeekTable.pace == text


def _seek(row: Row[Any]) -> Seek:
    pace = Pace.from_json(json.loads(row.pace)) if row.pace else None
    return Seek(
        row.id,
        int(row.account_id),
        row.edition,
        pace,
        row.rating_min,
        row.rating_max,
        row.created,
        SeekStatus(row.status),
        row.game_id,
        row.token,
    )
