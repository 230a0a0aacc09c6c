"""Settings shared by the PettingZoo and Gymnasium environments (their checks included), and their
one form of action mask."""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypedDict, Unpack

import numpy as np

from tendays.engine import ActionCodec, Edition, Move, Options, State, load_edition

__all__ = [
    "DEFAULT_TURNS_PER_PLAYER",
    "Rewards",
    "RuleSettings",
    "action_mask",
    "checked_action",
    "checked_actions",
    "env_options",
    "checked_edition",
]

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


class RuleSettings(TypedDict, total=False):
    """The rule keywords an environment takes in place of an :class:`Options` (each as in
    :class:`Options`; ``turn_limit`` None means 100 turns per player)."""

    players: int
    days: int
    swap: bool
    open_hands: bool
    turn_limit: int | None


def env_options(options: Options | None = None, **settings: Unpack[RuleSettings]) -> Options:
    """The rule options of an environment: ``options``, or those the rule keywords name (the
    rest as :class:`Options` has them), never both (``ValueError``). A turn limit of None becomes
    100 turns per player: every episode must end."""
    if options is not None and settings:
        named = ", ".join(sorted(settings))
        raise ValueError(f"give rule options or the rule keywords ({named}), not both")
    chosen = Options(**settings) if options is None else options
    if chosen.turn_limit is None:
        chosen = replace(chosen, turn_limit=DEFAULT_TURNS_PER_PLAYER * chosen.players)
    return chosen


def checked_edition(
    edition: str,
    options: Options,
    render_mode: str | None,
    render_modes: Sequence[str],
) -> Edition:
    """The edition of an environment, checked with its rule options: ``render_mode`` one of
    ``render_modes`` (or None), a known edition, and options it allows. Raises ``ValueError`` (a
    ``KeyError`` for an unknown edition), saying why."""
    if render_mode is not None and render_mode not in render_modes:
        raise ValueError(f"render_mode must be one of {list(render_modes)}, not {render_mode!r}")
    loaded = load_edition(edition)
    options.validate(loaded)
    return loaded


def action_mask(codec: ActionCodec, moves: Iterable[Move]) -> np.ndarray:
    """The engine's mask of ``moves`` as a fresh int8 array (1: legal),
    which its receiver may change."""
    return np.frombuffer(codec.mask(moves), dtype=np.int8).copy()


def _outside(size: int) -> str:
    return f"an action is a whole number in the action space 0-{size - 1}"


def checked_action(action: Any, size: int) -> int:
    """``action`` as an int, refused with ``ValueError`` (naming the range) unless it is a whole
    number (Python's or numpy's, not a bool, a float or a string) in ``[0, size)``: an agent's
    mistake is told, never clamped into another action."""
    if isinstance(action, bool | np.bool_):
        raise ValueError(f"{_outside(size)}, not {action!r}")
    try:
        index = operator.index(action)
    except TypeError:
        raise ValueError(f"{_outside(size)}, not {action!r}") from None
    if not 0 <= index < size:
        raise ValueError(f"{_outside(size)}, not {index}")
    return index


def checked_actions(actions: np.ndarray, size: int) -> None:
    """Refuse with ``ValueError`` (naming the range) an array of actions that holds anything but
    whole numbers in ``[0, size)``."""
    if actions.dtype == np.bool_ or not np.issubdtype(actions.dtype, np.integer):
        raise ValueError(f"{_outside(size)}: actions of dtype {actions.dtype} are refused")
    wrong = (actions < 0) | (actions >= size)
    if wrong.any():
        raise ValueError(f"{_outside(size)}, not {actions[wrong].reshape(-1)[0]}")
