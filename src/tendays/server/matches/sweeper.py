"""The sweeper: closes games nobody moved in for too long and deletes ended ones past their
retention, at start-up and then every ``sweep_every`` seconds (as lila's ``Titivate`` tidies
rounds).

The store decides which games go (one statement each, so processes sharing the database never close
a game twice); the sweeper then ends or lets go of the ones this process holds.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import MutableMapping
from typing import TYPE_CHECKING

from ..settings import MasterSettings
from ..storage.journal import Journal
from ..vocabulary import EndReason
from .notices import N_

if TYPE_CHECKING:
    from .master import Match

__all__ = ["Sweeper"]

log = logging.getLogger("tendays.server")


class Sweeper:
    """Expires idle games and purges old ended ones among ``matches`` (the lobby's)."""

    def __init__(
        self, journal: Journal, settings: MasterSettings, matches: MutableMapping[str, Match]
    ) -> None:
        self._journal = journal
        self._settings = settings
        self._matches = matches
        self._task: asyncio.Task[None] | None = None

    def expire_and_purge(self) -> tuple[list[str], list[str]]:
        """(ids closed as abandoned, ids deleted) in the store, now (the
        database thread, or at start-up)."""
        now, store = time.time(), self._journal.store
        expired = store.expire_idle(now - self._settings.idle_expiry, now)
        retention = self._settings.retention
        deleted = store.purge_finished(now - retention) if retention is not None else []
        if expired or deleted:
            log.info(
                "%d idle game(s) closed as abandoned, %d ended game(s) deleted",
                len(expired),
                len(deleted),
            )
        return expired, deleted

    async def sweep(self) -> tuple[int, int]:
        """Close idle games as abandoned and delete ended ones past their
        retention; (closed, deleted)."""
        expired, deleted = await self._journal.run(self.expire_and_purge)
        for game_id in expired:
            match = self._matches.get(game_id)
            if match is not None:
                await match.end(
                    EndReason.ABANDONED,
                    N_("nobody moved for too long: the game was closed as abandoned"),
                )
        for game_id in deleted:
            match = self._matches.pop(game_id, None)
            if match is not None:
                await match.close()
        return len(expired), len(deleted)

    def start(self) -> None:
        """Sweep every ``sweep_every`` seconds from now on (needs the running event loop)."""
        self._task = asyncio.create_task(self._sweep_forever(), name="expiry of idle games")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self._settings.sweep_every)
            try:
                await self.sweep()
            except Exception:
                log.exception(
                    "expiring idle games failed; trying again in %g s", self._settings.sweep_every
                )
