"""The one loop that runs a game with computer players: view → the player chooses → apply.

Every front end drives games through this module: the simulator and the RL environments call
:func:`play_bots`; the terminal and the server, which wait for people and think in the background,
ask :func:`next_decision` for what a computer seat must decide and :meth:`Game.play` its answer.

Each decision of a computer player gets its own random stream, derived from the game's seed, the
seat and the number of moves made so far (:func:`decision_rng`). So a game with bots is reproducible
from its record alone, whichever front end played it and however often it was interrupted and
resumed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from .chance import decision_rng
from .moves import Move
from .record import Game
from .view import PlayerView, view

__all__ = ["Decision", "Player", "decision_rng", "next_decision", "play_bots"]


class Player(Protocol):
    """Anything that chooses a move from a view with a seeded RNG (every bot does)."""

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        """Pick one of ``view.legal_moves()``."""
        ...


@dataclass(frozen=True, slots=True)
class Decision:
    """What the player to move must decide: their seat, their view, and their random stream,
    derived from the game's ``seed`` and the ``number`` of the move decided."""

    seat: int
    view: PlayerView
    seed: int
    number: int

    @property
    def rng(self) -> random.Random:
        """The decision's random stream, from its start: each reading makes it anew (seeding one
        costs as much as a bot's quick move, and a server's bot thinks in another process, which
        makes it there from the seed)."""
        return decision_rng(self.seed, self.seat, self.number)


def next_decision(game: Game) -> Decision | None:
    """The decision the game waits for, or ``None`` when it is over."""
    state = game.state
    if state.is_over:
        return None
    seat = state.current
    return Decision(seat, view(state, seat), game.seed, game.move_count)


def play_bots(
    game: Game, players: Sequence[Player | None], on_move: Callable[[int, Move], None] | None = None
) -> None:
    """Let the computer players move until the game ends or a person (``None``) is to move.

    ``players`` has one entry per seat. A player's exception propagates with the game unchanged by
    that decision; an illegal choice raises the engine's ``IllegalMoveError``. ``on_move(seat,
    move)`` is called after each move is applied.
    """
    while not game.state.is_over:
        player = players[game.state.current]
        if player is None:
            return
        decision = next_decision(game)
        assert decision is not None
        move = player.choose(decision.view, decision.rng)
        game.play(move, decision.seat)
        if on_move is not None:
            on_move(decision.seat, move)
