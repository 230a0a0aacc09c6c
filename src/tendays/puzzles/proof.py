"""Proofs: every answer of a puzzle is tried with the engine's journey check, and exactly one may
work.

Nothing here knows a rule of the game: whether a rack is a complete journey is always
:meth:`tendays.engine.JourneyChecker.is_complete`'s answer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from tendays.engine import PILES, Edition, checker_for, load_edition

from .model import Answer, Kind, Puzzle

__all__ = ["ProofError", "finishes", "prove", "safe_discards", "with_tile"]

Piles = Sequence[Sequence[int]]


class ProofError(ValueError):
    """A puzzle whose answer is not the one and only one, or whose position cannot occur."""


def with_tile(rack: Sequence[int], day: int, tile: int) -> tuple[int, ...]:
    """The rack with ``tile`` on ``day`` (1-based) instead of the tile there."""
    return (*rack[: day - 1], tile, *rack[day:])


def finishes(edition: Edition, rack: Sequence[int], piles: Piles) -> list[Answer]:
    """Every pile and day whose top tile, put on that day, completes the
    journey (the engine decides)."""
    checker = checker_for(edition)
    found = []
    for pile, tiles in enumerate(piles, 1):
        if not tiles:
            continue
        for day in range(1, len(rack) + 1):
            if checker.is_complete(with_tile(rack, day, tiles[-1])):
                found.append(Answer(pile, day))
    return found


def discard_onto(piles: Piles, pile: int, tile: int) -> tuple[tuple[int, ...], ...]:
    """The piles after ``tile`` is discarded onto ``pile`` (1-based)."""
    return tuple(
        (*tiles, tile) if number == pile else tuple(tiles) for number, tiles in enumerate(piles, 1)
    )


def safe_discards(edition: Edition, opponent: Sequence[int], piles: Piles, held: int) -> list[int]:
    """The piles onto which discarding ``held`` leaves the next player no pile
    top that completes their rack."""
    return [
        pile
        for pile in range(1, PILES + 1)
        if not finishes(edition, opponent, discard_onto(piles, pile, held))
    ]


def prove(puzzle: Puzzle) -> None:
    """Raise :class:`ProofError` unless the puzzle's position can occur and its
    solution is the only answer."""
    edition = load_edition(puzzle.edition)
    checker = checker_for(edition)
    if len(puzzle.piles) != PILES or not all(puzzle.piles):
        raise ProofError(f"{puzzle.id}: a puzzle shows {PILES} discard piles, none empty")
    shown = [*puzzle.rack, *(t for pile in puzzle.piles for t in pile)]
    if puzzle.held is not None:
        shown.append(puzzle.held)
    if puzzle.opponent is not None:
        shown.extend(puzzle.opponent)
    for tile, count in Counter(shown).items():
        if count > edition.tiles[tile].count:
            raise ProofError(
                f"{puzzle.id}: {edition.tiles[tile].id} appears {count} times; the box has "
                f"{edition.tiles[tile].count}"
            )
    if checker.is_complete(puzzle.rack):
        raise ProofError(f"{puzzle.id}: the rack is already a complete journey")
    if puzzle.kind is Kind.FINISH:
        answers = finishes(edition, puzzle.rack, puzzle.piles)
        if answers != [puzzle.solution]:
            raise ProofError(
                f"{puzzle.id}: the pile tops finish the journey with {answers}, not only with "
                f"{puzzle.solution}"
            )
        return
    if puzzle.held is None or puzzle.opponent is None or len(puzzle.opponent) != puzzle.days:
        raise ProofError(
            f"{puzzle.id}: a block puzzle shows the drawn tile and the next player's rack"
        )
    if checker.is_complete(puzzle.opponent):
        raise ProofError(f"{puzzle.id}: the next player's rack is already a complete journey")
    if any(
        checker.is_complete(with_tile(puzzle.rack, day, puzzle.held))
        for day in range(1, puzzle.days + 1)
    ):
        raise ProofError(f"{puzzle.id}: the drawn tile completes the player's own journey")
    safe = safe_discards(edition, puzzle.opponent, puzzle.piles, puzzle.held)
    if safe != [puzzle.solution.pile] or puzzle.solution.day:
        raise ProofError(
            f"{puzzle.id}: the safe discards are onto piles {safe}, not only onto "
            f"{puzzle.solution.pile}"
        )
