"""The notices server processes sharing one PostgreSQL database send each other: their channels,
their format, and how they are sent (see :mod:`tendays.server.storage.cluster`).

A game's notices go to one of :data:`SHARDS` channels (:func:`channel`: ``tendays_g_N``); notices
about no game go to the site channel :data:`CHANNEL`, which every process hears. A notice reads
``SENDER GAME WHAT`` (:func:`announcement`); a stored move's WHAT carries the move and the clock
after it (:class:`MoveNotice`), so the others follow it without reading the database. Notices about
no game name the game ``*``: ``sessions ACCOUNT`` (:func:`sessions_ended`) and ``inbox ACCOUNT``
(:func:`inbox_changed`). A batch of moves is announced with one statement (:func:`notify_all`).
"""

from __future__ import annotations

import zlib
from typing import NamedTuple

from sqlalchemy import text
from sqlalchemy.engine import Connection

from ..vocabulary import ChangeKind

__all__ = [
    "CHANNEL",
    "SHARDS",
    "MoveNotice",
    "announcement",
    "channel",
    "inbox_changed",
    "notify",
    "notify_all",
    "read_announcement",
    "sessions_ended",
]

CHANNEL = "tendays"  # the site's LISTEN/NOTIFY channel: notices about no game
SHARDS = 256  # the channels of games' notices


def channel(game_id: str) -> str:
    """The channel of a game's notices (:data:`CHANNEL` for ``*``, no game). Every process computes
    the same one: a hash of the id."""
    if game_id == "*":
        return CHANNEL
    return f"{CHANNEL}_g_{zlib.crc32(game_id.encode()) % SHARDS}"


def announcement(sender: str, game_id: str, what: str) -> str:
    """A notice: ``sender`` (a process, :attr:`Store.owner`) changed ``game_id``; ``what``: how,
    opening with a :class:`~tendays.server.vocabulary.ChangeKind` (a seat, the chat, the ending, a
    rematch, a :class:`MoveNotice`), or ``released`` with game "*": it gave its leases back."""
    return f"{sender} {game_id} {what}"


# Built once: a notice is sent with the same statement every time.
_NOTIFY = text("SELECT pg_notify(:channel, :payload)")
# Every notice of a batch of moves in one statement, in their order.
_NOTIFY_ALL = text(
    "SELECT pg_notify(n.channel, n.payload) FROM unnest(CAST(:channels AS text[]), "
    "CAST(:payloads AS text[])) WITH ORDINALITY AS n(channel, payload, number) ORDER BY n.number"
)


def notify(db: Connection, sender: str, game_id: str, what: str) -> None:
    """On PostgreSQL, tell the other server processes (once ``db``'s transaction commits) what
    ``sender`` changed; elsewhere nothing (one process alone, or none)."""
    if db.dialect.name == "postgresql":
        payload = announcement(sender, game_id, what)
        db.execute(_NOTIFY, {"channel": channel(game_id), "payload": payload})


def notify_all(db: Connection, sender: str, changes: list[tuple[str, str]]) -> None:
    """:func:`notify` of every (game id, what) in ``changes``, in their order, with one statement
    (a batch of moves: one round trip to the database, not one a move)."""
    if db.dialect.name != "postgresql" or not changes:
        return
    if len(changes) == 1:
        notify(db, sender, *changes[0])
        return
    db.execute(
        _NOTIFY_ALL,
        {
            "channels": [channel(game_id) for game_id, _ in changes],
            "payloads": [announcement(sender, game_id, what) for game_id, what in changes],
        },
    )


def sessions_ended(account_id: int) -> str:
    """The WHAT of a notice (game ``*``): sessions of the account ended."""
    return f"{ChangeKind.SESSIONS} {account_id}"


def inbox_changed(account_id: int) -> str:
    """The WHAT of a notice (game ``*``): the account's inbox changed."""
    return f"{ChangeKind.INBOX} {account_id}"


def read_announcement(payload: str) -> tuple[str, str, str]:
    """(sender, game id, what) of an :func:`announcement`; missing parts are empty."""
    sender, game_id, what = (payload.split(" ", 2) + ["", ""])[:3]
    return sender, game_id, what


class MoveNotice(NamedTuple):
    """A stored move as the other server processes hear of it, written ``move NUMBER SEAT AT
    DEADLINE STARTED BANK TIMEOUTS TEXT`` ("-" for none; the text may hold spaces)."""

    number: int
    seat: int
    move: str
    at: float
    deadline: float | None
    turn_started: float | None
    bank: float | None
    timeouts: int | None

    def text(self) -> str:
        def part(value: float | None) -> str:
            return "-" if value is None else repr(value)

        return (
            f"{ChangeKind.MOVE} {self.number} {self.seat} {self.at!r} {part(self.deadline)} "
            f"{part(self.turn_started)} {part(self.bank)} {part(self.timeouts)} {self.move}"
        )

    @staticmethod
    def read(text: str) -> MoveNotice:
        """The move of a notice's :meth:`text`; ``ValueError`` if it is not one."""
        kind, number, seat, at, deadline, started, bank, timeouts, move = text.split(" ", 8)
        if kind != ChangeKind.MOVE:
            raise ValueError(f"not a move: {text[:40]!r}")

        def value(part: str) -> float | None:
            return None if part == "-" else float(part)

        spent = value(timeouts)
        return MoveNotice(
            int(number),
            int(seat),
            move,
            float(at),
            value(deadline),
            value(started),
            value(bank),
            None if spent is None else int(spent),
        )
