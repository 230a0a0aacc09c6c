"""Cutting puzzles out of a played game: every position of it that makes a puzzle with one answer.

A ``finish`` puzzle is a turn's start where exactly one pile top, on exactly one day, completes the
mover's journey. A ``block`` puzzle is a two-player turn where the mover drew a tile that does not
finish their own journey, and exactly one pile, covered with it, leaves the other player no pile top
that completes theirs. Only the top few tiles of each pile are kept: nothing below a top can be
taken this turn or the next.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace

from tendays.engine import Phase, Role, State, checker_for

from .model import Answer, Kind, Puzzle
from .proof import ProofError, finishes, prove, safe_discards, with_tile

__all__ = ["KEPT", "cut", "rating"]

KEPT = 3  # tiles kept of each discard pile, top included


def _trim(piles: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    return tuple(pile[-KEPT:] for pile in piles)


def cut(states: Iterable[State], seed: int) -> Iterator[Puzzle]:
    """The proven puzzles among a game's states (the state after each move, in
    order), numbered ``source``."""
    for number, state in enumerate(states):
        if state.is_over or not all(state.piles):
            continue
        found = (
            _finish(state, seed, number)
            if state.phase is Phase.DRAW
            else _block(state, seed, number)
        )
        if found is None:
            continue
        try:
            prove(found)
        except ProofError:
            continue
        yield found


def _finish(state: State, seed: int, number: int) -> Puzzle | None:
    rack = state.racks[state.current]
    if None in rack:
        return None
    tiles = tuple(t for t in rack if t is not None)
    answers = finishes(state.edition, tiles, state.piles)
    if len(answers) != 1:
        return None
    puzzle = Puzzle(
        "",
        state.edition.id,
        Kind.FINISH,
        tiles,
        _trim(state.piles),
        answers[0],
        0,
        source=(seed, number),
    )
    return _rated(puzzle)


def _block(state: State, seed: int, number: int) -> Puzzle | None:
    if state.phase is not Phase.PLACE or state.taken_from != 0 or state.options.players != 2:
        return None
    held = state.in_hand
    own = state.racks[state.current]
    other = state.racks[1 - state.current]
    if held is None or None in own or None in other:
        return None
    rack = tuple(t for t in own if t is not None)
    opponent = tuple(t for t in other if t is not None)
    checker = checker_for(state.edition)
    if checker.is_complete(opponent) or any(
        checker.is_complete(with_tile(rack, day, held)) for day in range(1, len(rack) + 1)
    ):
        return None
    safe = safe_discards(state.edition, opponent, state.piles, held)
    if len(safe) != 1:
        return None
    puzzle = Puzzle(
        "",
        state.edition.id,
        Kind.BLOCK,
        rack,
        _trim(state.piles),
        Answer(safe[0]),
        0,
        held=held,
        opponent=opponent,
        source=(seed, number),
    )
    return _rated(puzzle)


def rating(puzzle: Puzzle) -> int:
    """An estimate of a puzzle's difficulty on the scale of players' puzzle ratings (about 800 to
    1800).

    Harder: a block (the other player's rack must be read), a transport tile in the link that
    decides, and near misses (pile tops that, on some day, leave the journey broken in one step
    only).
    """
    edition = puzzle.game_edition
    checker = checker_for(edition)
    if puzzle.kind is Kind.FINISH:
        rack, answer = puzzle.rack, puzzle.solution
        needed = puzzle.piles[answer.pile - 1][-1]
    else:
        assert puzzle.opponent is not None
        rack = puzzle.opponent
        answer = finishes(edition, rack, puzzle.piles)[0]
        needed = puzzle.piles[answer.pile - 1][-1]
    day = answer.day
    around = [rack[d - 1] for d in (day - 1, day + 1) if 1 <= d <= len(rack)]
    transport = any(edition.tiles[t].role is not Role.REGION for t in (needed, *around))
    near = sum(
        len(checker.check(with_tile(rack, d, pile[-1])).problems) == 1
        for pile in puzzle.piles
        for d in range(1, len(rack) + 1)
    )
    base = 1000 if puzzle.kind is Kind.FINISH else 1300
    return min(1800, base + 200 * transport + 25 * near)


def _rated(puzzle: Puzzle) -> Puzzle:
    return replace(puzzle, rating=rating(puzzle))
