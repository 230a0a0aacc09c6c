"""The Swiss standings: points per game and per bye, then two tie-breaks.

A game at a table of k players gives place p (k - p) / (k - 1) points: at two players a win 1, a
tie 1/2, a loss 0; tied places share the mean of the points of the places they fill. A bye gives
its points (1 for the odd one out, 1/2 for each round a late joiner missed).

Tie-breaks, after the score:
- Buchholz: the sum of the final scores of everyone one sat with, once per game (two games with
  the same player count twice). A bye adds nothing.
- Sonneborn-Berger: the sum over one's games of the points one made times the mean final score of
  the others at that table. At two players that is the classic rule (a win adds the opponent's
  score, a tie half of it); at three or four it rewards doing well against strong tables.
Then rating; players equal on score, both tie-breaks and rating share a rank.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction

from .ranking import check_results, place_points, ranked
from .values import Bye, Entrant, Standing, TableResult, distinct_ids

__all__ = ["swiss_standings"]


def swiss_standings(
    entrants: Sequence[Entrant], results: Sequence[TableResult], byes: Sequence[Bye]
) -> list[Standing]:
    """Every entrant's line, best first (entrants who withdrew keep their points)."""
    people = {entrant.id: entrant for entrant in entrants}
    distinct_ids((entrant.id for entrant in entrants), "entrants")
    check_results(results, people, seats=None)
    _check_rounds(results, byes, people)
    score = dict.fromkeys(people, Fraction(0))
    games = dict.fromkeys(people, 0)
    for result in results:
        for seat, made in place_points(result.places).items():
            score[seat] += made
            games[seat] += 1
    for bye in byes:
        score[bye.entrant] += Fraction(bye.points)
    buchholz = dict.fromkeys(people, Fraction(0))
    berger = dict.fromkeys(people, Fraction(0))
    for result in results:
        points = place_points(result.places)
        for seat in result.places:
            others = [score[other] for other in result.places if other != seat]
            buchholz[seat] += sum(others, Fraction(0))
            berger[seat] += points[seat] * sum(others, Fraction(0)) / len(others)

    def key(one: int) -> tuple[Fraction, Fraction, Fraction, float]:
        return score[one], buchholz[one], berger[one], people[one].rating

    return [
        Standing(
            entrant=one,
            name=people[one].name,
            score=float(score[one]),
            games=games[one],
            rank=rank,
            tiebreaks={"buchholz": float(buchholz[one]), "sonneborn_berger": float(berger[one])},
            fire=False,
        )
        for one, rank in ranked(people, key)
    ]


def _check_rounds(
    results: Sequence[TableResult], byes: Sequence[Bye], people: dict[int, Entrant]
) -> None:
    """A ValueError unless rounds count from 1 and nobody is seated twice in one round."""
    seen: dict[int, set[int]] = defaultdict(set)
    seats = [(result.round, seat) for result in results for seat in result.places]
    for bye in byes:
        if bye.entrant not in people:
            raise ValueError(f"a bye names entrant {bye.entrant}, who is not in the tournament")
        if bye.points < 0:
            raise ValueError(f"a bye of entrant {bye.entrant} has {bye.points} points")
        seats.append((bye.round, bye.entrant))
    for round_number, entrant in seats:
        if round_number < 1:
            raise ValueError(f"a Swiss round is numbered from 1, not {round_number}")
        if entrant in seen[round_number]:
            raise ValueError(f"entrant {entrant} is seated twice in round {round_number}")
        seen[round_number].add(entrant)
