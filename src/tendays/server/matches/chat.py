"""Table talk: seated players write, everyone at the table reads, and the table's own notices go
beside.

A line is plain text (:func:`~tendays.server.matches.text.clean_chat`: one line, normalised, at most
``chat_length`` characters), stored with the game before anyone sees it, sent to the table's
connections in a small ``chat`` message, and part of the table from then on (a replay shows it).
Each seat may write ``chat_lines`` lines in any ``chat_window`` seconds; spectators only read.
Notices (a turn played on the clock, a player leaving or coming back) are lines without a seat; they
come with the table they change. They are stored as data (:mod:`tendays.server.matches.notices`), so
each connection reads them in its own language.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import ngettext

from ..settings import MasterSettings
from ..storage.rows import ChatRow, MoveConflict
from ..vocabulary import ChatKind, RejectionCode
from .messages import Outgoing
from .notices import Plural, encode_notice
from .seats import Rejected, Seat, Subscriber, hidden_seats
from .text import clean_chat
from .wire import TableEncoder

if TYPE_CHECKING:
    from ..storage.journal import Journal

__all__ = ["QUICK_PHRASES", "Chat", "ChatTable"]

# Offered as one-tap buttons (on a phone, typing is slow); they are ordinary lines once sent.
QUICK_PHRASES = (
    "Good luck!",
    "Well played!",
    "Nice move!",
    "Thinking…",
    "Oops!",
    "Thanks!",
    "Good game!",
)


class ChatTable(Protocol):
    """What the chat reads of its match: whose names the lines carry, and who hears them."""

    @property
    def id(self) -> str: ...
    @property
    def seats(self) -> Sequence[Seat]: ...
    @property
    def subscribers(self) -> Sequence[Subscriber]: ...
    @property
    def version(self) -> int: ...


class Chat:
    """A match's chat: its lines, and each seat's recent ones (for the rate limit)."""

    def __init__(
        self,
        table: ChatTable,
        rows: Sequence[ChatRow],
        journal: Journal,
        settings: MasterSettings,
        encoder: TableEncoder,
    ) -> None:
        self._table = table
        self._journal = journal
        self._settings = settings
        self._encoder = encoder
        self.known = 0  # the number of the last line this match holds
        self._recent: dict[int, deque[float]] = {}
        self.take(rows)

    def take(self, rows: Iterable[ChatRow]) -> None:
        """Hold lines already stored (by this process before a restart, or by another process)."""
        for row in rows:
            self._encoder.add_chat(self._line(row))
            self.known = max(self.known, row.number)

    def _line(self, row: ChatRow) -> dict[str, Any]:
        seats = self._table.seats
        name = None if row.seat is None or row.seat >= len(seats) else seats[row.seat].display_name
        return {
            "n": row.number,
            "seat": row.seat,
            "name": name,
            "kind": row.kind,
            "text": row.text,
            "at": row.at,
        }

    async def _add(self, seat: int | None, kind: ChatKind, text: str) -> None:
        try:
            await self._store(seat, kind, text)
        # another process wrote a line of this number first: read its lines, write after
        except MoveConflict:
            store, table = self._journal.store, self._table
            stored = await self._journal.run(
                store.load_changes, table.id, table.version, self.known - 1
            )
            self.take(stored.chat if stored is not None else ())
            await self._store(seat, kind, text)

    async def _store(self, seat: int | None, kind: ChatKind, text: str) -> None:
        row = ChatRow(self.known + 1, seat, kind, text, round(time.time(), 3))
        await self._journal.run(self._journal.store.add_chat, self._table.id, row)
        self.take((row,))

    async def say(self, seat: int | None, text: Any) -> None:
        """A line from ``seat``; raises :class:`Rejected` for a spectator,
        a bad line or too many lines."""
        if seat is None:
            raise Rejected(
                RejectionCode.FORBIDDEN,
                _("spectators read the table's chat but cannot write in it"),
            )
        try:
            line = clean_chat(text, self._settings.chat_length)
        except ValueError as error:
            raise Rejected(RejectionCode.MALFORMED, str(error)) from None
        window, most = self._settings.chat_window, self._settings.chat_lines
        recent = self._recent.setdefault(seat, deque())
        now = time.monotonic()
        while recent and now - recent[0] >= window:
            recent.popleft()
        if len(recent) >= most:
            wait = max(1, round(window - (now - recent[0])))
            raise Rejected(
                RejectionCode.RATE_LIMITED,
                ngettext(
                    "at most {most} chat message in {window} seconds; wait {wait} s before the "
                    "next one",
                    "at most {most} chat messages in {window} seconds; wait {wait} s before the "
                    "next one",
                    most,
                ).format(most=most, window=f"{window:g}", wait=wait),
            )
        recent.append(now)
        try:
            await self._add(seat, ChatKind.CHAT, line)
        except Exception:
            recent.pop()
            raise Rejected(
                RejectionCode.UNAVAILABLE,
                _("the message could not be saved, so nobody saw it; try again"),
            ) from None
        self._send()

    def _send(self) -> None:
        """The new lines to every connection, in a small ``chat`` message: the table itself did
        not change. A connection whose reader blocked the writer reads that the line is hidden."""
        messages: dict[tuple[int, str, frozenset[int]], Outgoing] = {}
        seats = self._table.seats
        for subscriber in self._table.subscribers:
            key = (subscriber.chat_queued, subscriber.lang, hidden_seats(seats, subscriber))
            message = messages.get(key)
            if message is None:
                message = messages[key] = self._encoder.chat(*key)
            subscriber.put(message)

    async def notice(
        self, message: str | Plural, *, sentence: bool = False, **args: str | int
    ) -> None:
        """A line of the table itself (stored; the caller publishes the table): ``message`` is a
        msgid marked with :func:`~tendays.server.matches.notices.N_` (or a
        :class:`~tendays.server.matches.notices.Plural`), formatted with
        ``args`` in each reader's language."""
        await self._add(None, ChatKind.NOTICE, encode_notice(message, sentence=sentence, **args))
