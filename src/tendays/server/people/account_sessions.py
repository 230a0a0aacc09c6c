"""The sessions table: a new session made at a sign-in (the browser's old one ends), and a live
session found by its id. The database keeps only a session id's SHA-256."""

from __future__ import annotations

import secrets

from sqlalchemy import delete, insert, select
from sqlalchemy.engine import Connection

from ..storage.schema import AccountTable, SessionTable
from .account_types import Account, Session, Ticket, session_hash


def new_session(
    db: Connection, account: Account, replacing: str | None, now: float, seconds: float
) -> Ticket:
    """A new session of ``account`` for ``seconds`` from ``now``; ``replacing``: the browser's old
    session id, which ends."""
    # the browser's old session ends: a sign-in never keeps a session id it did not make
    if replacing:
        db.execute(delete(SessionTable).where(SessionTable.id_hash == session_hash(replacing)))
    session_id, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    expires = now + seconds
    db.execute(
        insert(SessionTable).values(
            id_hash=session_hash(session_id),
            account_id=account.id,
            csrf=csrf,
            created=now,
            expires=expires,
        )
    )
    return Ticket(session_id, Session(account, csrf, expires))


def live_session(db: Connection, session_id: str, now: float) -> Session | None:
    """The session with this id if it has not ended by ``now``, else None."""
    row = db.execute(
        select(
            AccountTable.id,
            AccountTable.name,
            AccountTable.bot,
            SessionTable.csrf,
            SessionTable.expires,
        )
        .join(AccountTable, AccountTable.id == SessionTable.account_id)
        .where(SessionTable.id_hash == session_hash(session_id), SessionTable.expires > now)
    ).first()
    if row is None:
        return None
    return Session(Account(row.id, row.name, bool(row.bot)), row.csrf, row.expires)
