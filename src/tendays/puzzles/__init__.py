"""Puzzles: positions cut from real bot games, each with one best answer that the engine proves.

Two kinds (:class:`Kind`):

- ``finish``: take the top tile of one discard pile and put it on one day to complete the journey;
  exactly one pile and day does.
- ``block``: you drew a tile you cannot use and must discard it; the next player's rack is shown,
  and exactly one pile leaves them no pile top that completes their journey.

:mod:`.proof` proves a puzzle with the engine's journey check, :mod:`.explain` says in words why an
answer is right or wrong, :mod:`.cut` finds puzzles in a game, and :mod:`.shipped` reads the puzzles
shipped with the package (made by ``tools/make_puzzles.py``).
"""

from .model import Answer, Kind, Puzzle, PuzzleError
from .proof import ProofError, finishes, prove, safe_discards
from .shipped import daily, daily_date, pick, puzzle_by_id, shipped

__all__ = [
    "Answer",
    "Kind",
    "ProofError",
    "Puzzle",
    "PuzzleError",
    "daily",
    "daily_date",
    "finishes",
    "pick",
    "prove",
    "puzzle_by_id",
    "safe_discards",
    "shipped",
]
