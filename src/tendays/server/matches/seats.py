"""Seats, seat tokens, the errors a table answers with, and each connection's mailbox."""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from tendays.engine import State
from tendays.engine.i18n import current_language

from ..vocabulary import RejectionCode, SeatKind
from .messages import Outgoing, error_message
from .wire import seat_name

__all__ = [
    "LobbyError",
    "Rejected",
    "Seat",
    "SeatedTable",
    "Subscriber",
    "hash_token",
    "hidden_seats",
    "new_token",
]


def hash_token(token: str) -> str:
    """What the store keeps of a seat token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def new_token() -> str:
    """A seat token: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


class Rejected(Exception):
    """A message that changed nothing: ``code`` says which rule it broke, ``message`` why, in
    words."""

    def __init__(self, code: RejectionCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_message(self) -> Outgoing:
        return error_message(self.code, self.message)


class LobbyError(Exception):
    """A lobby request that cannot be granted; ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Seat:
    """A seat at the table. A person's seat can be played by a bot: while the person is ``away``
    (too many turns in a row ran out of time; they take it back by opening their seat
    link) or after they ``left``."""

    index: int
    kind: str  # a SeatKind
    bot: str | None = None
    name: str | None = None
    token_hash: str | None = None
    timeouts: int = 0  # turns in a row played on the clock
    away: bool = False
    left: bool = False
    reserved: bool = False  # a rematch seat, kept for the player who held it in the last game
    # the account that took it: opening the game signed in to it resumes the seat
    account_id: int | None = None
    # the person (not a bot standing in) has moved here after the draft: the abort rule's fact
    moved_after_draft: bool = False
    # the account is a bot account: it plays through the Bot API, never by the table socket
    bot_account: bool = False

    @property
    def taken(self) -> bool:
        return self.kind == SeatKind.BOT or self.token_hash is not None

    @property
    def played_by_bot(self) -> bool:
        return self.kind == SeatKind.BOT or self.away or self.left

    @property
    def present(self) -> bool:
        """A person who still plays this seat."""
        return (
            self.kind == SeatKind.HUMAN
            and self.token_hash is not None
            and not (self.away or self.left)
        )

    @property
    def display_name(self) -> str:
        """The name kept in records and notices: the stored one, the same in every language."""
        return self.name or f"Player {self.index + 1}"

    @property
    def shown_name(self) -> str:
        """The name a reader sees, in the current language (a bot's from its level)."""
        return seat_name(self.index, self.kind, self.name, self.bot)


class Subscriber:
    """One connection's mailbox. A newer table replaces an unsent older one: only the latest
    matters.

    A table carries only the log entries and chat lines this connection does not have yet: those
    after the ones in the messages already sent (``log_known``, ``chat_known``). A table replaced
    before it was sent is rebuilt from those counts, so nothing in it is lost. A chat line alone
    goes in a ``chat`` message, never replaced, carrying the lines after those already put in the
    box (``chat_queued``). ``lang`` is the connection's language (by default the one current where
    it subscribes): its tables, log and notices are written in it. ``reader`` is the account the
    connection is signed in to (None: anonymous), and ``hidden`` the accounts whose chat lines it
    does not read (those its reader blocked): their lines reach it as a line that says so.
    """

    def __init__(
        self,
        seat: int | None,
        lang: str | None = None,
        reader: int | None = None,
        hidden: frozenset[int] = frozenset(),
    ) -> None:
        self.seat = seat
        self.lang = lang or current_language()
        self.reader = reader
        self.hidden = hidden
        self.log_known = 0
        self.chat_known = 0
        self.chat_queued = 0
        self._box: deque[Outgoing] = deque()
        self._ready = asyncio.Event()
        # Writes a message's UTF-8 text to the connection at once if it can take it, and says
        # whether it did (set by the table socket where the server offers it): a message then
        # goes out from where it is made, without waking the connection's sending task.
        self.write_now: Callable[[bytes], bool] | None = None
        self._sending = False  # the sending task holds a message it has not written yet

    def put(self, message: Outgoing) -> None:
        if self.write_now is not None and not self._box and not self._sending:
            # nothing waits before it, so the order is kept
            try:
                written = self.write_now(message.data)
            except Exception:  # the connection broke: the sending task meets it too, and ends
                written = False
            if written:
                self.chat_queued = max(self.chat_queued, message.chat_end)
                self._sent(message)
                return
        if message.is_table and self._box:
            self._box = deque(item for item in self._box if not item.is_table)
        self._box.append(message)
        self.chat_queued = max(self.chat_queued, message.chat_end)
        self._ready.set()

    def pending(self) -> int:
        return len(self._box)

    def _take(self) -> bytes:
        message = self._box.popleft()
        self._sent(message)
        return message.data

    def _sent(self, message: Outgoing) -> None:
        if message.is_table:
            self.log_known = message.log_end
        self.chat_known = max(self.chat_known, message.chat_end)

    async def get(self) -> str:
        """The next message to send, waiting for one."""
        return (await self.get_data()).decode()

    async def get_data(self) -> bytes:
        """The next message to send as UTF-8, waiting for one."""
        while not self._box:
            self._ready.clear()
            await self._ready.wait()
        return self._take()

    async def send_each(self, send: Callable[[bytes], Awaitable[None]]) -> None:
        """Send every message put, in order, through ``send`` (UTF-8 text), until it raises."""
        while True:
            data = await self.get_data()
            self._sending = True
            try:
                await send(data)
            finally:
                self._sending = False
                # let go of it while waiting for the next: a new connection's first table (its
                # whole log) would otherwise stay held by every idle connection
                del data

    def drain(self) -> list[str]:
        """Every message waiting now (for tests that read without waiting)."""
        return [self._take().decode() for _ in range(len(self._box))]

    def resync(self) -> None:
        """The connection asks for the whole table again (its copy
        went wrong): start from nothing."""
        self.log_known = self.chat_known = self.chat_queued = 0


def hidden_seats(seats: Sequence[Seat], subscriber: Subscriber) -> frozenset[int]:
    """The seats whose chat lines ``subscriber`` does not read: those of the accounts it hides."""
    if not subscriber.hidden:
        return frozenset()
    return frozenset(s.index for s in seats if s.account_id in subscriber.hidden)


class SeatedTable(Protocol):
    """What most of a match's helpers read of it: its seats, the game's state, and the table's
    version and status."""

    @property
    def seats(self) -> Sequence[Seat]: ...
    @property
    def state(self) -> State: ...
    @property
    def version(self) -> int: ...
    @property
    def status(self) -> str: ...
