"""A new game as asked for: the request checked against the rules of creating a game, and the row
the store keeps of it.

A request names an edition, each seat's kind (and bot level), the options, the creator's name and
seat, the seats kept for named people (a rematch, a tournament's table), and whether it is rated.
:meth:`NewGame.checked` refuses it in words (:class:`~tendays.server.matches.seats.LobbyError`:
401, 422) and :meth:`NewGame.stored` writes it down; the lobby (``Lobby.create``) registers it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from tendays import bots
from tendays.engine import Edition, Options, load_edition
from tendays.engine.i18n import gettext as _

from ..settings import Pace, PaceLimits
from ..storage.rows import StoredGame, StoredSeat
from ..vocabulary import SeatKind
from .seating import seat_skeleton
from .seats import LobbyError, Seat
from .wire import stored_bot_name

__all__ = ["NewGame", "seat_holders"]


@dataclass(frozen=True)
class NewGame:
    """A game someone asked for (``Lobby.create`` tells what each field means)."""

    edition: str
    seats: Sequence[tuple[str, str | None]]
    options: dict[str, Any]
    name: str
    pace: Pace | None
    seat: int
    reserved: Sequence[int]
    names: Sequence[str | None]
    rated: bool
    account_id: int | None
    bot_account: bool

    def checked(self, paces: PaceLimits) -> tuple[Edition, Options]:
        """The edition and the options of the game, once every rule of creating one holds;
        :class:`LobbyError` (401, 422) naming the first that does not."""
        try:
            loaded = load_edition(self.edition)
        except ValueError as error:
            raise LobbyError(422, str(error)) from None
        self._check_seats()
        try:
            options = Options.from_json({**self.options, "players": len(self.seats)})
            options.validate(loaded)
            if self.pace is not None:
                paces.check(self.pace)
        except (TypeError, ValueError) as error:
            raise LobbyError(422, str(error)) from None
        for number, (kind, level) in enumerate(self.seats, 1):
            reason = (
                bots.refusal(level, self.edition, options)
                if kind == SeatKind.BOT and level
                else None
            )
            if reason is not None:  # a bot made for some games only (the learned bot)
                raise LobbyError(
                    422, _("seat {number}: {reason}").format(number=number, reason=reason)
                )
        return loaded, options

    def _check_seats(self) -> None:
        """The creator's seat is a person's, a rated game is people's, and every bot is known."""
        seats = self.seats
        if not seats or seats[self.seat][0] != SeatKind.HUMAN:
            raise LobbyError(422, _("seat 1 is yours, so it must be a human seat"))
        if self.rated and self.account_id is None:
            raise LobbyError(
                401, _("sign in first: only signed-in players may create or join a rated game")
            )
        if self.rated and (len(seats) < 2 or any(kind != SeatKind.HUMAN for kind, _level in seats)):
            raise LobbyError(
                422, _("a rated game is for two to four people: every seat must be a human seat")
            )
        # Only the registry's plain names: external engines (``cmd:...``) and budgets run programs
        # or spend the server's time, so only the operator may configure them, never a web request.
        for number, (kind, level) in enumerate(seats, 1):
            if kind == SeatKind.BOT and level not in bots.bot_names():
                raise LobbyError(
                    422,
                    _("seat {number}: unknown bot level '{level}'; choose one of {levels}").format(
                        number=number, level=level, levels=", ".join(bots.bot_names())
                    ),
                )

    def _seat_name(self, index: int, kind: str, level: str | None) -> str | None:
        """The name a seat is created with: the creator's, a bot's, a kept seat's person's."""
        if index == self.seat:
            return self.name
        if kind == SeatKind.BOT:
            return stored_bot_name(level)
        return self.names[index] if index < len(self.names) and index in self.reserved else None

    def stored(
        self,
        game_id: str,
        edition: Edition,
        options: Options,
        seed: int,
        token_hash: str,
        now: float,
    ) -> StoredGame:
        """The row of the new game: the creator in their seat (with ``token_hash``), the other
        people's seats free or kept, the bots in theirs."""
        return StoredGame(
            id=game_id,
            edition=edition.id,
            options=options,
            seed=seed,
            created=datetime.now(UTC),
            last_move_at=now,
            pace=self.pace,
            rated=self.rated,
            seats=[
                StoredSeat(
                    i,
                    kind,
                    level if kind == SeatKind.BOT else None,
                    self._seat_name(i, kind, level),
                    token_hash if i == self.seat else None,
                    reserved=i in self.reserved and i != self.seat,
                    account_id=self.account_id if i == self.seat else None,
                    name_skeleton=seat_skeleton(kind, self._seat_name(i, kind, level)),
                    bot_account=self.bot_account and i == self.seat,
                )
                for i, (kind, level) in enumerate(self.seats)
            ],
        )


def seat_holders(stored: StoredGame) -> list[Seat]:
    """Who holds each seat of a stored game, as the seating rules read them."""
    return [
        Seat(s.seat, s.kind, s.bot, s.name, account_id=s.account_id, bot_account=s.bot_account)
        for s in stored.seats
    ]
