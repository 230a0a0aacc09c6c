"""The apprentice: a fast move scorer fitted to imitate a stronger player, for search rollouts.

Each legal move gets a handful of cheap features of the rack it leaves, read off the journey
analysis (:mod:`tendays.bots.distance`, cached): how much the move shortens the journey, how much
it changes the outs weighted by how likely each tile is to come (greedy's yardstick), whether it
completes the journey, for a placement what it throws and which pile top it covers, and whether
the greedy playout rule would play it. A linear model per phase turns them into a logit; the
apprentice plays a move that completes the journey when there is one, otherwise the move with the
highest logit (exact ties broken by the dice). The weights are fitted by cross-entropy to another
player's chosen moves (``python tools/train_apprentice.py``: first the race bot's, then the
expert's search using the apprentice in its rollouts), ship in ``apprentice.npz`` beside this
module, are read once with numpy and evaluated in plain Python.

The same features are computed from a player's view (at the table) and from a full state (inside
the search's sampled worlds, where the mover's odds count every other rack as unseen), so the
apprentice plays the same way in both.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tendays.engine import Edition, Move, MoveKind, Phase, PlayerView, State, knowledge_of

from .distance import analyze
from .fitted import read_fitted
from .greedy import TileOdds, swapped, with_tile

__all__ = [
    "FEATURES",
    "PHASES",
    "Apprentice",
    "ApprenticeBot",
    "Seat",
    "load",
    "move_features",
]

WEIGHTS = Path(__file__).with_name("apprentice.npz")
PHASES = (Phase.DRAFT, Phase.DRAW, Phase.PLACE)
#: One row per legal move; a column's meaning depends on the phase (each phase has its weights).
FEATURES = (
    "shorter",  # days the journey gets shorter by (negative: longer)
    "weighted_outs",  # change of the outs weighed by each tile's odds
    "outs",  # change of the number of (day, tile) outs, in tens
    "complete",  # the move completes the journey
    "near",  # shorter, when the journey was at most two days from complete
    "kind",  # draft: the tile fits there; draw: drawing blind; place: a discard
    "kind_near",  # kind, when the journey was at most one day from complete
    "kind_outs",  # kind times the weighted outs before the move (drawing hopes for an out)
    "thrown_out",  # place: the tile thrown is an out of the rack left; draft: a day at the ends
    "thrown_odds",  # place: the odds of the tile thrown; draw: the draw pile's share of the unseen
    "cover_out",  # place/take: the pile top covered (or taken) is an out of the rack left
    "cover_empty",  # place: the pile covered is empty
    "cover_deep",  # place: tiles on the pile covered, in tens
    "tops_out",  # pile tops after the move that are outs of the rack left (the thrown one too)
    "taken_back",  # place: discarding the tile just taken from a pile
    "early_day",  # draft/place: how early the day is (ties go to the earlier day)
    "low_pile",  # place/take: how low the pile's number is (ties go to the lower pile)
    "cover_days",  # place: days where the pile top covered is an out of the rack left, in threes
    "thrown_days",  # place: days where the tile thrown is an out of the rack left, in threes
    "plain",  # the move is one the greedy playout rule plays (tendays.bots.greedy.playout_move)
    "greedy",  # the move is one the greedy bot plays (its draw of lots aside)
)
_WIDTH = len(FEATURES)


@dataclass(frozen=True, slots=True)
class Seat:
    """What the player to move knows, from a view or from a full state."""

    edition: Edition
    phase: Phase
    rack: tuple[int | None, ...]
    held: int | None
    piles: tuple[tuple[int, ...], ...]
    draw_pile: int
    taken_from: int
    odds: tuple[float, ...]
    unseen: int  # copies whose place the mover does not know

    @classmethod
    def of_view(cls, view: PlayerView) -> Seat:
        assert view.rack is not None
        knowledge = knowledge_of(view)
        odds = TileOdds.from_knowledge(knowledge, view.draw_pile_size)
        return cls(
            view.edition,
            view.phase,
            tuple(view.rack),
            view.in_hand,
            view.piles,
            view.draw_pile_size,
            view.taken_from,
            odds.weight,
            sum(knowledge.unseen_counts),
        )

    @classmethod
    def of_state(cls, state: State) -> Seat:
        me = state.current
        odds = TileOdds.from_state(state, me)
        unseen = len(state.draw_pile) + sum(
            t is not None for p, r in enumerate(state.racks) if p != me for t in r
        )
        return cls(
            state.edition,
            state.phase,
            tuple(state.racks[me]),
            state.in_hand,
            state.piles,
            len(state.draw_pile),
            state.taken_from,
            odds.weight,
            unseen,
        )


Judged = tuple[int, float, int, tuple[int, ...]]


def _judge(seat: Seat, rack: tuple[int | None, ...]) -> Judged:
    """The rack's distance, weighted outs, number of outs and the out tiles (once per day)."""
    analysis = analyze(seat.edition, rack)
    weight = seat.odds
    outs = tuple(t for day in analysis.outs for t in day)
    return analysis.distance, sum(weight[t] for t in outs), len(outs), outs


def move_features(seat: Seat, moves: Sequence[Move]) -> list[list[float]]:
    """One row of :data:`FEATURES` per move (see the module's docstring)."""
    here = _judge(seat, seat.rack)
    d0, w0, n0, outs0 = here
    out_set0 = set(outs0)
    near2 = 1.0 if d0 <= 2 else 0.0
    near1 = 1.0 if d0 <= 1 else 0.0
    judged: dict[tuple[int | None, ...], Judged] = {}

    def judge(rack: tuple[int | None, ...]) -> Judged:
        found = judged.get(rack)
        if found is None:
            found = judged[rack] = _judge(seat, rack)
        return found

    def base(after: Judged) -> list[float]:
        row = [0.0] * _WIDTH
        shorter = float(d0 - after[0])
        row[0] = shorter
        if after[0]:
            row[1] = after[1] - w0
            row[2] = (after[2] - n0) / 10.0
        else:  # a complete journey has no outs and needs none
            row[3] = 1.0
        row[4] = near2 * shorter
        return row

    day_outs = analyze(seat.edition, seat.rack).outs
    plain = _plain_moves(seat, day_outs, out_set0)
    rows = _rows(seat, moves, base, judge, out_set0, w0, near1)
    for row, move in zip(rows, moves, strict=True):
        row[19] = 1.0 if move in plain else 0.0
    for i in _greedy_rows(seat.phase, rows, moves):
        rows[i][20] = 1.0
    return rows


def _greedy_rows(phase: Phase, rows: list[list[float]], moves: Sequence[Move]) -> list[int]:
    """The rows of the moves the greedy bot may play, read off the features: the rack it leaves
    by distance then weighted outs (keeping the rack on a tie), then the pile whose top is no out
    and the deepest."""
    if phase is Phase.DRAW:
        takes = [i for i, m in enumerate(moves) if m.kind is not MoveKind.DRAW and rows[i][0] > 0]
        if not takes:
            return [i for i, m in enumerate(moves) if m.kind is MoveKind.DRAW]
        keys = {i: (-rows[i][0], -round(rows[i][1], 9)) for i in takes}
    elif phase is Phase.DRAFT:
        keys = {i: (-row[0], -round(row[1], 9)) for i, row in enumerate(rows)}
    else:
        day = {i: (-row[0], -round(row[1], 9), -row[5]) for i, row in enumerate(rows)}
        best_day = min(day.values())
        keys = {i: (row[10], -row[12]) for i, row in enumerate(rows) if day[i] == best_day}
    best = min(keys.values())
    return [i for i, key in keys.items() if key == best]


def _plain_moves(seat: Seat, day_outs: tuple[tuple[int, ...], ...], useful: set[int]) -> set[Move]:
    """Every move the greedy playout rule may play here (it draws lots between shortening days)."""
    tops = [p[-1] if p else None for p in seat.piles]
    if seat.phase is Phase.DRAW:
        for pile, top in enumerate(tops, 1):
            if top is not None and top in useful:
                return {Move.take(pile)}
        return {Move.draw()}
    held = seat.held
    assert held is not None
    fitting = [d for d, outs in enumerate(day_outs, 1) if held in outs]
    if seat.phase is Phase.DRAFT:
        open_fits = [d for d in fitting if seat.rack[d - 1] is None]
        return {
            Move.draft(d) for d in open_fits or [d for d, t in enumerate(seat.rack, 1) if t is None]
        }
    pile = next((p for p, top in enumerate(tops, 1) if top is None or top not in useful), 1)
    if seat.taken_from > 0 and not seat.piles[seat.taken_from - 1]:
        pile = seat.taken_from  # the emptied pile must be covered
    if fitting:
        return {Move.replace(d, pile) for d in fitting}
    return {Move.discard(pile)}


def _rows(
    seat: Seat,
    moves: Sequence[Move],
    base: Callable[[Judged], list[float]],
    judge: Callable[[tuple[int | None, ...]], Judged],
    out_set0: set[int],
    w0: float,
    near1: float,
) -> list[list[float]]:
    """The rows of :func:`move_features` by phase, the two greedy rules' columns left 0."""
    rows: list[list[float]] = []
    days = len(seat.rack)
    if seat.phase is Phase.DRAFT:
        held = seat.held
        assert held is not None
        for move in moves:
            row = base(judge(with_tile(seat.rack, move.day, held)))
            row[5] = 1.0 if held in analyze(seat.edition, seat.rack).outs[move.day - 1] else 0.0
            row[8] = 1.0 if move.day in (1, days) else 0.0
            row[15] = (days - move.day) / days
            rows.append(row)
        return rows
    if seat.phase is Phase.DRAW:
        share = min(1.0, seat.draw_pile / max(1, seat.unseen))
        for move in moves:
            if move.kind is MoveKind.DRAW:
                row = [0.0] * _WIDTH
                row[5] = 1.0
                row[6] = near1
                row[7] = w0
                row[9] = share
            elif move.kind is MoveKind.TAKE:
                tile = seat.piles[move.pile - 1][-1]
                options = [judge(with_tile(seat.rack, d, tile)) for d in range(1, days + 1)]
                best = min(options, key=lambda j: (j[0], -j[1]))
                row = base(best)
                row[10] = 1.0 if tile in out_set0 else 0.0
                row[16] = (3 - move.pile) / 2.0
            else:  # a swap
                row = base(judge(swapped(seat.rack, move)))
            rows.append(row)
        return rows
    held = seat.held
    assert held is not None
    tops = [p[-1] if p else None for p in seat.piles]
    for move in moves:
        if move.kind is MoveKind.REPLACE:
            rack = with_tile(seat.rack, move.day, held)
            thrown = seat.rack[move.day - 1]
        else:
            rack = seat.rack
            thrown = held
        after = judge(rack)
        row = base(after)
        discard = move.kind is MoveKind.DISCARD
        row[5] = 1.0 if discard else 0.0
        row[6] = near1 * row[5]
        row[7] = w0 * row[5]
        outs = after[3]
        out_set = set(outs)
        if thrown is not None:
            row[8] = 1.0 if thrown in out_set else 0.0
            row[9] = seat.odds[thrown]
            row[18] = outs.count(thrown) / 3.0
        covered = tops[move.pile - 1]
        row[10] = 1.0 if covered is not None and covered in out_set else 0.0
        row[17] = outs.count(covered) / 3.0 if covered is not None else 0.0
        row[15] = (days - move.day) / days if move.kind is MoveKind.REPLACE else 0.0
        row[16] = (3 - move.pile) / 2.0
        row[11] = 1.0 if covered is None else 0.0
        row[12] = len(seat.piles[move.pile - 1]) / 10.0
        new_tops = list(tops)
        new_tops[move.pile - 1] = thrown
        row[13] = float(sum(1 for t in new_tops if t is not None and t in out_set))
        row[14] = 1.0 if discard and seat.taken_from > 0 else 0.0
        rows.append(row)
    return rows


@dataclass(frozen=True, slots=True)
class Apprentice:
    """The fitted policy: per phase a weight per feature, for one edition, length and table size."""

    edition: str
    days: int
    players: int
    weights: tuple[tuple[float, ...], ...]  # one row per phase of :data:`PHASES`

    def logits(self, seat: Seat, moves: Sequence[Move]) -> list[float]:
        w = self.weights[PHASES.index(seat.phase)]
        return [
            sum(a * b for a, b in zip(w, row, strict=True)) for row in move_features(seat, moves)
        ]

    def pick(self, seat: Seat, moves: Sequence[Move], rng: random.Random) -> Move:
        """The move with the highest logit, exact ties broken by the dice."""
        if len(moves) == 1:
            return moves[0]
        rows = move_features(seat, moves)
        w = self.weights[PHASES.index(seat.phase)]
        # a move that completes the journey wins the game: no weighing needed
        logits = [1e6 * row[3] + sum(a * b for a, b in zip(w, row, strict=True)) for row in rows]
        best = max(logits)
        tied = [m for m, z in zip(moves, logits, strict=True) if z >= best - 1e-9]
        return tied[0] if len(tied) == 1 else rng.choice(tied)

    def probabilities(self, seat: Seat, moves: Sequence[Move]) -> list[float]:
        """The softmax over the legal moves (what training fits)."""
        logits = self.logits(seat, moves)
        top = max(logits)
        exps = [math.exp(z - top) for z in logits]
        total = sum(exps)
        return [e / total for e in exps]

    def state_move(self, state: State, rng: random.Random) -> Move:
        """The apprentice's move for the player to move in a full state (a rollout's playout)."""
        return self.pick(Seat.of_state(state), state.legal_moves(), rng)

    def plays(self, edition: str, days: int, players: int) -> bool:
        """Whether the weights were fitted for games like this one."""
        return (edition, days, players) == (self.edition, self.days, self.players)


@cache
def load(path: Path = WEIGHTS) -> Apprentice | None:
    """The shipped apprentice, or ``None`` without numpy or weights."""
    data = read_fitted(path, FEATURES)
    if data is None:
        return None
    return Apprentice(
        edition=str(data["edition"]),
        days=int(data["days"]),
        players=int(data["players"]),
        weights=tuple(tuple(float(x) for x in row) for row in data["weights"]),
    )


class ApprenticeBot:
    """Plays the apprentice's move (in any game: the features are the same everywhere)."""

    def __init__(self, policy: Apprentice | None = None, name: str = "apprentice") -> None:
        found = policy or load()
        if found is None:
            raise ValueError(f"the apprentice's weights are missing ({WEIGHTS}) or numpy is")
        self.policy = found
        self.name = name

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        moves = view.legal_moves()
        if len(moves) == 1:
            return moves[0]
        return self.policy.pick(Seat.of_view(view), moves, rng)
