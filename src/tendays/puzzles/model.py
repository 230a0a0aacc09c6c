"""A puzzle as a value: its position, its answer, and the one JSON form the
command line and the server print."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from tendays.engine import Edition, load_edition

__all__ = ["Answer", "Kind", "Puzzle", "PuzzleError"]


class PuzzleError(ValueError):
    """A puzzle or an answer that is not well formed (an unknown tile, a pile
    or day that does not exist)."""


class Kind(StrEnum):
    """What a puzzle asks."""

    FINISH = "finish"  # take one pile's top and put it on one day: the journey is complete
    # discard the drawn tile onto the one pile that leaves the next player no finish
    BLOCK = "block"


@dataclass(frozen=True, slots=True)
class Answer:
    """A pile (1-3) and, for a ``finish`` puzzle, a day (1-N; 0 for a
    ``block`` puzzle, which asks no day)."""

    pile: int
    day: int = 0

    def to_json(self) -> dict[str, int]:
        return {"pile": self.pile, "day": self.day} if self.day else {"pile": self.pile}


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A position and its answer. Tiles are tile indices of the edition; piles list their top tile
    last.

    ``source`` says where it was cut: the seed of the bot game and the number of moves made before
    it.
    """

    id: str
    edition: str
    kind: Kind
    rack: tuple[int, ...]
    piles: tuple[tuple[int, ...], ...]
    solution: Answer
    rating: int
    held: int | None = None  # block: the tile drawn from the draw pile, to discard
    # block: the next player's rack, shown (as with open hands)
    opponent: tuple[int, ...] | None = None
    source: tuple[int, int] = (0, 0)

    @property
    def days(self) -> int:
        return len(self.rack)

    @property
    def game_edition(self) -> Edition:
        return load_edition(self.edition)

    def to_json(self, *, with_solution: bool = True) -> dict[str, Any]:
        """The puzzle as ``tendays puzzles --json`` prints it; without the solution for a player
        still solving it."""
        tiles = self.game_edition.tiles
        data: dict[str, Any] = {
            "id": self.id,
            "edition": self.edition,
            "kind": self.kind.value,
            "rack": [tiles[t].id for t in self.rack],
            "piles": [[tiles[t].id for t in pile] for pile in self.piles],
        }
        if with_solution:
            data["solution"] = self.solution.to_json()
        if self.held is not None:
            data["held"] = tiles[self.held].id
        if self.opponent is not None:
            data["opponent"] = [tiles[t].id for t in self.opponent]
        data["rating"] = self.rating
        data["source"] = {"seed": self.source[0], "move": self.source[1]}
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Puzzle:
        """Read the form :meth:`to_json` writes (the shipped files hold it, one puzzle a line)."""
        try:
            edition = load_edition(str(data["edition"]))

            def index(tile_id: object) -> int:
                return edition.tile(str(tile_id)).index

            solution = data["solution"]
            opponent = data.get("opponent")
            source = data.get("source", {})
            return cls(
                id=str(data["id"]),
                edition=edition.id,
                kind=Kind(data["kind"]),
                rack=tuple(index(t) for t in data["rack"]),
                piles=tuple(tuple(index(t) for t in pile) for pile in data["piles"]),
                solution=Answer(int(solution["pile"]), int(solution.get("day", 0))),
                rating=int(data.get("rating", 1200)),
                held=index(data["held"]) if data.get("held") is not None else None,
                opponent=tuple(index(t) for t in opponent) if opponent is not None else None,
                source=(int(source.get("seed", 0)), int(source.get("move", 0))),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise PuzzleError(f"not a puzzle: {error}") from error
