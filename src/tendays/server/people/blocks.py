"""Blocks: a person keeps another away. Once either of two people blocks the other, quick pairing
never pairs them and neither may join a table where the other sits; and the blocker no longer reads
the blocked one's chat (their lines reach the blocker's connections as a short "hidden" line).

A block is a row of ``blocks`` (revision 0009) keyed by the pair, so blocking twice is one block,
however many requests arrive at once. The pairing reads :func:`blocked_between` inside its own
statements (:mod:`~tendays.server.people.seeks`), so the rule holds across server processes. The
functions are synchronous: run them on the journal's database thread.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, delete, exists, insert, or_, select
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql.elements import ColumnElement

from tendays.engine.i18n import gettext as _

from ..matches.text import name_key
from ..storage.schema import AccountTable, BlockTable, SeatTable
from .accounts import Account, AccountError

__all__ = [
    "Blocked",
    "block",
    "blocked_between",
    "blocked_by",
    "blocks_of",
    "named_account",
    "table_refusal",
    "unblock",
]


@dataclass(frozen=True, slots=True)
class Blocked:
    """Someone a person blocked, and since when (Unix seconds)."""

    name: str
    since: float


def blocked_between(first: Any, second: Any) -> ColumnElement[bool]:
    """SQL that is true when either account (an id, or a column of one) blocks the other; each
    half is one look-up of the blocks' primary key."""
    return exists().where(
        or_(
            and_(BlockTable.blocker_id == first, BlockTable.blocked_id == second),
            and_(BlockTable.blocker_id == second, BlockTable.blocked_id == first),
        )
    )


def named_account(db: Connection, name: str) -> Account | None:
    """The account called ``name`` (in any letter case), or None."""
    row = db.execute(
        select(AccountTable.id, AccountTable.name, AccountTable.bot).where(
            AccountTable.name_key == name_key(name)
        )
    ).first()
    return None if row is None else Account(int(row.id), str(row.name), bool(row.bot))


def _other(db: Connection, me: Account, name: str, refusal_for_self: str) -> Account:
    other = named_account(db, name)
    if other is None:
        raise AccountError(404, _("there is no player called '{name}'").format(name=name[:64]))
    if other.id == me.id:
        raise AccountError(422, refusal_for_self)
    return other


def block(engine: Engine, me: Account, name: str, now: float) -> Account:
    """``me`` blocks the player called ``name``: the blocked account. 404 in words for nobody of
    that name, 422 for oneself; blocking someone already blocked changes nothing."""
    with engine.begin() as db:
        other = _other(db, me, name, _("you cannot block yourself"))
        try:
            with db.begin_nested():
                db.execute(
                    insert(BlockTable).values(blocker_id=me.id, blocked_id=other.id, created=now)
                )
        except IntegrityError:  # blocked already (perhaps by a request a moment ago)
            pass
    return other


def unblock(engine: Engine, me: Account, name: str) -> Account:
    """``me`` no longer blocks the player called ``name`` (nothing changes if they did not)."""
    with engine.begin() as db:
        other = _other(db, me, name, _("you cannot block yourself"))
        db.execute(
            delete(BlockTable).where(
                BlockTable.blocker_id == me.id, BlockTable.blocked_id == other.id
            )
        )
    return other


def blocks_of(db: Connection, account_id: int) -> list[Blocked]:
    """Everyone the account blocks, by name."""
    rows = db.execute(
        select(AccountTable.name, BlockTable.created)
        .join(AccountTable, AccountTable.id == BlockTable.blocked_id)
        .where(BlockTable.blocker_id == account_id)
        .order_by(AccountTable.name_key)
    )
    return [Blocked(str(row.name), float(row.created)) for row in rows]


def blocked_by(engine: Engine, account_id: int) -> frozenset[int]:
    """The accounts whose chat the account does not read: those it blocks."""
    with engine.connect() as db:
        return frozenset(
            int(blocked)
            for blocked in db.scalars(
                select(BlockTable.blocked_id).where(BlockTable.blocker_id == account_id)
            )
        )


def table_refusal(engine: Engine, game_id: str, account_id: int) -> str | None:
    """Why the account may not play at the game's table, joining it or asking for its rematch (in
    words), or None: someone seated there blocks it, or it blocks someone seated there."""
    with engine.connect() as db:
        row = db.execute(
            select(AccountTable.name, BlockTable.blocker_id)
            .join(SeatTable, SeatTable.account_id == AccountTable.id)
            .join(
                BlockTable,
                or_(
                    and_(
                        BlockTable.blocker_id == account_id,
                        BlockTable.blocked_id == SeatTable.account_id,
                    ),
                    and_(
                        BlockTable.blocker_id == SeatTable.account_id,
                        BlockTable.blocked_id == account_id,
                    ),
                ),
            )
            .where(SeatTable.game_id == game_id)
            .limit(1)
        ).first()
    if row is None:
        return None
    if row.blocker_id == account_id:
        return _(
            "you blocked {name}, who sits at this table: unblock them on their profile to play"
        ).format(name=row.name)
    # the other's block is theirs to keep private: not said as such
    return _("you cannot play at this table: a player there does not play with you")
