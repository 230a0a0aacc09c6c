"""Statistics for tournaments: Wilson confidence intervals and openskill ratings."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Rating", "rate_games", "wilson"]


def wilson(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default); (0,
    1) when there are no trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True, slots=True)
class Rating:
    """An openskill (Plackett-Luce) rating: skill ``mu``, uncertainty
    ``sigma``, and ``mu - 3 sigma``."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def rate_games(players: int, games: Sequence[Sequence[int]]) -> list[Rating]:
    """Rate ``players`` from games given as ranks per player (1 = first; equal ranks tie; games in
    order).

    Each game lists a rank for every player who took part, as ``ranks[player]``; ``0`` marks a
    player who sat out. Games are rated in the order given, so the result is reproducible.
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = [model.rating() for _ in range(players)]
    for ranks in games:
        present = [p for p in range(players) if ranks[p] > 0]
        if len(present) < 2:
            continue
        teams = [[ratings[p]] for p in present]
        rated = model.rate(teams, ranks=[ranks[p] for p in present])
        for p, team in zip(present, rated, strict=True):
            ratings[p] = team[0]
    return [Rating(r.mu, r.sigma) for r in ratings]
