"""Judging an answer, in words: right or wrong, and why, in the reader's language.

Every reason is the engine's: the links of its verdict (:meth:`tendays.engine.JourneyChecker.check`)
say why a journey holds together or where it breaks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tendays.engine import PILES, Verdict, checker_for, use_language
from tendays.engine.i18n import gettext as _

from .model import Answer, Kind, Puzzle, PuzzleError
from .proof import discard_onto, finishes, with_tile

__all__ = ["Judgement", "judge", "parse_answer"]


@dataclass(frozen=True, slots=True)
class Judgement:
    """The verdict on an answer: whether it is the solution, why, and why the solution works.

    ``rack`` is the journey the answer is about (a finish: the player's rack after the answer; a
    block: the other player's rack as a pile top left open would complete it) and ``verdict`` the
    engine's verdict on it.
    """

    correct: bool
    explanation: str
    solution: Answer
    solution_explanation: str
    rack: tuple[int, ...]
    verdict: Verdict

    def to_json(self, puzzle: Puzzle) -> dict[str, Any]:
        tiles = puzzle.game_edition.tiles
        return {
            "correct": self.correct,
            "explanation": self.explanation,
            "solution": self.solution.to_json(),
            "solution_explanation": self.solution_explanation,
            "rack": [tiles[t].id for t in self.rack],
            "verdict": self.verdict.to_json(),
        }


def parse_answer(puzzle: Puzzle, pile: int, day: int = 0) -> Answer:
    """Check that an answer names a pile (and, for a finish, a day) of the
    puzzle; the refusal is in words."""
    if not 1 <= pile <= PILES:
        raise PuzzleError(
            _("there is no discard pile {pile}; the piles are 1-{piles}").format(
                pile=pile, piles=PILES
            )
        )
    if puzzle.kind is Kind.FINISH and not 1 <= day <= puzzle.days:
        raise PuzzleError(
            _("there is no day {day}; the rack has days 1-{days}").format(day=day, days=puzzle.days)
        )
    if puzzle.kind is Kind.BLOCK and day:
        raise PuzzleError(
            _("this puzzle asks only for a pile: the drawn tile is discarded, it goes on no day")
        )
    return Answer(pile, day if puzzle.kind is Kind.FINISH else 0)


def judge(puzzle: Puzzle, answer: Answer, *, lang: str | None = None) -> Judgement:
    """Whether ``answer`` solves the puzzle, and why, in the current language or ``lang``."""
    with use_language(lang):
        answer = parse_answer(puzzle, answer.pile, answer.day)
        if puzzle.kind is Kind.FINISH:
            return _judge_finish(puzzle, answer)
        return _judge_block(puzzle, answer)


def _links_at(verdict: Verdict, day: int) -> str:
    """The verdict's links that pass through ``day``, as one sentence."""
    return "; ".join(link.message for link in verdict.links if link.from_day <= day <= link.to_day)


def _judge_finish(puzzle: Puzzle, answer: Answer) -> Judgement:
    edition = puzzle.game_edition
    words = edition.words()
    checker = checker_for(edition)
    solution = puzzle.solution
    best = puzzle.piles[solution.pile - 1][-1]
    solved = checker.check(with_tile(puzzle.rack, solution.day, best))
    why = _("{tile:The} from pile {pile} belongs on day {day}: {links}.").format(
        tile=words.tile(best),
        pile=solution.pile,
        day=solution.day,
        links=_links_at(solved, solution.day),
    )
    if answer == solution:
        # TRANSLATORS: {links} is the engine's explanation of each link through the day ("Texas
        # borders Oklahoma").
        explanation = _(
            "Right: {tile:the} from pile {pile} on day {day} completes the journey: {links}."
        ).format(
            tile=words.tile(best),
            pile=solution.pile,
            day=solution.day,
            links=_links_at(solved, solution.day),
        )
        return Judgement(
            True, explanation, solution, why, with_tile(puzzle.rack, solution.day, best), solved
        )
    tile = puzzle.piles[answer.pile - 1][-1]
    rack = with_tile(puzzle.rack, answer.day, tile)
    verdict = checker.check(rack)
    if tile == puzzle.rack[answer.day - 1]:
        explanation = _(
            "Not this one: day {day} already holds {tile}, so the journey stays as it is: "
            "{problem}."
        ).format(day=answer.day, tile=words.tile(tile), problem=verdict.problems[0])
    else:
        # TRANSLATORS: {problem} is the engine's first broken link, with
        # its days ("day 3 → 4: ...").
        explanation = _(
            "Not this one: with {tile:the} from pile {pile} on day {day} the journey is still "
            "broken: {problem}."
        ).format(
            tile=words.tile(tile), pile=answer.pile, day=answer.day, problem=verdict.problems[0]
        )
    return Judgement(False, explanation, solution, why, rack, verdict)


def _judge_block(puzzle: Puzzle, answer: Answer) -> Judgement:
    edition = puzzle.game_edition
    words = edition.words()
    checker = checker_for(edition)
    assert puzzle.opponent is not None and puzzle.held is not None
    opponent = puzzle.opponent
    threat = finishes(edition, opponent, puzzle.piles)[0]
    needed = puzzle.piles[threat.pile - 1][-1]
    finished = with_tile(opponent, threat.day, needed)
    verdict = checker.check(finished)
    why = _(
        "Pile {pile} must be covered: {tile:the} on it completes the other player's journey on day "
        "{day} ({links})."
    ).format(
        pile=threat.pile,
        tile=words.tile(needed),
        day=threat.day,
        links=_links_at(verdict, threat.day),
    )
    if answer == puzzle.solution:
        explanation = _(
            "Right: {held:the} covers {tile:the} on pile {pile}, which would complete the other "
            "player's journey on day {day}; no pile top finishes it now."
        ).format(
            held=words.tile(puzzle.held), tile=words.tile(needed), pile=threat.pile, day=threat.day
        )
        return Judgement(True, explanation, puzzle.solution, why, finished, verdict)
    left = finishes(edition, opponent, discard_onto(puzzle.piles, answer.pile, puzzle.held))[0]
    open_tile = discard_onto(puzzle.piles, answer.pile, puzzle.held)[left.pile - 1][-1]
    finished = with_tile(opponent, left.day, open_tile)
    verdict = checker.check(finished)
    explanation = _(
        "Not this one: pile {pile} still shows {tile:the}, and on day {day} it completes the other "
        "player's journey ({links})."
    ).format(
        pile=left.pile, tile=words.tile(open_tile), day=left.day, links=_links_at(verdict, left.day)
    )
    return Judgement(False, explanation, puzzle.solution, why, finished, verdict)
