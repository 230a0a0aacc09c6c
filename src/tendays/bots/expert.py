"""The expert bot: search under hidden information, with the greedy bot inside.

For each decision after the draft the expert lists a few promising moves (the greedy bot's scores
pick them; the greedy move is always one), then samples *worlds*: complete states consistent with
its view, the unseen tiles dealt at random to the other racks and the draw pile (see
:mod:`tendays.engine.knowledge`). In each world it plays every candidate and then races to finish
its own journey with greedy playouts while the other players draw and discard; a playout is worth
the chance of beating the others' estimated finishing turn (in solo games: minus the turns it took).
All candidates share the same worlds and dice (common random numbers), so their differences are the
moves' own. Sequential halving spends the budget, and the expert leaves the greedy move only for a
move that beats it on the same worlds by a clear margin.

In the draft the expert drafts like the greedy bot. With ``draft_search`` (the ``expert+draft`` bot)
it tries greedy's most promising days for each tile on sampled futures of the draft instead and
keeps the day whose futures end with the shortest journey (:mod:`tendays.bots.draft`): that ends the
draft closer to a journey, but has not measurably won more games.

With ``read_rivals`` (the ``expert+rivals`` bot) the worlds are not dealt blindly:
each other player's hidden days hold a plausible rack, a journey the public history allows spoilt on
as many days as players who replaced as many tiles are typically short (:mod:`tendays.bots.rivals`).
In the rollouts every player then plays greedy playouts, so the others take tiles the expert throws
away and may finish first; a rollout is worth 1 when the expert finishes first. Because what a
placement gives away now matters, every placement as short as the best one is a candidate, onto
every pile.

With ``learned_start`` (``expert+learned``: ``expert+rivals`` with it; the hard level alone) the
move the search must clearly beat is the learned bot's (:mod:`tendays.bots.learned`), which takes a
face-up tile or spares a pile top where greedy would not; in games the learned bot does not play,
or without numpy, it stays greedy's. The draft and the playouts stay greedy's. Alone (a solo
game) it starts from the solo race's move instead, in the draft too (:mod:`tendays.bots.solo`).

With ``value_leaf`` (the ``expert+value`` bot) a rollout stops that many turns after the move and
is worth the learned chance to finish first of the position it reached (:mod:`tendays.bots.value`),
in the games that value was fitted for; elsewhere it plays to the end.

With ``start`` (a bot) and ``playout`` (a move rule on full states) at a table, the move to beat is
that bot's and every player's rollout moves are that rule's (``expert+apprentice``: the race bot's
move, the apprentice's playouts, :mod:`tendays.bots.apprentice`).

The budget is a number of rollouts per decision (deterministic given the RNG) or a time in seconds.
With a budget of zero the expert plays exactly like the greedy bot (with ``learned_start``, like the
learned bot after the draft), so its edge over the move it starts from is the search's.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Sequence

from tendays.engine import (
    EventKind,
    Knowledge,
    Move,
    MoveKind,
    Phase,
    PlayerView,
    State,
    apply,
    knowledge_of,
)

from .base import Bot
from .distance import analyze
from .draft import DRAFT_WORK, draft_move
from .greedy import (
    TileOdds,
    greedy_move,
    pile_to_cover,
    playout_move,
    rack_score,
    swapped,
    with_tile,
)
from .opponent_model import OpponentModel
from .reading import TableFacts, table_facts
from .rivals import distance_shares, plausible_days, sample_distance
from .solo import solo_move
from .value import value_for as position_value

__all__ = ["DEFAULT_ITERATIONS", "READING_ITERATIONS", "ExpertBot"]

DEFAULT_ITERATIONS = 128
READING_ITERATIONS = 256  # rollouts where the others play back: each says less, so more are needed
_CANDIDATES = 3  # placements kept from the greedy ranking
_CONFIDENCE = 1.5  # standard errors by which a move must beat the greedy move on the same worlds
_PLAYOUT_TURNS = 30  # a playout that has not finished after this many own turns counts as lost
_RACE_SPREAD = 2.0  # turns over which the chance of finishing before a rival falls from 73% to 27%
_START_DISTANCE = 3.5  # a typical journey distance when the draft ends
_PER_REPLACE = 0.7  # how much closer a rival typically gets with each tile they replace
_TURNS_PER_DAY = 2.0  # typical own turns per day of distance


class ExpertBot:
    """Determinized rollouts over greedy play, budgeted per decision by rollouts or seconds."""

    def __init__(
        self,
        iterations: int | None = DEFAULT_ITERATIONS,
        think: float | None = None,
        name: str = "expert",
        opponent_model: OpponentModel | None = None,
        draft_search: bool = False,
        read_rivals: bool = False,
        learned_start: bool = False,
        value_leaf: int | None = None,
        start: Bot | None = None,
        playout: Callable[[State, random.Random], Move] | None = None,
    ) -> None:
        if iterations is not None and iterations < 0:
            raise ValueError(f"the number of rollouts must not be negative, not {iterations}")
        if think is not None and think < 0:
            raise ValueError(f"the thinking time must not be negative, not {think}")
        self.iterations = iterations
        self.think = think
        self.name = name
        self.opponent_model = opponent_model
        self.draft_search = draft_search
        self.read_rivals = read_rivals
        self.learned_start = learned_start
        self.value_leaf = value_leaf
        self.start = start
        self.playout = playout or playout_move
        self._learned: Bot | None = None

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        moves = view.legal_moves()
        if len(moves) == 1:
            return moves[0]
        assert view.rack is not None and view.player is not None
        knowledge = knowledge_of(view)
        odds = TileOdds.from_knowledge(knowledge, view.draw_pile_size)
        searching = (self.iterations != 0 or self.think is not None) and (
            view.phase is not Phase.DRAFT or self.draft_search
        )
        if not searching:  # the move the search starts from, with the same dice
            return self._start(view, moves, odds, rng)
        if view.phase is Phase.DRAFT:
            assert view.in_hand is not None
            # The draft's work grows with the budget (the default's at 128 rollouts or 1 s), so a
            # small budget stays quick everywhere.
            if self.iterations is not None:
                work = DRAFT_WORK * self.iterations // DEFAULT_ITERATIONS
            else:
                work = int(DRAFT_WORK * min(1.0, self.think or 0.0))
            return draft_move(
                view.edition, view.rack, view.in_hand, moves, knowledge, odds, rng, work
            )
        greedy = self._start(view, moves, odds, random.Random(rng.getrandbits(64)))
        candidates = self._candidates(view, moves, odds, greedy)
        if self.read_rivals and view.phase is Phase.PLACE and view.options.players > 1:
            # What a placement throws away and covers matters once the others can take it back in
            # the rollouts: every placement as short as the best one, onto every pile, is weighed.
            candidates += [m for m in self._as_short(view, moves) if m not in candidates]
        if len(candidates) == 1:
            return candidates[0]
        search_rng = random.Random(rng.getrandbits(64))
        rivals = _rival_turns(view)
        worlds: list[tuple[State, int]] = []
        weights = None
        if self.opponent_model is not None:
            weights = {
                p: tuple(c / (1.0 - c) if c < 1.0 else 1e9 for c in chances)
                for p, chances in self.opponent_model.chances(view, knowledge).items()
            }

        facts = table_facts(view) if self.read_rivals else None

        def world(i: int) -> tuple[State, int]:
            while len(worlds) <= i:
                if facts is not None:  # reading the rivals
                    state = self._plausible_world(view, knowledge, facts, search_rng)
                else:
                    state = self._world(view, knowledge, search_rng, weights)
                worlds.append((state, search_rng.getrandbits(64)))
            return worlds[i]

        me = view.player
        results: dict[Move, list[float]] = {m: [] for m in candidates}

        def evaluate(move: Move, worlds_wanted: int) -> None:
            outcomes = results[move]
            while len(outcomes) < worlds_wanted:
                state, seed = world(len(outcomes))
                outcomes.append(self._rollout(state, move, me, random.Random(seed), rivals))

        budget = self._budget(candidates, evaluate)
        alive = list(candidates)
        rounds = max(1, math.ceil(math.log2(len(alive))))
        for r in range(rounds):
            used = sum(len(v) for v in results.values())
            per_move = max(1, (budget - used) // ((rounds - r) * len(alive)))
            for move in alive:
                evaluate(move, len(results[move]) + per_move)
            alive.sort(key=lambda m: (-statistics.fmean(results[m]), candidates.index(m)))
            kept = alive[: max(1, len(alive) // 2)]
            # the greedy move stays to the end: the baseline others must clearly beat
            if greedy not in kept:
                kept.append(greedy)
            alive = kept
        challengers = [m for m in alive if m != greedy]
        if not challengers:
            return greedy
        challenger = max(
            challengers, key=lambda m: (statistics.fmean(results[m]), -candidates.index(m))
        )
        common = min(len(results[challenger]), len(results[greedy]))
        gains = [
            a - b
            for a, b in zip(results[challenger][:common], results[greedy][:common], strict=True)
        ]
        if common < 2:
            return challenger if gains and gains[0] > 0 else greedy
        margin = _CONFIDENCE * statistics.stdev(gains) / math.sqrt(common)
        return challenger if statistics.fmean(gains) > margin else greedy

    def _start(
        self, view: PlayerView, moves: Sequence[Move], odds: TileOdds, rng: random.Random
    ) -> Move:
        """The move the search must clearly beat: with ``learned_start``, the solo race's alone
        and the learned bot's after the draft where it plays this game; otherwise greedy's."""
        if self.start is not None and view.options.players > 1:
            return self.start.choose(view, rng)
        if self.learned_start and view.options.players == 1:
            # Alone, the solo race's judge (every journey the rack could become) finishes far
            # sooner than greedy's yardstick or the learned bot's, draft included (solo.py).
            return solo_move(view, moves)
        # Asked at every decision: one bot may play games of several editions (the server keeps a
        # bot per name in each thinking process).
        if self.learned_start and view.phase is not Phase.DRAFT and _learned_plays(view):
            if self._learned is None:
                from .learned import LearnedBot

                self._learned = LearnedBot()
            return self._learned.choose(view, rng)
        assert view.rack is not None
        return greedy_move(
            view.edition, view.phase, view.rack, view.in_hand, view.piles, moves, odds, rng
        )

    # -- budget --------------------------------------------------------------------------

    def _budget(self, candidates: list[Move], evaluate: Callable[[Move, int], None]) -> int:
        """Rollouts to spend on this decision; in timed mode, measured
        with a first rollout per move."""
        if self.think is None:
            return max(self.iterations or 0, len(candidates))
        started = time.perf_counter()
        for move in candidates:
            evaluate(move, 1)
        spent = time.perf_counter() - started
        per_rollout = spent / len(candidates)
        return len(candidates) + int(max(0.0, self.think - spent) / max(per_rollout, 1e-6))

    # -- candidates ----------------------------------------------------------------------

    def _candidates(
        self, view: PlayerView, moves: Sequence[Move], odds: TileOdds, greedy: Move
    ) -> list[Move]:
        """The greedy move first, then the next most promising moves by the greedy scores."""
        edition = view.edition
        rack = view.rack
        assert rack is not None
        ranked: list[Move]
        if view.phase is Phase.DRAW:
            ranked = [m for m in moves if m.kind is not MoveKind.SWAP]
            if view.options.swap:
                swaps = [m for m in moves if m.kind is MoveKind.SWAP]
                swaps.sort(key=lambda m: rack_score(analyze(edition, swapped(rack, m)), odds))
                ranked += swaps[:_CANDIDATES]
        else:
            assert view.in_hand is not None
            held = view.in_hand
            allowed = sorted({m.pile for m in moves})
            options = [(rack_score(analyze(edition, rack), odds), 0)]
            options += [
                (rack_score(analyze(edition, with_tile(rack, d, held)), odds), d)
                for d in range(1, len(rack) + 1)
            ]
            options.sort(key=lambda sd: sd[0])
            ranked = []
            for rank, (_, day) in enumerate(options[:_CANDIDATES]):
                new_rack = rack if day == 0 else with_tile(rack, day, held)
                first = pile_to_cover(edition, new_rack, view.piles, allowed)
                # Other piles only for the best placement: where a discard
                # goes matters less than what.
                for pile in [first] + ([p for p in allowed if p != first] if rank == 0 else []):
                    ranked.append(Move.discard(pile) if day == 0 else Move.replace(day, pile))
        ordered = [greedy] + [m for m in ranked if m != greedy]
        return ordered

    def _as_short(self, view: PlayerView, moves: Sequence[Move]) -> list[Move]:
        """Every placement that leaves the journey as short as the best one
        does, onto every allowed pile."""
        edition, rack, held = view.edition, view.rack, view.in_hand
        assert rack is not None and held is not None
        options = [(analyze(edition, rack).distance, 0)]
        options += [
            (analyze(edition, with_tile(rack, d, held)).distance, d)
            for d in range(1, len(rack) + 1)
        ]
        best = min(distance for distance, _ in options)
        allowed = sorted({m.pile for m in moves})
        return [
            Move.discard(p) if day == 0 else Move.replace(day, p)
            for distance, day in options
            if distance == best
            for p in allowed
        ]

    # -- worlds and rollouts -------------------------------------------------------------

    def _world(
        self,
        view: PlayerView,
        knowledge: Knowledge,
        rng: random.Random,
        weights: dict[int, tuple[float, ...]] | None = None,
    ) -> State:
        """One complete state consistent with the view: the unseen tiles dealt at random (by the
        opponent model's chances for the other players' hidden days, when the bot has one)."""
        return knowledge.deal(view, rng, weights)

    def _plausible_world(
        self, view: PlayerView, knowledge: Knowledge, facts: TableFacts, rng: random.Random
    ) -> State:
        """A sampled world whose other racks are plausible near-journeys (see
        :mod:`tendays.bots.rivals`)."""
        shares = distance_shares(view.edition)
        preset = {}
        spoken_for: list[int] = []
        for p in range(view.options.players):
            if p != view.player:
                distance = sample_distance(shares, facts.replaced[p], rng)
                days = plausible_days(view.edition, knowledge, facts, p, distance, rng, spoken_for)
                if days:
                    preset[p] = days
                    spoken_for += days.values()
        return knowledge.deal(view, rng, preset=preset)

    def _rollout(
        self, world: State, move: Move, me: int, rng: random.Random, rivals: list[float]
    ) -> float:
        if self.read_rivals and rivals:
            return self._contest(world, move, me, rng)
        return self._race(world, move, me, rng, rivals)

    def _contest(self, world: State, move: Move, me: int, rng: random.Random) -> float:
        """Play ``move`` in a world of plausible racks, then everybody plays
        greedy playouts: 1 if ``me`` wins."""
        state = apply(world, move)
        turns = 0
        limit = _PLAYOUT_TURNS * world.options.players
        judge = position_value(state) if self.value_leaf is not None else None
        if judge is not None:  # a learned value judges the leaf, a few turns on
            limit = self.value_leaf or 0
        # a leaf is a turn's start, where the value was fitted
        while not state.is_over and (
            turns < limit or (judge is not None and state.phase is not Phase.DRAW)
        ):
            before = state.turn
            state = apply(state, self.playout(state, rng))
            turns += state.turn != before
        if judge is not None:
            return judge(state, me)
        # nobody finished in time: worth less than an even share of a finished race
        if state.winner is None:
            return 0.5 / world.options.players
        return 1.0 if state.winner == me else 0.0

    def _race(
        self, world: State, move: Move, me: int, rng: random.Random, rivals: list[float]
    ) -> float:
        """Play ``move`` in a sampled world, then race to finish; the value of the race for ``me``.

        ``me`` plays greedy playouts; the others draw and discard, which keeps tiles flowing through
        the piles as in a real game without letting their (randomly dealt) racks decide anything.
        """
        state = apply(world, move)
        turns = 0
        while not state.is_over:
            p = state.current
            if p == me:
                before = state.turn
                state = apply(state, self.playout(state, rng))
                if state.turn != before:
                    turns += 1
                    if turns >= _PLAYOUT_TURNS:
                        break
            elif state.phase is Phase.DRAW:
                if state.draw_pile:
                    state = apply(state, Move.draw())
                else:
                    state = apply(
                        state, Move.take(next(i for i, c in enumerate(state.piles, 1) if c))
                    )
            else:
                pile = state.forced_pile or 1 + state.turn % 3
                state = apply(state, Move.discard(pile))
        if not rivals:  # solo: fewer turns is better
            if state.winner == me:
                return -float(turns)
            return -float(_PLAYOUT_TURNS + analyze(state.edition, state.racks[me]).distance)
        if state.winner != me:
            return 0.0
        value = 1.0
        for expected in rivals:
            value /= 1.0 + math.exp((turns - expected) / _RACE_SPREAD)
        return value


def _learned_plays(view: PlayerView) -> bool:
    """Whether the learned bot plays this game (it needs numpy and knows one edition and length)."""
    try:
        from .learned import refusal
    except ImportError:
        return False
    return refusal(view.edition.id, view.options) is None


def _rival_turns(view: PlayerView) -> list[float]:
    """For each other player, a guess at the turns they still need, from
    how many tiles they replaced."""
    replaced = [0] * view.options.players
    for event in view.events:
        if event.kind is EventKind.REPLACE and event.player is not None:
            replaced[event.player] += 1
    return [
        _TURNS_PER_DAY * max(1.0, _START_DISTANCE - _PER_REPLACE * replaced[p])
        for p in range(view.options.players)
        if p != view.player
    ]
