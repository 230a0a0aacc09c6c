"""A tournament's rows as the director and the pages read them: an entrant, and a table with its
seats and places (the result the tournament rules count)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .tournament_rules import TableResult

__all__ = ["EntrantRow", "TableRow"]


@dataclass(frozen=True)
class EntrantRow:
    id: int
    account_id: int | None
    bot: str | None
    name: str
    rating: float
    first_round: int
    withdrawn: bool
    paused: bool
    free_since: float | None
    bot_account: bool = False  # the account is a bot account (it plays through the Bot API)


@dataclass(frozen=True)
class TableRow:
    """A table: its game, round, entrants by seat, and places once its game ended (None for a
    seat of a game with no result)."""

    id: int
    round: int
    game_id: str
    playing: bool
    finished_at: float | None
    entrants: tuple[int, ...]
    places: tuple[int | None, ...]

    @cached_property
    def result(self) -> TableResult | None:
        """The result the rules count, or None (still playing, or ended with no result)."""
        if self.playing or self.finished_at is None or None in self.places:
            return None
        places = {e: int(p) for e, p in zip(self.entrants, self.places, strict=True) if p}
        return TableResult(self.round, places, self.finished_at)
