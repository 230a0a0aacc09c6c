"""A draft by sampled futures (the ``expert+draft`` bot): each drafted tile goes where the draft
ends closest to a journey.

The greedy bot places a tile by how the rack looks *now*. Here the most promising days for the tile
by greedy's score are each tried on the same sampled futures (common random numbers): the tiles
still to come are drawn at random from the tiles the player has not seen, placed by a fast greedy
rule, and the finished rack is judged by its journey distance. The day whose futures end shortest on
average wins; ties keep greedy's order. It ends the draft closer to a journey than greedy, but not
with a rack that finishes sooner (docs/bots.md), so the plain expert drafts like greedy.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from tendays.engine import Edition, Knowledge, Move

from .distance import analyze, relaxed_distance
from .greedy import Rack, TileOdds, draft_scores, rack_score, with_tile

__all__ = ["DRAFT_WORK", "draft_move", "finish_draft"]

#: Tile placements a draft decision may simulate: bounds its time (under 0.7 s on one core).
DRAFT_WORK = 1280
_CANDIDATES = 4  # days kept from greedy's ranking
_MIN_FUTURES = 8
_MAX_FUTURES = 64


def finish_draft(edition: Edition, rack: Rack, tiles: Sequence[int], odds: TileOdds) -> Rack:
    """The rack after ``tiles`` are drafted onto its empty days by a fast greedy rule.

    A tile goes to an empty day where it brings the rack one change closer (the best such day by
    greedy's score when there are several); a tile that fits nowhere goes to the empty day whose
    ways to finish are worth least, so the days that still have good chances stay open.
    """
    weight = odds.weight
    for tile in tiles:
        empty = [d for d, placed in enumerate(rack, 1) if placed is None]
        if not empty:
            break
        if len(empty) == 1:
            rack = with_tile(rack, empty[0], tile)
            continue
        outs = analyze(edition, rack).outs
        fitting = [d for d in empty if tile in outs[d - 1]]
        if len(fitting) == 1:
            day = fitting[0]
        elif fitting:
            day = min(
                fitting, key=lambda d: rack_score(analyze(edition, with_tile(rack, d, tile)), odds)
            )
        else:
            day = min(empty, key=lambda d: sum(weight[t] for t in outs[d - 1]))
        rack = with_tile(rack, day, tile)
    return rack


def draft_move(
    edition: Edition,
    rack: Rack,
    held: int,
    moves: Sequence[Move],
    knowledge: Knowledge,
    odds: TileOdds,
    rng: random.Random,
    work: int = DRAFT_WORK,
) -> Move:
    """The draft move whose sampled futures end with the shortest journey distance on average."""
    ranked = sorted(draft_scores(edition, rack, held, moves, odds), key=lambda scored: scored[0])
    candidates = [move for _, move in ranked[:_CANDIDATES]]
    to_come = sum(1 for placed in rack if placed is None) - 1
    if len(candidates) == 1 or to_come == 0 or work <= 0:
        return candidates[0]
    futures = max(_MIN_FUTURES, min(_MAX_FUTURES, work // (len(candidates) * to_come)))
    unseen = list(knowledge.unseen)
    samples = []
    for _ in range(futures):
        rng.shuffle(unseen)
        samples.append(unseen[:to_come])
    best_move, best_total = candidates[0], None
    for move in candidates:
        start = with_tile(rack, move.day, held)
        total = sum(
            relaxed_distance(edition, finish_draft(edition, start, tiles, odds))
            for tiles in samples
        )
        if best_total is None or total < best_total:
            best_move, best_total = move, total
    return best_move
