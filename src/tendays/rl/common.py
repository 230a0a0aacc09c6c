"""Settings shared by the PettingZoo and Gymnasium environments, and their one form of action mask."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from tendays.engine import ActionCodec, Move, Options, State

__all__ = ["DEFAULT_TURNS_PER_PLAYER", "Rewards", "action_mask", "env_options"]

# Every episode must end: without a limit, bots that never complete a journey would play forever.
DEFAULT_TURNS_PER_PLAYER = 100


@dataclass(frozen=True, slots=True)
class Rewards:
    """The reward of each ending, given once, when the game ends.

    ``illegal`` goes to a player whose action is not legal now; that ends the episode (the other
    players get 0), so an agent that ignores the action mask is told at once and cannot loop.
    """

    win: float = 1.0
    loss: float = -1.0
    draw: float = 0.0  # nobody won: the turn limit was reached
    illegal: float = -1.0

    def final(self, state: State, seat: int) -> float:
        """The reward of ``seat`` in a finished game."""
        if state.winner is None:
            return self.draw
        return self.win if state.winner == seat else self.loss


def env_options(players: int, days: int, swap: bool, open_hands: bool, turn_limit: int | None) -> Options:
    """The rule options of an environment; ``turn_limit`` None means 100 turns per player."""
    limit = DEFAULT_TURNS_PER_PLAYER * players if turn_limit is None else turn_limit
    return Options(players=players, days=days, swap=swap, open_hands=open_hands, turn_limit=limit)


def action_mask(codec: ActionCodec, moves: Iterable[Move]) -> np.ndarray:
    """The engine's mask of ``moves`` as a fresh int8 array (1: legal), which its receiver may change."""
    return np.frombuffer(codec.mask(moves), dtype=np.int8).copy()
