"""Bots: computer players that choose a move from a player view.

Get one by name with :func:`make_bot`; every bot and level is registered once in
:mod:`tendays.bots.registry` (:data:`BOTS`, :data:`LEVELS`, :func:`bot_names`, :func:`level_names`).
"""

from __future__ import annotations

from .base import Bot, RandomBot
from .distance import Analysis, analyze, journey_distance
from .expert import DEFAULT_ITERATIONS, ExpertBot
from .greedy import GreedyBot
from .hint import Hint, hint
from .registry import (
    BOTS,
    LEVELS,
    BotEntry,
    Level,
    bot_names,
    ladder_ratings,
    level_names,
    make_bot,
    refusal,
)

__all__ = [
    "BOTS",
    "DEFAULT_ITERATIONS",
    "LEVELS",
    "Analysis",
    "Bot",
    "BotEntry",
    "ExpertBot",
    "GreedyBot",
    "Hint",
    "Level",
    "RandomBot",
    "analyze",
    "bot_names",
    "ladder_ratings",
    "hint",
    "journey_distance",
    "level_names",
    "make_bot",
    "refusal",
]
