"""The tournament director: every server process runs one. It holds the leases of the tournaments
it runs (as the lobby holds games': :mod:`~tendays.server.storage.cluster`), takes over those whose
process went away, and steps each one about once a second (:mod:`~.tournament_running`), and at
once when a game ends here; it makes the games of the tables it paired in the lobby, with the
entrants' accounts in their seats (their seats open wherever they are signed in) and the event's
pace, and the operator's series' next events. It gives its leases back when the process stops.

Between two steps of an event it keeps what the last step left (the closed tables and the arena's
scores), so a step reads only what changed; it reads the event whole again when it takes the event
(a new epoch) and after a step that failed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from ..matches.lobby import Lobby
from ..matches.master import Match
from ..matches.seats import LobbyError
from ..vocabulary import SeatKind
from .tournament_leases import anything_to_run
from .tournament_running import (
    LostLease,
    TableToMake,
    advance,
    claim,
    not_due,
    release,
    renew,
)
from .tournament_spec import EventSpec, TournamentStatus
from .tournament_state import EventState
from .tournaments import make_series_events

__all__ = ["Director"]

log = logging.getLogger("tendays.server")


class Director:
    """Runs the tournaments this process holds the lease of."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.journal = lobby.journal
        self.settings = lobby.settings
        self.engine = self.journal.store.engine
        self.owner = self.journal.store.owner
        self.held: dict[int, int] = {}  # tournament id: lease epoch
        # tournament id: (epoch, the event as this process's last step there left it), so a step
        # reads only what changed (tournament_state.read_state); dropped when a step fails
        self.kept: dict[int, tuple[int, EventState]] = {}
        self._renew_at = 0.0  # monotonic: when the leases are renewed next
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    def watch_games(self) -> None:
        """Be woken when a game ends here (after the lobby's ``on_finished`` wrote its places)."""
        told = self.lobby.on_finished

        async def finished(match: Match) -> None:
            if told is not None:
                await told(match)
            self._wake.set()

        self.lobby.on_finished = finished

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="tournament director")

    def wake(self) -> None:
        self._wake.set()

    async def close(self) -> None:
        """Stop, and give the leases back so another process runs the tournaments at once."""
        # the flag as well as the cancel: a cancel that comes as a wake does can be lost in the wait
        self._stopping = True
        self._wake.set()
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        with contextlib.suppress(Exception):  # the database is gone: the leases run out
            await self.journal.run(release, self.engine, self.owner)

    async def _run(self) -> None:
        while not self._stopping:
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the tournament director failed; trying again")
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.settings.tournament_tick):
                    await self._wake.wait()

    async def tick(self) -> None:
        """One look at every tournament: renew and take leases, make the series' next events, step
        each held tournament, and make the games of its new tables."""
        ttl, run = self.settings.lease_ttl, self.journal.run
        if not self.held and not await self.journal.read(anything_to_run, self.engine):
            return  # most looks of most processes: no tournament, no series
        await run(make_series_events, self.engine, time.time())
        if time.monotonic() >= self._renew_at:  # a third of the lease, as games' leases
            self._renew_at = time.monotonic() + self.settings.lease_renew
            self.held = await run(renew, self.engine, self.owner, ttl, time.time())
            self.kept = {i: kept for i, kept in self.kept.items() if i in self.held}
        taken = await run(claim, self.engine, self.owner, ttl, time.time())
        if taken:
            log.info("running %d tournament(s) whose process went away or stopped", len(taken))
        self.held.update(taken)
        for tournament_id in taken:  # a new epoch: read it all again
            self.kept.pop(tournament_id, None)
        resting = await self.journal.read(not_due, self.engine, list(self.held), time.time())
        for tournament_id, epoch in sorted(self.held.items()):
            if tournament_id in resting:
                continue
            memory = self.kept.pop(tournament_id, None)
            kept = memory[1] if memory is not None and memory[0] == epoch else None
            try:
                step = await run(
                    advance, self.engine, tournament_id, self.owner, epoch, time.time(), kept
                )
            except LostLease:
                self.held.pop(tournament_id, None)
                continue
            except Exception:
                log.exception("tournament %d could not be moved on", tournament_id)
                continue
            if step.status is not TournamentStatus.FINISHED:
                self.kept[tournament_id] = (epoch, step.state)
            for table in step.to_make:
                await self._make(step.spec, table)

    async def _make(self, spec: EventSpec, table: TableToMake) -> None:
        """Make a paired table's game (under its planned id) and seat its people in it."""
        entrants = table.entrants
        people = [i for i, e in enumerate(entrants) if e.bot is None]
        if not people:
            return
        unseated = list(table.unseated)
        if not table.exists:
            first = people[0]
            try:
                await self.lobby.create(
                    spec.edition,
                    [
                        (SeatKind.HUMAN, None) if e.bot is None else (SeatKind.BOT, e.bot)
                        for e in entrants
                    ],
                    spec.options,
                    entrants[first].name,
                    spec.clock,
                    seat=first,
                    reserved=people[1:],
                    names=[e.name for e in entrants],
                    rated=spec.rated and all(e.bot is None for e in entrants),
                    account_id=entrants[first].account_id,
                    game_id=table.game_id,
                    bot_account=entrants[first].bot_account,
                )
            except Exception as error:  # made meanwhile elsewhere, or the server is full: again
                log.warning("tournament game %s could not be made now: %s", table.game_id, error)
                return
            unseated = people[1:]
        if not unseated:
            return
        match = await self.lobby.get(table.game_id)
        if match is None:
            return
        try:
            for seat in unseated:
                entrant = entrants[seat]
                if match.seats[seat].taken:
                    continue
                await match.join(entrant.name, seat, entrant.account_id, entrant.bot_account)
        except LobbyError as error:
            log.warning(
                "tournament game %s: a seat could not be taken: %s", match.id, error.message
            )
        finally:
            self.lobby.release(match)
