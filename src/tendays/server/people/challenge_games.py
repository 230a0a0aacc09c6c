"""The challenges' desk: checks that a challenge asks for a game that can be played, and makes the
game of an accepted one, the challenger in seat 1 and the taker in seat 2, each in their account's
seat (the challenger's seat opens wherever they are signed in: no token is sent to them).

Only the accept that claimed the challenge (:meth:`~.challenges.ChallengeBook.claim`) makes a game;
a game that cannot be made (the server is full) gives the challenge back, open."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tendays.engine import Options, load_edition
from tendays.engine.i18n import gettext as _

from ..matches.lobby import Lobby
from ..matches.seats import LobbyError
from ..settings import Pace
from ..vocabulary import SeatKind
from .accounts import Account, AccountError
from .challenge_types import Challenge, DeclineReason
from .challenges import ChallengeBook

__all__ = ["Acceptance", "ChallengeDesk"]

PLAYERS = 2  # a challenge is a game of two


@dataclass(frozen=True, slots=True)
class Acceptance:
    """An accepted challenge's game, and the taker's seat token in it."""

    challenge: Challenge
    game_id: str
    token: str


class ChallengeDesk:
    """Challenges on one server process; any number of processes may share the database."""

    def __init__(self, lobby: Lobby, clock: Callable[[], float] = time.time) -> None:
        self.lobby = lobby
        self.journal = lobby.journal
        self.book = ChallengeBook(self.journal.store.engine)
        self.clock = clock  # wall-clock seconds: every server process must agree on them

    async def challenge(
        self,
        me: Account,
        to: str | None,
        edition: str,
        options: dict[str, Any],
        pace: Pace | None,
        rated: bool,
    ) -> Challenge:
        """Store and announce a challenge; ``ValueError`` (in words) for a game that cannot be
        played, :class:`AccountError` for a challenge the rules refuse."""
        loaded = load_edition(edition)
        try:
            Options.from_json({**options, "players": PLAYERS}).validate(loaded)
        except TypeError as error:
            raise ValueError(str(error)) from None
        if pace is not None:
            self.lobby.settings.paces.check(pace)
        return await self.journal.run(
            self.book.post,
            me,
            to,
            loaded.id,
            options,
            pace,
            rated,
            self.clock(),
            self.lobby.settings.challenges_per_minute,
        )

    async def get(self, challenge_id: str, reader: int | None) -> Challenge | None:
        """The challenge, if this reader may see it (its people; anyone for an open link)."""
        challenge = await self.journal.run(self.book.get, challenge_id)
        return challenge if challenge is not None and challenge.shown_to(reader) else None

    async def listing(self, account_id: int) -> tuple[list[Challenge], list[Challenge]]:
        return await self.journal.run(self.book.listing, account_id, self.clock())

    async def accept(self, challenge_id: str, me: Account) -> Acceptance:
        """Claim the challenge for ``me`` and make its game; :class:`AccountError` says why not,
        :class:`LobbyError` why the game could not be made (the challenge is open again)."""
        claimed = await self.journal.run(
            self.book.claim, challenge_id, me, self.clock(), self.lobby.settings.bot_games
        )
        try:
            match, _token = await self.lobby.create(
                claimed.edition,
                [(SeatKind.HUMAN, None)] * PLAYERS,
                claimed.options,
                claimed.challenger,
                claimed.pace,
                rated=claimed.rated,
                account_id=claimed.challenger_id,
                bot_account=claimed.challenger_bot,
            )
            _match, _seat, token = await self.lobby.join(
                match.id, me.name, account_id=me.id, bot_account=me.bot
            )
        except (LobbyError, ValueError):
            await self.journal.run(self.book.reopen, claimed, me)
            raise
        if not await self.journal.run(self.book.settle, claimed, match.id, me):
            # an older claim of a process that seemed dead wrote its game after all
            raise AccountError(409, _("this challenge was accepted already"))
        return Acceptance(claimed, match.id, token)

    async def decline(self, challenge_id: str, me: Account, reason: DeclineReason) -> Challenge:
        return await self.journal.run(self.book.decline, challenge_id, me, reason, self.clock())

    async def cancel(self, challenge_id: str, me: Account) -> Challenge:
        return await self.journal.run(self.book.cancel, challenge_id, me, self.clock())
