"""The matchmaker: takes a person's seek, pairs it (at once, and again at every short sweep, which
catches the pairs two server processes missed in a race), makes the pair's rated game in the lobby,
and tells each owner their seat."""

from __future__ import annotations

import asyncio
import logging
import time

from tendays.engine import load_edition
from tendays.engine.i18n import gettext as _

from ..matches.lobby import Lobby
from ..matches.seats import LobbyError
from ..settings import Pace
from ..vocabulary import SeatKind
from .ratings import SEEK_LIMITS, START, scale_words
from .seeks import Pairing, Seek, SeekBook, SeekStatus

__all__ = ["Matchmaker"]

log = logging.getLogger("tendays.server")


class Matchmaker:
    """Quick pairing on one server process; any number of processes may share the database."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.journal = lobby.journal
        self.settings = lobby.settings
        self.book = SeekBook(self.journal.store.engine, self.settings.seek_expiry, START.mu)
        self._tasks: set[asyncio.Task[int]] = set()
        self._sweeper: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Sweep for missed pairs and lapsed seeks (needs the running event loop)."""
        self._sweeper = asyncio.create_task(self._sweep_forever(), name="pairing sweep")

    async def close(self) -> None:
        tasks: list[asyncio.Task[None] | asyncio.Task[int]] = [*self._tasks]
        if self._sweeper is not None:
            tasks.append(self._sweeper)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def seek(
        self,
        account_id: int,
        edition: str,
        pace: Pace | None,
        rating_range: tuple[float | None, float | None] = (None, None),
    ) -> Seek:
        """Store a seek and start pairing it; ``ValueError`` (in words) for an edition, pace or
        range that cannot be played."""
        load_edition(edition)
        if pace is not None:
            self.settings.paces.check(pace)
        low, high = rating_range
        for asked in (low, high):
            if asked is not None and not SEEK_LIMITS[0] <= asked <= SEEK_LIMITS[1]:
                raise ValueError(
                    _("a rating of {asked} is not on the scale: {scale}").format(
                        asked=f"{asked:g}", scale=scale_words()
                    )
                )
        if low is not None and high is not None and low > high:
            raise ValueError(
                _("the lowest rating asked for ({low}) is above the highest ({high})").format(
                    # the catalogues' placeholders hold no number formats
                    low=f"{low:g}",
                    high=f"{high:g}",
                )
            )
        seek = await self.journal.run(
            self.book.post, account_id, edition, pace, low, high, time.time()
        )
        task = asyncio.create_task(self._pair(seek.id), name=f"pairing of seek {seek.id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return seek

    async def look(self, seek_id: str, account_id: int) -> Seek | None:
        """The seek, if it is this person's (None for anyone else's, as
        for one that does not exist)."""
        seek = await self.journal.run(self.book.get, seek_id)
        return seek if seek is not None and seek.account_id == account_id else None

    async def cancel(self, seek_id: str, account_id: int) -> Seek | None:
        """Cancel the person's seek if it is still open; the seek as it
        stands after (None: not theirs)."""
        seek = await self.look(seek_id, account_id)
        if seek is None or seek.status != SeekStatus.OPEN:
            return seek
        await self.journal.run(self.book.cancel, seek_id)
        return await self.look(seek_id, account_id)

    async def sweep(self) -> int:
        """Lapse old seeks and pair the open ones that can be; how many pairs were made."""
        made = 0
        for seek_id in await self.journal.run(self.book.sweep, time.time()):
            made += await self._pair(seek_id)
        return made

    async def _pair(self, seek_id: str) -> int:
        pairing = await self.journal.run(self.book.pair, seek_id, time.time())
        if pairing is None:
            return 0
        try:
            game_id, tokens = await self._start(pairing)
        except LobbyError as error:  # the server is full, say: the next sweep tries again
            log.warning(
                "the game of seeks %s and %s could not be made (%s); they wait again",
                pairing.first.id,
                pairing.second.id,
                error.message,
            )
            await self.journal.run(self.book.reopen, pairing)
            return 0
        except Exception:
            log.exception(
                "the game of seeks %s and %s could not be made; they wait again",
                pairing.first.id,
                pairing.second.id,
            )
            await self.journal.run(self.book.reopen, pairing)
            return 0
        if not await self.journal.run(self.book.settle, pairing, game_id, tokens):
            log.warning(
                "game %s was made too late for seeks %s and %s, which wait again; it stays "
                "unplayed until it lapses",
                game_id,
                pairing.first.id,
                pairing.second.id,
            )
            return 0
        log.info(
            "seeks %s and %s paired into game %s", pairing.first.id, pairing.second.id, game_id
        )
        return 1

    async def _start(self, pairing: Pairing) -> tuple[str, dict[str, str]]:
        """The pair's rated game, the older seek's owner in seat 1:
        (game id, seat token by seek id)."""
        first, second = pairing.seeks
        names = await self.journal.run(self.book.names, [first.account_id, second.account_id])
        match, token = await self.lobby.create(
            first.edition,
            [(SeatKind.HUMAN, None), (SeatKind.HUMAN, None)],
            {},
            names[first.account_id],
            first.pace,
            rated=True,
            account_id=first.account_id,
        )
        _match, _seat, other_token = await self.lobby.join(
            match.id, names[second.account_id], account_id=second.account_id
        )
        return match.id, {first.id: token, second.id: other_token}

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.pairing_sweep)
            try:
                await self.sweep()
            except Exception:
                log.exception(
                    "the pairing sweep failed; trying again in %g s", self.settings.pairing_sweep
                )
