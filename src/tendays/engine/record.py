"""Game records: (edition, options, seed, moves) determine a game completely.

A record is the save file, the replay and the test fixture at once. It serialises to JSON and
replays to the identical state. Its options carry the rules version the game was played under, so a
record written before a rule changed still replays into the game that was played; a record from a
newer tendays, under rules this one does not know, is refused with a message saying so.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .edition import Edition, load_edition
from .i18n import gettext as _
from .json_text import loads as json_loads
from .moves import Move
from .plain_text import text_problem
from .state import KNOWN_RULES, IllegalMoveError, Options, State, apply, new_game, seed_problem

__all__ = ["Game", "GameRecord", "RecordError", "field_problem", "shape_problem"]

FORMAT = "tendays-record/1"


class RecordError(ValueError):
    """A record that cannot be read or does not replay."""


def shape_problem(data: object) -> str | None:
    """What keeps ``data`` from being a record's JSON object, in words (a person reads it, never a
    Python key); None if it has the right shape. A name that holds a control or formatting
    character (:mod:`.plain_text`) and a seed out of range (:func:`.state.seed_problem`) are
    refused too: a record may come from anyone."""
    if not isinstance(data, dict):
        return _("it holds {kind}, not a JSON object").format(kind=_json_kind(data))
    missing = [repr(key) for key in ("edition", "options", "seed", "moves") if key not in data]
    if missing:
        return _("it has no {fields}").format(fields=_or_list(missing))
    seed, moves, names = data["seed"], data["moves"], data.get("names", [])
    checks = [
        ("edition", isinstance(data["edition"], str), _('an edition id such as "usa"')),
        (
            "options",
            isinstance(data["options"], dict),
            _("an object such as {example}").format(example='{"players": 2, "days": 10}'),
        ),
        ("seed", isinstance(seed, int) and not isinstance(seed, bool), _("a whole number")),
        (
            "moves",
            isinstance(moves, list) and all(isinstance(m, str) for m in moves),
            _('a list of moves such as ["draft 3", "draw"]'),
        ),
        (
            "names",
            isinstance(names, list) and all(isinstance(n, str) for n in names),
            _("a list of names"),
        ),
    ]
    problem = field_problem(data, checks)
    if problem is not None:
        return problem
    for number, name in enumerate(names, 1):
        problem = text_problem(name, _("the name of player {number}").format(number=number))
        if problem is not None:
            return problem
    return seed_problem(seed)


def field_problem(data: dict[str, Any], checks: Iterable[tuple[str, bool, str]]) -> str | None:
    """The first field of ``data`` that has the wrong kind of value, in words; None if none.

    Each check is ``(key, right, what)``: the field, whether its value is right, and what it must be
    ("a whole number"). A record's fields and a save file's own fields are checked alike.
    """
    for key, right, what in checks:
        if not right:
            return _("{key!r} must be {what}, not {value}").format(
                key=key, what=what, value=json.dumps(data[key], default=repr)[:40]
            )
    return None


def _json_kind(data: object) -> str:
    kinds = {list: _("an array"), str: _("a string"), bool: _("true or false"), type(None): "null"}
    return kinds.get(type(data), _("a number"))


def _or_list(items: list[str]) -> str:
    """Items joined with "or": "'seed'", "'seed' or 'moves'", "'edition', 'seed' or 'moves'"."""
    if len(items) < 2:
        return "".join(items)
    return _("{head} or {last}").format(head=", ".join(items[:-1]), last=items[-1])


@dataclass(frozen=True)
class GameRecord:
    """Everything needed to reproduce a game. ``names`` is display metadata only."""

    edition: str
    options: Options
    seed: int
    moves: tuple[Move, ...] = ()
    names: tuple[str, ...] = field(default=(), compare=False)

    def replay(self, upto: int | None = None) -> State:
        """The state after the first ``upto`` moves (all by default)."""
        # only the last position is kept: a long game is not held state by state
        return deque(self._positions(self.moves[:upto]), maxlen=1)[0]

    def states(self) -> list[State]:
        """The state before the first move and after each move: ``len(moves) + 1`` states, the
        steps of a replay. A move that does not replay raises ``RecordError`` naming it."""
        return list(self._positions(self.moves))

    def _positions(self, moves: tuple[Move, ...]) -> Iterator[State]:
        """The deal, then the state after each of ``moves``; ``RecordError`` in the game's words
        for options or an edition that make no game, or a move that does not replay."""
        try:
            state = new_game(load_edition(self.edition), self.options, self.seed)
        except ValueError as error:
            raise RecordError(
                _("this record cannot be replayed: {error}").format(error=error)
            ) from error
        yield state
        for number, move in enumerate(moves, 1):
            try:
                state = apply(state, move)
            except IllegalMoveError as error:
                raise RecordError(
                    _("move {number} ({move}) does not replay: {error}").format(
                        number=number, move=move, error=error
                    )
                ) from error
            yield state

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": FORMAT,
            "edition": self.edition,
            "options": self.options.to_json(),
            "seed": self.seed,
            "moves": [str(m) for m in self.moves],
        }
        if self.names:
            data["names"] = list(self.names)
        return data

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameRecord:
        problem = shape_problem(data)
        if problem is not None:
            raise RecordError(_("not a tendays game record: {error}").format(error=problem))
        try:
            if data.get("format", FORMAT) != FORMAT:
                raise RecordError(
                    _("unsupported record format {format}").format(format=repr(data.get("format")))
                )
            # Records written before rules versions existed were played under rules 1.
            options = Options.from_json(dict(data["options"]), rules_if_missing=1)
            if options.rules not in KNOWN_RULES:
                raise RecordError(
                    _(
                        "this game was played under rules version {rules}, which this version of "
                        "tendays does not know; update tendays to replay it"
                    ).format(rules=options.rules)
                )
            return cls(
                edition=str(data["edition"]),
                options=options,
                seed=int(data["seed"]),
                moves=tuple(Move.from_text(m) for m in data["moves"]),
                names=tuple(data.get("names", ())),
            )
        except (KeyError, TypeError, ValueError) as error:
            if isinstance(error, RecordError):
                raise
            raise RecordError(
                _("not a tendays game record: {error}").format(error=error)
            ) from error

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        try:
            return cls.from_json(json_loads(text))
        except json.JSONDecodeError as error:
            raise RecordError(
                _("not a tendays game record: {error}").format(error=error)
            ) from error


class Game:
    """A game with its history: ``play`` pushes a move, ``undo`` pops it. Good for search and UIs.

    With ``keep_states=False`` only the current state is kept (a long-running server holding many
    games needs no more); ``undo`` then replays the game from its start.
    """

    def __init__(
        self,
        edition: str | Edition,
        options: Options,
        seed: int,
        names: tuple[str, ...] = (),
        *,
        keep_states: bool = True,
    ) -> None:
        loaded = load_edition(edition) if isinstance(edition, str) else edition
        self.edition_id = loaded.id
        self.options = options
        self.seed = seed
        self.names = names
        self._edition = loaded
        self._keep_states = keep_states
        self._states = [new_game(loaded, options, seed)]
        self._moves: list[Move] = []

    @classmethod
    def from_record(cls, record: GameRecord, *, keep_states: bool = True) -> Game:
        """The game of ``record`` with its moves played, by the record's own replay
        (:meth:`GameRecord.states`): ``RecordError`` names what does not replay."""
        positions = record._positions(record.moves)
        deal = next(positions)  # options that make no game are refused here, in words
        game = cls(
            record.edition, record.options, record.seed, record.names, keep_states=keep_states
        )
        game._states = [deal]
        for move, state in zip(record.moves, positions, strict=True):
            game._push(move, state)
        return game

    @property
    def state(self) -> State:
        return self._states[-1]

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(self._moves)

    @property
    def move_count(self) -> int:
        """How many moves have been played (cheaper than ``len(game.moves)``)."""
        return len(self._moves)

    def play(self, move: Move | str, player: int | None = None) -> State:
        """Apply a move (or its text); the game is unchanged if it is illegal."""
        if isinstance(move, str):
            move = Move.from_text(move)
        state = apply(self.state, move, player)
        self._push(move, state)
        return state

    def _push(self, move: Move, state: State) -> None:
        """Hold ``move``, played, and the ``state`` it led to."""
        if self._keep_states:
            self._states.append(state)
        else:
            self._states[-1] = state
        self._moves.append(move)

    def undo(self) -> Move:
        """Take back the last move and return it."""
        if not self._moves:
            raise IndexError(_("no move to undo"))
        move = self._moves.pop()
        if self._keep_states:
            self._states.pop()
        else:
            state = new_game(self._edition, self.options, self.seed)
            for earlier in self._moves:
                state = apply(state, earlier)
            self._states[-1] = state
        return move

    @property
    def record(self) -> GameRecord:
        return GameRecord(self.edition_id, self.options, self.seed, tuple(self._moves), self.names)
