"""What the public history says about another player's hidden days: a small learned model.

For each other player and each kind of tile whose copies the viewer cannot place, the model gives
the chance that the player's hidden days hold it. It reads only the view: which tiles that player
passed over on the piles, threw away, took and where they put them, how many of their days are still
hidden, and the map (a region bordering the tiles they are known to keep is likelier to be kept
too). The weights are a logistic regression fitted on self-play games
(``tools/train_opponent_model.py``) and ship as ``opponent_model.json``. The expert deals the hidden
days of its sampled worlds by these chances instead of uniformly.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from importlib import resources

from tendays.engine import Edition, Knowledge, PlayerView, Role

from .reading import TableFacts, table_facts

__all__ = ["FEATURES", "OpponentModel", "features"]

#: The model's inputs, in order (each a number for one other player and one kind of tile).
FEATURES = (
    "bias",
    "base_logit",
    "is_region",
    "is_link",
    "is_skip",
    "degree",
    "any_colour",
    "passed",
    "discarded",
    "known_neighbours",
    "known_same_colour",
    "known_share",
    "turn",
)


def features(
    edition: Edition, knowledge: Knowledge, facts: TableFacts, player: int, turn: int
) -> dict[int, list[float]]:
    """The model's inputs for every tile with unseen copies, about ``player``'s hidden days."""
    tables = edition.tables
    tiles = edition.tiles
    unseen = knowledge.unseen_counts
    total_unseen = sum(unseen)
    rack = knowledge.racks[player]
    filled = knowledge.filled[player]
    hidden = sum(1 for t, has in zip(rack, filled, strict=True) if has and t is None)
    known = [t for t in rack if t is not None]
    days = len(rack)
    share = hidden / total_unseen if total_unseen else 0.0
    base = math.log(max(share, 1e-3) / max(1.0 - share, 1e-3))
    known_regions = [t for t in known if tables.is_region[t]]
    known_colours = [tables.color[t] for t in known_regions]
    rows: dict[int, list[float]] = {}
    for t, count in enumerate(unseen):
        if not count:
            continue
        tile = tiles[t]
        region = tile.role is Role.REGION
        colour = tables.color[t]
        neighbours = sum(1 for k in known_regions if t in tables.neighbors[k]) if region else 0
        same = (
            sum(1 for c in known_colours if c == colour or c == -1) if tile.role is Role.LINK else 0
        )
        rows[t] = [
            1.0,
            base,
            float(region),
            float(tile.role is Role.LINK),
            float(tile.role is Role.SKIP),
            len(tables.neighbors[t]) / 8.0,
            float(region and colour == -1),
            min(facts.passed[player][t], 4) / 4.0,
            min(facts.discarded[player][t], 3) / 3.0,
            min(neighbours, 3) / 3.0,
            min(same, 3) / 3.0,
            len(known) / days,
            min(turn, 60) / 60.0,
        ]
    return rows


class OpponentModel:
    """Chances that another player's hidden days hold each tile, from the shipped weights."""

    def __init__(self, weights: Sequence[float]) -> None:
        if len(weights) != len(FEATURES):
            raise ValueError(f"the opponent model has {len(FEATURES)} weights, not {len(weights)}")
        self.weights = tuple(weights)

    @classmethod
    def shipped(cls) -> OpponentModel:
        data = json.loads(
            resources.files("tendays.bots").joinpath("opponent_model.json").read_text("utf-8")
        )
        return cls([data["weights"][name] for name in FEATURES])

    def chances(
        self, view: PlayerView, knowledge: Knowledge, facts: TableFacts | None = None
    ) -> dict[int, tuple[float, ...]]:
        """Per other player: for each tile (index), the chance their hidden days
        hold a copy (0 if none unseen)."""
        facts = facts or table_facts(view)
        result: dict[int, tuple[float, ...]] = {}
        tiles = len(view.edition.tiles)
        for player in range(view.options.players):
            if player == view.player:
                continue
            chances = [0.0] * tiles
            for t, row in features(view.edition, knowledge, facts, player, view.turn).items():
                z = sum(w * x for w, x in zip(self.weights, row, strict=True))
                chances[t] = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            result[player] = tuple(chances)
        return result
