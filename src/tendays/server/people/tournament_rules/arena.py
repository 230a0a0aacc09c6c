"""The arena: for a fixed time, whoever is free is paired at once, and points come from wins, more
on a streak (as lichess's arenas score).

Scoring (two-player tables): a win scores 2, a tie (shared first place) 1, a loss 0. After two
wins in a row a player is *on fire*: every further win scores 4 and a tie 2, until a game that is
not a win puts the fire out. Standings: score, then performance (the mean over one's games of the
opponent's rating, plus 17 for a win and minus 17 for a loss: lichess's 500 Elo on this site's
rating scale), then rating; equal on all three share a rank.

Pairing: everyone free is paired at once when possible (the most pairs there can be), never with
the opponent of their last game, never across a block; among the pairings with the most pairs,
the one whose pairs are closest in score and rating (two small gaps before one large), and whose
left-out player has waited least.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .matching import match_in_groups
from .ranking import check_results, ranked
from .values import Entrant, Standing, TableResult, distinct_ids

__all__ = ["ArenaCandidate", "arena_standings", "pair_arena"]

WIN, TIE = 2, 1  # points; doubled on fire
FIRE_AFTER = 2  # wins in a row that light the fire
# Rating points added for a win and taken for a loss. lichess adds 500 Elo: 1.25 times the 400 Elo
# at which the stronger wins ten games to one. On this site's scale (openskill's mu, Plackett-Luce
# with beta 25/6, two settled players) ten to one is a gap of sqrt(2) * 25/6 * ln 10 = 13.6, and
# 1.25 times that is 17.
PERFORMANCE_STEP = 17

# A pair's weight: CLOSENESS for equal score and rating, less a penalty that grows with the
# square of their distance, so that two small gaps are better than one large. The distance is
# SCORE_STEP per point of score plus RATING_STEP per rating point (a win's 2 points weigh about
# as much as 7 rating points, some 200 Elo); a distance d costs d * d / CLOSENESS, all of
# CLOSENESS from d = CLOSENESS on. Plus WAIT_BONUS per second each of the two has been free: a
# player free over 10 s longer than another outweighs any closeness of one pair, so the one left
# out of an odd number is the one who came last.
CLOSENESS = 1000
SCORE_STEP = 50
RATING_STEP = 15
WAIT_BONUS = 100

# Matching is exact for up to this many free players (a few ms of CPU); a larger crowd (the first
# seconds of a big arena) is matched in groups of this many neighbours in the standings (see
# .matching): 500 at once take about 0.4 s of CPU, against 1.5 s in groups of 64.
GROUP_SIZE = 32


@dataclass(frozen=True)
class ArenaCandidate:
    """An arena entrant free to play now."""

    id: int
    score: float
    rating: float
    free_since: float
    last_opponent: int | None


def pair_arena(
    free: Sequence[ArenaCandidate], blocked: Collection[frozenset[int]], now: float
) -> list[tuple[int, int]]:
    """The pairs to seat now among the free players, each pair better placed first (higher score,
    then rating, then lower id), and pairs in that order. Who is in no pair stays free.

    ``blocked`` holds the pairs of entrants of whom one blocked the other; ``now`` is on the clock
    of ``free_since``."""
    distinct_ids((candidate.id for candidate in free), "free players")
    by_id = {candidate.id: candidate for candidate in free}
    order = sorted(by_id, key=lambda one: (-by_id[one].score, -by_id[one].rating, one))
    barred = {pair for pair in blocked if len(pair) == 2}

    def weight(one: int, other: int) -> int | None:
        first, second = by_id[one], by_id[other]
        if first.last_opponent == other or second.last_opponent == one:
            return None
        if frozenset((one, other)) in barred:
            return None
        distance = SCORE_STEP * abs(first.score - second.score)
        distance = min(CLOSENESS, distance + RATING_STEP * abs(first.rating - second.rating))
        waited = max(0.0, now - first.free_since) + max(0.0, now - second.free_since)
        return round(CLOSENESS - distance * distance / CLOSENESS + WAIT_BONUS * waited)

    pairs, _ = match_in_groups(order, weight, GROUP_SIZE)
    return pairs


def arena_standings(entrants: Sequence[Entrant], results: Sequence[TableResult]) -> list[Standing]:
    """Every entrant's line, best first (entrants who left keep their points). Games count in the
    order they finished (``finished_at``, then their order in ``results``)."""
    people = {entrant.id: entrant for entrant in entrants}
    distinct_ids((entrant.id for entrant in entrants), "entrants")
    check_results(results, people, seats=2)
    score = dict.fromkeys(people, 0)
    streak = dict.fromkeys(people, 0)
    games = dict.fromkeys(people, 0)
    rating_sum = dict.fromkeys(people, Fraction(0))
    in_order = sorted(enumerate(results), key=lambda pair: (pair[1].finished_at, pair[0]))
    for _, result in in_order:
        (one, one_place), (other, other_place) = sorted(result.places.items())
        for me, mine, them, theirs in (
            (one, one_place, other, other_place),
            (other, other_place, one, one_place),
        ):
            doubled = 2 if streak[me] >= FIRE_AFTER else 1
            if mine < theirs:
                score[me] += WIN * doubled
                streak[me] += 1
                swing = PERFORMANCE_STEP
            else:
                score[me] += TIE * doubled if mine == theirs else 0
                streak[me] = 0
                swing = 0 if mine == theirs else -PERFORMANCE_STEP
            games[me] += 1
            rating_sum[me] += Fraction(people[them].rating) + swing
    performance = {
        one: rating_sum[one] / games[one] if games[one] else Fraction(0) for one in people
    }

    def key(one: int) -> tuple[int, Fraction, float]:
        return score[one], performance[one], people[one].rating

    return [
        Standing(
            entrant=one,
            name=people[one].name,
            score=float(score[one]),
            games=games[one],
            rank=rank,
            tiebreaks={"performance": float(performance[one])},
            fire=streak[one] >= FIRE_AFTER,
        )
        for one, rank in ranked(people, key)
    ]
