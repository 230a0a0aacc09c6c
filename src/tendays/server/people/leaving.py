"""An account leaving its seats in games being played, as a person who leaves does: a bot plays each
seat from now on, and in a rated game it is a loss (with two people the game ends at once in the
other's favour). Deleting an account does this with its rated games; an operator's suspension or
closure with every game it sits in."""

from __future__ import annotations

from collections.abc import Iterable

from ..matches.lobby import Lobby
from ..matches.seats import Rejected
from ..vocabulary import MatchStatus

__all__ = ["leave_games"]


async def leave_games(lobby: Lobby, account_id: int, game_ids: Iterable[str]) -> list[str]:
    """The account leaves its seat in each of these games that is being played; the games it left.
    Returns once their results (places, ratings) are written, while the account still names its
    seats."""
    left = []
    for game_id in game_ids:
        match = await lobby.get(game_id)
        if match is None:
            continue
        try:
            seat = match.seat_of_account(account_id)
            if seat is not None and match.status == MatchStatus.PLAYING:
                await match.leave(seat)
                left.append(game_id)
        except Rejected:  # it ended meanwhile: nothing to leave
            pass
        finally:
            lobby.release(match)
    await lobby.results_written()
    return left
