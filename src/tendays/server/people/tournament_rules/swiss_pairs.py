"""A Swiss round at tables of two: networkx's maximum weight matching over the players, with the
rules as weights of strictly falling importance, so that no amount of a lesser one outweighs one
unit of a greater:

1. the most players seated (the matching has the most pairs it can; a block is no edge at all);
2. nobody gets a second bye while someone has had none;
3. the fewest rematches (a rematch is allowed only when no pairing without one exists);
4. the bye goes to the lowest-ranked player (among those allowed by 2 and 3);
5. the least difference of score between partners (squared, so two small gaps beat one big one);
6. the least difference of rating.

An odd field has a "bye" seat in the matching: whoever it is paired with sits out.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from fractions import Fraction

from .matching import match_in_groups
from .swiss_field import SwissCandidate, rank_order
from .values import RATING_TENTHS

__all__ = ["pair_two_player_round"]

# Matching is exact for up to this many players (about 0.3 s of CPU for 100; once a round); a
# larger field is matched in groups of this many, in standings order, the unpaired floating down
# (see .matching): 500 players take about 1.5 s.
GROUP_SIZE = 100
SCORE_UNIT = 12  # scores are in twelfths (thirds and quarters of a point): costs stay integers


def pair_two_player_round(
    players: Sequence[SwissCandidate], blocked: Collection[frozenset[int]]
) -> tuple[list[tuple[int, int]], list[int]]:
    """The pairs (better-ranked first, top table first) and who sits out (the bye first, then
    anyone whom blocks leave without a partner)."""
    order = rank_order(players)
    barred = set(blocked)
    by_id = {player.id: player for player in players}
    from_bottom = {one: len(order) - 1 - index for index, one in enumerate(order)}
    bye_seat = min(by_id, default=0) - 1  # an id no player has
    needs_bye = len(order) % 2 == 1

    scores = [Fraction(player.score) for player in players]
    ratings = [player.rating for player in players]
    most_pairs = len(order) // 2 + 1
    worst_score = round((max(scores, default=0) - min(scores, default=0)) * SCORE_UNIT) ** 2
    worst_rating = round((max(ratings, default=0) - min(ratings, default=0)) * RATING_TENTHS)
    # Each level's unit exceeds the most that every level below it can add up to in one round.
    rating_unit = 1
    score_unit = rating_unit * (worst_rating * most_pairs + 1)
    bye_rank_unit = score_unit * (worst_score * most_pairs + 1)
    rematch_unit = bye_rank_unit * (len(order) + 1)
    second_bye_unit = rematch_unit * (most_pairs + 1)
    top = second_bye_unit * 2

    def weight(one: int, other: int) -> int | None:
        if bye_seat in (one, other):
            player = by_id[other if one == bye_seat else one]
            return top - second_bye_unit * player.had_bye - bye_rank_unit * from_bottom[player.id]
        if frozenset((one, other)) in barred:
            return None
        first, second = by_id[one], by_id[other]
        rematch = other in first.met or one in second.met
        gap = round(abs(Fraction(first.score) - Fraction(second.score)) * SCORE_UNIT) ** 2
        cost = rematch_unit * rematch + score_unit * gap
        rating_gap = round(abs(first.rating - second.rating) * RATING_TENTHS)
        return top - cost - rating_unit * rating_gap

    pairs, unpaired = match_in_groups(
        order, weight, GROUP_SIZE, last_extra=[bye_seat] if needs_bye else []
    )
    byes = [one for pair in pairs if bye_seat in pair for one in pair if one != bye_seat]
    tables = [pair for pair in pairs if bye_seat not in pair]
    return tables, byes + [one for one in unpaired if one != bye_seat]
