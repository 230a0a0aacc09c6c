"""Who is online: an account with a page of the site open, that is a ``/ws/me`` socket
(:mod:`~tendays.server.face.sockets.me`) seen within :data:`ONLINE_SECONDS`.

Each socket touches its account's row when it opens and every :data:`TOUCH_SECONDS` while it stays
open, one upsert each time, whichever server process holds it; so an account is online as long as
any of its pages is, and counts as gone at most :data:`ONLINE_SECONDS` after its last page closed
or its process died.
"""

from __future__ import annotations

from collections.abc import Collection

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from ..storage.schema import PresenceTable

__all__ = ["ONLINE_SECONDS", "TOUCH_SECONDS", "online_among", "touch"]

#: An account is online while one of its sockets was seen this many seconds ago or less.
ONLINE_SECONDS = 60.0
#: How often an open socket says its account is still there.
TOUCH_SECONDS = 25.0


def touch(db: Connection, account_id: int, now: float) -> None:
    """The account has a page open now (one upsert)."""
    insert = postgresql.insert if db.dialect.name == "postgresql" else sqlite.insert
    table = PresenceTable
    db.execute(
        insert(table)
        .values(account_id=account_id, seen_at=now)
        .on_conflict_do_update(index_elements=[table.account_id], set_={"seen_at": now})
    )


def online_among(db: Connection, account_ids: Collection[int], now: float) -> set[int]:
    """Which of ``account_ids`` have a page of the site open (a socket seen within
    :data:`ONLINE_SECONDS`)."""
    wanted = sorted(set(account_ids))
    if not wanted:
        return set()
    table = PresenceTable
    return set(
        db.scalars(
            select(table.account_id).where(
                table.account_id.in_(wanted), table.seen_at >= now - ONLINE_SECONDS
            )
        )
    )
