"""Each account's inbox: notifications written in the transaction of what they tell, kept until
read, and delivered live to every open page of the account once that transaction commits.

:func:`notify` inserts a row inside the caller's transaction, so an action that is rolled back
notifies nobody. How the open pages hear of it (:mod:`~tendays.server.face.sockets.me`):

- on PostgreSQL the same transaction sends an ``inbox ACCOUNT`` notice
  (:func:`~tendays.server.storage.cluster.inbox_changed`), delivered by the database when it
  commits, to every server process, the sender's own included;
- on SQLite (one process) the connection's commit wakes the listeners of this process registered
  for that database (:func:`listen`).

A "your move" notification is kept once per account and game while unread: a new one refreshes it
(its data and time) instead of adding another. An inbox keeps its :data:`INBOX_SIZE` newest
notifications, and drops those read more than :data:`KEEP_READ_DAYS` days ago, trimmed by each
:func:`notify`, so nobody can fill the database by sending challenges.
"""

from __future__ import annotations

import enum
import json
import threading
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, delete, event, func, insert, or_, select, text, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine

from ..storage.notices import inbox_changed
from ..storage.notices import notify as cluster_notify
from ..storage.schema import UNREAD_YOUR_MOVE_SQL, NotificationTable

__all__ = [
    "INBOX_SIZE",
    "KEEP_READ_DAYS",
    "MAX_DATA_CHARS",
    "Inbox",
    "Notification",
    "NotificationKind",
    "announce_inbox",
    "inbox_of",
    "listen",
    "mark_read",
    "notify",
    "read_your_move",
    "unread_count",
    "unread_newest",
]

#: The newest notifications an inbox keeps, read or not.
INBOX_SIZE = 200
#: Days a read notification is kept.
KEEP_READ_DAYS = 30
#: The most characters of a notification's data as JSON.
MAX_DATA_CHARS = 2000

# The sender of inbox notices: no server process is called so, so every process (the one that
# wrote the notification too) reads them.
_INBOX_SENDER = "inbox"


class NotificationKind(enum.StrEnum):
    """What a notification tells."""

    CHALLENGE = "challenge"  # someone challenges you
    CHALLENGE_ANSWERED = "challenge_answered"  # your challenge was accepted or declined
    YOUR_MOVE = "your_move"  # it is your turn in a correspondence game
    TOURNAMENT_STARTING = "tournament_starting"  # a tournament you joined starts soon
    GAME_ENDED = "game_ended"  # a game of yours ended


@dataclass(frozen=True)
class Notification:
    """One notification as the inbox shows it."""

    id: int
    kind: str
    data: dict[str, Any]
    created: float
    read: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "data": self.data,
            "created_at": self.created,
            "read": self.read,
        }


@dataclass(frozen=True)
class Inbox:
    """A page of an account's inbox, newest first, and how many are unread in all."""

    notifications: list[Notification]
    unread: int


def _upsert(db: Connection) -> Any:
    """The dialect's INSERT, which knows ON CONFLICT."""
    return postgresql.insert if db.dialect.name == "postgresql" else sqlite.insert


def notify(
    db: Connection, account_id: int, kind: NotificationKind, data: Mapping[str, Any]
) -> None:
    """Put a notification in the account's inbox, in ``db``'s transaction; its open pages are told
    once the transaction commits (nobody, if it rolls back). ``data`` is JSON: ids, names and a
    ``"url"`` to open, never a secret (a seat token). ``ValueError`` if it is not JSON or too long.
    """
    kind = NotificationKind(kind)
    body = json.dumps(dict(data), ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    if len(body) > MAX_DATA_CHARS:
        raise ValueError(f"a notification's data is at most {MAX_DATA_CHARS} characters as JSON")
    now = time.time()
    table = NotificationTable
    if kind is NotificationKind.YOUR_MOVE:
        game = data.get("game")
        if not isinstance(game, str):
            raise ValueError('a "your move" notification names its "game"')
        # one unread per account and game, whoever writes at the same moment: the unique partial
        # index decides, and the later one refreshes the row
        db.execute(
            _upsert(db)(table)
            .values(account_id=account_id, kind=kind.value, data=body, game_id=game, created=now)
            .on_conflict_do_update(
                index_elements=[table.account_id, table.game_id],
                index_where=text(UNREAD_YOUR_MOVE_SQL),
                set_={"data": body, "created": now},
            )
        )
    else:
        db.execute(
            insert(table).values(account_id=account_id, kind=kind.value, data=body, created=now)
        )
    _trim(db, account_id, now)
    announce_inbox(db, account_id)


def _trim(db: Connection, account_id: int, now: float) -> None:
    """Keep the :data:`INBOX_SIZE` newest, and the read ones for :data:`KEEP_READ_DAYS` days."""
    table = NotificationTable
    oldest_kept = (
        select(table.id)
        .where(table.account_id == account_id)
        .order_by(table.id.desc())
        .offset(INBOX_SIZE - 1)
        .limit(1)
        .scalar_subquery()
    )
    db.execute(
        delete(table).where(
            table.account_id == account_id,
            or_(table.id < oldest_kept, table.read_at < now - KEEP_READ_DAYS * 86400.0),
        )
    )


def announce_inbox(db: Connection, account_id: int) -> None:
    """Once ``db``'s transaction commits, tell the account's open pages that its inbox changed."""
    if db.dialect.name == "postgresql":
        cluster_notify(db, _INBOX_SENDER, "*", inbox_changed(account_id))
        return
    key = _database_key(db)
    with _lock:
        if not _listeners.get(key):
            return

    def committed(_connection: Connection) -> None:
        _wake(key, account_id)

    event.listen(db, "commit", committed, once=True)


def mark_read(db: Connection, account_id: int, ids: Collection[int] | None, now: float) -> int:
    """Mark the account's notifications ``ids`` (None: all) read; how many were unread. The
    account's open pages are told."""
    table = NotificationTable
    where = [table.account_id == account_id, table.read_at.is_(None)]
    if ids is not None:
        wanted = sorted({int(i) for i in ids})
        if not wanted:
            return 0
        where.append(table.id.in_(wanted))
    changed = db.execute(update(table).where(*where).values(read_at=now)).rowcount
    if changed:
        announce_inbox(db, account_id)
    return int(changed)


def read_your_move(db: Connection, account_id: int, game_id: str, now: float) -> int:
    """The account's turn in ``game_id`` is over: its unread "your move" of the game is read."""
    table = NotificationTable
    changed = db.execute(
        update(table)
        .where(
            table.account_id == account_id,
            table.game_id == game_id,
            table.kind == NotificationKind.YOUR_MOVE.value,
            table.read_at.is_(None),
        )
        .values(read_at=now)
    ).rowcount
    if changed:
        announce_inbox(db, account_id)
    return int(changed)


def _notification(row: Any) -> Notification:
    try:
        data = json.loads(row.data)
    except ValueError:
        data = {}
    shown = data if isinstance(data, dict) else {}
    return Notification(row.id, row.kind, shown, row.created, row.read_at is not None)


def unread_count(db: Connection, account_id: int) -> int:
    table = NotificationTable
    return int(
        db.scalar(
            select(func.count())
            .select_from(table)
            .where(table.account_id == account_id, table.read_at.is_(None))
        )
        or 0
    )


def inbox_of(db: Connection, account_id: int, before: int | None, limit: int) -> Inbox:
    """The account's notifications older than id ``before`` (None: the newest), newest first, at
    most ``limit``; and the unread count."""
    table = NotificationTable
    where = [table.account_id == account_id]
    if before is not None:
        where.append(table.id < before)
    rows = db.execute(
        select(table.id, table.kind, table.data, table.created, table.read_at)
        .where(and_(*where))
        .order_by(table.id.desc())
        .limit(limit)
    ).all()
    return Inbox([_notification(row) for row in rows], unread_count(db, account_id))


def unread_newest(db: Connection, account_id: int, limit: int) -> list[Notification]:
    """The account's newest unread notifications, newest first (what an open page follows)."""
    table = NotificationTable
    rows = db.execute(
        select(table.id, table.kind, table.data, table.created, table.read_at)
        .where(table.account_id == account_id, table.read_at.is_(None))
        .order_by(table.id.desc())
        .limit(limit)
    ).all()
    return [_notification(row) for row in rows]


# -- waking the open pages of this process (SQLite: no notices between processes) ----------------

Wake = Callable[[int], None]

_lock = threading.Lock()
_listeners: dict[str, set[Wake]] = {}


def _database_key(db: Connection | Engine) -> str:
    return db.engine.url.render_as_string(hide_password=True)


def listen(engine: Engine, wake: Wake) -> Callable[[], None]:
    """Call ``wake(account_id)`` when a transaction of this process that changed an account's inbox
    in ``engine``'s database commits (SQLite; on the committing thread, as the commit begins:
    ``wake`` must be thread-safe and read after the writer's work). Returns the call that stops
    listening."""
    key = _database_key(engine)
    with _lock:
        _listeners.setdefault(key, set()).add(wake)

    def stop() -> None:
        with _lock:
            waiting = _listeners.get(key)
            if waiting is not None:
                waiting.discard(wake)
                if not waiting:
                    del _listeners[key]

    return stop


def _wake(key: str, account_id: int) -> None:
    with _lock:
        waiting = list(_listeners.get(key, ()))
    for wake in waiting:
        wake(account_id)
