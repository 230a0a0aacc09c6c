"""The wire form of a table (docs/protocol.md): one seat's view of a game, as a JSON ``state``
message.

The ``game`` object is the engine's view JSON (:func:`tendays.engine.wire.view_to_json`) with the
server's additions around it: the game's id and status, the seats, the log with its sentences, and
the journeys as verdicts (:meth:`~tendays.engine.Verdict.to_json`). Only
:class:`~tendays.engine.PlayerView` values are encoded, never the full state, so what a connection
receives is exactly what ``view(state, seat)`` allows. What several messages share (the view's
fields every seat sees alike, the seats, a rack and its verdict) is encoded once, as
``orjson.Fragment`` values kept by what they are made of, and each message is one ``orjson.dumps``
of a few dozen values around them. The log and the chat only ever grow, so each entry is encoded
once, and a table carries only the entries its connection does not have yet (``log_from``,
``chat_from``): the cost of a move does not grow with the length of the game. The sentences are
written in each connection's language (``Subscriber.lang``): the log, the verdicts and the table's
notices are cached per language, everything else once for all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from tendays.bots import LEVELS
from tendays.engine import Edition, Event, Move, PlayerView, checker_for, describe_event
from tendays.engine.i18n import current_language, use_language
from tendays.engine.i18n import gettext as _
from tendays.engine.wire import PHASE_NAMES, event_to_json

from ..vocabulary import ChatKind, MatchStatus, SeatKind
from .messages import Outgoing, chat_message, state_message
from .notices import N_, render_notice

__all__ = [
    "DELETED_PLAYER",
    "SeatInfo",
    "TableEncoder",
    "listed_name",
    "seat_name",
    "stored_bot_name",
]

Rack = Sequence[int | None]
Json = dict[str, Any]


# every move's JSON (Move.to_json), encoded once: there are few moves
_MOVES: dict[Move, orjson.Fragment] = {}


def _move_json(move: Move) -> orjson.Fragment:
    encoded = _MOVES.get(move)
    if encoded is None:
        encoded = _MOVES[move] = orjson.Fragment(orjson.dumps(move.to_json()))
    return encoded


# Each tuple of legal moves' JSON list, encoded once. The engine hands every state with the same
# moves one shared tuple (engine/legal.py), so a tuple is found by its identity, not by hashing
# its moves; an entry holds its tuple, so no other tuple can take its id while it is kept.
_LEGAL: dict[int, tuple[tuple[Move, ...], orjson.Fragment]] = {}


def _moves_json(moves: tuple[Move, ...]) -> orjson.Fragment:
    known = _LEGAL.get(id(moves))
    if known is not None and known[0] is moves:
        return known[1]
    encoded = orjson.Fragment(orjson.dumps([_move_json(m) for m in moves]))
    if len(_LEGAL) >= 1024:
        _LEGAL.clear()
    _LEGAL[id(moves)] = (moves, encoded)
    return encoded


# The name stored for the seats of a deleted account: the same in every
# language; readers see it in theirs.
DELETED_PLAYER = N_("deleted player")


def stored_bot_name(level: str | None) -> str:
    """The name stored for a bot seat ("Easy bot"): the same in every language; readers see
    :func:`seat_name`."""
    return f"{(level or 'normal').capitalize()} bot"


def seat_name(seat: int, kind: str, name: str | None, bot: str | None) -> str:
    """A seat's name as a reader sees it, in the current language: a person's as they gave it, a
    bot's from its level ("Easy bot", "Bot (leicht)"; a bot named directly by its bot's name:
    "Greedy bot"), a free seat's number ("Player 2"). A bot's stored name is data, not words (games
    stored before kept "Easy bot" too); a bot seat stored with another name keeps it."""
    if kind == SeatKind.BOT and (name is None or name == stored_bot_name(bot)):
        # a level is said in the reader's language; a bot's name as it is
        level = LEVELS.get(bot or "normal")
        words = _("{level} bot").format(level=bot if level is None else level.said)
        return words[:1].upper() + words[1:]
    if name == DELETED_PLAYER:
        return _(DELETED_PLAYER)
    return name or _("Player {number}").format(number=seat + 1)


def listed_name(seat: int, kind: str, name: str | None, bot: str | None) -> str | None:
    """A seat's name as lists and tables give it: a bot's and a deleted account's in the reader's
    language, a person's as they gave it, None for a seat nobody took yet."""
    return (
        seat_name(seat, kind, name, bot) if kind == SeatKind.BOT or name == DELETED_PLAYER else name
    )


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """The public facts about a seat."""

    seat: int
    kind: str  # a SeatKind
    name: str | None
    bot: str | None
    connected: bool
    away: bool = False
    left: bool = False
    # a signed-in person's seat: the name is an account's (which account is not said)
    account: bool = False
    # the account is a bot account (a program playing through the Bot API); kind stays "human"
    bot_account: bool = False

    @property
    def shown_name(self) -> str:
        """The name in the current language (:func:`seat_name`)."""
        return seat_name(self.seat, self.kind, self.name, self.bot)


class TableEncoder:
    """Encodes the views of one game. Keep one per game: it caches what does not change.

    Sentences (the log, the verdicts on journeys, the table's notices) are written in each
    connection's language, so what holds them is cached per language; everything else is shared by
    all.
    """

    def __init__(self, game_id: str, edition: Edition) -> None:
        self.game_id = game_id
        self.edition = edition
        self._checker = checker_for(edition)
        self._events: Sequence[Event] = ()  # the public history as of the shared additions
        # per language; the public history only ever grows
        self._log: dict[str, list[orjson.Fragment]] = {}
        # the seats the log names
        self._log_names: tuple[tuple[int, str, str | None, str | None], ...] = ()
        self._log_seats: Sequence[SeatInfo] = ()
        # the shared seats, with their names in each language, encoded
        self._seats: dict[str, orjson.Fragment] = {}
        # the seats' names as lists give them (listed_name) and as the log says them
        # (seat_name), by language, for _log_names
        self._listed: dict[str, list[str | None]] = {}
        self._said: dict[str, tuple[str, ...]] = {}
        self._log_length = 0
        # as stored: a notice's text is its stored form (tendays.server.matches.notices)
        self._chat_lines: list[Json] = []
        self._chat: dict[str, list[orjson.Fragment]] = {}  # per language
        # a line shown in its stead to a reader who blocked its writer, by (language, index)
        self._hidden_chat: dict[tuple[str, int], orjson.Fragment] = {}
        self._journeys: dict[tuple[str, tuple[int | None, ...]], orjson.Fragment] = {}
        self._ids = edition.tile_ids
        self._rack_json: dict[Rack, orjson.Fragment] = {}
        # the view's fields every seat sees alike, encoded once per change (_public_of)
        self._public: tuple[Any, ...] = ()
        self._options: tuple[Any, orjson.Fragment] | None = None
        self._racks: Sequence[Rack] | None = None  # every rack, once they are revealed to all
        self._shared_key: tuple[Any, ...] | None = None
        self._shared: Json = {}
        self._seats_key: tuple[Any, ...] | None = None  # the seats and rack sizes of _seat_list
        self._seat_list: list[Json] = []

    def journey(self, rack: Rack, lang: str | None = None) -> orjson.Fragment:
        """The verdict on ``rack``, as :meth:`~tendays.engine.Verdict.to_json` gives it, in ``lang``
        (or the current language), encoded once."""
        lang = lang or current_language()
        key = (lang, tuple(rack))
        verdict = self._journeys.get(key)
        if verdict is None:
            if len(self._journeys) > 256:
                self._journeys.clear()
            checked = self._checker.check(rack, lang=lang).to_json()
            verdict = self._journeys[key] = orjson.Fragment(orjson.dumps(checked))
        return verdict

    def _rack(self, rack: Rack) -> orjson.Fragment:
        """A rack's tiles by id, encoded once (a rack changes by one tile a move)."""
        encoded = self._rack_json.get(rack)
        if encoded is None:
            if len(self._rack_json) > 64:
                self._rack_json.clear()
            ids = self._ids
            tiles = [None if t is None else ids[t] for t in rack]
            encoded = self._rack_json[rack] = orjson.Fragment(orjson.dumps(tiles))
        return encoded

    def _log_in(self, lang: str) -> list[orjson.Fragment]:
        """The log entries in ``lang``, encoded up to the shared additions' length."""
        log = self._log.setdefault(lang, [])
        if len(log) < self._log_length:
            with use_language(lang):
                names = self._said.get(lang)
                if names is None:
                    names = self._said[lang] = tuple(s.shown_name for s in self._log_seats)
                for event in self._events[len(log) : self._log_length]:
                    entry = {
                        "text": describe_event(self.edition, event, names),
                        **event_to_json(self.edition, event),
                    }
                    log.append(orjson.Fragment(orjson.dumps(entry)))
        return log

    def add_chat(self, line: Json) -> None:
        """One more chat line (or notice) of the table; it is encoded in
        each language when first sent."""
        self._chat_lines.append(line)

    def _chat_in(self, lang: str) -> list[orjson.Fragment]:
        """The chat lines in ``lang`` (a notice in the reader's language;
        people's lines as they wrote them)."""
        lines = self._chat.setdefault(lang, [])
        if len(lines) < len(self._chat_lines):
            with use_language(lang):
                for line in self._chat_lines[len(lines) :]:
                    if line.get("kind") == ChatKind.NOTICE:
                        line = {**line, "text": render_notice(line["text"])}
                    lines.append(orjson.Fragment(orjson.dumps(line)))
        return lines

    def _chat_for(
        self, lang: str, start: int, end: int, hidden: frozenset[int]
    ) -> list[orjson.Fragment]:
        """The chat lines from ``start`` to ``end`` in ``lang``; those written at the ``hidden``
        seats (people the reader blocked) give way to a line that says so."""
        lines = self._chat_in(lang)[start:end]
        if not hidden:
            return lines
        shown = []
        for index, fragment in enumerate(lines, start):
            line = self._chat_lines[index]
            if line.get("kind") == ChatKind.CHAT and line.get("seat") in hidden:
                fragment = self._hidden_chat.get((lang, index)) or self._hide(lang, index, line)
            shown.append(fragment)
        return shown

    def _hide(self, lang: str, index: int, line: Json) -> orjson.Fragment:
        with use_language(lang):
            stand_in = {**line, "text": _("(hidden: you blocked this player)"), "hidden": True}
        fragment = self._hidden_chat[(lang, index)] = orjson.Fragment(orjson.dumps(stand_in))
        return fragment

    def chat(
        self, chat_from: int, lang: str | None = None, hidden: frozenset[int] = frozenset()
    ) -> Outgoing:
        """The ``chat`` message with the lines from ``chat_from`` on (for connections that have
        the rest), the lines of the ``hidden`` seats hidden."""
        lang = lang or current_language()
        end = len(self._chat_in(lang))
        lines = self._chat_for(lang, chat_from, end, hidden)
        return chat_message(chat_from, lines, end)

    def shared(
        self, seen: PlayerView, version: int, status: str, seats: Sequence[SeatInfo]
    ) -> Json:
        """The additions every connection shares, built once per ``(version, status, seats)`` from
        any viewer's view ``seen``: they hold only what every view holds alike (rack sizes, the
        public log, and the racks once they are revealed to all)."""
        key = (version, status, tuple(seats))
        if key != self._shared_key:
            spectator = seen
            self._racks = spectator.racks
            # the seats' part changes with the seats and the racks' sizes, not with every move
            seats_key = (key[2], spectator.rack_counts)
            if seats_key != self._seats_key:
                self._seat_list = [
                    {
                        "seat": s.seat,
                        "name": s.name,
                        "kind": s.kind,
                        "bot": s.bot,
                        "connected": s.connected,
                        "away": s.away,
                        "left": s.left,
                        "account": s.account,
                        "bot_account": s.bot_account,
                        "tiles": spectator.rack_counts[s.seat],
                    }
                    for s in seats
                ]
                names = tuple((s.seat, s.kind, s.name, s.bot) for s in seats)
                if names != self._log_names:
                    # the log's sentences name the players
                    self._log, self._listed, self._said, self._log_names = {}, {}, {}, names
                self._log_seats, self._seats, self._seats_key = key[2], {}, seats_key
            self._shared = {"id": self.game_id, "status": status, "seats": self._seat_list}
            self._events, self._log_length = spectator.events, len(spectator.events)
            self._shared_key = key
        return self._shared

    def _seats_in(self, seats: list[Json], lang: str) -> orjson.Fragment:
        """The shared seats with the bots' and deleted accounts' names in ``lang``
        (:func:`listed_name`), encoded once per change."""
        named = self._seats.get(lang)
        if named is None:
            listed = self._listed.get(lang)
            if listed is None:
                with use_language(lang):
                    listed = self._listed[lang] = [
                        listed_name(s["seat"], s["kind"], s["name"], s["bot"]) for s in seats
                    ]
            named = self._seats[lang] = orjson.Fragment(
                orjson.dumps([{**s, "name": name} for s, name in zip(seats, listed, strict=True)])
            )
        return named

    def _public_of(self, seen: PlayerView) -> tuple[Any, ...]:
        """The fields of ``seen`` that every viewer of its table sees alike, as the wire writes
        them (:func:`~tendays.engine.wire.view_to_json`), worked out once per change: a move
        changes them for every seat at once."""
        key = (
            seen.piles,
            seen.racks,
            seen.rack_counts,
            seen.phase,
            seen.current,
            seen.turn,
            seen.taken_from,
            seen.forced_pile,
            seen.draw_pile_size,
            seen.winner,
            seen.options,
            seen.edition.id,
        )
        if self._public[:1] != (key,):
            ids = self._ids
            options = self._options
            if options is None or options[0] != seen.options:
                options = self._options = (
                    seen.options,
                    orjson.Fragment(orjson.dumps(seen.options.to_json())),
                )
            racks = seen.racks
            self._public = (
                key,
                seen.edition.id,
                options[1],
                PHASE_NAMES[seen.phase],
                orjson.Fragment(orjson.dumps([[ids[t] for t in pile] for pile in seen.piles])),
                list(seen.rack_counts),
                None
                if racks is None
                else orjson.Fragment(
                    orjson.dumps(
                        [
                            None if r is None else [None if t is None else ids[t] for t in r]
                            for r in racks
                        ]
                    )
                ),
            )
        return self._public

    def table(
        self,
        shared: Json,
        seen: PlayerView,
        version: int,
        status: str,
        log_from: int,
        chat_from: int,
        extra: Json,
        lang: str | None = None,
        hidden: frozenset[int] = frozenset(),
    ) -> Outgoing:
        """The ``state`` message for the viewer of ``seen``, with the ``shared`` additions, the
        ``extra`` facts of the table (clock, end, rematch), and the log entries and chat lines from
        the given ones on (those of the ``hidden`` seats hidden), its sentences in ``lang`` (or the
        current language).

        The ``game`` object is :func:`~tendays.engine.wire.view_to_json`'s, its keys in the same
        order, with the viewer's own fields written here and the rest taken from
        :meth:`_public_of`."""
        lang = lang or current_language()
        # Moves are offered only in a game being played, and never to a seat a bot plays (its person
        # left or is away): an ended game, or a seat handed over, offers nothing
        # whatever the rules would allow.
        mine = None if seen.player is None else shared["seats"][seen.player]
        offered = status == MatchStatus.PLAYING and not (
            mine is not None and (mine["left"] or mine["away"])
        )
        moves = seen.legal_moves() if offered else ()
        _, edition, options, phase, piles, rack_counts, racks = self._public_of(seen)
        rack, in_hand = seen.rack, seen.in_hand
        if status == MatchStatus.WAITING:
            # Before every seat is taken nobody holds anything, whatever the dealt state says.
            in_hand = None
        log, chat = self._log_in(lang), self._chat_in(lang)
        log_end, chat_end = self._log_length, len(chat)
        log_from, chat_from = min(log_from, log_end), min(chat_from, chat_end)
        game = {
            "edition": edition,
            "options": options,
            "phase": phase,
            "current": seen.current,
            "turn": seen.turn,
            "rack": None if rack is None else self._rack(rack),
            "in_hand": None if in_hand is None else self._ids[in_hand],
            "taken_from": seen.taken_from,
            "forced_pile": seen.forced_pile,
            "piles": piles,
            "draw_pile": seen.draw_pile_size,
            "rack_counts": rack_counts,
            "racks": racks,
            "winner": seen.winner,
            # the log, with its sentences, stands in for the view's events
            "legal_moves": _moves_json(moves),
            "you": seen.player,
            "journey": None if rack is None else self.journey(rack, lang),
            **shared,
            "seats": self._seats_in(shared["seats"], lang),
            "journeys": (
                None if self._racks is None else [self.journey(r, lang) for r in self._racks]
            ),
            **extra,
            "log_from": log_from,
            "log": log[log_from:log_end],
            "chat_from": chat_from,
            "chat": self._chat_for(lang, chat_from, chat_end, hidden),
        }
        return state_message(version, game, log_end, chat_end)
