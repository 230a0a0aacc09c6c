"""When a game ends: its seats' places are written and, for a rated game, its people's ratings move.

The lobby knows nothing of people, so the face installs :func:`results_hook` as the lobby's
``on_finished``; every process that sees a game end calls it, and :func:`~.ratings.rate_game` makes
sure that only the first call counts; then each process tells the table (and its watchers) what the
result did to ratings (counted, capped or aborted). :func:`catch_up` rates, at start-up, the rated
games that ended while no process was left to rate them (killed between the last move and the
rating).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine

from ..matches.lobby import Lobby
from ..matches.master import Match
from ..matches.seats import LobbyError
from ..storage.journal import Journal
from ..storage.schema import GameTable, SeatTable
from .rated_rules import stored_outcome
from .ratings import places, rate_game

__all__ = ["CATCH_UP_DAYS", "catch_up", "results_hook"]

log = logging.getLogger("tendays.server")

#: How far back :func:`catch_up` looks for rated games left unrated.
CATCH_UP_DAYS = 7


def results_hook(journal: Journal) -> Callable[[Match], Coroutine[Any, Any, None]]:
    """The lobby's ``on_finished``: write the places of a game that
    ended, and rate it once if rated."""

    async def record(match: Match) -> None:
        seat_places = places(match)
        if seat_places is None:
            return
        try:
            if await journal.run(rate_game, journal.store.engine, match.id, seat_places):
                log.info(
                    "game %s: places %s written%s",
                    match.id,
                    seat_places,
                    ", rated" if match.rated else "",
                )
        except Exception:  # the game stays unrated until the next start's catch_up
            log.exception("game %s: its places and ratings could not be written", match.id)
            return
        if match.rated:
            await _tell_outcome(journal, match)

    return record


async def _tell_outcome(journal: Journal, match: Match) -> None:
    """Show the table what its rated result did (decided here or by another process)."""
    try:
        outcome = await journal.run(stored_outcome, journal.store.engine, match.id)
    except Exception:  # only the table's word on it is lost; the profile says it
        log.exception("game %s: its rated outcome could not be read", match.id)
        return
    if outcome is not None and outcome != match.rated_outcome:
        match.rated_outcome = outcome
        match.publish()


def _unrated(engine: Engine, since: float) -> list[str]:
    """Rated games that ended after ``since`` with their places not written."""
    with engine.connect() as db:
        return list(
            db.scalars(
                select(GameTable.id)
                .join(SeatTable, SeatTable.game_id == GameTable.id)
                .where(
                    GameTable.finished.is_(True),
                    GameTable.finished_at > since,
                    GameTable.rated.is_(True),
                    SeatTable.seat == 0,
                    SeatTable.place.is_(None),
                )
            )
        )


async def catch_up(lobby: Lobby) -> int:
    """Rate the rated games of the last :data:`CATCH_UP_DAYS` days that
    ended unrated; how many were."""
    journal = lobby.journal
    since = time.time() - CATCH_UP_DAYS * 86400
    done = 0
    for game_id in await journal.run(_unrated, journal.store.engine, since):
        try:
            match = await lobby.get(game_id)
        except LobbyError:
            continue
        if match is None:
            continue
        try:
            seat_places = places(match)
            if seat_places is not None and await journal.run(
                rate_game, journal.store.engine, game_id, seat_places
            ):
                done += 1
        finally:
            lobby.release(match)
    return done
