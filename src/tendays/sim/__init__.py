"""Tournaments, ratings and statistics over many bot games."""

from .runner import run_local, run_ray
from .stats import Rating, rate_games, wilson
from .tournament import (
    GameResult,
    Paired,
    PlayerSummary,
    Summary,
    Tournament,
    paired,
    play_game,
    summarize,
)

__all__ = [
    "GameResult",
    "Paired",
    "PlayerSummary",
    "Rating",
    "Summary",
    "Tournament",
    "paired",
    "play_game",
    "rate_games",
    "run_local",
    "run_ray",
    "summarize",
    "wilson",
]
