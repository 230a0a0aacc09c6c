"""The table of a terminal game: the seats, the game with its history, and save files.

This part knows nothing of Textual. The app asks it for views (never the full state), plays moves
for the seat at the keyboard, and asks the engine's turn loop (:func:`tendays.engine.next_decision`)
what a bot seat must decide, with the view and the random stream the bot chooses from.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tendays.bots import Bot, bot_names, make_bot
from tendays.engine import (
    Decision,
    Game,
    GameRecord,
    Move,
    Options,
    PlayerView,
    RecordError,
    default_edition,
    next_decision,
    view,
)

__all__ = ["HUMAN_WORDS", "PlayConfig", "Seat", "SeatError", "Table", "load_save", "make_seat_bot", "parse_seats"]

HUMAN_WORDS = ("me", "human", "you")


class SeatError(ValueError):
    """A ``--players`` list that does not describe the seats of a game."""


def make_seat_bot(spec: str) -> Bot:
    """The bot for a seat spec: a level or bot of the registry (``tendays.bots.bot_names()``), or ``cmd:...``."""
    try:
        return make_bot(spec)
    except (ValueError, OSError) as error:
        raise SeatError(f"bot {spec!r}: {error}") from error


@dataclass
class Seat:
    """One seat at the table: a person at the keyboard or a bot."""

    name: str
    spec: str  # "human", or the bot spec it was made from
    bot: Bot | None = field(default=None, repr=False)

    @property
    def is_human(self) -> bool:
        return self.bot is None

    @property
    def level(self) -> str:
        """How the seat is described to players: "human", "hard bot", "engine bot"."""
        if self.bot is None:
            return "human"
        if self.spec.startswith("cmd:"):
            return "engine bot"
        return f"{self.spec} bot"


def _is_bot_spec(word: str) -> bool:
    """Bot specs are the registry's levels and bots, optionally with a budget (``expert:48``), and ``cmd:PROGRAM``."""
    return word.lower().partition(":")[0] in bot_names() or word.lower().startswith("cmd:")


def parse_seats(text: str, names: Sequence[str] = ()) -> list[Seat]:
    """Seats from a ``--players`` list such as ``"me,hard,normal"`` or ``"Ann,Bob,easy"``.

    ``me``/``human``/``you`` and any other word that is not a bot spec are people; bot specs are
    bots. ``names`` (from a save file) overrides the names of the seats.
    """
    words = [w.strip() for w in text.split(",")]
    if not text.strip() or any(not w for w in words):
        raise SeatError(f"--players {text!r}: give 1 to 4 comma-separated seats, e.g. 'me,hard,normal'")
    humans = sum(1 for w in words if not _is_bot_spec(w))
    seats: list[Seat] = []
    used: set[str] = set()
    for number, word in enumerate(words, 1):
        if _is_bot_spec(word):
            spec = word if word.lower().startswith("cmd:") else word.lower()
            seat = Seat(f"Bot {number}", spec, make_seat_bot(spec))
        else:
            name = word
            if word.lower() in HUMAN_WORDS:
                name = "You" if humans == 1 else f"Player {number}"
            if name in used:
                raise SeatError(f"two seats are called {name!r}; give each person a different name")
            seat = Seat(name, "human")
        used.add(seat.name)
        seats.append(seat)
    for seat, name in zip(seats, names, strict=False):
        seat.name = name
    return seats


@dataclass(frozen=True)
class PlayConfig:
    """Everything needed to start (or restart) a terminal game."""

    edition: str = field(default_factory=default_edition)
    players: str = "me,normal,normal"
    days: int = 10
    swap: bool = False
    first_seat: int | None = None  # the seat that takes the first turn (0-based); None: chosen by chance
    seed: int | None = None  # None: a fresh random seed for every game
    bot_delay: float = 0.6  # seconds between bot moves, so a person can follow them
    save_path: Path = Path("tendays-save.json")

    def seat_list(self, names: Sequence[str] = ()) -> list[Seat]:
        return parse_seats(self.players, names)

    def options(self) -> Options:
        return Options(players=len(self.players.split(",")), days=self.days, swap=self.swap,
                       first_seat=self.first_seat)


class Table:
    """A game in progress with its seats. Everything shown on screen comes from :meth:`view_for`."""

    def __init__(self, edition: str, options: Options, seed: int, seats: Sequence[Seat],
                 moves: Sequence[Move] = ()) -> None:
        if len(seats) != options.players:
            raise SeatError(f"the game has {options.players} seats, but {len(seats)} players were given")
        self.seats = list(seats)
        # The engine refuses options the edition cannot play (ValueError, in the game's words).
        self._game = Game(edition, options, seed, tuple(s.name for s in seats))
        for move in moves:
            self._game.play(move)

    @classmethod
    def from_record(cls, record: GameRecord, seats: Sequence[Seat]) -> Table:
        try:
            return cls(record.edition, record.options, record.seed, seats, record.moves)
        except ValueError as error:  # IllegalMoveError included: a move that does not replay
            raise RecordError(f"the saved game does not replay: {error}") from error

    @property
    def edition(self) -> str:
        return self._game.edition_id

    @property
    def options(self) -> Options:
        return self._game.options

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats)

    @property
    def current(self) -> int:
        """The seat to move (the winner's seat once the game is over)."""
        return self._game.state.current

    @property
    def is_over(self) -> bool:
        return self._game.state.is_over

    @property
    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.is_human]

    @property
    def hot_seat(self) -> bool:
        """Several people share the keyboard: their racks must be hidden from each other."""
        return len(self.humans) > 1

    @property
    def move_count(self) -> int:
        return self._game.move_count

    def viewer(self, unlocked: int | None) -> int | None:
        """Whose view may be on screen: the person at the keyboard, or None (a spectator's view).

        ``unlocked`` is, when people share the keyboard, the one who said nobody else is looking.
        """
        if self.is_over:
            return None
        current = self.current
        if self.seats[current].is_human:
            return current if not self.hot_seat or unlocked == current else None
        if self.hot_seat or not self.humans:
            return None  # between two people's turns nobody's rack stays on screen
        return self.humans[0]

    def view_for(self, seat: int | None) -> PlayerView:
        """What ``seat`` may see (``None``: a spectator, who sees no rack until the game ends)."""
        return view(self._game.state, seat)

    def play(self, move: Move, seat: int) -> None:
        """Play ``move`` for ``seat``; raises the engine's ``IllegalMoveError`` naming the rule."""
        self._game.play(move, seat)

    def next_decision(self) -> Decision | None:
        """What the seat to move must decide: its seat, its view and its random stream (None once over).

        The stream comes from the engine's turn loop, so a bot chooses as it would in any other front end
        and a resumed game continues as the uninterrupted one would have.
        """
        return next_decision(self._game)

    @property
    def record(self) -> GameRecord:
        return self._game.record

    def close(self) -> None:
        """Stop the bots that run as programs (``cmd:`` seats); the others have nothing to stop."""
        for seat in self.seats:
            close = getattr(seat.bot, "close", None)
            if close is not None:
                close()

    def save(self, path: Path) -> None:
        """Write the game record, plus each seat's spec so a resumed game seats the same bots."""
        data: dict[str, Any] = self.record.to_json()
        data["seats"] = [s.spec for s in self.seats]
        path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", "utf-8")


def load_save(path: Path) -> tuple[GameRecord, list[str] | None]:
    """Read a save file (or any game record): the record and, if present, the seat specs."""
    try:
        text = path.read_text("utf-8")
    except OSError as error:
        raise RecordError(f"cannot read {path}: {error.strerror or error}") from error
    record = GameRecord.loads(text)
    specs = json.loads(text).get("seats")
    if specs is not None and (not isinstance(specs, list) or not all(isinstance(s, str) for s in specs)):
        raise RecordError(f"{path}: 'seats' must be a list of seat specs")
    return record, specs
