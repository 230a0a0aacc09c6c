"""The fan-out: who watches a match, and the table each of them is sent.

Every connection to a table is a :class:`~tendays.server.matches.seats.Subscriber` of its seat
(None: a spectator). When the table changes, :class:`FanOut` sends each subscriber its own
``view(state, seat)`` with what it has not had yet of the log and the chat, in its language and
without the lines of accounts it hides. Each seat's view is made once, whoever watches it, and one
message serves every subscriber that would be sent the same. It reads its match through
:class:`ShownTable`.
"""

from __future__ import annotations

import time
from typing import Any, Protocol

from tendays.engine import PlayerView, view

from .messages import Outgoing
from .seats import SeatedTable, Subscriber, hidden_seats
from .wire import SeatInfo, TableEncoder

__all__ = ["FanOut", "ShownTable"]


class ShownTable(SeatedTable, Protocol):
    """What the fan-out reads of its match: the table told of, and the facts beside the view."""

    def connected(self, seat: int) -> bool: ...
    def table_facts(self, now: float) -> dict[str, Any]: ...


class FanOut:
    """The connections to one match's table, and what each is sent."""

    def __init__(self, table: ShownTable, encoder: TableEncoder) -> None:
        self._table = table
        self._encoder = encoder
        self.subscribers: list[Subscriber] = []
        self._seat_infos: dict[tuple[Any, ...], SeatInfo] = {}

    def seat_infos(self) -> list[SeatInfo]:
        """The public facts of every seat, whether someone is at it included. A seat whose facts
        did not change is the same object as before (asked at every move, and compared by the
        encoder: the same object compares at once)."""
        table, known = self._table, self._seat_infos
        infos = []
        for s in table.seats:
            facts = (
                s.index,
                s.kind,
                s.name,
                s.bot,
                table.connected(s.index),
                s.away,
                s.left,
                s.account_id is not None,
                s.bot_account,
            )
            info = known.get(facts)
            if info is None:
                if len(known) > 64:
                    known.clear()
                info = known[facts] = SeatInfo(*facts)
            infos.append(info)
        return infos

    def state_message(self, subscriber: Subscriber) -> Outgoing:
        """The current table as the subscriber's seat (None: a spectator)
        may see it, from what it has."""
        table = self._table
        seen = view(table.state, subscriber.seat)
        shared = self._encoder.shared(seen, table.version, table.status, self.seat_infos())
        return self._encoder.table(
            shared,
            seen,
            table.version,
            table.status,
            subscriber.log_known,
            subscriber.chat_known,
            table.table_facts(time.time()),
            subscriber.lang,
            hidden_seats(table.seats, subscriber),
        )

    def subscribe(self, subscriber: Subscriber) -> None:
        """Add a connection; it gets the table at once (everyone does when a seat comes online)."""
        seat = subscriber.seat
        was_connected = seat is not None and self._table.connected(seat)
        self.subscribers.append(subscriber)
        if seat is not None and not was_connected:
            self.publish()  # everyone sees the seat come online
        else:
            subscriber.put(self.state_message(subscriber))

    def unsubscribe(self, subscriber: Subscriber) -> None:
        if subscriber not in self.subscribers:
            return
        self.subscribers.remove(subscriber)
        if subscriber.seat is not None and not self._table.connected(subscriber.seat):
            self.publish()

    def hide_chat(self, reader: int, hidden: frozenset[int]) -> None:
        """The connections signed in to the account ``reader`` read no chat of the ``hidden``
        accounts from now on, nor the lines already written (they are sent the table again)."""
        readers = [s for s in self.subscribers if s.reader == reader]
        for subscriber in readers:
            subscriber.hidden = hidden
            subscriber.resync()
        if readers:
            self.publish()

    def resync(self) -> None:
        """Every connection is sent the whole log again next time (its names may have changed)."""
        for subscriber in self.subscribers:
            subscriber.resync()

    def publish(self) -> None:
        """Send every subscriber its own view of the current table, with what it has not had yet.

        Each seat's view is made once, whoever watches it; the additions all share come from any of
        them.
        """
        if not self.subscribers:
            return
        table = self._table
        state, version, status = table.state, table.version, table.status
        views: dict[int | None, PlayerView] = {}
        for subscriber in self.subscribers:
            if subscriber.seat not in views:
                views[subscriber.seat] = view(state, subscriber.seat)
        shared = self._encoder.shared(
            next(iter(views.values())), version, status, self.seat_infos()
        )
        facts = table.table_facts(time.time())
        messages: dict[tuple[int | None, str, int, int, frozenset[int]], Outgoing] = {}
        for subscriber in self.subscribers:
            hidden = hidden_seats(table.seats, subscriber)
            key = (
                subscriber.seat,
                subscriber.lang,
                subscriber.log_known,
                subscriber.chat_known,
                hidden,
            )
            message = messages.get(key)
            if message is None:
                message = messages[key] = self._encoder.table(
                    shared,
                    views[subscriber.seat],
                    version,
                    status,
                    subscriber.log_known,
                    subscriber.chat_known,
                    facts,
                    subscriber.lang,
                    hidden,
                )
            subscriber.put(message)
