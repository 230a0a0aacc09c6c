"""What knowing the other player's rack would be worth to the expert: a bound for any inference.

The expert deals the tiles it cannot see at random and, in its rollouts, lets the other players only
draw and discard (their random racks would mislead it). This benchmark pits greedy against a
*table-reading* variant of the expert that looks at the real table, which no player of a real game
can: it keeps a share of the other rack's hidden days as they really are and deals the rest at
random with the draw pile; in its rollouts the other player plays greedy playouts with that rack,
and a rollout is worth 1 when the expert finishes first. The draw order stays hidden from it.
Usage::

    python benchmarks/hidden_information.py        # 400 games per row, 128 rollouts: about half an
                                                   # hour on two cores
    python benchmarks/hidden_information.py --games 200 --rollouts 32 --workers 8

Rows, each against greedy on the same seeded deals with seats rotated:

- the expert as shipped;
- the table-reading expert knowing all, half and none of the other rack's hidden days. Knowing none
  it is an honest bot again (its deal is the shipped expert's); knowing all, it shows what perfect
  inference of the other rack from the public history could give the search at most.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import sys
import time
from multiprocessing import get_context

from tendays.bots import Bot, make_bot
from tendays.bots.expert import _PLAYOUT_TURNS, ExpertBot  # the same horizon as the shipped search
from tendays.bots.greedy import playout_move
from tendays.engine import (
    EventLog,
    Game,
    Knowledge,
    Move,
    Options,
    PlayerView,
    State,
    apply,
    play_bots,
)
from tendays.sim.stats import wilson

EDITION = "usa"
SHARES = (1.0, 0.5, 0.0)


class TableReadingExpert(ExpertBot):
    """The expert, dealt worlds from the real table (``self.table``, set before each decision)."""

    def __init__(self, iterations: int, known_share: float) -> None:
        super().__init__(iterations=iterations, name=f"expert knowing {known_share:.0%}")
        self.known_share = known_share
        self.table: State | None = None

    def _world(
        self,
        view: PlayerView,
        knowledge: Knowledge,
        rng: random.Random,
        weights: dict[int, tuple[float, ...]] | None = None,
    ) -> State:
        table = self.table
        assert table is not None and view.player is not None
        racks = [list(rack) for rack in table.racks]
        hidden = [
            (p, day)
            for p, rack in enumerate(racks)
            if p != view.player
            for day, tile in enumerate(rack)
            if tile is not None and knowledge.racks[p][day] is None
        ]
        redealt = [spot for spot in hidden if rng.random() >= self.known_share]
        pool = list(table.draw_pile) + [racks[p][day] for p, day in redealt]
        rng.shuffle(pool)
        for p, day in redealt:
            racks[p][day] = pool.pop()
        return dataclasses.replace(
            table,
            racks=tuple(tuple(r) for r in racks),
            draw_pile=tuple(pool),
            seed=rng.getrandbits(32),
            reshuffles=0,
            events=EventLog(),
        )

    def _rollout(
        self, world: State, move: Move, me: int, rng: random.Random, rivals: list[float]
    ) -> float:
        """Everyone plays greedy playouts; worth 1 when ``me`` finishes first."""
        state = apply(world, move)
        turns = 0
        while not state.is_over:
            player, before = state.current, state.turn
            state = apply(state, playout_move(state, rng))
            if player == me and state.turn != before:
                turns += 1
                if turns >= _PLAYOUT_TURNS:
                    break
        return 1.0 if state.winner == me else 0.0


class Timed:
    """The expert at its seat: shown the real table before each decision
    when it reads it, and timed."""

    def __init__(self, bot: Bot, game: Game) -> None:
        self.bot = bot
        self.game = game
        self.thinking = 0.0
        self.decisions = 0

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        if isinstance(self.bot, TableReadingExpert):
            self.bot.table = self.game.state
        started = time.perf_counter()
        move = self.bot.choose(view, rng)
        self.thinking += time.perf_counter() - started
        self.decisions += 1
        return move


def play(job: tuple[int, int, int, float | None]) -> tuple[bool, float, int]:
    """Game ``index`` against greedy: (the expert won, its thinking seconds, its decisions)."""
    seed, index, rollouts, share = job
    game_seed = random.Random(f"hidden-information/{seed}/{index}").getrandbits(32)
    game = Game(EDITION, Options(players=2, turn_limit=300), game_seed)
    seat = index % 2
    expert = Timed(
        make_bot(f"expert:{rollouts}") if share is None else TableReadingExpert(rollouts, share),
        game,
    )
    greedy = make_bot("greedy")
    play_bots(game, [expert, greedy] if seat == 0 else [greedy, expert])
    return game.state.winner == seat, expert.thinking, expert.decisions


def row(
    games: int, seed: int, rollouts: int, share: float | None, workers: int
) -> tuple[int, float]:
    """Wins of ``games`` and milliseconds per decision for one kind of expert."""
    jobs = [(seed, i, rollouts, share) for i in range(games)]
    if workers <= 1:
        results = [play(job) for job in jobs]
    else:
        with get_context("spawn").Pool(workers) as pool:
            results = pool.map(play, jobs, chunksize=4)
    wins = sum(won for won, _, _ in results)
    decisions = max(1, sum(n for _, _, n in results))
    return wins, 1000 * sum(t for _, t, _ in results) / decisions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rollouts", type=int, default=128)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    print(
        f"Edition {EDITION}, expert:{args.rollouts} against greedy, {args.games} games per row, "
        f"seed {args.seed}, seats rotated."
    )
    print("| expert | wins | win rate (95% CI) | ms per decision |")
    print("|---|---|---|---|")
    for share in (None, *SHARES):
        wins, ms = row(args.games, args.seed, args.rollouts, share, args.workers)
        low, high = wilson(wins, args.games)
        label = (
            "as shipped"
            if share is None
            else f"reading the table, knowing {share:.0%} of the other rack's hidden days"
        )
        print(
            f"| {label} | {wins}/{args.games} | {100 * wins / args.games:.1f}% "
            f"({100 * low:.1f}-{100 * high:.1f}%) | {ms:.1f} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
