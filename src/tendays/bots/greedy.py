"""The greedy bot: one ply ahead, guided by the journey distance.

A rack is judged by its distance from a complete journey, then by its *outs*: the (day, tile) pairs
that would bring it one change closer, each weighted by how likely that tile is to come (on top of a
discard pile: at hand; unseen: perhaps in the draw pile; buried or in another rack: hardly). So
among equally short completions it prefers racks with more ways to finish and likelier missing
tiles, and when no move lowers the distance it still improves its chances, so it never stalls.

The decisions are plain functions of the rack, the held tile, the discard piles and the tile odds,
so the expert can run them inside its search on sampled states without building views.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from tendays.engine import (
    Edition,
    Knowledge,
    Move,
    MoveKind,
    Phase,
    PlayerView,
    State,
    knowledge_of,
)

from .distance import Analysis, analyze

__all__ = [
    "GreedyBot",
    "TileOdds",
    "greedy_move",
    "playout_move",
    "rack_score",
    "swapped",
    "with_tile",
]

Rack = tuple[int | None, ...]
Piles = tuple[tuple[int, ...], ...]
Score = tuple[int, float]

# How much a copy of a tile counts toward an out, by where it is.
_ON_TOP = 1.0  # on top of a discard pile: can be taken next turn
_UNSEEN = 0.5  # scaled by the chance that an unseen tile is in the draw pile
_BURIED = 0.1  # comes back only with a reshuffle
_ELSEWHERE = 0.02  # in another player's rack


@dataclass(frozen=True, slots=True)
class TileOdds:
    """How likely each tile is to reach a player, from where that player knows it to be."""

    weight: tuple[float, ...]

    @classmethod
    def build(
        cls,
        unseen: Sequence[int],
        visible: Sequence[int],
        buried: Sequence[int],
        elsewhere: Sequence[int],
        draw_pile_size: int,
    ) -> TileOdds:
        total_unseen = max(1, sum(unseen))
        in_draw = (
            _UNSEEN * min(1.0, draw_pile_size / total_unseen) if draw_pile_size else _UNSEEN * 0.5
        )
        return cls(
            tuple(
                min(1.0, v * _ON_TOP + u * in_draw + b * _BURIED + e * _ELSEWHERE)
                for u, v, b, e in zip(unseen, visible, buried, elsewhere, strict=True)
            )
        )

    @classmethod
    def from_knowledge(cls, knowledge: Knowledge, draw_pile_size: int) -> TileOdds:
        return cls.build(
            list(knowledge.unseen_counts),
            knowledge.visible_count,
            knowledge.buried_count,
            knowledge.opponent_count,
            draw_pile_size,
        )

    @classmethod
    def from_state(cls, state: State, player: int) -> TileOdds:
        """The odds as ``player`` would judge them, counting every other
        rack as unseen (for search)."""
        unseen = [t.count for t in state.edition.tiles]
        visible = [0] * len(unseen)
        buried = [0] * len(unseen)
        for pile in state.piles:
            for t in pile:
                unseen[t] -= 1
            if pile:
                visible[pile[-1]] += 1
                for t in pile[:-1]:
                    buried[t] += 1
        for placed in state.racks[player]:
            if placed is not None:
                unseen[placed] -= 1
        if state.current == player and state.in_hand is not None:
            unseen[state.in_hand] -= 1
        return cls.build(unseen, visible, buried, [0] * len(unseen), len(state.draw_pile))


def rack_score(analysis: Analysis, odds: TileOdds) -> Score:
    """Lower is better: (distance, minus the weighted outs)."""
    weight = odds.weight
    outs = sum(weight[t] for day_outs in analysis.outs for t in day_outs)
    return analysis.distance, -outs


def with_tile(rack: Rack, day: int, tile: int) -> Rack:
    """The rack with ``tile`` on ``day``."""
    return rack[: day - 1] + (tile,) + rack[day:]


def swapped(rack: Rack, move: Move) -> Rack:
    """The rack after the swap ``move``."""
    days = list(rack)
    days[move.a - 1], days[move.b - 1] = days[move.b - 1], days[move.a - 1]
    return tuple(days)


def _best(scored: list[tuple[Score, Move]], rng: random.Random) -> Move:
    best = min(s for s, _ in scored)
    return rng.choice([m for s, m in scored if s == best])


def draft_scores(
    edition: Edition, rack: Rack, tile: int, moves: Sequence[Move], odds: TileOdds
) -> list[tuple[Score, Move]]:
    """Each legal draft move with the score of the rack it leaves."""
    return [(rack_score(analyze(edition, with_tile(rack, m.day, tile)), odds), m) for m in moves]


def placement_scores(
    edition: Edition, rack: Rack, tile: int, odds: TileOdds
) -> list[tuple[Score, int]]:
    """The promising places for ``tile`` (day 0: discard it) with the score of the rack each leaves.

    Days where the tile shortens the journey beat everything else, so when there are any, only those
    are scored; otherwise every day is, beside keeping the rack: the tile may replace one that some
    shortest completion changes anyway, or one that it can stand in for with more ways to finish.
    """
    current = analyze(edition, rack)
    shorter = [d + 1 for d, outs in enumerate(current.outs) if tile in outs]
    if shorter:
        days = shorter
        scored: list[tuple[Score, int]] = []
    else:
        days = [d + 1 for d in range(len(rack)) if rack[d] != tile]
        scored = [(rack_score(current, odds), 0)]
    scored += [
        (rack_score(analyze(edition, with_tile(rack, day, tile)), odds), day) for day in days
    ]
    return scored


def pile_to_cover(edition: Edition, rack: Rack, piles: Piles, allowed: Sequence[int]) -> int:
    """The allowed pile whose top tile matters least to us, so a useful tile stays in reach."""
    if len(allowed) == 1:
        return allowed[0]
    outs = {t for day_outs in analyze(edition, rack).outs for t in day_outs}

    def usefulness(pile: int) -> tuple[int, int]:
        contents = piles[pile - 1]
        return (1 if contents and contents[-1] in outs else 0), -len(contents)

    return min(allowed, key=usefulness)


def greedy_move(
    edition: Edition,
    phase: Phase,
    rack: Rack,
    held: int | None,
    piles: Piles,
    moves: Sequence[Move],
    odds: TileOdds,
    rng: random.Random,
) -> Move:
    """The greedy decision for the player to move, from what that player sees."""
    if len(moves) == 1:
        return moves[0]
    if phase is Phase.DRAFT:
        assert held is not None
        return _best(draft_scores(edition, rack, held, moves, odds), rng)
    if phase is Phase.DRAW:
        return _draw(edition, rack, piles, moves, odds, rng)
    assert held is not None
    scored = placement_scores(edition, rack, held, odds)
    best_score = min(s for s, _ in scored)
    days = [d for s, d in scored if s == best_score]
    # Keep the rack as it is when nothing is better: an equal replacement gains nothing.
    day = 0 if 0 in days else rng.choice(days)
    new_rack = rack if day == 0 else with_tile(rack, day, held)
    allowed = sorted({m.pile for m in moves})
    pile = pile_to_cover(edition, new_rack, piles, allowed)
    return Move.discard(pile) if day == 0 else Move.replace(day, pile)


def _draw(
    edition: Edition,
    rack: Rack,
    piles: Piles,
    moves: Sequence[Move],
    odds: TileOdds,
    rng: random.Random,
) -> Move:
    current = analyze(edition, rack)
    distance = current.distance
    improving: list[tuple[Score, Move]] = []
    takes = [m for m in moves if m.kind is MoveKind.TAKE]
    for move in takes:
        tile = piles[move.pile - 1][-1]
        if any(tile in outs for outs in current.outs):
            best = min(s for s, _ in placement_scores(edition, rack, tile, odds))
            if best[0] < distance:
                improving.append((best, move))
    for move in moves:
        if move.kind is MoveKind.SWAP:
            score = rack_score(analyze(edition, swapped(rack, move)), odds)
            if score[0] < distance:
                improving.append((score, move))
    if improving:
        return _best(improving, rng)
    draw = Move.draw()
    if draw in moves:
        return draw
    if takes:  # the draw pile is empty: take the most useful face-up tile
        return _best(
            [
                (min(s for s, _ in placement_scores(edition, rack, piles[m.pile - 1][-1], odds)), m)
                for m in takes
            ],
            rng,
        )
    return rng.choice(list(moves))


def playout_move(state: State, rng: random.Random) -> Move:
    """The greedy rule at its plainest, for playouts inside search: one journey analysis per turn.

    Take a face-up tile or place the held tile only where it shortens the journey; otherwise draw,
    or discard onto a pile whose top tile does not help.
    """
    edition = state.edition
    rack = state.racks[state.current]
    outs = analyze(edition, rack).outs
    phase = state.phase
    if phase is Phase.DRAW:
        for pile, contents in enumerate(state.piles, 1):
            if contents and any(contents[-1] in day_outs for day_outs in outs):
                return Move.take(pile)
        if state.draw_pile:
            return Move.draw()
        return Move.take(next(p for p, contents in enumerate(state.piles, 1) if contents))
    held = state.in_hand
    assert held is not None
    days = [d for d, day_outs in enumerate(outs, 1) if held in day_outs]
    if phase is Phase.DRAFT:
        empty = [d for d, t in enumerate(rack, 1) if t is None]
        fitting = [d for d in days if rack[d - 1] is None]
        return Move.draft(rng.choice(fitting or empty))
    pile = state.forced_pile
    if not pile:
        useful = {t for day_outs in outs for t in day_outs}
        pile = next(
            (
                p
                for p, contents in enumerate(state.piles, 1)
                if not contents or contents[-1] not in useful
            ),
            1,
        )
    return Move.replace(rng.choice(days), pile) if days else Move.discard(pile)


class GreedyBot:
    """Takes a face-up tile only when it shortens the journey; places
    each tile where it helps most."""

    name = "greedy"

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        moves = view.legal_moves()
        if len(moves) == 1:
            return moves[0]
        assert view.rack is not None
        odds = TileOdds.from_knowledge(knowledge_of(view), view.draw_pile_size)
        return greedy_move(
            view.edition, view.phase, view.rack, view.in_hand, view.piles, moves, odds, rng
        )
