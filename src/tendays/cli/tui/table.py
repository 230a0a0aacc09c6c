"""The table of a terminal game: the seats and the game with its history.

This part knows nothing of Textual. The app asks it for views (never the full state), plays moves
for the seat at the keyboard, and asks the engine's turn loop (:func:`tendays.engine.next_decision`)
what a bot seat must decide, with the view and the random stream the bot chooses from. The seats
are read in :mod:`.seats`; save files are written here and read in :mod:`.save_file`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tendays.bots import refusal
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
from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import ngettext

from .save_file import position_digest
from .seats import SeatError, TerminalSeat, parse_seats

__all__ = ["PlayConfig", "Table"]


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
