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
from collections.abc import Sequence

from tendays.engine import Move, MoveKind, Phase, PlayerView, checker_for, knowledge_of

from .base import Bot
from .reading import TableFacts, table_facts
from .solo import SoftRack, soft_costs, solo_move

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
        return self._place(view, moves)

    def _place(self, view: PlayerView, moves: Sequence[Move]) -> Move:
        held, rack = view.in_hand, view.rack
        assert held is not None and rack is not None and view.player is not None
        costs = soft_costs(knowledge_of(view), rack, held, view.draw_pile_size)
        soft = SoftRack(view.edition, rack, costs)
        checker = checker_for(view.edition)
        wanted = _Wanted(table_facts(view), (view.player + 1) % view.options.players)
        # A tile taken face up goes into the rack: throwing it back only loops (as in solo.py).
        scored = {} if view.taken_from > 0 else {0: soft.distance + self.give * wanted(held)}
        for day in range(1, len(rack) + 1):
            new = list(rack)
            new[day - 1] = held
            if checker.is_complete(tuple(new)):
                scored = {day: -1.0}
                break
            thrown = rack[day - 1]
            gift = self.give * wanted(thrown) if thrown is not None else 0.0
            scored[day] = soft.with_tile(day - 1, held) + gift
        day = min(scored, key=lambda d: (scored[d], d))
        chosen = [m for m in moves if (m.day if m.kind is MoveKind.REPLACE else 0) == day]
        if len(chosen) == 1:
            return chosen[0]
        after_rack = list(rack)
        if day:
            after_rack[day - 1] = held
        after = SoftRack(view.edition, after_rack, costs)

        def keep(pile: int) -> float:
            """What covering the pile costs: its top's help to me, less its help to the next."""
            top = view.piles[pile - 1]
            if not top:
                return -1.0
            return after.distance - after.best_with(top[-1]) - self.cover * wanted(top[-1])

        return min(chosen, key=lambda m: (keep(m.pile), m.pile))


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
