"""Where the hard bot's solo edge goes at a two-player table: figures on tuning deals only.

    python benchmarks/hard_at_table.py --deals 60 --workers 2
    python benchmarks/hard_at_table.py --subject expert+rivals:64 --deals 100

Plays the subject (default ``hard``) against ``normal`` on each deal twice, seats swapped
(duplicate), ``normal`` against ``normal`` on the same deals as the baseline, and each alone on the
same deals. The deals are those of game seeds 7000, 7001, ... (tuning seeds, apart from the report
deals of ``benchmarks/ladder.py``). For the subject it prints:

- **thrown and taken**: of the tiles it puts on a pile (replaced out of its rack or discarded when
  drawn), the share the other player takes, and the share taken at once (the other's next turn);
- **gifts**: the share of the other player's wins completed with the tile the subject had just
  thrown;
- **the piles as a store**: how many tiles per game it takes from a pile, how many of those it had
  thrown itself, and how many of its thrown tiles the other player took before it could take them
  back, alone and at the table;
- **its own moves**: how often, after the draft, it leaves the move the greedy bot would make (the
  greedy move its search starts from, with the same dice), alone and at the table;
- **its model of the other player**: at each of its turns, the distance its rollouts give the other
  rack (sampled as :mod:`tendays.bots.rivals` does) against the true one, and how often the other
  player's real next move is the move the rollouts' playout rule would make with the true rack.

The bots play from their views as always; only this script looks at the full state to count.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from tendays.bots import analyze, make_bot
from tendays.bots.greedy import TileOdds, greedy_move, playout_move
from tendays.bots.reading import table_facts
from tendays.bots.rivals import distance_shares, sample_distance
from tendays.engine import (
    Game,
    Move,
    MoveKind,
    Options,
    Phase,
    PlayerView,
    knowledge_of,
    next_decision,
)

FIRST_SEED = 7000  # tuning deals: never the report deals (tournament seed 20261130)
TURN_LIMIT = 300


@dataclass
class Tally:
    """Counts for the subject seat over games (summed across games by ``add``)."""

    games: int = 0
    wins: int = 0
    other_wins: int = 0
    turns_to_win: list[int] = field(default_factory=list)
    thrown: int = 0
    thrown_taken_by_other: int = 0
    thrown_taken_at_once: int = 0
    other_wins_with_gift: int = 0
    takes: int = 0
    takes_own: int = 0
    retaken_own: int = 0
    other_distance: list[tuple[int, float]] = field(default_factory=list)  # (true, mean predicted)
    other_moves: int = 0
    other_moves_as_playout: int = 0
    other_take_or_draw_as_playout: int = 0
    other_draw_decisions: int = 0
    decisions: int = 0  # the subject's decisions after the draft with more than one legal move
    left_greedy: int = 0  # of those, the ones where it did not play the greedy move

    def add(self, other: Tally) -> None:
        for name, value in vars(other).items():
            setattr(self, name, getattr(self, name) + value)


def play(task: tuple[str, str, int, int]) -> Tally:
    """Play one game (``subject`` at seat ``seat`` against ``rival``; no rival: alone) and count."""
    subject, rival, seed, seat = task
    players = 1 if not rival else 2
    names = [subject] if players == 1 else ([subject, rival] if seat == 0 else [rival, subject])
    bots = [make_bot(name) for name in names]
    game = Game("usa", Options(players=players, turn_limit=TURN_LIMIT), seed)
    tally = Tally(games=1)
    origin: list[list[int]] = [[], [], []]  # who put each pile tile there (-1: revealed)
    # (pile, tile) the subject threw last, while it lies on top
    last_thrown: tuple[int, int] | None = None
    shares = distance_shares(game.state.edition)
    sampler = random.Random(seed)
    other = 1 - seat
    while not game.state.is_over:
        before = game.state
        decision = next_decision(game)
        assert decision is not None
        mover = decision.seat
        if players == 2 and mover == seat and before.phase is Phase.DRAW:
            facts = table_facts(decision.view)
            predicted = statistics.fmean(
                sample_distance(shares, facts.replaced[other], sampler) for _ in range(32)
            )
            tally.other_distance.append(
                (analyze(before.edition, before.racks[other]).distance, predicted)
            )
        if players == 2 and mover == other and before.phase is not Phase.DRAFT:
            expected = playout_move(before, random.Random(0))
        baseline = None
        if (
            mover == seat
            and before.phase is not Phase.DRAFT
            and len(decision.view.legal_moves()) > 1
        ):
            baseline = _greedy_baseline(decision.view, decision.rng)
        move = bots[mover].choose(decision.view, decision.rng)
        if baseline is not None:
            tally.decisions += 1
            tally.left_greedy += move != baseline
        game.play(move, mover)
        after = game.state
        if players == 2 and mover == other and before.phase is not Phase.DRAFT:
            tally.other_moves += 1
            if before.phase is Phase.DRAW:
                tally.other_draw_decisions += 1
                tally.other_take_or_draw_as_playout += move == expected
            same_day = (
                move.kind is MoveKind.REPLACE
                and expected.kind is MoveKind.REPLACE
                and move.day == expected.day
            )
            tally.other_moves_as_playout += move == expected or (
                move.kind == expected.kind and (same_day or move.kind is MoveKind.DISCARD)
            )
        if move.kind is MoveKind.TAKE:
            pile = move.pile - 1
            thrower = origin[pile].pop() if origin[pile] else -1
            if mover == seat:
                tally.takes += 1
                tally.takes_own += thrower == seat
            elif thrower == seat:
                tally.thrown_taken_by_other += 1
                tally.thrown_taken_at_once += (
                    last_thrown is not None and last_thrown[0] == move.pile
                )
        elif move.kind in (MoveKind.REPLACE, MoveKind.DISCARD) and before.phase is Phase.PLACE:
            origin[move.pile - 1].append(mover)
            if mover == seat:
                tally.thrown += 1
        gift = (
            mover == other
            and move.kind is MoveKind.REPLACE
            and after.winner == other
            and before.taken_from > 0
            and last_thrown is not None
            and last_thrown[0] == before.taken_from
        )
        tally.other_wins_with_gift += gift
        if (
            mover == seat
            and move.kind in (MoveKind.REPLACE, MoveKind.DISCARD)
            and before.phase is Phase.PLACE
        ):
            thrown_tile = (
                before.in_hand
                if move.kind is MoveKind.DISCARD
                else before.racks[seat][move.day - 1]
            )
            last_thrown = (move.pile, thrown_tile if thrown_tile is not None else -1)
        elif mover == other and before.phase is Phase.PLACE:
            last_thrown = None  # the other's turn is over: a later take is no longer "at once"
        for p in range(3):  # a reshuffle keeps only the tops
            if len(origin[p]) > len(after.piles[p]):
                del origin[p][: len(origin[p]) - len(after.piles[p])]
            while len(origin[p]) < len(after.piles[p]):
                origin[p].insert(0, -1)
    state = game.state
    tally.wins = state.winner == seat
    tally.other_wins = players == 2 and state.winner == other
    if state.winner == seat:
        tally.turns_to_win.append(state.turn)
    return tally


def _greedy_baseline(view: PlayerView, rng: random.Random) -> Move:
    """The greedy move the expert's search starts from, with the dice it
    would use (a copy of ``rng``)."""
    dice = random.Random()
    dice.setstate(rng.getstate())
    assert view.rack is not None
    odds = TileOdds.from_knowledge(knowledge_of(view), view.draw_pile_size)
    return greedy_move(
        view.edition,
        view.phase,
        view.rack,
        view.in_hand,
        view.piles,
        view.legal_moves(),
        odds,
        random.Random(dice.getrandbits(64)),
    )


def report(title: str, tally: Tally, seconds: float, players: int) -> None:
    print(f"\n{title}: {tally.games} games, {seconds:.0f} s")
    if players == 1:
        turns = tally.turns_to_win
        print(
            f"  finished {len(turns)}; mean turns {statistics.fmean(turns):.2f} (sd "
            f"{statistics.pstdev(turns):.2f})"
        )
    else:
        print(
            f"  subject wins {tally.wins} ({tally.wins / tally.games:.1%}), other wins "
            f"{tally.other_wins}"
        )
        if tally.turns_to_win:
            mean = statistics.fmean(tally.turns_to_win)
            print(f"  the subject's winning turn (game turns, both players): mean {mean:.2f}")
    per_game = tally.games or 1
    print(f"  thrown onto piles: {tally.thrown / per_game:.1f} per game")
    if players == 2 and tally.thrown:
        print(
            f"  of those taken by the other player: "
            f"{tally.thrown_taken_by_other / tally.thrown:.1%} (at once: "
            f"{tally.thrown_taken_at_once / tally.thrown:.1%})"
        )
        share = tally.other_wins_with_gift / tally.other_wins if tally.other_wins else 0.0
        print(
            f"  the other's wins completed with the subject's last thrown tile: "
            f"{tally.other_wins_with_gift} of {tally.other_wins} ({share:.1%})"
        )
    if tally.decisions:
        print(
            f"  decisions after the draft that leave the greedy move: {tally.left_greedy} of "
            f"{tally.decisions} ({tally.left_greedy / tally.decisions:.1%})"
        )
    own = tally.takes_own / tally.takes if tally.takes else 0.0
    print(
        f"  takes from a pile: {tally.takes / per_game:.2f} per game, {own:.1%} of them its own "
        f"thrown tiles"
    )
    if players == 2 and tally.other_distance:
        true = [t for t, _ in tally.other_distance]
        guess = [g for _, g in tally.other_distance]
        error = statistics.fmean(abs(t - g) for t, g in tally.other_distance)
        print(
            f"  the other's distance at the subject's turns: true mean "
            f"{statistics.fmean(true):.2f}, sampled mean {statistics.fmean(guess):.2f}, mean "
            f"absolute error {error:.2f}"
        )
        near = Counter(min(t, 4) for t in true)
        print(
            "  true distance shares: "
            + ", ".join(f"{d if d < 4 else '4+'}: {near[d] / len(true):.0%}" for d in sorted(near))
        )
    if players == 2 and tally.other_moves:
        print(
            f"  the other's moves as the playout rule would play them with its true rack: "
            f"{tally.other_moves_as_playout / tally.other_moves:.1%} (draw or take: "
            f"{tally.other_take_or_draw_as_playout / max(1, tally.other_draw_decisions):.1%})"
        )


def run(pool: ProcessPoolExecutor, tasks: list[tuple[str, str, int, int]]) -> tuple[Tally, float]:
    started = time.perf_counter()
    total = Tally()
    for tally in pool.map(play, tasks, chunksize=2):
        total.add(tally)
    return total, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--subject", default="hard", help="the bot examined (default: hard)")
    parser.add_argument("--rival", default="normal", help="the other player (default: normal)")
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--skip-baseline", action="store_true", help="leave out normal against normal"
    )
    args = parser.parse_args()
    seeds = range(FIRST_SEED, FIRST_SEED + args.deals)
    print(
        f"tuning deals: game seeds {FIRST_SEED}-{FIRST_SEED + args.deals - 1}, usa, 10 days, "
        f"duplicate"
    )
    with ProcessPoolExecutor(args.workers) as pool:
        pairs = [(args.subject, args.rival, s, seat) for s in seeds for seat in (0, 1)]
        tally, seconds = run(pool, pairs)
        report(f"{args.subject} against {args.rival}", tally, seconds, 2)
        if not args.skip_baseline:
            tally, seconds = run(
                pool, [(args.rival, args.rival, s, seat) for s in seeds for seat in (0, 1)]
            )
            report(f"{args.rival} against {args.rival} (the same deals)", tally, seconds, 2)
        for bot in (args.subject, args.rival):
            tally, seconds = run(pool, [(bot, "", s, 0) for s in seeds])
            report(f"{bot} alone (the same deals)", tally, seconds, 1)


if __name__ == "__main__":
    main()
