"""The rematcher: the same seats and options again, once a game is over (as lila's
``Rematcher``).

The first player to ask creates the new game, with every other person's seat kept for them; the
others who ask take their kept seat. The finished game's table is told of the offer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from tendays.engine.i18n import gettext as _

from ..vocabulary import MatchStatus, RejectionCode, SeatKind
from .new_games import NewGame
from .seats import LobbyError, Rejected

if TYPE_CHECKING:
    from .master import Match

__all__ = ["Rematcher"]


class GameMaker(Protocol):
    """What the rematcher asks of the lobby: find a game, let go of it, create one."""

    async def get(self, game_id: str) -> Match | None: ...

    def release(self, match: Match) -> None: ...

    async def create_game(
        self, request: NewGame, game_id: str | None = None
    ) -> tuple[Match, str]: ...


class Rematcher:
    """Offers and takes rematches of the games of one lobby."""

    def __init__(self, maker: GameMaker) -> None:
        self._maker = maker

    async def rematch(self, match: Match, seat: int) -> tuple[Match, str]:
        """The same seats and options again, for the player at ``seat`` of a finished game: the
        first to ask creates the game, and every other person's seat is kept for them. Returns
        (match, token)."""
        if match.status != MatchStatus.OVER:
            raise Rejected(
                RejectionCode.ILLEGAL, _("a rematch can be offered once the game is over")
            )
        if match.seats[seat].left:
            raise Rejected(
                RejectionCode.FORBIDDEN,
                _("you left this game, so you cannot offer a rematch of it"),
            )
        name = match.seats[seat].display_name
        if match.rematch is not None:
            return await self._take_kept_seat(match, match.rematch, seat, name)
        return await self._offer(match, seat, name)

    async def _take_kept_seat(
        self, match: Match, rematch_id: str, seat: int, name: str
    ) -> tuple[Match, str]:
        """The seat kept for ``seat`` (``name``) in the rematch another player created."""
        gone = _("the rematch has already started or ended without you")
        again = await self._maker.get(rematch_id)
        if again is None:
            raise Rejected(RejectionCode.ILLEGAL, gone)
        try:
            if again.status != MatchStatus.WAITING or again.seats[seat].taken:
                raise Rejected(RejectionCode.ILLEGAL, gone)
            mine = match.seats[seat]
            _taken, token = await again.join(name, seat, mine.account_id, mine.bot_account)
        finally:
            self._maker.release(again)
        return again, token

    async def _offer(self, match: Match, seat: int, name: str) -> tuple[Match, str]:
        """Create the rematch for ``seat`` (``name``), keep the other people's seats, and tell the
        table."""
        mine = match.seats[seat]
        kinds = [
            (SeatKind.BOT, s.bot) if s.kind == SeatKind.BOT else (SeatKind.HUMAN, None)
            for s in match.seats
        ]
        kept = [
            s.index
            for s in match.seats
            if s.kind == SeatKind.HUMAN and not s.left and s.index != seat
        ]
        options = {
            k: v for k, v in match.options.to_json().items() if k not in ("players", "rules")
        }
        pace = match.clock.pace if match.clock is not None else None
        try:
            again, token = await self._maker.create_game(
                NewGame(
                    match.edition.id,
                    kinds,
                    options,
                    name,
                    pace,
                    seat,
                    kept,
                    [s.name for s in match.seats],
                    rated=False,
                    account_id=mine.account_id,
                    bot_account=mine.bot_account,
                )
            )
        except LobbyError as error:
            raise Rejected(RejectionCode.UNAVAILABLE, error.message) from None
        await match.offer_rematch(again.id, name)
        return again, token
