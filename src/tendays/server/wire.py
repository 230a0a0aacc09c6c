"""The wire form of a table (docs/protocol.md): one seat's view of a game, as a JSON ``state`` message.

The ``game`` object is the engine's view JSON (:func:`tendays.engine.wire.view_to_json`) with the
server's additions around it: the game's id and status, the seats, the log with its sentences, and
the journeys as verdicts (:meth:`~tendays.engine.Verdict.to_json`). Only
:class:`~tendays.engine.PlayerView` values are encoded, never the full state, so what a connection
receives is exactly what ``view(state, seat)`` allows. The additions every seat shares are built once
per change, as plain data; each message is then one ``orjson.dumps``. The log only ever grows, so each
entry is encoded once and embedded as an ``orjson.Fragment`` in every later message.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from tendays.engine import Edition, Event, PlayerView, checker_for, describe_event
from tendays.engine.wire import event_to_json, view_to_json

__all__ = ["Outgoing", "SeatInfo", "TableEncoder", "dumps"]

Rack = Sequence[int | None]
Json = dict[str, Any]


def dumps(message: Any) -> str:
    """Compact JSON, as sent on the wire."""
    return orjson.dumps(message).decode()


@dataclass(frozen=True, slots=True)
class Outgoing:
    """An encoded message for one connection. A newer table replaces an unsent older one."""

    text: str
    is_table: bool = False

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

    def _log_entries(self, events: Sequence[Event], names: tuple[str, ...]) -> list[orjson.Fragment]:
        if names != self._log_names:
            self._log, self._log_names = [], names
        for event in events[len(self._log):]:
            self._log.append(self._log_entry(event, names))
        return self._log[: len(events)]

    def shared(self, spectator: PlayerView, version: int, status: str, seats: Sequence[SeatInfo]) -> Json:
        """The additions every connection shares, built once per ``(version, status, seats)``."""
        key = (version, status, tuple(seats))
        if key != self._shared_key:
            racks = spectator.racks
            self._shared = {
                "id": self.game_id,
                "status": status,
                "seats": [{"seat": s.seat, "name": s.name, "kind": s.kind, "bot": s.bot, "connected": s.connected,
                           "tiles": spectator.rack_counts[s.seat]} for s in seats],
                "journeys": None if racks is None else [self.journey(r) for r in racks],
                "log": self._log_entries(spectator.events, tuple(s.display_name for s in seats)),
            }
            self._shared_key = key
        return self._shared

    def table(self, shared: Json, seen: PlayerView, version: int, status: str) -> Outgoing:
        """The ``state`` message for the viewer of ``seen``, with the ``shared`` additions."""
        game = view_to_json(seen, events=False)
        del game["events"]  # the log, with its sentences, stands in for it
        game["you"] = game.pop("player")
        if status == "waiting":
            # Before every seat is taken nobody holds or may play anything, whatever the dealt state says.
            game["in_hand"] = None
            game["legal_moves"] = []
        game["journey"] = None if seen.rack is None else self.journey(seen.rack)
        game.update(shared)
        return Outgoing(dumps({"type": "state", "version": version, "game": game}), is_table=True)
