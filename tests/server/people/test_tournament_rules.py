"""The tournament rules (server/people/tournament_rules): arena pairing and scores with streaks,
Swiss rounds at tables of two to four, points, Buchholz and Sonneborn-Berger. Hand-worked examples
with their numbers written out, and properties checked against brute force on small fields."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tendays.server.people.tournament_rules import (
    ArenaCandidate,
    Bye,
    Entrant,
    SwissCandidate,
    SwissRound,
    TableResult,
    TournamentKind,
    arena_standings,
    pair_arena,
    pair_swiss,
    swiss_standings,
)
from tendays.server.people.tournament_rules.swiss_tables import table_sizes


def entrants(count: int, rating: float = 25.0) -> list[Entrant]:
    return [Entrant(id=one, name=f"p{one}", rating=rating) for one in range(1, count + 1)]


def arena_game(winner: int, loser: int, at: float, tie: bool = False) -> TableResult:
    return TableResult(round=0, places={winner: 1, loser: 1 if tie else 2}, finished_at=at)


def matchings(nodes: Sequence[int], allowed: set[frozenset[int]]) -> Iterator[list[tuple[int, int]]]:
    """Every matching (any number of pairs) of the allowed pairs, by brute force."""
    if not nodes:
        yield []
        return
    first, rest = nodes[0], nodes[1:]
    yield from matchings(rest, allowed)
    for partner in rest:
        if frozenset((first, partner)) in allowed:
            remaining = [node for node in rest if node != partner]
            for matching in matchings(remaining, allowed):
                yield [(first, partner), *matching]


def test_the_kinds_are_the_contract_words() -> None:
    assert [kind.value for kind in TournamentKind] == ["arena", "swiss"]


# ---------------------------------------------------------------------------------------------
# Arena pairing


def test_an_arena_pairs_close_scores_and_never_the_last_opponent() -> None:
    free = [
        ArenaCandidate(id=1, score=10, rating=25, free_since=0, last_opponent=None),
        ArenaCandidate(id=2, score=10, rating=25, free_since=0, last_opponent=None),
        ArenaCandidate(id=3, score=8, rating=25, free_since=0, last_opponent=None),
        ArenaCandidate(id=4, score=8, rating=25, free_since=0, last_opponent=None),
    ]
    # The two leaders meet, and the two behind; better placed first, top pair first.
    assert pair_arena(free, blocked=[], now=0) == [(1, 2), (3, 4)]
    # Had 1 and 2 just played, each meets one of the two behind instead.
    free[0] = ArenaCandidate(id=1, score=10, rating=25, free_since=0, last_opponent=2)
    crossed = {frozenset(pair) for pair in pair_arena(free, blocked=[], now=0)}
    assert crossed in ({frozenset((1, 3)), frozenset((2, 4))}, {frozenset((1, 4)), frozenset((2, 3))})


def test_two_small_score_gaps_beat_one_large_one() -> None:
    # Scores 4, 2, 2, 0: (4, 2) and (2, 0), gaps 2 and 2, rather than (4, 0) and (2, 2).
    free = [ArenaCandidate(one, score, 25, 0, None) for one, score in ((1, 4), (2, 2), (3, 2), (4, 0))]
    pairs = pair_arena(free, [], now=0)
    assert {frozenset(pair) for pair in pairs} in (
        {frozenset((1, 2)), frozenset((3, 4))},
        {frozenset((1, 3)), frozenset((2, 4))},
    )


def test_two_free_players_who_just_met_wait_for_someone_else() -> None:
    free = [
        ArenaCandidate(id=7, score=4, rating=28, free_since=0, last_opponent=8),
        ArenaCandidate(id=8, score=2, rating=22, free_since=0, last_opponent=7),
    ]
    assert pair_arena(free, [], now=30) == []
    # A newcomer meets the closer of the two in score and rating.
    assert pair_arena([*free, ArenaCandidate(9, 0, 25, 29, 1)], [], now=30) == [(8, 9)]


def test_a_blocked_pair_is_never_seated_in_an_arena() -> None:
    free = [ArenaCandidate(one, 0, 25, 0, None) for one in (1, 2)]
    assert pair_arena(free, [frozenset((1, 2))], now=5) == []


def test_the_longest_waiter_is_not_the_one_left_out() -> None:
    # Equal scores and ratings: the weights differ only by waiting, so the newcomer waits.
    free = [
        ArenaCandidate(id=1, score=0, rating=25, free_since=50, last_opponent=None),
        ArenaCandidate(id=2, score=0, rating=25, free_since=10, last_opponent=None),
        ArenaCandidate(id=3, score=0, rating=25, free_since=20, last_opponent=None),
    ]
    assert pair_arena(free, [], now=60) == [(2, 3)]
    # Ten seconds of waiting outweigh the widest gap of score and rating of one pair.
    free = [
        ArenaCandidate(id=1, score=40, rating=45, free_since=0, last_opponent=None),
        ArenaCandidate(id=2, score=0, rating=5, free_since=0, last_opponent=None),
        ArenaCandidate(id=3, score=0, rating=5, free_since=11, last_opponent=None),
    ]
    assert pair_arena(free, [], now=12) == [(1, 2)]


def arena_fields() -> st.SearchStrategy[tuple[list[ArenaCandidate], list[frozenset[int]]]]:
    @st.composite
    def build(draw: st.DrawFn) -> tuple[list[ArenaCandidate], list[frozenset[int]]]:
        count = draw(st.integers(0, 8))
        ids = list(range(1, count + 1))
        free = [
            ArenaCandidate(
                id=one,
                score=draw(st.sampled_from([0, 2, 4, 6, 10])),
                rating=draw(st.sampled_from([20.0, 25.0, 30.0])),
                free_since=float(draw(st.integers(0, 30))),
                last_opponent=draw(st.one_of(st.none(), st.sampled_from(ids))),
            )
            for one in ids
        ]
        pairs = [frozenset(pair) for pair in itertools.combinations(ids, 2)]
        blocked = draw(st.lists(st.sampled_from(pairs), max_size=6)) if pairs else []
        return free, blocked

    return build()


@settings(max_examples=100)
@given(arena_fields())
def test_an_arena_pairs_as_many_as_the_rules_allow_and_breaks_none(
    field: tuple[list[ArenaCandidate], list[frozenset[int]]],
) -> None:
    free, blocked = field
    pairs = pair_arena(free, blocked, now=40)
    by_id = {candidate.id: candidate for candidate in free}
    seated = [one for pair in pairs for one in pair]
    assert len(seated) == len(set(seated)) and set(seated) <= set(by_id)
    for one, other in pairs:
        assert by_id[one].last_opponent != other and by_id[other].last_opponent != one
        assert frozenset((one, other)) not in blocked
    allowed = {
        frozenset((a.id, b.id))
        for a, b in itertools.combinations(free, 2)
        if a.last_opponent != b.id and b.last_opponent != a.id and frozenset((a.id, b.id)) not in blocked
    }
    most = max(len(matching) for matching in matchings([c.id for c in free], allowed))
    assert len(pairs) == most
    # The same field in another order gets the same pairs.
    assert pair_arena(list(reversed(free)), list(reversed(blocked)), now=40) == pairs


def test_a_crowd_of_two_hundred_free_players_is_seated_whole() -> None:
    rng = random.Random(35)
    free = [
        ArenaCandidate(one, rng.choice([0, 2, 4]), rng.uniform(15, 35), rng.uniform(0, 5), None) for one in range(200)
    ]
    for index in range(0, 200, 2):  # everyone has just played their neighbour
        free[index] = ArenaCandidate(index, free[index].score, free[index].rating, 0, index + 1)
    pairs = pair_arena(free, [frozenset((0, 2)), frozenset((5, 9))], now=6)
    assert len(pairs) == 100
    assert all(abs(one - other) != 1 or min(one, other) % 2 for one, other in pairs)


def test_an_arena_refuses_a_player_free_twice() -> None:
    with pytest.raises(ValueError, match="entrant 3 appears twice"):
        pair_arena([ArenaCandidate(3, 0, 25, 0, None)] * 2, [], now=0)


# ---------------------------------------------------------------------------------------------
# Arena standings


def test_a_streak_scores_double_from_the_third_win_until_a_game_is_not_won() -> None:
    people = [Entrant(1, "Ann", 30), Entrant(2, "Bo", 20), Entrant(3, "Cy", 25)]
    games = [
        arena_game(1, 2, at=1),  # Ann 2
        arena_game(1, 3, at=2),  # Ann 2 + 2 = 4, now on fire
        arena_game(1, 2, at=3),  # Ann 4 + 4 = 8 (double)
        arena_game(1, 3, at=4, tie=True),  # Ann 8 + 2 = 10 (a tie on fire: 2), the fire goes out
        arena_game(1, 2, at=5),  # Ann 10 + 2 = 12
        arena_game(3, 2, at=6),  # Cy: tie 1 at t=4, win 2 = 3
    ]
    # Listed out of order: the games count in the order they finished.
    lines = arena_standings(people, list(reversed(games)))
    ann, cy, bo = lines
    assert (ann.name, ann.score, ann.games, ann.rank, ann.fire) == ("Ann", 12.0, 5, 1, False)
    assert (cy.name, cy.score, cy.games, cy.rank) == ("Cy", 3.0, 3, 2)
    assert (bo.name, bo.score, bo.games, bo.rank) == ("Bo", 0.0, 4, 3)
    # Performance: each game the opponent's rating, +17 for a win, -17 for a loss.
    # Ann: (37 + 42 + 37 + 25 + 37) / 5 = 35.6; Cy: (30 + 13 + 37) / 3 = 80 / 3
    assert ann.tiebreaks == {"performance": pytest.approx(35.6)}
    assert cy.tiebreaks["performance"] == pytest.approx(80 / 3)
    # Bo lost to Ann three times (30 - 17) and to Cy once (25 - 17): 47 / 4 = 11.75.
    assert bo.tiebreaks == {"performance": 11.75}


def test_the_fire_is_lit_after_two_wins_in_a_row() -> None:
    people = entrants(3)
    lines = {line.entrant: line for line in arena_standings(people, [arena_game(1, 2, 1), arena_game(1, 3, 2)])}
    assert lines[1].fire and lines[1].score == 4
    assert not lines[2].fire and not lines[3].fire


def test_equal_score_performance_and_rating_share_a_rank() -> None:
    people = entrants(4)
    lines = arena_standings(people, [arena_game(1, 2, 1), arena_game(3, 4, 2)])
    assert [(line.entrant, line.rank) for line in lines] == [(1, 1), (3, 1), (2, 3), (4, 3)]
    unplayed = arena_standings(entrants(2), [])
    assert [(line.score, line.games, line.rank, line.tiebreaks) for line in unplayed] == [
        (0.0, 0, 1, {"performance": 0.0}),
        (0.0, 0, 1, {"performance": 0.0}),
    ]


def arena_score_by_hand(outcomes: list[str]) -> int:
    """An independent reading of the streak rule over one player's outcomes in time order."""
    score = 0
    for index, outcome in enumerate(outcomes):
        on_fire = index >= 2 and outcomes[index - 1] == outcomes[index - 2] == "win"
        score += {"win": 2, "tie": 1, "loss": 0}[outcome] * (2 if on_fire else 1)
    return score


@settings(max_examples=100)
@given(st.lists(st.tuples(st.integers(1, 4), st.integers(1, 4), st.sampled_from([1, 2, 3])), max_size=25))
def test_arena_scores_match_an_independent_count(games: list[tuple[int, int, int]]) -> None:
    # outcome 1: the first wins, 2: the second wins, 3: a tie
    places = {1: (1, 2), 2: (2, 1), 3: (1, 1)}
    results = [
        TableResult(0, {one: places[outcome][0], other: places[outcome][1]}, float(at))
        for at, (one, other, outcome) in enumerate(games)
        if one != other
    ]
    lines = {line.entrant: line for line in arena_standings(entrants(4), results)}
    for me in range(1, 5):
        outcomes = []
        for result in results:
            if me in result.places:
                (other,) = set(result.places) - {me}
                mine, theirs = result.places[me], result.places[other]
                outcomes.append("win" if mine < theirs else "tie" if mine == theirs else "loss")
        assert lines[me].score == arena_score_by_hand(outcomes)
        assert lines[me].games == len(outcomes)
        assert lines[me].fire == (outcomes[-2:] == ["win", "win"])
    scores = [line.score for line in lines.values()]
    assert sorted(scores, reverse=True) == [line.score for line in arena_standings(entrants(4), results)]


def test_arena_standings_refuse_what_an_arena_cannot_hold() -> None:
    with pytest.raises(ValueError, match="a game has 3 seats; a table here has 2"):
        arena_standings(entrants(3), [TableResult(0, {1: 1, 2: 2, 3: 3}, 0)])
    with pytest.raises(ValueError, match="entrant 9, who is not in the tournament"):
        arena_standings(entrants(2), [arena_game(1, 9, 0)])
    with pytest.raises(ValueError, match="entrant 1 appears twice among the entrants"):
        arena_standings([*entrants(2), Entrant(1, "again", 25)], [])
    with pytest.raises(ValueError, match="place 3 at a table of 2"):
        arena_standings(entrants(2), [TableResult(0, {1: 1, 2: 3}, 0)])


# ---------------------------------------------------------------------------------------------
# Swiss pairing at tables of two


def candidate(
    one: int, score: float = 0, rating: float = 25, met: Sequence[int] = (), bye: bool = False
) -> SwissCandidate:
    return SwissCandidate(id=one, score=score, rating=rating, met=frozenset(met), had_bye=bye)


def check_everyone_once(players: Sequence[SwissCandidate], answer: SwissRound) -> None:
    seated = [one for table in answer.tables for one in table] + list(answer.byes)
    assert sorted(seated) == sorted(player.id for player in players)


def test_a_first_round_pairs_in_standings_order_and_the_lowest_sits_out() -> None:
    players = [candidate(one, rating=30 - one) for one in range(1, 8)]
    answer = pair_swiss(players, table_size=2, blocked=[])
    assert answer == SwissRound(tables=((1, 2), (3, 4), (5, 6)), byes=(7,))


def test_equal_scores_meet_and_rematches_are_avoided() -> None:
    # After round 1 (1 beat 2, 3 beat 4): leaders 1 and 3 meet, and 2 and 4.
    players = [candidate(1, 1, 28, [2]), candidate(2, 0, 27, [1]), candidate(3, 1, 26, [4]), candidate(4, 0, 25, [3])]
    assert pair_swiss(players, 2, []).tables == ((1, 3), (2, 4))
    # Had 1 and 3 met already, the leaders each meet one behind, not each other again.
    players[0] = candidate(1, 1, 28, [2, 3])
    players[2] = candidate(3, 1, 26, [4, 1])
    assert {frozenset(table) for table in pair_swiss(players, 2, []).tables} == {frozenset((1, 4)), frozenset((3, 2))}


def test_a_rematch_is_allowed_rather_than_leaving_players_out() -> None:
    players = [candidate(1, met=[2]), candidate(2, met=[1])]
    assert pair_swiss(players, 2, []) == SwissRound(tables=((1, 2),), byes=())
    assert pair_swiss(players, 2, [frozenset((1, 2))]) == SwissRound(tables=(), byes=(1, 2))


def test_the_bye_skips_whoever_has_had_one() -> None:
    players = [candidate(1, 2), candidate(2, 1), candidate(3, 0, bye=True)]
    answer = pair_swiss(players, 2, [])
    assert answer.byes == (2,)
    assert answer.tables == ((1, 3),)


def swiss_cost(players: Sequence[SwissCandidate], pairs: Sequence[tuple[int, ...]], bye: int | None) -> tuple[int, ...]:
    """The Swiss rules as a vector to minimise: most seated, no second bye, fewest rematches, the bye
    lowest-ranked, least squared score gap, least rating gap."""
    by_id = {player.id: player for player in players}
    order = sorted(by_id, key=lambda one: (-by_id[one].score, -by_id[one].rating, one))
    rematches = sum(b in by_id[a].met or a in by_id[b].met for a, b in pairs)
    scores = sum(round(abs(Fraction(by_id[a].score) - Fraction(by_id[b].score)) * 12) ** 2 for a, b in pairs)
    ratings = sum(round(abs(by_id[a].rating - by_id[b].rating) * 10) for a, b in pairs)  # in tenths
    second = int(bye is not None and by_id[bye].had_bye)
    from_bottom = 0 if bye is None else len(order) - 1 - order.index(bye)
    return (-(len(pairs) + (bye is not None)), second, rematches, from_bottom, scores, ratings)


@st.composite
def swiss_fields(draw: st.DrawFn, most: int) -> tuple[list[SwissCandidate], list[frozenset[int]]]:
    count = draw(st.integers(0, most))
    ids = list(range(1, count + 1))
    pairs = [frozenset(pair) for pair in itertools.combinations(ids, 2)]
    met_pairs = set(draw(st.lists(st.sampled_from(pairs), max_size=10))) if pairs else set()
    blocked = draw(st.lists(st.sampled_from(pairs), max_size=3)) if pairs else []
    players = [
        SwissCandidate(
            id=one,
            score=draw(st.sampled_from([0, 0.5, 1, 1.5, 2])),
            rating=draw(st.sampled_from([22.5, 25.0, 28.3])),
            met=frozenset(other for pair in met_pairs if one in pair for other in pair if other != one),
            had_bye=draw(st.booleans()),
        )
        for one in ids
    ]
    return players, blocked


@settings(max_examples=100)
@given(swiss_fields(most=8))
def test_a_two_player_round_is_the_best_by_brute_force(
    field: tuple[list[SwissCandidate], list[frozenset[int]]],
) -> None:
    players, blocked = field
    answer = pair_swiss(players, 2, blocked)
    check_everyone_once(players, answer)
    assert not any(frozenset(table) in blocked for table in answer.tables)
    ids = [player.id for player in players]
    odd = len(ids) % 2 == 1
    bye = answer.byes[0] if odd else None
    allowed = {frozenset(pair) for pair in itertools.combinations(ids, 2)} - set(blocked)
    best = min(
        swiss_cost(players, matching, sitter)
        for sitter in (ids if odd else [None])
        for matching in matchings([one for one in ids if one != sitter], allowed)
    )
    assert swiss_cost(players, answer.tables, bye) == best


def play_round(answer: SwissRound, rng: random.Random) -> list[dict[int, int]]:
    return [dict(zip(table, rng.sample(range(1, len(table) + 1), len(table)), strict=True)) for table in answer.tables]


@pytest.mark.slow  # Hypothesis over whole Swiss events
@settings(max_examples=25)
@given(st.integers(1, 5).map(lambda half: 2 * half + 1), st.integers(0, 10_000), st.sampled_from([2, 3, 4]))
def test_nobody_sits_out_twice_while_someone_has_not(count: int, seed: int, table_size: int) -> None:
    rng = random.Random(seed)
    people = entrants(count)
    results: list[TableResult] = []
    byes: list[Bye] = []
    for round_number in range(1, count + 1):
        lines = {line.entrant: line for line in swiss_standings(people, results, byes)}
        met = {
            one: {other for result in results if one in result.places for other in result.places} - {one}
            for one in lines
        }
        players = [
            SwissCandidate(one, lines[one].score, 25, frozenset(met[one]), any(bye.entrant == one for bye in byes))
            for one in lines
        ]
        answer = pair_swiss(players, table_size, [])
        check_everyone_once(players, answer)
        results += [TableResult(round_number, places, 0) for places in play_round(answer, rng)]
        byes += [Bye(one, round_number, 1.0) for one in answer.byes]
    sat_out = [bye.entrant for bye in byes]
    assert len(sat_out) == len(set(sat_out)), sat_out


# ---------------------------------------------------------------------------------------------
# Swiss pairing at tables of three or four


@pytest.mark.parametrize(
    ("count", "table_size", "sizes"),
    [
        (0, 3, []),
        (1, 3, None),
        (2, 3, [2]),
        (3, 3, [3]),
        (4, 3, [2, 2]),
        (5, 3, [3, 2]),
        (7, 3, [3, 2, 2]),
        (9, 3, [3, 3, 3]),
        (0, 4, []),
        (1, 4, None),
        (2, 4, [2]),
        (3, 4, [3]),
        (5, 4, None),
        (6, 4, [3, 3]),
        (7, 4, [4, 3]),
        (11, 4, [4, 4, 3]),
        (14, 4, [4, 4, 3, 3]),
        (17, 4, [4, 4, 3, 3, 3]),
        (5, 2, None),
        (6, 2, [2, 2, 2]),
    ],
)
def test_table_sizes_are_the_table_size_and_one_less(count: int, table_size: int, sizes: list[int] | None) -> None:
    assert table_sizes(count, table_size) == sizes


def most_large_tables(count: int, table_size: int) -> int | None:
    """How many tables of table_size seat count players with the rest at tables of one less, at
    most; None when no such split exists."""
    splits = [large for large in range(count // table_size + 1) if (count - large * table_size) % (table_size - 1) == 0]
    return max(splits, default=None)


@pytest.mark.parametrize("table_size", [3, 4])
@pytest.mark.parametrize("count", range(0, 23))
def test_only_a_field_that_cannot_split_leaves_anyone_out(count: int, table_size: int) -> None:
    players = [candidate(one, rating=20 + one) for one in range(1, count + 1)]
    answer = pair_swiss(players, table_size, [])
    check_everyone_once(players, answer)
    fewest_out = next(
        out
        for out in range(count + 1)
        if most_large_tables(count - out, table_size) is not None or 2 <= count - out < table_size
    )
    assert len(answer.byes) == fewest_out
    # The lowest-ranked sits out: here the lowest rating, the lowest id.
    assert answer.byes == tuple(range(1, fewest_out + 1))
    sizes = sorted((len(table) for table in answer.tables), reverse=True)
    seated = count - fewest_out
    if 2 <= seated < table_size:
        assert sizes == [seated]
    else:
        assert set(sizes) <= {table_size, table_size - 1}
        assert sizes.count(table_size) == most_large_tables(seated, table_size)


def test_four_player_tables_mend_a_rematch_by_a_swap() -> None:
    # Round 2 of twelve at tables of four: cut in order, table one would hold 1, 2, 3, 4, and
    # 1 and 2 met in round 1 (as did 5 and 6, 9 and 10). Swaps part every pair that met.
    met = {1: [2], 2: [1], 5: [6], 6: [5], 9: [10], 10: [9]}
    players = [candidate(one, rating=30 - one, met=met.get(one, [])) for one in range(1, 13)]
    answer = pair_swiss(players, 4, [])
    check_everyone_once(players, answer)
    for table in answer.tables:
        assert not any(other in met.get(one, []) for one in table for other in table)
    assert answer.byes == ()
    # Deterministic: the same field in another order gives the same round.
    assert pair_swiss(list(reversed(players)), 4, []) == answer


def test_a_large_field_is_cut_in_order_and_mended_by_swaps() -> None:
    # 24 players at tables of four (more than every split can be weighed for): cut in order, each
    # table would seat two who met in round 1; swaps part them all.
    met = {one: [one + 1] if one % 2 else [one - 1] for one in range(1, 25)}
    players = [candidate(one, score=0 if one > 12 else 1, rating=40 - one, met=met[one]) for one in range(1, 25)]
    answer = pair_swiss(players, 4, [frozenset((1, 3))])
    check_everyone_once(players, answer)
    assert answer.byes == () and len(answer.tables) == 6
    for table in answer.tables:
        assert not any(other in met[one] for one in table for other in table), table
        assert not {1, 3} <= set(table)
    # The score groups stay apart: the leaders (1 point) fill the top three tables.
    assert [max(table) <= 12 for table in answer.tables] == [True] * 3 + [False] * 3
    assert pair_swiss(list(reversed(players)), 4, [frozenset((3, 1))]) == answer


def test_a_field_of_more_than_a_hundred_is_paired_in_groups() -> None:
    rng = random.Random(35)
    met: dict[int, set[int]] = {one: set() for one in range(1, 132)}
    for one in range(1, 131, 2):  # round 1: 1-2, 3-4, ...; 131 had the bye
        met[one].add(one + 1)
        met[one + 1].add(one)
    players = [candidate(one, score=one % 2, rating=rng.uniform(15, 35), met=sorted(met[one])) for one in range(1, 131)]
    players.append(candidate(131, score=1, rating=25, bye=True))
    answer = pair_swiss(players, 2, [])
    check_everyone_once(players, answer)
    assert len(answer.byes) == 1 and answer.byes != (131,)
    assert not any(table[1] in met[table[0]] for table in answer.tables)


def test_a_block_at_a_table_of_three_sends_the_lower_of_the_two_out_if_nothing_else_works() -> None:
    players = [candidate(1, rating=27), candidate(2, rating=26), candidate(3, rating=25)]
    answer = pair_swiss(players, 3, [frozenset((1, 2))])
    assert answer == SwissRound(tables=((1, 3),), byes=(2,))
    # With a fourth player there are two tables of two, and 1 and 2 sit apart at them.
    four = pair_swiss([*players, candidate(4, rating=24)], 3, [frozenset((1, 2))])
    assert four.byes == () and len(four.tables) == 2
    assert not any({1, 2} <= set(table) for table in four.tables)


def partitions(ids: list[int], sizes: list[int]) -> Iterator[list[tuple[int, ...]]]:
    if not sizes:
        yield []
        return
    first, rest = ids[0], ids[1:]
    for others in itertools.combinations(rest, sizes[0] - 1):
        remaining = [one for one in rest if one not in others]
        for tail in partitions(remaining, sizes[1:]):
            yield [(first, *others), *tail]


@settings(max_examples=150)
@given(swiss_fields(most=8), st.sampled_from([3, 4]))
def test_multiplayer_tables_avoid_rematches_when_brute_force_can(
    field: tuple[list[SwissCandidate], list[frozenset[int]]], table_size: int
) -> None:
    players, blocked = field
    answer = pair_swiss(players, table_size, blocked)
    check_everyone_once(players, answer)
    by_id = {player.id: player for player in players}
    for table in answer.tables:
        assert all(frozenset(pair) not in blocked for pair in itertools.combinations(table, 2))
        assert table_size - 1 <= len(table) <= table_size or len(answer.tables) == 1

    def rematches(tables: Sequence[Sequence[int]]) -> int:
        return sum(b in by_id[a].met for table in tables for a, b in itertools.combinations(table, 2))

    seated = sorted(one for table in answer.tables for one in table)
    sizes = sorted((len(table) for table in answer.tables), reverse=True)
    apart = [
        tables
        for tables in partitions(seated, sizes)
        if not any(frozenset(pair) in blocked for table in tables for pair in itertools.combinations(table, 2))
    ]
    if any(rematches(tables) == 0 for tables in apart):
        assert rematches(answer.tables) == 0


def test_swiss_pairing_refuses_bad_input() -> None:
    with pytest.raises(ValueError, match="a Swiss table seats 2 to 4 players, not 5"):
        pair_swiss([candidate(1)], 5, [])
    with pytest.raises(ValueError, match="not 1"):
        pair_swiss([candidate(1)], 1, [])
    with pytest.raises(ValueError, match="entrant 1 appears twice among the players"):
        pair_swiss([candidate(1), candidate(1)], 2, [])
    assert pair_swiss([], 2, []) == SwissRound(tables=(), byes=())
    assert pair_swiss([candidate(4)], 3, []) == SwissRound(tables=(), byes=(4,))


# ---------------------------------------------------------------------------------------------
# Swiss standings


def test_a_two_player_swiss_by_hand() -> None:
    # Four players, three rounds, one tie.
    #   round 1: A beats B, C beats D
    #   round 2: A beats C, B ties D
    #   round 3: A beats D, C beats B
    # Scores: A 3, C 2, B 0.5, D 0.5.
    # Buchholz: A = B + C + D = 0.5 + 2 + 0.5 = 3; C = D + A + B = 4; B = A + D + C = 5.5;
    #           D = C + B + A = 5.5.
    # Sonneborn-Berger: A = 0.5 + 2 + 0.5 = 3; C = 0.5 + 0 + 0.5 = 1; B = 0.5 * 0.5 = 0.25;
    #           D = 0.5 * 0.5 = 0.25. B and D are equal on everything, rating included: rank 3 both.
    people = [Entrant(1, "A", 25), Entrant(2, "B", 25), Entrant(3, "C", 25), Entrant(4, "D", 25)]
    results = [
        TableResult(1, {1: 1, 2: 2}, 0),
        TableResult(1, {3: 1, 4: 2}, 0),
        TableResult(2, {1: 1, 3: 2}, 0),
        TableResult(2, {2: 1, 4: 1}, 0),
        TableResult(3, {1: 1, 4: 2}, 0),
        TableResult(3, {3: 1, 2: 2}, 0),
    ]
    lines = swiss_standings(people, results, [])
    assert [(line.name, line.score, line.rank, line.games) for line in lines] == [
        ("A", 3.0, 1, 3),
        ("C", 2.0, 2, 3),
        ("B", 0.5, 3, 3),
        ("D", 0.5, 3, 3),
    ]
    assert [dict(line.tiebreaks) for line in lines] == [
        {"buchholz": 3.0, "sonneborn_berger": 3.0},
        {"buchholz": 4.0, "sonneborn_berger": 1.0},
        {"buchholz": 5.5, "sonneborn_berger": 0.25},
        {"buchholz": 5.5, "sonneborn_berger": 0.25},
    ]
    assert not any(line.fire for line in lines)


def test_a_multiplayer_swiss_by_hand_with_byes() -> None:
    # Seven players at tables of three and four; place p of k scores (k - p) / (k - 1).
    #   round 1: table (1, 2, 3, 4) places 1, 2, 2, 4 -> 1, 1/2, 1/2, 0 (2 and 3 share 2/3 and 1/3)
    #            table (5, 6, 7)   places 1, 2, 3    -> 1, 1/2, 0
    #   round 2: table (1, 5, 2)   places 2, 1, 3    -> 1/2, 1, 0
    #            table (6, 3, 4)   places 1, 1, 3    -> 3/4, 3/4, 0 (6 and 3 share 1 and 1/2)
    #            7 sits out: a bye of 1 point.
    #   8 joined before round 2 and had a half-point bye for round 1, then sat out round 2 by a
    #   block: another full point. A bye adds nothing to Buchholz or Sonneborn-Berger.
    # Scores: 1: 1.5, 2: 0.5, 3: 1.25, 4: 0, 5: 2, 6: 1.25, 7: 1, 8: 1.5.
    # Buchholz (every table-mate's final score, once per game):
    #   1: (0.5 + 1.25 + 0) + (2 + 0.5) = 4.25    5: (1.25 + 1) + (1.5 + 0.5) = 4.25
    # Sonneborn-Berger (points x mean final score of the table-mates):
    #   1: 1 x 1.75/3 + 1/2 x 2.5/2 = 7/12 + 5/8 = 29/24     5: 1 x 2.25/2 + 1 x 2/2 = 2.125
    people = entrants(8)
    results = [
        TableResult(1, {1: 1, 2: 2, 3: 2, 4: 4}, 0),
        TableResult(1, {5: 1, 6: 2, 7: 3}, 0),
        TableResult(2, {1: 2, 5: 1, 2: 3}, 0),
        TableResult(2, {6: 1, 3: 1, 4: 3}, 0),
    ]
    byes = [Bye(7, 2, 1.0), Bye(8, 1, 0.5), Bye(8, 2, 1.0)]
    lines = {line.entrant: line for line in swiss_standings(people, results, byes)}
    assert {one: line.score for one, line in lines.items()} == {
        1: 1.5,
        2: 0.5,
        3: 1.25,
        4: 0,
        5: 2,
        6: 1.25,
        7: 1,
        8: 1.5,
    }
    assert lines[1].tiebreaks["buchholz"] == 4.25 and lines[5].tiebreaks["buchholz"] == 4.25
    assert lines[1].tiebreaks["sonneborn_berger"] == pytest.approx(29 / 24)
    assert lines[5].tiebreaks["sonneborn_berger"] == pytest.approx(2.125)
    assert lines[8].tiebreaks == {"buchholz": 0.0, "sonneborn_berger": 0.0} and lines[8].games == 0
    assert lines[5].rank == 1
    # 1 and 8 are equal on score; 1's Buchholz puts 1 ahead.
    assert (lines[1].rank, lines[8].rank) == (2, 3)


def points_by_hand(places: dict[int, int], seat: int) -> Fraction:
    """Place points as one over the others beaten, a half over each tied, of k - 1."""
    mine = places[seat]
    beaten = sum(place > mine for place in places.values())
    tied = sum(place == mine for place in places.values()) - 1
    return (beaten + Fraction(tied, 2)) / (len(places) - 1)


@st.composite
def swiss_histories(draw: st.DrawFn) -> tuple[list[TableResult], list[Bye]]:
    results, byes = [], []
    for round_number in range(1, draw(st.integers(1, 4)) + 1):
        order = draw(st.permutations(range(1, 8)))
        cut = draw(st.sampled_from([(2, 2, 2), (3, 4), (4, 3), (3, 3), (2, 3)]))
        start = 0
        for size in cut:
            table = order[start : start + size]
            start += size
            results.append(TableResult(round_number, {one: draw(st.integers(1, size)) for one in table}, 0))
        byes += [Bye(one, round_number, draw(st.sampled_from([0.5, 1.0]))) for one in order[start:]]
    return results, byes


@settings(max_examples=100)
@given(swiss_histories())
def test_swiss_standings_match_an_independent_count(history: tuple[list[TableResult], list[Bye]]) -> None:
    results, byes = history
    lines = swiss_standings(entrants(7), results, byes)
    score = {one: Fraction(0) for one in range(1, 8)}
    for result in results:
        for seat in result.places:
            score[seat] += points_by_hand(dict(result.places), seat)
    for bye in byes:
        score[bye.entrant] += Fraction(bye.points)
    by_entrant = {line.entrant: line for line in lines}
    for one in score:
        mates = [[other for other in result.places if other != one] for result in results if one in result.places]
        buchholz = sum((score[other] for table in mates for other in table), Fraction(0))
        berger = Fraction(0)
        for result in results:
            if one in result.places:
                others = [score[other] for other in result.places if other != one]
                berger += points_by_hand(dict(result.places), one) * sum(others, Fraction(0)) / len(others)
        assert by_entrant[one].score == float(score[one])
        assert by_entrant[one].tiebreaks["buchholz"] == pytest.approx(float(buchholz))
        assert by_entrant[one].tiebreaks["sonneborn_berger"] == pytest.approx(float(berger))
    keys = [(line.score, line.tiebreaks["buchholz"], line.tiebreaks["sonneborn_berger"]) for line in lines]
    assert keys == sorted(keys, reverse=True)
    for before, after in itertools.pairwise(lines):  # everyone is rated 25: ties share a rank
        same = (before.score, dict(before.tiebreaks)) == (after.score, dict(after.tiebreaks))
        assert (after.rank == before.rank) == same


def test_swiss_standings_refuse_what_a_swiss_cannot_hold() -> None:
    with pytest.raises(ValueError, match="entrant 1 is seated twice in round 1"):
        swiss_standings(entrants(3), [TableResult(1, {1: 1, 2: 2}, 0)], [Bye(1, 1, 1.0)])
    with pytest.raises(ValueError, match="numbered from 1, not 0"):
        swiss_standings(entrants(2), [TableResult(0, {1: 1, 2: 2}, 0)], [])
    with pytest.raises(ValueError, match="a bye names entrant 5"):
        swiss_standings(entrants(2), [], [Bye(5, 1, 1.0)])
    with pytest.raises(ValueError, match="a game has 1 seats"):
        swiss_standings(entrants(2), [TableResult(1, {1: 1}, 0)], [])
