"""The table of a terminal game: the seats, the game with its history, and save files.

This part knows nothing of Textual. The app asks it for views (never the full state), plays moves
for the seat at the keyboard, and asks the engine's turn loop (:func:`tendays.engine.next_decision`)
what a bot seat must decide, with the view and the random stream the bot chooses from.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tendays.bots import BOTS, LEVELS, Bot, bot_names, make_bot, refusal
from tendays.engine import (
    Decision,
    Game,
    GameRecord,
    Move,
    Options,
    PlayerView,
    RecordError,
    State,
    default_edition,
    json_text,
    next_decision,
    view,
)
from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import ngettext, pgettext
from tendays.engine.plain_text import shown, text_problem
from tendays.engine.record import shape_problem
from tendays.engine.wire import view_to_json

from ..record_file import read_record_bytes
from .palettes import PALETTES
from .render import YOU

__all__ = [
    "HUMAN_WORDS",
    "PERSON_PREFIX",
    "PlayConfig",
    "TerminalSeat",
    "SeatError",
    "Table",
    "load_save",
    "make_seat_bot",
    "parse_seats",
    "position_digest",
    "saved_palette",
    "saved_seats_problem",
]

HUMAN_WORDS = ("me", "human", "you")
# "human:Norma": a person called Norma, even when the name looks like a bot's
PERSON_PREFIX = "human:"


class SeatError(ValueError):
    """A ``--players`` list that does not describe the seats of a game."""


def make_seat_bot(spec: str) -> Bot:
    """The bot for a seat spec: a level or bot of the registry (``tendays.bots.bot_names()``),
    or ``cmd:...``."""
    try:
        return make_bot(spec)
    except (ValueError, OSError) as error:
        raise SeatError(_("bot {spec!r}: {error}").format(spec=spec, error=error)) from error


@dataclass
class TerminalSeat:
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
            return _("human")
        if self.spec.startswith("cmd:"):
            return _("engine bot")
        # a bot named directly (greedy, expert:48) keeps its name
        level = LEVELS.get(self.spec.lower())
        # TRANSLATORS: a bot seat's level after its name, "Bot 2 (normal
        # bot)": no brackets of its own.
        return pgettext("seat", "{level} bot").format(
            level=self.spec if level is None else level.said
        )


def _is_bot_spec(word: str) -> bool:
    """Bot specs are the registry's levels and bots, optionally with a budget (``expert:48``), and
    ``cmd:PROGRAM``."""
    return word.lower().partition(":")[0] in bot_names() or word.lower().startswith("cmd:")


def _distance(a: str, b: str) -> int:
    """Edits (insert, delete, change, swap two neighbours) that turn ``a`` into ``b``."""
    rows = [list(range(len(b) + 1))]
    for i, x in enumerate(a, 1):
        row = [i]
        for j, y in enumerate(b, 1):
            row.append(min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (x != y)))
            if i > 1 and j > 1 and x == b[j - 2] and a[i - 2] == y:
                row[j] = min(row[j], rows[-2][j - 2] + 1)
        rows.append(row)
    return rows[-1][-1]


def _misspelt_bot(word: str) -> str | None:
    """The bot name ``word`` is one slip away from ("hrad": "hard"), if any."""
    low = word.lower()
    for name in bot_names():
        slips = 2 if min(len(low), len(name)) >= 6 and abs(len(low) - len(name)) <= 1 else 1
        if len(low) >= 3 and _distance(low, name) <= slips:
            return name
    return None


def _person(word: str, number: int, people: int) -> str:
    """The name of the person a ``--players`` word seats, or SeatError for a
    word that looks like a slip."""
    if word.lower().startswith(PERSON_PREFIX):
        name = word[len(PERSON_PREFIX) :].strip()
        if not name:
            raise SeatError(
                _("{word!r}: write the person's name after {prefix}, e.g. {prefix}Ann").format(
                    word=word, prefix=PERSON_PREFIX
                )
            )
        return name
    if word.lower() in HUMAN_WORDS:
        return YOU if people == 1 else _("Player {number}").format(number=number)
    levels = ", ".join(LEVELS)
    bots = ", ".join(BOTS)
    head, colon, tail = word.partition(":")
    # "Norma" is a name; "norma", a slip
    slip = None if head != head.lower() else _misspelt_bot(head)
    if slip is not None:
        raise SeatError(
            _(
                "{word!r} is not a bot: did you mean {slip!r}? Bot levels: {levels} (bots: "
                "{bots}). For a person called {word}, write {prefix}{word} (or {name})"
            ).format(
                word=word,
                slip=slip + colon + tail,
                levels=levels,
                bots=bots,
                prefix=PERSON_PREFIX,
                name=word.capitalize(),
            )
        )
    if colon:
        raise SeatError(
            _(
                "{word!r} is not a seat: bots are {levels} (levels), {bots}, a budget such as "
                "expert:48, or cmd:PROGRAM; a person is a name, or {prefix}NAME"
            ).format(word=word, levels=levels, bots=bots, prefix=PERSON_PREFIX)
        )
    return word


def parse_seats(text: str, names: Sequence[str] = ()) -> list[TerminalSeat]:
    """Seats from a ``--players`` list such as ``"me,hard,normal"`` or ``"Ann,Bob,easy"``.

    Bot specs are bots (in any case: ``Hard`` is the level); ``me``/``human``/``you``,
    ``human:NAME`` and any other name are people. A lower-case word one slip away from a bot's name
    (``hrad``, ``nromal``) is refused as a likely typo: ``Hrad`` or ``human:hrad`` seats a person of
    that name. ``names`` (from a save file) overrides the names of the seats. A seat that holds a
    control or formatting character (:func:`tendays.engine.plain_text.text_problem`) is refused.
    """
    words = [w.strip() for w in text.split(",")]
    if not text.strip() or any(not w for w in words):
        raise SeatError(
            _(
                "--players {text!r}: give 1 to 4 comma-separated seats, e.g. 'me,hard,normal'"
            ).format(text=text)
        )
    for number, word in enumerate(words, 1):
        problem = text_problem(word, _("seat {number} of --players").format(number=number))
        if problem is not None:
            raise SeatError(problem)
    people = sum(1 for w in words if not _is_bot_spec(w))
    seats: list[TerminalSeat] = []
    used: set[str] = set()
    for number, word in enumerate(words, 1):
        if _is_bot_spec(word):
            spec = word if word.lower().startswith("cmd:") else word.lower()
            seat = TerminalSeat(_("Bot {number}").format(number=number), spec, make_seat_bot(spec))
        else:
            name = _person(word, number, people)
            if name in used:
                raise SeatError(
                    _("two seats are called {name!r}; give each person a different name").format(
                        name=name
                    )
                )
            seat = TerminalSeat(name, "human")
        used.add(seat.name)
        seats.append(seat)
    for seat, name in zip(seats, names, strict=False):
        seat.name = shown(name)  # read from a save file: checked there, made safe here
    return seats


@dataclass(frozen=True)
class PlayConfig:
    """Everything needed to start (or restart) a terminal game."""

    edition: str = field(default_factory=default_edition)
    players: str = "me,normal,normal"
    days: int = 10
    swap: bool = False
    # the seat that takes the first turn (0-based); None: chosen by chance
    first_seat: int | None = None
    seed: int | None = None  # None: a fresh random seed for every game
    bot_delay: float = 0.6  # seconds between bot moves, so a person can follow them
    save_path: Path = Path("tendays-save.json")
    # the tile colours: the edition's palette, or "cb" for colour-blind players
    palette: str = "normal"

    def seat_list(self, names: Sequence[str] = ()) -> list[TerminalSeat]:
        return parse_seats(self.players, names)

    def options(self) -> Options:
        return Options(
            players=len(self.players.split(",")),
            days=self.days,
            swap=self.swap,
            first_seat=self.first_seat,
        )


class Table:
    """A game in progress with its seats. Everything shown on screen comes from :meth:`view_for`."""

    def __init__(
        self,
        edition: str,
        options: Options,
        seed: int,
        seats: Sequence[TerminalSeat],
        moves: Sequence[Move] = (),
    ) -> None:
        if len(seats) != options.players:
            raise SeatError(
                ngettext(
                    "the game has {seats} seats, but {players} player was given",
                    "the game has {seats} seats, but {players} players were given",
                    len(seats),
                ).format(seats=options.players, players=len(seats))
            )
        for seat in seats:
            reason = None if seat.is_human else refusal(seat.spec, edition, options)
            if reason is not None:
                raise SeatError(_("bot {spec!r}: {error}").format(spec=seat.spec, error=reason))
        self.seats = list(seats)
        # The engine refuses options the edition cannot play (ValueError, in the game's words).
        self._game = Game(edition, options, seed, tuple(s.name for s in seats))
        for move in moves:
            self._game.play(move)
        self.saved_at = len(moves)  # a resumed game counts as saved until its next move
        # the files that hold this game (resumed from, saved to): safe to overwrite
        self.own_files: set[Path] = set()
        self.saved_to: Path | None = None

    @classmethod
    def from_record(cls, record: GameRecord, seats: Sequence[TerminalSeat]) -> Table:
        try:
            return cls(record.edition, record.options, record.seed, seats, record.moves)
        except SeatError:
            raise  # the seats given do not fit the game: the record itself is sound
        except ValueError as error:  # IllegalMoveError included: a move that does not replay
            raise RecordError(
                _("the saved game does not replay: {error}").format(error=error)
            ) from error

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

    @property
    def unsaved(self) -> bool:
        """True when the game has moves since it was last saved (or dealt, or resumed)."""
        return self.move_count != self.saved_at

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
        """What the seat to move must decide: its seat, its view and its random stream (None once
        over).

        The stream comes from the engine's turn loop, so a bot chooses as it would in any other
        front end and a resumed game continues as the uninterrupted one would have.
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

    def save_target(self, wanted: Path) -> Path:
        """Where saving to ``wanted`` writes: ``wanted`` when it is free or holds this game; else
        the file this game was already saved to, or a new name beside it (``tendays-save-2.json``),
        so another game's save is never overwritten."""
        if not wanted.exists() or wanted.resolve() in self.own_files:
            return wanted
        if self.saved_to is not None:
            return self.saved_to
        number = 2
        while (other := wanted.with_name(f"{wanted.stem}-{number}{wanted.suffix}")).exists():
            number += 1
        return other

    def save(self, path: Path, palette: str = "normal") -> None:
        """Write the game record, plus each seat's spec so a resumed game seats the same bots, the
        fingerprint of the position its moves lead to, so an edited file is refused rather than
        replayed as another game, and the ``palette`` the game is drawn in."""
        data: dict[str, Any] = self.record.to_json()
        data["seats"] = [s.spec for s in self.seats]
        data["position"] = position_digest(self._game.state)
        data["palette"] = palette
        path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", "utf-8")
        self.saved_at = self.move_count
        self.saved_to = path
        self.own_files.add(path.resolve())


def saved_seats_problem(specs: Sequence[str]) -> str | None:
    """What is wrong with the seat specs a save file holds, in words; None when each is a person
    (``human``, as :meth:`Table.save` writes one) or a bot of the registry. A name that is neither
    (a bot of another version, a typo in an edited file) is refused rather than seated as a person.
    """
    for number, spec in enumerate(specs, 1):
        word = spec.strip().lower()
        if word in HUMAN_WORDS or word.startswith(PERSON_PREFIX) or _is_bot_spec(word):
            continue
        return _(
            "the save file seats {spec!r} at seat {number}, which is neither a person ('human') "
            "nor a bot ({levels}); give the seats with --players to resume it"
        ).format(spec=spec, number=number, levels=", ".join(bot_names()))
    return None


def position_digest(state: State) -> str:
    """A short fingerprint of a position: every seat's view of it
    (racks, piles, history), hashed."""
    views = [view_to_json(view(state, seat)) for seat in range(state.options.players)]
    return hashlib.sha256(json.dumps(views, sort_keys=True).encode()).hexdigest()[:16]


def _shape_problem(data: object) -> str | None:
    """What keeps ``data`` from being a save file's JSON object, in words; None if it has the
    right shape: a game record's (:func:`tendays.engine.record.shape_problem`) and the save's own
    fields."""
    problem = shape_problem(data)
    if problem is not None or not isinstance(data, dict):
        return problem
    seats = data.get("seats", [])
    checks = [
        (
            "seats",
            isinstance(seats, list) and all(isinstance(n, str) for n in seats),
            _("a list of seat specs"),
        ),
        ("position", isinstance(data.get("position", ""), str), _("a fingerprint")),
        ("palette", data.get("palette", PALETTES[0]) in PALETTES, " or ".join(map(repr, PALETTES))),
    ]
    for key, right, what in checks:
        if not right:
            return _("{key!r} must be {what}, not {value}").format(
                key=key, what=what, value=json.dumps(data[key])[:40]
            )
    # a seat spec without a saved name becomes the seat's name
    for number, spec in enumerate(seats, 1):
        problem = text_problem(spec, _("seat {number}").format(number=number))
        if problem is not None:
            return problem
    return None


def load_save(path: Path) -> tuple[GameRecord, list[str] | None]:
    """Read a save file (or any game record): the record and, if present, the seat specs.

    Anything that is not a record that replays is refused with a ``RecordError`` naming the problem:
    a file that is not UTF-8 JSON, JSON of the wrong shape, options that make no game, a move that
    does not replay, or a saved position the moves no longer lead to (an edited edition or seed).
    """
    raw = read_record_bytes(path)
    path = Path(shown(str(path)))  # as the refusals below name it
    try:
        data = json_text.loads(raw.decode("utf-8"))
    except json_text.NumberTooLongError as error:
        raise RecordError(
            _("{path} is not a tendays game record: it holds {error}").format(
                path=path, error=error
            )
        ) from None
    except UnicodeDecodeError:
        raise RecordError(
            _("{path} is not a tendays game record: it is not UTF-8 text").format(path=path)
        ) from None
    except json.JSONDecodeError as error:
        raise RecordError(
            _("{path} is not a tendays game record: not JSON ({error})").format(
                path=path, error=error
            )
        ) from None
    problem = _shape_problem(data)
    if problem is not None:
        raise RecordError(
            _("{path} is not a tendays game record: {problem}").format(path=path, problem=problem)
        )
    try:
        record = GameRecord.from_json(data)
        state = record.replay()
    except RecordError as error:
        raise RecordError(f"{path}: {error}") from None
    if len(record.names) not in (0, record.options.players):
        raise RecordError(
            _("{path}: the record names {names} players for a game of {players}").format(
                path=path, names=len(record.names), players=record.options.players
            )
        )
    if "position" in data and data["position"] != position_digest(state):
        raise RecordError(
            _(
                "{path}: the moves no longer lead to the game that was saved (its edition, options "
                "or seed were changed); it is refused rather than replayed as another game"
            ).format(path=path)
        )
    return record, data.get("seats")


def saved_palette(path: Path) -> str | None:
    """The palette a save file was drawn in, or None when it names none (an
    older save, any game record)."""
    try:
        data = json_text.loads(read_record_bytes(path).decode("utf-8"))
    except (RecordError, ValueError):
        return None
    palette = data.get("palette") if isinstance(data, dict) else None
    return palette if palette in PALETTES else None
