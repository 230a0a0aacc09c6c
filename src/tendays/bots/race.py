"""The race bot: the solo race's judgement of a rack, at a table of any size.

It judges every rack as the solo race does (:mod:`tendays.bots.solo`): by the soft distance summed
over every journey the rack could become. The draft, the draw (a face-up tile or a blind one) and
the day a tile goes to are the solo race's. With other players at the table a placement also
weighs what it gives away: the tile thrown onto a pile is there for the next player, and the pile
it covers hides that pile's top from them. What a tile is worth to another player is read off the
public history (:mod:`tendays.bots.reading`): a tile they passed over or threw away with their rack
as it is now is worth nothing to them; one they passed over or threw away earlier, less.
"""

from __future__ import annotations

import random

from tendays.engine import Move, Phase, PlayerView

from .base import Bot
from .reading import TableFacts, table_facts
from .solo import solo_move

__all__ = ["RaceBot"]

GIVE = 0.10  # soft distance a thrown tile costs when the next player may well want it
COVER = 0.10  # soft distance covering a top the next player may want is worth


class RaceBot:
    """Plays the solo race's move, weighing what a placement gives the next player.

    ``alone`` is another bot that plays in its place when it is alone at the table (the hard level
    lets the expert's search, which starts from the solo race's move, play solo games).
    """

    def __init__(
        self,
        give: float = GIVE,
        cover: float = COVER,
        name: str = "race",
        alone: Bot | None = None,
    ) -> None:
        self.give = give
        self.cover = cover
        self.name = name
        self.alone = alone

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        if self.alone is not None and view.options.players == 1:
            return self.alone.choose(view, rng)
        moves = view.legal_moves()
        if view.options.players == 1 or view.phase is not Phase.PLACE or len(moves) == 1:
            return solo_move(view, moves)
        assert view.player is not None
        wanted = _Wanted(table_facts(view), (view.player + 1) % view.options.players)
        return solo_move(
            view,
            moves,
            given=lambda tile: self.give * wanted(tile),
            covered=lambda tile: self.cover * wanted(tile),
        )


class _Wanted:
    """How much a player may want a tile, from 0 to 1, by what they turned down."""

    def __init__(self, facts: TableFacts, player: int) -> None:
        self.now = facts.passed_now[player]
        self.passed = facts.passed[player]
        self.discarded = facts.discarded[player]

    def __call__(self, tile: int) -> float:
        if tile in self.now:
            return 0.0
        if self.discarded[tile] or self.passed[tile]:
            return 0.5
        return 1.0
