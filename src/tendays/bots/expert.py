"""The expert bot: search under hidden information with greedy play inside.

For each decision the expert lists a few promising moves (the greedy bot's scores pick them), then
samples *worlds*: complete states consistent with its view, the unseen tiles dealt at random to the
other racks and the draw pile (see :mod:`tendays.bots.knowledge`). In each world it plays every
candidate move and continues with greedy play for all players for a few rounds; a win is worth 1, a
loss 0, and an unfinished game the estimated chance of winning the race from the journey distances.
The candidates share the same worlds and the same dice (common random numbers), so their differences
are the moves' own. Sequential halving spends the budget: after each round the worse half of the
candidates drops out.

The budget is a number of rollouts per decision (deterministic given the RNG) or a time in seconds.
With a budget of zero the expert plays exactly like the greedy bot, so its edge over greedy is the
search's own.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

from tendays.engine import Move, MoveKind, Phase, PlayerView, State, apply

from .distance import analyze
from .greedy import TileOdds, draft_scores, greedy_move, pile_to_cover, playout_move, rack_score
from .knowledge import knowledge_of

__all__ = ["DEFAULT_ITERATIONS", "ExpertBot"]

DEFAULT_ITERATIONS = 48
_PLAYOUT_ROUNDS = 30  # a playout that runs this many rounds without a winner is judged by the race
_CANDIDATES = 3  # moves kept from the greedy ranking (days to place on, or days to draft on)
_RACE_SLOPE = 1.2  # how steeply the chance to win falls with each day of distance behind
_RICH_OUTS = 0.3  # a share of outs among unseen tiles that counts as plenty


class ExpertBot:
    """Determinized rollouts over the greedy policy, budgeted per move by rollouts or seconds."""

    def __init__(self, iterations: int | None = DEFAULT_ITERATIONS, think: float | None = None,
                 rounds: int | None = None, name: str = "expert") -> None:
        if iterations is not None and iterations < 0:
            raise ValueError(f"the number of rollouts must not be negative, not {iterations}")
        if think is not None and think < 0:
            raise ValueError(f"the thinking time must not be negative, not {think}")
        self.iterations = iterations
        self.think = think
        self.rounds = rounds
        self.name = name

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        moves = view.legal_moves()
        if len(moves) == 1:
            return moves[0]
        assert view.rack is not None and view.player is not None
        knowledge = knowledge_of(view)
        odds = TileOdds.from_knowledge(knowledge, view.draw_pile_size)
        if self.iterations == 0 and self.think is None:  # no search: the greedy move, with the same dice
            return greedy_move(view.edition, view.phase, view.rack, view.in_hand, view.piles, moves, odds, rng)
        greedy = greedy_move(view.edition, view.phase, view.rack, view.in_hand, view.piles, moves, odds,
                             random.Random(rng.getrandbits(64)))
        candidates = self._candidates(view, moves, odds, greedy)
        if len(candidates) == 1:
            return candidates[0]
        search_rng = random.Random(rng.getrandbits(64))
        worlds: list[tuple[State, int]] = []

        def world(i: int) -> tuple[State, int]:
            while len(worlds) <= i:
                worlds.append((knowledge.deal(view, search_rng), search_rng.getrandbits(64)))
            return worlds[i]

        values = {m: 0.0 for m in candidates}
        counts = {m: 0 for m in candidates}
        alive = list(candidates)
        budget = self._budget(view, alive, world, values, counts)
        rounds = max(1, math.ceil(math.log2(len(alive))))
        used = sum(counts.values())
        for r in range(rounds):
            if len(alive) == 1:
                break
            per_move = max(1, (budget - used) // ((rounds - r) * len(alive)))
            for move in alive:
                start = counts[move]
                for i in range(start, start + per_move):
                    state, seed = world(i)
                    values[move] += self._rollout(state, move, view.player, random.Random(seed))
                    counts[move] += 1
                    used += 1
            alive.sort(key=lambda m: (-values[m] / max(1, counts[m]), candidates.index(m)))
            alive = alive[: max(1, len(alive) // 2)]
        return max(candidates, key=lambda m: (counts[m], values[m] / max(1, counts[m]), -candidates.index(m)))

    # -- budget --------------------------------------------------------------------------

    def _budget(self, view: PlayerView, alive: list[Move], world: Callable[[int], tuple[State, int]],
                values: dict[Move, float], counts: dict[Move, int]) -> int:
        """Rollouts to spend on this decision; in timed mode, measured with a first rollout per move."""
        if self.think is None:
            return max(self.iterations or 0, len(alive))
        assert view.player is not None
        started = time.perf_counter()
        state, seed = world(0)
        for move in alive:
            values[move] += self._rollout(state, move, view.player, random.Random(seed))
            counts[move] += 1
        spent = time.perf_counter() - started
        per_rollout = spent / len(alive)
        return len(alive) + int(max(0.0, self.think - spent) / max(per_rollout, 1e-6))

    # -- candidates ----------------------------------------------------------------------

    def _candidates(self, view: PlayerView, moves: Sequence[Move], odds: TileOdds, greedy: Move) -> list[Move]:
        """The greedy move first, then the next most promising moves by the greedy scores."""
        edition = view.edition
        rack = view.rack
        assert rack is not None
        ranked: list[Move]
        if view.phase is Phase.DRAFT:
            assert view.in_hand is not None
            scored = sorted(draft_scores(edition, rack, view.in_hand, moves, odds), key=lambda sm: sm[0])
            ranked = [m for _, m in scored[:_CANDIDATES]]
        elif view.phase is Phase.DRAW:
            ranked = [m for m in moves if m.kind is not MoveKind.SWAP]
            if view.options.swap:
                swaps = [m for m in moves if m.kind is MoveKind.SWAP]
                swaps.sort(key=lambda m: rack_score(analyze(edition, _swapped(rack, m)), odds))
                ranked += swaps[:_CANDIDATES]
        else:
            assert view.in_hand is not None
            held = view.in_hand
            allowed = sorted({m.pile for m in moves})
            options = [(rack_score(analyze(edition, rack), odds), 0)]
            options += [(rack_score(analyze(edition, _with(rack, d, held)), odds), d) for d in range(1, len(rack) + 1)]
            options.sort(key=lambda sd: sd[0])
            ranked = []
            for rank, (_, day) in enumerate(options[:_CANDIDATES]):
                new_rack = rack if day == 0 else _with(rack, day, held)
                first = pile_to_cover(edition, new_rack, view.piles, allowed)
                # Other piles only for the best placement: where a discard goes matters less than what.
                for pile in [first] + ([p for p in allowed if p != first] if rank == 0 else []):
                    ranked.append(Move.discard(pile) if day == 0 else Move.replace(day, pile))
        ordered = [greedy] + [m for m in ranked if m != greedy]
        return ordered

    # -- rollouts ------------------------------------------------------------------------

    def _rollout(self, world: State, move: Move, me: int, rng: random.Random) -> float:
        """Play ``move`` in a sampled world, then greedy playouts; the value of the outcome for ``me``.

        During the draft the playout runs to the end of the draft and judges ``me``'s rack (the other
        racks do not change which tiles ``me`` gets); afterwards it runs to the end of the game, or
        for ``rounds`` rounds if set, and judges the race.
        """
        state = apply(world, move)
        if world.phase is Phase.DRAFT:
            while state.phase is Phase.DRAFT:
                if state.current == me:
                    choice = playout_move(state, rng)
                else:
                    choice = Move.draft(state.racks[state.current].index(None) + 1)
                state = apply(state, choice)
            return _draft_value(state, me)
        players = state.options.players
        horizon = state.turn + (self.rounds or _PLAYOUT_ROUNDS) * players
        while not state.is_over and state.turn < horizon:
            state = apply(state, playout_move(state, rng))
        if state.winner is not None:
            return 1.0 if state.winner == me else 0.0
        if state.is_over:  # the turn limit: nobody wins
            return 0.0
        return _race_value(state, me)


def _draft_value(state: State, me: int) -> float:
    """How good ``me``'s rack is when the draft ends: each day of distance costs a lot, outs a little."""
    analysis = analyze(state.edition, state.racks[me])
    outs = sum(len(day_outs) for day_outs in analysis.outs)
    return 1.0 / (1.0 + analysis.distance + 1.0 / (1.0 + outs))


def _effective_distance(state: State, player: int) -> float:
    """``player``'s distance, less up to one day for good prospects of the next change.

    An out on top of a discard pile is worth half a day; so are plenty of outs among the tiles
    ``player`` has not seen (scaled by their share, up to :data:`_RICH_OUTS`).
    """
    analysis = analyze(state.edition, state.racks[player])
    distance = analysis.distance
    if distance == 0:
        return 0.0
    wanted = {t for day_outs in analysis.outs for t in day_outs}
    unseen = [t.count for t in state.edition.tiles]
    for pile in state.piles:
        for t in pile:
            unseen[t] -= 1
    for t in state.racks[player]:
        if t is not None:
            unseen[t] -= 1
    share = sum(unseen[t] for t in wanted) / max(1, sum(unseen))
    at_hand = any(pile and pile[-1] in wanted for pile in state.piles)
    return distance - 0.5 * at_hand - 0.5 * min(1.0, share / _RICH_OUTS)


def _race_value(state: State, me: int) -> float:
    """Estimated chance that ``me`` finishes first, racing each rival's effective distance."""
    players = state.options.players
    mine = _effective_distance(state, me)
    if players == 1:  # solo: closer is better
        return 1.0 / (1.0 + mine)
    value = 1.0
    for p in range(players):
        if p == me:
            continue
        # The player to move is half a turn ahead of the rest.
        tempo = (0.5 if state.current == me else 0.0) - (0.5 if state.current == p else 0.0)
        edge = _effective_distance(state, p) - mine + tempo
        value *= 1.0 / (1.0 + math.exp(-_RACE_SLOPE * edge))
    return value


def _with(rack: tuple[int | None, ...], day: int, tile: int) -> tuple[int | None, ...]:
    return rack[: day - 1] + (tile,) + rack[day:]


def _swapped(rack: tuple[int | None, ...], move: Move) -> tuple[int | None, ...]:
    swapped = list(rack)
    swapped[move.a - 1], swapped[move.b - 1] = swapped[move.b - 1], swapped[move.a - 1]
    return tuple(swapped)
