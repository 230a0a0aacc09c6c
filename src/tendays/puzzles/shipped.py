"""The puzzles shipped with the package: ``data/EDITION.jsonl.gz``, one puzzle a line in its JSON
form.

``tools/make_puzzles.py`` writes them; the tests prove every one again. A daily puzzle is chosen
from the date alone, so everyone gets the same one on the same day.
"""

from __future__ import annotations

import datetime
import gzip
import hashlib
import json
from functools import cache
from importlib import resources

from tendays.engine import available_editions
from tendays.engine.chance import Purpose, stream

from .model import Kind, Puzzle, PuzzleError

__all__ = ["daily", "daily_date", "data_file", "pick", "puzzle_by_id", "shipped"]


def data_file(edition: str) -> str:
    return f"{edition}.jsonl.gz"


@cache
def shipped(edition: str) -> tuple[Puzzle, ...]:
    """Every shipped puzzle of an edition, in file order (none for an edition without a file)."""
    if edition not in available_editions():
        raise PuzzleError(
            f"unknown edition {edition!r}; known editions: {', '.join(available_editions())}"
        )
    path = resources.files("tendays.puzzles").joinpath("data", data_file(edition))
    if not path.is_file():
        return ()
    with gzip.open(path.open("rb"), "rt", encoding="utf-8") as lines:
        return tuple(Puzzle.from_json(json.loads(line)) for line in lines if line.strip())


@cache
def _by_id(edition: str) -> dict[str, Puzzle]:
    return {puzzle.id: puzzle for puzzle in shipped(edition)}


def puzzle_by_id(edition: str, puzzle_id: str) -> Puzzle | None:
    """The shipped puzzle with this id, or None."""
    return _by_id(edition).get(puzzle_id)


def pick(edition: str, count: int, seed: int, kind: Kind | None = None) -> list[Puzzle]:
    """``count`` different puzzles (fewer if there are not so many), the
    same ones for the same seed."""
    pool = [p for p in shipped(edition) if kind is None or p.kind is kind]
    return stream(Purpose.PUZZLES, edition, seed).sample(pool, min(count, len(pool)))


def daily_date() -> datetime.date:
    """The date whose puzzle is the daily one now: today in UTC, so that everyone, on the site
    (``/api/puzzles/EDITION/daily``) and in the terminal (``tendays puzzles --daily``), gets the
    same one at the same moment."""
    return datetime.datetime.now(datetime.UTC).date()


def daily(edition: str, day: datetime.date) -> Puzzle:
    """The puzzle of the day: the same for everyone on that date."""
    pool = shipped(edition)
    if not pool:
        raise PuzzleError(f"no puzzles are shipped for {edition}")
    digest = hashlib.sha256(f"tendays-daily/{edition}/{day.isoformat()}".encode()).digest()
    return pool[int.from_bytes(digest[:8], "big") % len(pool)]
