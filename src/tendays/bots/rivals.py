"""Plausible racks for the other players: journeys the public history allows, a few days short of
complete.

A search that deals the other players' hidden days at random gives them racks far from any journey,
so in its imagined futures nobody but the searcher ever finishes, and nothing it throws away can
hurt it. Real racks are close to a journey for most of the game, and how close shows in how many
tiles the player has replaced. So a plausible rack here is a complete journey through the days the
table has seen (tiles taken from a pile stay known on their day), its hidden days filled with tiles
whose place the viewer does not know, then as many of those days spoilt as the player's distance,
drawn from what self-play shows for players who replaced as many tiles. A rack that a tile the
player just passed over (or threw away) would have brought closer is dropped: a player who plays
their best would have taken it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from functools import cache
from importlib import resources

from tendays.engine import Edition, Knowledge

from .distance import JourneyGraph, analyze, bit_indices, graph_for
from .reading import TableFacts

__all__ = ["distance_shares", "journey_ends", "plausible_days", "sample_distance", "walk_journey"]

_TRIES = 12  # journeys tried for one rack before settling for an inconsistent one


@cache
def _shipped() -> dict[str, tuple[tuple[float, ...], ...]]:
    data = json.loads(resources.files("tendays.bots").joinpath("rivals.json").read_text("utf-8"))
    return {
        edition: tuple(tuple(row) for row in rows) for edition, rows in data["distances"].items()
    }


def distance_shares(edition: Edition) -> tuple[tuple[float, ...], ...]:
    """The shipped table of distances by replaced tiles for ``edition`` (``tools/train_rivals.py``);
    an edition the table does not know borrows the first one's."""
    tables = _shipped()
    return tables.get(edition.id) or next(iter(tables.values()))


def sample_distance(table: Sequence[Sequence[float]], replaced: int, rng: random.Random) -> int:
    """A distance for a player who replaced ``replaced`` tiles, from ``table`` (per count of
    replaced tiles, the shares of distance 1, 2, ...; the last row
    stands for every larger count)."""
    row = table[min(replaced, len(table) - 1)]
    return 1 + rng.choices(range(len(row)), weights=row)[0]


def journey_ends(
    graph: JourneyGraph, rack: Sequence[int | None], free: Sequence[int]
) -> list[int] | None:
    """Per day, the regions from which a journey through ``rack`` can still be completed over the
    later days: a seen day keeps its tile, a hidden day takes any tile with copies in ``free`` (per
    tile). ``None`` when no journey is left."""
    spare = 0
    for t, count in enumerate(free):
        if count > 0:
            spare |= graph.mask_of(t)
    masks = [graph.mask_of(t) if t is not None else spare for t in rack]
    masks[0] &= graph.all_regions
    masks[-1] &= graph.all_regions
    ends = [0] * len(rack)
    ends[-1] = masks[-1]
    for d in range(len(rack) - 2, -1, -1):
        ends[d] = masks[d] & graph.pre(ends[d + 1])
    return ends if ends[0] else None


def walk_journey(
    graph: JourneyGraph,
    rack: Sequence[int | None],
    ends: Sequence[int],
    counts: list[int],
    rng: random.Random,
) -> dict[int, int] | None:
    """A journey drawn day by day through ``rack``'s seen days, within ``ends``
    (:func:`journey_ends`): the tile of each hidden day (day index to tile), each taken from
    ``counts`` (copies per tile, counted down in place). ``None`` when the walk runs out of
    tiles."""
    state_tile = graph.state_tile
    journey: dict[int, int] = {}
    previous = -1
    for d in range(len(rack)):
        reachable = (graph.succ[previous] if d else graph.all_regions) & ends[d]
        states = [
            s for s in bit_indices(reachable) if rack[d] is not None or counts[state_tile[s]] > 0
        ]
        if not states:
            return None
        previous = rng.choice(states)
        if rack[d] is None:
            counts[state_tile[previous]] -= 1
            journey[d] = state_tile[previous]
    return journey


def plausible_days(
    edition: Edition,
    knowledge: Knowledge,
    facts: TableFacts,
    player: int,
    distance: int,
    rng: random.Random,
    spoken_for: Sequence[int] = (),
) -> dict[int, int] | None:
    """Tiles for ``player``'s hidden days (day index to tile) making a rack ``distance`` days from a
    journey, or ``None`` when the seen days allow no journey (or a day is still empty).
    ``spoken_for``: unseen copies already given to other racks of the same sample."""
    graph = graph_for(edition)
    rack, filled = knowledge.racks[player], knowledge.filled[player]
    if not all(filled):
        return None
    days = len(rack)
    hidden = [d for d in range(days) if rack[d] is None]
    if not hidden:
        return {}
    available = list(knowledge.unseen_counts)
    for t in spoken_for:
        available[t] -= 1
    backward = journey_ends(graph, rack, available)
    if backward is None:
        return None
    refused = facts.passed_now[player]
    chosen: dict[int, int] = {}
    for _ in range(_TRIES):
        counts = list(available)
        journey = walk_journey(graph, rack, backward, counts, rng)
        if journey is not None:
            spare = [t for t, n in enumerate(counts) for _ in range(n)]
            spoilt = rng.sample(hidden, min(distance, len(hidden), len(spare)))
            for d in spoilt:
                wrong = [t for t in spare if t != journey[d]]
                if wrong:
                    tile = rng.choice(wrong)
                    spare.remove(tile)
                    journey[d] = tile
            chosen = journey
            full = [journey.get(d, t) for d, t in enumerate(rack)]
            analysis = analyze(edition, full)
            if analysis.distance == distance and not any(
                t in refused for outs in analysis.outs for t in outs
            ):
                return journey
    return chosen or None
