"""What the operator decides about the tables: bot pacing, the game cap, clocks, timeouts, chat, expiry."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

from .timing import PaceLimits

__all__ = ["MasterSettings"]


@dataclass
class MasterSettings:
    """How matches behave. Tests use ``bot_delay=0``."""

    bot_delay: float = 0.8  # seconds before a bot's turn, so people can follow it
    draft_delay: float = 0.2  # seconds before a bot's draft move (the draft has many small moves)
    # Worker processes where bots think (0: on threads of the server process).
    bot_processes: int = field(default_factory=lambda: min(4, max(1, (os.cpu_count() or 2) - 1)))
    max_games: int = 10_000  # unfinished games held at once; beyond it, creating a game is refused
    seed_source: Callable[[], int] = field(default=lambda: secrets.randbits(62))
    paces: PaceLimits = field(default_factory=PaceLimits)  # what a game's clock may be
    stand_in: str = "normal"  # the bot that plays a person's turn when their time runs out
    timeouts_to_bot: int = 3  # turns in a row on the clock before the seat is handed to the bot
    chat_length: int = 300  # characters in a chat message
    chat_lines: int = 5  # chat messages a seat may send ...
    chat_window: float = 15.0  # ... in this many seconds
    idle_expiry: float = 14 * 86400.0  # an unfinished game with no move for this long is closed as abandoned
    retention: float | None = 90 * 86400.0  # an ended game is deleted this long after; None: kept forever
    sweep_every: float = 60.0  # seconds between looks for games to expire or delete
    # Several processes on PostgreSQL (tendays.server.cluster): a game whose driving process went away is
    # taken over once its lease runs out, within ``lease_ttl`` plus one ``lease_renew``.
    lease_ttl: float = 10.0
    lease_batch: int = 1000  # games one process takes over at one look

    @property
    def lease_renew(self) -> float:
        """Seconds between renewals (and looks for games to take over): a third of the lease."""
        return self.lease_ttl / 3
