"""The wire form of a table (docs/protocol.md): one seat's view of a game, as a JSON ``state`` message.

Only :class:`~tendays.engine.PlayerView` values are encoded here, never the full state, so what a
connection receives is exactly what ``view(state, seat)`` allows. The parts every seat shares (the
log, the piles, the seats) are encoded once per change and spliced into each seat's message.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tendays.engine import Edition, Event, Move, Phase, PlayerView, Verdict, checker_for, describe_event

__all__ = ["SeatInfo", "TableEncoder", "dumps", "verdict_json"]

Rack = Sequence[int | None]


def dumps(message: Any) -> str:
    """Compact JSON, as sent on the wire."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def _members(message: dict[str, Any]) -> str:
    """The members of a JSON object without its braces, for splicing objects together."""
    return dumps(message)[1:-1]


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


def verdict_json(verdict: Verdict) -> dict[str, Any]:
    return {
        "valid": verdict.valid,
        "problems": [{"day": p.day, "to_day": p.to_day, "message": str(p)} for p in verdict.problems],
        "links": [{"from_day": link.from_day, "to_day": link.to_day, "via_day": link.via_day, "ok": link.ok,
                   "message": link.message} for link in verdict.links],
    }


class TableEncoder:
    """Encodes the views of one game. Keep one per game: it caches what does not change."""

    def __init__(self, game_id: str, edition: Edition) -> None:
        self.game_id = game_id
        self.edition = edition
        self._checker = checker_for(edition)
        self._log: list[str] = []  # encoded log entries; the public history only ever grows
        self._log_names: tuple[str, ...] = ()
        self._journeys: dict[tuple[int | None, ...], dict[str, Any]] = {}
        self._encoded_journeys: dict[tuple[int | None, ...], str] = {}
        self._encoded_moves: dict[int, tuple[tuple[Move, ...], str]] = {}  # by the identity of a moves tuple
        self._public_key: tuple[Any, ...] | None = None
        self._public = ""

    def tile_id(self, tile: int | None) -> str | None:
        return None if tile is None else self.edition.tiles[tile].id

    def rack_json(self, rack: Rack) -> list[str | None]:
        return [self.tile_id(t) for t in rack]

    def journey(self, rack: Rack) -> dict[str, Any]:
        key = tuple(rack)
        verdict = self._journeys.get(key)
        if verdict is None:
            if len(self._journeys) > 256:
                self._journeys.clear()
            verdict = self._journeys[key] = verdict_json(self._checker.check(rack))
        return verdict

    def _journey_text(self, rack: Rack) -> str:
        key = tuple(rack)
        text = self._encoded_journeys.get(key)
        if text is None:
            if len(self._encoded_journeys) > 256:
                self._encoded_journeys.clear()
            text = self._encoded_journeys[key] = dumps(self.journey(rack))
        return text

    def _moves_text(self, moves: tuple[Move, ...]) -> str:
        # The engine hands out the same tuple for the same situation, so its identity is a cheap key;
        # the cache holds the tuple itself, so an identity is never reused while it is cached.
        cached = self._encoded_moves.get(id(moves))
        if cached is not None and cached[0] is moves:
            return cached[1]
        text = dumps([str(m) for m in moves])
        if len(self._encoded_moves) > 256:
            self._encoded_moves.clear()
        self._encoded_moves[id(moves)] = (moves, text)
        return text

    def _log_entry(self, event: Event, names: Sequence[str]) -> str:
        return dumps({
            "text": describe_event(self.edition, event, names),
            "kind": event.kind,
            "player": event.player,
            "tile": self.tile_id(event.tile),
            "pile": event.pile or None,
            "day": event.day or None,
            "day2": event.day2 or None,
        })

    def _encoded_log(self, events: Sequence[Event], names: tuple[str, ...]) -> str:
        if names != self._log_names:
            self._log, self._log_names = [], names
        for event in events[len(self._log):]:
            self._log.append(self._log_entry(event, names))
        return ",".join(self._log[: len(events)])

    def public(self, spectator: PlayerView, version: int, status: str, seats: Sequence[SeatInfo]) -> str:
        """The members every connection shares, encoded once per ``(version, status, seats)``."""
        key = (version, status, tuple(seats))
        if key == self._public_key:
            return self._public
        names = tuple(s.display_name for s in seats)
        racks = spectator.racks
        members = _members({
            "id": self.game_id,
            "edition": self.edition.id,
            "options": spectator.options.to_json(),
            "status": status,
            "seats": [{"seat": s.seat, "name": s.name, "kind": s.kind, "bot": s.bot, "connected": s.connected,
                       "tiles": spectator.rack_counts[s.seat]} for s in seats],
            "phase": spectator.phase.name.lower(),
            "current": spectator.current,
            "turn": spectator.turn,
            "taken_from": spectator.taken_from,
            "piles": [self.rack_json(p) for p in spectator.piles],
            "draw_pile": spectator.draw_pile_size,
            "racks": None if racks is None else [self.rack_json(r) for r in racks],
            "winner": spectator.winner,
            "journeys": None if racks is None else [self.journey(r) for r in racks],
        })
        self._public_key = key
        self._public = f'{members},"log":[{self._encoded_log(spectator.events, names)}]'
        return self._public

    def state_message(self, public: str, seen: PlayerView, version: int, status: str) -> str:
        """The ``state`` message for the viewer of ``seen``, around the shared ``public`` members."""
        playing = status == "playing"
        own = _members({
            "you": seen.player,
            "rack": None if seen.rack is None else self.rack_json(seen.rack),
            # Before the deal nobody holds anything yet, whatever the dealt state says.
            "in_hand": self.tile_id(seen.in_hand) if playing or seen.phase is Phase.OVER else None,
        })
        moves = self._moves_text(seen.legal_moves()) if playing else "[]"
        journey = "null" if seen.rack is None else self._journey_text(seen.rack)
        return (f'{{"type":"state","version":{version},"game":{{{own},"legal_moves":{moves},'
                f'"journey":{journey},{public}}}}}')
