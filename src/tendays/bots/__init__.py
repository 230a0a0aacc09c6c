"""Bots: computer players that choose a move from a player view.

Get one by name with :func:`make_bot`: ``random``, ``greedy``, ``expert`` (or the difficulty names
``easy``, ``normal``, ``hard``), ``expert:N`` (N rollouts per decision), ``expert:Ts`` (T seconds per
decision), or ``cmd:<command line>`` for an external program speaking the engine protocol
(``docs/engine-protocol.md``).
"""

from __future__ import annotations

from .base import Bot, RandomBot
from .distance import Analysis, analyze, journey_distance
from .expert import DEFAULT_ITERATIONS, ExpertBot
from .greedy import GreedyBot
from .hint import Hint, hint

__all__ = [
    "BOT_NAMES",
    "DEFAULT_ITERATIONS",
    "DIFFICULTIES",
    "Analysis",
    "Bot",
    "ExpertBot",
    "GreedyBot",
    "Hint",
    "RandomBot",
    "analyze",
    "hint",
    "journey_distance",
    "make_bot",
]

#: Difficulty names for players, and the bot each one stands for.
DIFFICULTIES = {"easy": "random", "normal": "greedy", "hard": "expert"}

#: Every plain bot name :func:`make_bot` accepts.
BOT_NAMES = ("random", "greedy", "expert", *DIFFICULTIES)

_FORMS = "random, greedy, expert, easy, normal, hard, expert:ROLLOUTS, expert:SECONDSs, cmd:COMMAND LINE"


def make_bot(spec: str) -> Bot:
    """The bot a spec names; raises ``ValueError`` listing the choices for an unknown spec."""
    text = spec.strip()
    if text.startswith("cmd:"):
        from .engine_client import EngineBot

        return EngineBot(text[len("cmd:"):].strip())
    name, _, budget = text.partition(":")
    name = DIFFICULTIES.get(name.lower(), name.lower())
    if name == "random" and not budget:
        return RandomBot()
    if name == "greedy" and not budget:
        return GreedyBot()
    if name == "expert":
        if not budget:
            return ExpertBot()
        try:
            if budget.endswith("s"):
                return ExpertBot(iterations=None, think=float(budget[:-1]), name=text)
            return ExpertBot(iterations=int(budget), name=text)
        except ValueError as error:
            raise ValueError(f"bad expert budget {budget!r} in {spec!r}: give rollouts per decision (expert:48) "
                             f"or seconds per decision (expert:0.5s); {error}") from None
    raise ValueError(f"unknown bot {spec!r}; choose one of: {_FORMS}")
