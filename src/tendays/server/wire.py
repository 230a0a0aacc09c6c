"""The wire form of a table (docs/protocol.md): one seat's view of a game, as a JSON ``state`` message.

The ``game`` object is the engine's view JSON (:func:`tendays.engine.wire.view_to_json`) with the
server's additions around it: the game's id and status, the seats, the log with its sentences, and
the journeys as verdicts (:meth:`~tendays.engine.Verdict.to_json`). Only
:class:`~tendays.engine.PlayerView` values are encoded, never the full state, so what a connection
receives is exactly what ``view(state, seat)`` allows. The additions every seat shares are built once
per change, as plain data; each message is then one ``orjson.dumps``. The log and the chat only ever
grow, so each entry is encoded once, as an ``orjson.Fragment``, and a table carries only the entries its
connection does not have yet (``log_from``, ``chat_from``): the cost of a move does not grow with the
length of the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import orjson

from tendays.engine import Edition, Event, Move, PlayerView, checker_for, describe_event
from tendays.engine.wire import event_to_json, view_to_json

__all__ = ["Outgoing", "SeatInfo", "TableEncoder", "dumps"]

Rack = Sequence[int | None]
Json = dict[str, Any]


def dumps(message: Any) -> str:
    """Compact JSON, as sent on the wire."""
    return orjson.dumps(message).decode()


_MOVES: dict[Move, orjson.Fragment] = {}  # every move's JSON (Move.to_json), encoded once: there are few moves


def _move_json(move: Move) -> orjson.Fragment:
    encoded = _MOVES.get(move)
    if encoded is None:
        encoded = _MOVES[move] = orjson.Fragment(orjson.dumps(move.to_json()))
    return encoded


@dataclass(frozen=True, slots=True)
class Outgoing:
    """An encoded message for one connection. A newer table replaces an unsent older one."""

    text: str
    is_table: bool = False
    log_end: int = 0  # a table: the log entries and chat lines its receiver has once it is sent
    chat_end: int = 0

    @classmethod
    def of(cls, message: Json) -> Outgoing:
        return cls(dumps(message))


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """The public facts about a seat."""

    seat: int
    kind: str  # "human" or "bot"
    name: str | None
    bot: str | None
    connected: bool
    away: bool = False
    left: bool = False

    @property
    def display_name(self) -> str:
        return self.name or f"Player {self.seat + 1}"


class TableEncoder:
    """Encodes the views of one game. Keep one per game: it caches what does not change."""

    def __init__(self, game_id: str, edition: Edition) -> None:
        self.game_id = game_id
        self.edition = edition
        self._checker = checker_for(edition)
        self._log: list[orjson.Fragment] = []  # encoded log entries; the public history only ever grows
        self._log_names: tuple[str, ...] = ()
        self._log_length = 0
        self._chat: list[orjson.Fragment] = []
        self._journeys: dict[tuple[int | None, ...], Json] = {}
        self._shared_key: tuple[Any, ...] | None = None
        self._shared: Json = {}

    def journey(self, rack: Rack) -> Json:
        """The verdict on ``rack``, as :meth:`~tendays.engine.Verdict.to_json` gives it."""
        key = tuple(rack)
        verdict = self._journeys.get(key)
        if verdict is None:
            if len(self._journeys) > 256:
                self._journeys.clear()
            verdict = self._journeys[key] = self._checker.check(rack).to_json()
        return verdict

    def _log_entry(self, event: Event, names: Sequence[str]) -> orjson.Fragment:
        entry = {"text": describe_event(self.edition, event, names), **event_to_json(self.edition, event)}
        return orjson.Fragment(orjson.dumps(entry))

    def _log_entries(self, events: Sequence[Event], names: tuple[str, ...]) -> int:
        """Encode the entries not encoded yet; the length of the log."""
        if names != self._log_names:
            self._log, self._log_names = [], names
        for event in events[len(self._log):]:
            self._log.append(self._log_entry(event, names))
        return len(events)

    def add_chat(self, line: Json) -> None:
        """Encode one more chat line (or notice) of the table."""
        self._chat.append(orjson.Fragment(orjson.dumps(line)))

    def chat(self, chat_from: int) -> Outgoing:
        """The ``chat`` message with the lines from ``chat_from`` on (for connections that have the rest)."""
        end = len(self._chat)
        return Outgoing(dumps({"type": "chat", "chat_from": chat_from, "chat": self._chat[chat_from:end]}),
                        chat_end=end)

    def shared(self, seen: PlayerView, version: int, status: str, seats: Sequence[SeatInfo]) -> Json:
        """The additions every connection shares, built once per ``(version, status, seats)`` from any
        viewer's view ``seen``: they hold only what every view holds alike (rack sizes, the public log, and
        the racks once they are revealed to all)."""
        key = (version, status, tuple(seats))
        if key != self._shared_key:
            spectator = seen
            racks = spectator.racks
            self._shared = {
                "id": self.game_id,
                "status": status,
                "seats": [{"seat": s.seat, "name": s.name, "kind": s.kind, "bot": s.bot, "connected": s.connected,
                           "away": s.away, "left": s.left, "tiles": spectator.rack_counts[s.seat]} for s in seats],
                "journeys": None if racks is None else [self.journey(r) for r in racks],
            }
            self._log_length = self._log_entries(spectator.events, tuple(s.display_name for s in seats))
            self._shared_key = key
        return self._shared

    def table(self, shared: Json, seen: PlayerView, version: int, status: str, log_from: int, chat_from: int,
              extra: Json) -> Outgoing:
        """The ``state`` message for the viewer of ``seen``, with the ``shared`` additions, the ``extra``
        facts of the table (clock, end, rematch), and the log entries and chat lines from the given ones on."""
        moves = seen.legal_moves()
        game = view_to_json(replace(seen, legal=()) if moves else seen, events=False)
        del game["events"]  # the log, with its sentences, stands in for it
        game["legal_moves"] = [_move_json(m) for m in moves]
        game["you"] = game.pop("player")
        if status == "waiting":
            # Before every seat is taken nobody holds or may play anything, whatever the dealt state says.
            game["in_hand"] = None
            game["legal_moves"] = []
        game["journey"] = None if seen.rack is None else self.journey(seen.rack)
        game.update(shared)
        game.update(extra)
        log_end, chat_end = self._log_length, len(self._chat)
        log_from, chat_from = min(log_from, log_end), min(chat_from, chat_end)
        game["log_from"], game["log"] = log_from, self._log[log_from:log_end]
        game["chat_from"], game["chat"] = chat_from, self._chat[chat_from:chat_end]
        return Outgoing(dumps({"type": "state", "version": version, "game": game}), is_table=True,
                        log_end=log_end, chat_end=chat_end)
