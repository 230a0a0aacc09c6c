"""Every shipped puzzle, proven again by the engine: its position can occur, its rack is not yet
complete, and its solution is the one and only answer of its kind. Also what the proof refuses."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from tendays.engine import available_editions, checker_for, load_edition
from tendays.puzzles import (
    Answer,
    Kind,
    ProofError,
    Puzzle,
    finishes,
    prove,
    safe_discards,
    shipped,
)
from tendays.puzzles.cut import cut
from tendays.puzzles.proof import with_tile


@pytest.mark.parametrize("edition", available_editions())
def test_every_shipped_puzzle_is_proven(edition: str) -> None:
    puzzles = shipped(edition)
    assert len(puzzles) >= 2000
    assert {p.kind for p in puzzles} == set(Kind)
    assert len({p.id for p in puzzles}) == len(puzzles)
    for puzzle in puzzles:
        prove(puzzle)


@pytest.mark.parametrize("edition", available_editions())
def test_shipped_positions_fit_the_box(edition: str) -> None:
    box = load_edition(edition)
    checker = checker_for(box)
    for puzzle in shipped(edition):
        shown = Counter(
            [
                *puzzle.rack,
                *(t for pile in puzzle.piles for t in pile),
                *(puzzle.opponent or ()),
                *([puzzle.held] if puzzle.held is not None else []),
            ]
        )
        assert all(count <= box.tiles[tile].count for tile, count in shown.items()), puzzle.id
        assert not checker.is_complete(puzzle.rack), puzzle.id
        assert len(puzzle.rack) == 10 and len(puzzle.piles) == 3 and all(puzzle.piles)


def test_the_solution_of_a_finish_puzzle_completes_the_journey() -> None:
    puzzle = next(p for p in shipped("usa") if p.kind is Kind.FINISH)
    top = puzzle.piles[puzzle.solution.pile - 1][-1]
    assert (
        checker_for(load_edition("usa"))
        .check(with_tile(puzzle.rack, puzzle.solution.day, top))
        .valid
    )


def test_a_second_answer_is_refused() -> None:
    box = load_edition("usa")

    # the box has one more copy of the winning tile than the puzzle shows
    def spare(puzzle: Puzzle) -> bool:
        top = puzzle.piles[puzzle.solution.pile - 1][-1]
        shown = [*puzzle.rack, *(t for pile in puzzle.piles for t in pile)]
        return shown.count(top) < box.tiles[top].count

    puzzle = next(p for p in shipped("usa") if p.kind is Kind.FINISH and spare(p))
    top = puzzle.piles[puzzle.solution.pile - 1][-1]
    other = puzzle.solution.pile % 3 + 1
    piles = tuple(
        (*pile, top) if number == other else pile for number, pile in enumerate(puzzle.piles, 1)
    )
    with pytest.raises(ProofError, match="finish the journey with"):
        prove(replace(puzzle, piles=piles))


def test_a_wrong_solution_and_an_impossible_position_are_refused() -> None:
    puzzle = next(p for p in shipped("usa") if p.kind is Kind.FINISH)
    wrong = Answer(puzzle.solution.pile, puzzle.solution.day % 10 + 1)
    with pytest.raises(ProofError):
        prove(replace(puzzle, solution=wrong))
    one_of_a_kind = next(t for t in puzzle.rack if load_edition("usa").tiles[t].count == 1)
    with pytest.raises(ProofError, match="appears 2 times"):
        prove(replace(puzzle, piles=(puzzle.piles[0] + (one_of_a_kind,), *puzzle.piles[1:])))


def test_a_block_puzzle_has_one_safe_pile_and_the_others_hand_over_a_finish() -> None:
    edition = load_edition("germany")
    puzzle = next(p for p in shipped("germany") if p.kind is Kind.BLOCK)
    assert puzzle.opponent is not None and puzzle.held is not None
    assert safe_discards(edition, puzzle.opponent, puzzle.piles, puzzle.held) == [
        puzzle.solution.pile
    ]
    assert finishes(edition, puzzle.opponent, puzzle.piles)  # there is a threat to block
    with pytest.raises(ProofError, match="safe discards"):
        prove(replace(puzzle, solution=Answer(puzzle.solution.pile % 3 + 1)))


@pytest.mark.slow  # plays bot games
def test_cutting_a_game_finds_only_proven_puzzles() -> None:
    from tendays.bots import make_bot
    from tendays.engine import Game, Options, apply, new_game, play_bots

    found: list[Puzzle] = []
    for seed in range(11, 31):  # a few games: not every one leaves a puzzle
        game = Game("usa", Options(players=2, turn_limit=300), seed)
        play_bots(game, [make_bot("fallible:0.25"), make_bot("fallible:0.5")])
        state = new_game(load_edition("usa"), game.options, game.seed)
        states = [state]
        for move in game.moves:
            state = apply(state, move)
            states.append(state)
        found = list(cut(states, game.seed))
        if found:
            break
    assert found
    for puzzle in found:
        prove(puzzle)
        assert puzzle.source[0] == game.seed
        assert isinstance(Puzzle.from_json(puzzle.to_json()), Puzzle)
