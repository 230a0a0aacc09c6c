"""A learned value of a position: the chance that one player finishes first, from a full state.

The expert's search samples complete states (worlds), so at the leaf of a rollout it may judge the
whole table: each player's journey distance, how many of their missing tiles lie on the pile tops or
in the draw pile, and whose turn it is. A logistic model over those few features, fitted on
positions of greedy-against-greedy games (``python tools/train_value.py``), gives the chance that
the player finishes first; the weights ship in ``value.npz`` beside this module, are read with
numpy once, then evaluated in plain Python (a few microseconds a position).

The model knows two-player games of one edition and length (those it was trained on); elsewhere
:func:`position_value` is not offered (:func:`value_for` returns ``None``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tendays.engine import Phase, State

from .distance import analyze
from .fitted import read_fitted

__all__ = ["FEATURES", "PositionValue", "position_features", "value_for"]

WEIGHTS = Path(__file__).with_name("value.npz")
_CAP = 4  # distances from this many days on share a cell: far positions are alike

_NAMES = ("distance", "tops", "drawable", "tops_near", "drawable_near", "outs_near")
FEATURES = [
    f"cell_{m}_{r}_{t}" for m in range(1, _CAP + 1) for r in range(1, _CAP + 1) for t in (0, 1)
] + [f"{who}_{name}" for who in ("me", "rival") for name in _NAMES]


def position_features(state: State, player: int) -> list[float]:
    """The features of ``state`` for ``player`` against the closest other player, at a turn's start.

    A cell of (own distance, rival's distance, whose turn) carries the race; the outs refine it:
    pile tops that would shorten a journey, the share of the draw pile that would, and how many
    distinct tiles would, each also counted apart when the journey is one tile short.
    """
    edition = state.edition
    tops = [pile[-1] for pile in state.piles if pile]
    draw = state.draw_pile
    per_player: list[tuple[int, int, float, int, int]] = []
    for p, rack in enumerate(state.racks):
        analysis = analyze(edition, rack)
        outs = {t for day in analysis.outs for t in day}
        on_top = sum(1 for t in tops if t in outs)
        drawable = sum(1 for t in draw if t in outs) / len(draw) if draw else 0.0
        per_player.append((analysis.distance, on_top, drawable, len(outs), p))
    mine = per_player[player]
    rival = min((x for x in per_player if x[4] != player), key=lambda x: x[0])
    row = [0.0] * (2 * _CAP * _CAP)
    to_move = 1 if state.current == player else 0
    m, r = min(mine[0], _CAP), min(rival[0], _CAP)
    row[((max(m, 1) - 1) * _CAP + max(r, 1) - 1) * 2 + to_move] = 1.0
    for distance, on_top, drawable, kinds, _ in (mine, rival):
        near = 1.0 if distance <= 1 else 0.0
        row += [
            min(distance, 8) / 4.0,
            on_top / 3.0,
            drawable,
            near * on_top / 3.0,
            near * drawable,
            near * min(kinds, 12) / 12.0,
        ]
    return row


@dataclass(frozen=True, slots=True)
class PositionValue:
    """The fitted model: a weight per feature and a bias, for one edition, length and table size."""

    edition: str
    days: int
    players: int
    weights: tuple[float, ...]
    bias: float

    def __call__(self, state: State, player: int) -> float:
        """The chance that ``player`` finishes first from ``state`` (a finished game: 1 or 0)."""
        if state.phase is Phase.OVER:
            return 1.0 if state.winner == player else 0.0
        row = position_features(state, player)
        z = self.bias + sum(w * x for w, x in zip(self.weights, row, strict=True))
        z = max(-30.0, min(30.0, z))
        return 1.0 / (1.0 + math.exp(-z))

    def plays(self, state: State) -> bool:
        """Whether the model was trained for games like this one."""
        return (
            state.edition.id == self.edition
            and len(state.racks[0]) == self.days
            and len(state.racks) == self.players
        )


@cache
def load(path: Path = WEIGHTS) -> PositionValue | None:
    """The shipped model, or ``None`` without numpy or weights."""
    data = read_fitted(path, FEATURES)
    if data is None:
        return None
    return PositionValue(
        edition=str(data["edition"]),
        days=int(data["days"]),
        players=int(data["players"]),
        weights=tuple(float(w) for w in data["weights"]),
        bias=float(data["bias"]),
    )


def value_for(state: State) -> PositionValue | None:
    """The shipped model when it plays games like ``state``'s, otherwise ``None``."""
    model = load()
    return model if model is not None and model.plays(state) else None
