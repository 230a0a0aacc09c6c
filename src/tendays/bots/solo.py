"""The solo race: a rack judged by every journey it could become (the race bot's judgement).

Greedy judges a rack by its shortest completion and that completion's outs. Alone, what counts is
how soon *some* journey comes together, so this judge sums over every complete journey the map
allows, each weighted by ``exp(-cost / T)``: a day whose tile already fits costs nothing, a day
that must change costs what getting that tile is likely to take (on a discard-pile top 1, unseen
about 1.2 to 1.8 by its copies and the share of the unseen tiles still in the draw pile, elsewhere
in the rack 2, buried under a pile 3.5, known in another rack 5). The rack's *soft distance* is
``-T log(sum)``: near the cheapest completion, and lower the more completions are nearly as cheap.
One forward and one backward pass over the days give the soft distance of every one-day change at
once, so a decision costs a few tens of milliseconds.

:func:`solo_move` plays by it: the draft puts a tile where it leaves the rack softest (an empty day
counts as costing :data:`EMPTY`); a draw takes a face-up tile only when that beats the expected
result of drawing; a placement keeps the softest rack and covers the pile top it needs least. The
expert starts from this move in solo games (see :mod:`tendays.bots.expert`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from tendays.engine import (
    Edition,
    Knowledge,
    Move,
    MoveKind,
    Phase,
    PlayerView,
    checker_for,
    knowledge_of,
)
from tendays.engine.connections import EditionTables

__all__ = ["SoftRack", "soft_costs", "solo_move"]

T = 0.35  # temperature of the soft minimum: lower weighs only the cheapest completions
EMPTY = 0.7  # cost of a day still empty in the draft: some drafted tile will fill it
_TOP, _MINE, _BURIED, _ELSEWHERE = 1.0, 2.0, 3.5, 5.0  # costs of a tile by where it is
_UNSEEN, _SCARCE = 1.0, 0.8  # an unseen tile: _UNSEEN + _SCARCE / sqrt(its copies in the draw pile)
_IMPOSSIBLE = 99.0
_DRAW_EDGE = 0.05  # how much better than drawing a face-up tile must look to be taken

Rack = Sequence[int | None]


@dataclass(frozen=True, slots=True)
class _Legs:
    """An edition's steps as lists: the regions bordering each, and for each transport the regions
    it joins to each region (``into[v][b]``: every ``a`` with ``a - v - b`` a sound leg)."""

    regions: tuple[int, ...]
    transports: tuple[int, ...]
    is_region: tuple[bool, ...]
    neighbors: tuple[tuple[int, ...], ...]
    into: dict[int, dict[int, frozenset[int]]]
    starts: dict[int, frozenset[int]]  # the regions each transport leaves from


def _legs(edition: Edition) -> _Legs:
    return _legs_of(edition.id, edition.tables)


@cache
def _legs_of(edition_id: str, tables: EditionTables) -> _Legs:
    """Built once per edition (``edition_id`` keys the cache; the tables are the edition's)."""
    n = tables.n
    into: dict[int, dict[int, frozenset[int]]] = {}
    for v in tables.transports:
        into[v] = {}
        for b in tables.regions:
            sources = frozenset(a for a in tables.regions if tables.hop[(a * n + v) * n + b])
            if sources:
                into[v][b] = sources
    return _Legs(
        regions=tables.regions,
        transports=tables.transports,
        is_region=tables.is_region,
        neighbors=tuple(tuple(sorted(b)) for b in tables.neighbors),
        into=into,
        starts={v: frozenset().union(*legs.values()) for v, legs in into.items()},
    )


def soft_costs(knowledge: Knowledge, rack: Rack, held: int | None, draw_pile: int) -> list[float]:
    """What getting each tile onto a day is likely to take, from where the viewer knows it is."""
    mine = [0] * len(knowledge.unseen_counts)
    for tile in [*rack, held]:
        if tile is not None:
            mine[tile] += 1
    unseen_total = max(1, sum(knowledge.unseen_counts))
    share = min(1.0, draw_pile / unseen_total) if draw_pile else 0.3
    costs = []
    for tile, unseen in enumerate(knowledge.unseen_counts):
        cost = _IMPOSSIBLE
        if knowledge.visible_count[tile]:
            cost = _TOP
        if unseen:
            cost = min(cost, _UNSEEN + _SCARCE / math.sqrt(unseen * max(share, 0.1)))
        if mine[tile]:
            cost = min(cost, _MINE)
        if knowledge.buried_count[tile]:
            cost = min(cost, _BURIED)
        if knowledge.opponent_count[tile]:
            cost = min(cost, _ELSEWHERE)
        costs.append(cost)
    return costs


class SoftRack:
    """A rack's soft distance, and that of every rack one day away from it."""

    def __init__(self, edition: Edition, rack: Rack, costs: Sequence[float]) -> None:
        self.edition = edition
        self.legs = _legs(edition)
        self.rack = list(rack)
        self.costs = costs
        self.weight = [math.exp(-c / T) if c < _IMPOSSIBLE else 0.0 for c in costs]
        self.empty = math.exp(-EMPTY / T)
        days = len(self.rack)
        # forward: the weight of the days up to and including this one; backward: of those after
        self.fr: list[dict[int, float]] = [{} for _ in range(days)]
        self.ft: list[dict[tuple[int, int], float]] = [{} for _ in range(days)]
        self.br: list[dict[int, float]] = [{} for _ in range(days)]
        self.bt: list[dict[tuple[int, int], float]] = [{} for _ in range(days)]
        self._forward()
        self._backward()
        self.total = sum(self.fr[-1].values())

    def factor(self, day: int, tile: int) -> float:
        held = self.rack[day]
        if held is None:
            return self.empty
        return 1.0 if held == tile else self.weight[tile]

    def _forward(self) -> None:
        legs, days = self.legs, len(self.rack)
        for day in range(days):
            fr, ft = self.fr[day], self.ft[day]
            if day == 0:
                for b in legs.regions:
                    if w := self.factor(0, b):
                        fr[b] = w
                continue
            pr, pt = self.fr[day - 1], self.ft[day - 1]
            for b in legs.regions:
                w = self.factor(day, b)
                if not w:
                    continue
                s = sum(pr.get(a, 0.0) for a in legs.neighbors[b])
                for (a, v), wt in pt.items():
                    if a in legs.into[v].get(b, ()):
                        s += wt
                if s:
                    fr[b] = w * s
            if day < days - 1:
                for v in legs.transports:
                    if w := self.factor(day, v):
                        for a in legs.starts[v]:
                            if a in pr:
                                ft[(a, v)] = w * pr[a]

    def _backward(self) -> None:
        legs, days = self.legs, len(self.rack)
        for b in legs.regions:
            self.br[-1][b] = 1.0
        for day in range(days - 2, -1, -1):
            br, bt = self.br[day], self.bt[day]
            nr, nt = self.br[day + 1], self.bt[day + 1]
            for a in legs.regions:
                s = sum(self.factor(day + 1, b) * nr[b] for b in legs.neighbors[a] if b in nr)
                for v in legs.transports:
                    if (a, v) in nt:
                        s += self.factor(day + 1, v) * nt[(a, v)]
                if s:
                    br[a] = s
            if day > 0:
                for v in legs.transports:
                    for b, sources in legs.into[v].items():
                        if b in nr and (w := self.factor(day + 1, b) * nr[b]):
                            for a in sources:
                                bt[(a, v)] = bt.get((a, v), 0.0) + w

    @staticmethod
    def _soft(total: float) -> float:
        return -T * math.log(total) if total > 0 else _IMPOSSIBLE

    @property
    def distance(self) -> float:
        """The rack's soft distance."""
        return self._soft(self.total)

    def with_tile(self, day: int, tile: int) -> float:
        """The soft distance with ``tile`` on ``day`` (0-based) instead."""
        old = self.rack[day]
        if old == tile:
            return self.distance
        total = self.total
        for changed in {tile, old} - {None}:
            assert changed is not None
            before = self.factor(day, changed)
            after = 1.0 if changed == tile else self.weight[changed]
            if before == after:
                continue
            if not before:  # the tile could not be here: count this day afresh
                rack = list(self.rack)
                rack[day] = tile
                return SoftRack(self.edition, rack, self.costs).distance
            if self.legs.is_region[changed]:
                part = self.fr[day].get(changed, 0.0) * self.br[day].get(changed, 0.0)
            else:
                bt = self.bt[day]
                part = sum(w * bt.get(k, 0.0) for k, w in self.ft[day].items() if k[1] == changed)
            total += part * (after / before - 1.0)
        return self._soft(max(total, 0.0))

    def best_with(self, tile: int) -> float:
        """The soft distance with ``tile`` on its best day."""
        return min(self.with_tile(day, tile) for day in range(len(self.rack)))


#: A weight on one tile, in soft distance (see :func:`solo_move`).
TileWeight = Callable[[int], float]


def _nothing(tile: int) -> float:
    return 0.0


def solo_move(
    view: PlayerView,
    moves: Sequence[Move],
    given: TileWeight = _nothing,
    covered: TileWeight = _nothing,
) -> Move:
    """The move that leaves the softest rack (see the module's docstring).

    At a table a placement may also weigh the other players: ``given(tile)`` is what throwing
    ``tile`` onto a pile costs (in soft distance) and ``covered(tile)`` what hiding a pile top
    ``tile`` under it is worth (the race bot, :mod:`tendays.bots.race`). Alone both are nothing.
    """
    assert view.rack is not None
    if len(moves) == 1:
        return moves[0]
    edition = view.edition
    knowledge = knowledge_of(view)
    costs = soft_costs(knowledge, view.rack, view.in_hand, view.draw_pile_size)
    soft = SoftRack(edition, view.rack, costs)
    if view.phase is Phase.DRAFT:
        held = view.in_hand
        assert held is not None
        return min(moves, key=lambda m: (soft.with_tile(m.day - 1, held), m.day))
    if view.phase is Phase.DRAW:
        return _draw(view, moves, soft, costs, knowledge.visible_count)
    return _place(view, moves, soft, costs, given, covered)


def _draw(
    view: PlayerView,
    moves: Sequence[Move],
    soft: SoftRack,
    costs: list[float],
    visible: Sequence[int],
) -> Move:
    takes = [
        (soft.best_with(view.piles[m.pile - 1][-1]), m) for m in moves if m.kind is MoveKind.TAKE
    ]
    draw = next((m for m in moves if m.kind is MoveKind.DRAW), None)
    if draw is None or not takes:
        return draw or min(takes, key=lambda sm: (sm[0], sm[1].pile))[1]
    # drawing: the expected soft distance after the best use of an unseen tile
    here = soft.distance
    # roughly the tiles a draw may bring: none face up, none whose only copies are known to be
    # buried or in another rack (read off where the tile is, not its cost, so _TOP can vary)
    chances = [(t, math.exp(-c)) for t, c in enumerate(costs) if not visible[t] and c < _BURIED]
    total = sum(w for _, w in chances) or 1.0
    drawn = sum(w * min(here, soft.best_with(t)) for t, w in chances) / total
    best, take = min(takes, key=lambda sm: (sm[0], sm[1].pile))
    return take if best < drawn - _DRAW_EDGE else draw


def _place(
    view: PlayerView,
    moves: Sequence[Move],
    soft: SoftRack,
    costs: list[float],
    given: TileWeight,
    covered: TileWeight,
) -> Move:
    held = view.in_hand
    assert held is not None and view.rack is not None
    checker = checker_for(view.edition)
    days = len(view.rack)
    # A face-up tile was taken to be placed: throwing it back would only reveal the tile under it
    # again, a loop (what it covered can look worth having until it is covered once more).
    scored = {} if view.taken_from > 0 else {0: soft.distance + given(held)}
    for day in range(1, days + 1):
        rack = list(view.rack)
        rack[day - 1] = held
        if checker.is_complete(tuple(rack)):
            scored = {day: -1.0}
            break
        thrown = view.rack[day - 1]
        gift = given(thrown) if thrown is not None else 0.0
        scored[day] = soft.with_tile(day - 1, held) + gift
    day = min(scored, key=lambda d: (scored[d], d))
    chosen = [m for m in moves if (m.day if m.kind is MoveKind.REPLACE else 0) == day]
    if len(chosen) == 1:
        return chosen[0]
    rack = list(view.rack)
    if day:
        rack[day - 1] = held
    after = SoftRack(view.edition, rack, costs)

    def need(pile: int) -> float:
        """How much the pile's top tile would help the rack left, less what hiding it is worth:
        cover the least needed."""
        top = view.piles[pile - 1]
        if not top:
            return -1.0
        return after.distance - after.best_with(top[-1]) - covered(top[-1])

    return min(chosen, key=lambda m: (need(m.pile), m.pile))
