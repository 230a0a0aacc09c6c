"""The operator's reset of a forgotten password (``tendays accounts reset-password``), made
straight on the database, with or without a server running."""

from __future__ import annotations

from sqlalchemy import delete, select, update
from sqlalchemy.engine import Engine

from tendays.engine.i18n import gettext as _

from ..matches.text import name_key
from ..storage.schema import AccountTable, SessionTable
from .account_types import AccountError
from .limits import clear_count, name_key_of
from .passwords import hash_password, password_problem
from .session_ends import OUTSIDE_SERVER, revoke_seat_links


def reset_password(engine: Engine, name: str, password: str) -> None:
    """The operator's reset of a forgotten password: every session of the account ends (with its
    seat links; the servers close its table connections, told by a notice on PostgreSQL, else when
    each connection next checks), its sign-in limit is cleared. :class:`AccountError` (404) for an
    unknown name, (422) for a password that cannot be."""
    key = name_key(name)
    with engine.connect() as db:
        row = db.execute(
            select(AccountTable.id, AccountTable.name).where(AccountTable.name_key == key)
        ).first()
    if row is None:
        raise AccountError(404, _("there is no account called {name}").format(name=name))
    problem = password_problem(password, row.name)
    if problem is not None:
        raise AccountError(422, problem)
    new_hash = hash_password(password)
    with engine.begin() as db:
        db.execute(
            update(AccountTable).where(AccountTable.id == row.id).values(password_hash=new_hash)
        )
        db.execute(delete(SessionTable).where(SessionTable.account_id == row.id))
        revoke_seat_links(db, row.id, OUTSIDE_SERVER)
        clear_count(db, name_key_of(key))
