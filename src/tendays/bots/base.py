"""The bot protocol: a bot chooses a move from a player's view, given a seeded RNG.

Bots never see the full state, only ``tendays.engine.view(state, player)``. The same bots serve the
terminal, the web server, the simulator and the RL environments.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from tendays.engine import Move, PlayerView

__all__ = ["Bot", "RandomBot"]


@runtime_checkable
class Bot(Protocol):
    """A computer player. ``choose`` is called only when ``view.legal_moves()`` is non-empty."""

    name: str

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        """Pick one of ``view.legal_moves()``."""
        ...


class RandomBot:
    """Plays a uniformly random legal move."""

    name = "random"

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        return rng.choice(view.legal_moves())
