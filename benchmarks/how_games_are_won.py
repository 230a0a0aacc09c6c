"""How two-player games between greedy bots are won, and what denying the opponent could be worth.

Three measurements on seeded greedy-vs-greedy games (seats rotated), usage::

    python benchmarks/how_games_are_won.py                # 1000 games each, about two minutes on
                                                          # two cores
    python benchmarks/how_games_are_won.py --games 400 --workers 8

1. How the winner got its last tile: drawn, taken from a discard pile, or taken right after the
   loser discarded it there (the loser *fed* the winner).
2. What the draft is worth: the first seat's win rate by how much shorter its journey distance was
   when the draft ended.
3. A bound on denial: a *sighted* greedy that looks at the opponent's rack (which no real player
   can) and, among the placements that keep its own journey distance as short as greedy's, gives up
   a tile the opponent cannot use. Its win rate against greedy bounds what any inference of the
   opponent's needs from the public history could add to greedy's placements.

Part 1 also lists how often each tile is an out of the opponent's rack (a tile that would bring it
one change closer) when a player gives up a tile: a prior over what the other player needs.
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import sys
from multiprocessing import get_context

from tendays.bots import analyze, make_bot
from tendays.bots.greedy import TileOdds, pile_to_cover, rack_score
from tendays.engine import (
    Game,
    Move,
    Options,
    Phase,
    PlayerView,
    State,
    knowledge_of,
    load_edition,
    play_bots,
    view,
)
from tendays.sim.stats import wilson

EDITION = "usa"


def sighted_place(state: State) -> Move:
    """Greedy's placement, except that among equally short racks it gives up a
    tile the opponent cannot use."""
    edition = state.edition
    me = state.current
    player_view = view(state, me)
    rack, held = state.racks[me], state.in_hand
    assert held is not None
    odds = TileOdds.from_knowledge(knowledge_of(player_view), player_view.draw_pile_size)
    opponent_outs = {t for outs in analyze(edition, state.racks[1 - me]).outs for t in outs}
    # Day 0 keeps the rack (the held tile is discarded); day d puts the held tile there.
    racks = [rack] + [rack[: day - 1] + (held,) + rack[day:] for day in range(1, len(rack) + 1)]
    options = [
        (rack_score(analyze(edition, changed), odds), day) for day, changed in enumerate(racks)
    ]
    shortest = min(score[0] for score, _ in options)

    def preference(
        option: tuple[tuple[int, float], int],
    ) -> tuple[bool, bool, tuple[int, float], bool]:
        score, day = option
        given_up = held if day == 0 else rack[day - 1]
        return score[0] > shortest, given_up in opponent_outs, score, day != 0

    _, day = min(options, key=preference)
    allowed = sorted({m.pile for m in player_view.legal_moves()})
    pile = pile_to_cover(edition, racks[day], state.piles, allowed)
    return Move.discard(pile) if day == 0 else Move.replace(day, pile)


class Seat:
    """A greedy player; the sighted one places with :func:`sighted_place`.

    In plain games, before each placement it counts, for every tile not in the other rack, the
    moments asked (``out_seen``) and those where the tile is an out of that rack (``out_hit``).
    """

    def __init__(
        self,
        game: Game,
        sighted: bool,
        out_seen: collections.Counter[int] | None,
        out_hit: collections.Counter[int],
    ) -> None:
        self.game = game
        self.sighted = sighted
        self.out_seen = out_seen
        self.out_hit = out_hit
        self.greedy = make_bot("greedy")

    def choose(self, player_view: PlayerView, rng: random.Random) -> Move:
        state = self.game.state
        if state.phase is Phase.PLACE:
            if self.sighted:
                return sighted_place(state)
            if self.out_seen is not None:
                opponent = state.racks[1 - state.current]
                outs = {t for day_outs in analyze(state.edition, opponent).outs for t in day_outs}
                for tile in range(len(state.edition.tiles)):
                    if tile not in opponent:
                        self.out_seen[tile] += 1
                        self.out_hit[tile] += tile in outs
        return self.greedy.choose(player_view, rng)


def play(job: tuple[int, int, bool]) -> dict[str, object]:
    """Game ``index``: greedy against greedy, or (``sighted``) the sighted
    greedy in seat ``index % 2``."""
    seed, index, sighted = job
    game_seed = random.Random(f"how-games-are-won/{seed}/{index}").getrandbits(32)
    game = Game(EDITION, Options(players=2, turn_limit=300), game_seed)
    special = index % 2  # the seat of the sighted player (in plain games: the seat called "first")
    out_seen: collections.Counter[int] = collections.Counter()
    out_hit: collections.Counter[int] = collections.Counter()
    seats = [
        Seat(game, sighted and seat == special, None if sighted else out_seen, out_hit)
        for seat in range(2)
    ]
    start: list[int] = []

    def after_move(seat: int, move: Move) -> None:
        if not start and game.state.phase is not Phase.DRAFT:  # the move that ended the draft
            start.extend(analyze(game.state.edition, rack).distance for rack in game.state.racks)

    play_bots(game, seats, after_move)
    state = game.state
    how = "limit"
    winner = state.winner
    if winner is not None:
        events = state.events
        last = max(
            i for i, e in enumerate(events) if e.player == winner and e.kind in ("draw", "take")
        )
        how = events[last].kind
        if how == "take":
            before = [e for e in events[:last] if e.kind in ("replace", "discard")]
            if before and before[-1].player != winner and before[-1].pile == events[last].pile:
                how = "fed"
    return {
        "winner": winner,
        "special": special,
        "how": how,
        "start": start,
        "out_seen": dict(out_seen),
        "out_hit": dict(out_hit),
    }


def run(games: int, seed: int, sighted: bool, workers: int) -> list[dict[str, object]]:
    jobs = [(seed, i, sighted) for i in range(games)]
    if workers <= 1:
        return [play(job) for job in jobs]
    with get_context("spawn").Pool(workers) as pool:
        return pool.map(play, jobs, chunksize=8)


def rate(wins: int, games: int) -> str:
    low, high = wilson(wins, games)
    return f"{wins}/{games} ({100 * wins / games:.1f}%, 95% CI {100 * low:.1f}-{100 * high:.1f}%)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    edition = load_edition(EDITION)
    print(
        f"Edition {EDITION}, greedy against greedy, {args.games} games per part, seed {args.seed}, "
        f"seats rotated."
    )

    plain = run(args.games, args.seed, sighted=False, workers=args.workers)
    finished = [g for g in plain if g["winner"] is not None]
    how = collections.Counter(str(g["how"]) for g in finished)
    print("\n1. How the winner got its last tile")
    print(f"   drawn from the draw pile:                       {rate(how['draw'], len(finished))}")
    print(f"   taken right after the loser discarded it there: {rate(how['fed'], len(finished))}")
    print(f"   taken from a pile otherwise:                    {rate(how['take'], len(finished))}")
    seen: collections.Counter[int] = collections.Counter()
    hit: collections.Counter[int] = collections.Counter()
    for g in plain:
        seen.update(g["out_seen"])  # type: ignore[arg-type]
        hit.update(g["out_hit"])  # type: ignore[arg-type]
    shares = sorted(
        ((hit[t] / seen[t], edition.tiles[t].name) for t in seen if seen[t]), reverse=True
    )
    print(
        "   tiles most often an out of the opponent's rack when a tile is given up: "
        + ", ".join(f"{name} {100 * share:.0f}%" for share, name in shares[:6])
    )
    print(
        "   least often: " + ", ".join(f"{name} {100 * share:.0f}%" for share, name in shares[-4:])
    )

    print(
        "\n2. What the draft is worth: a seat's wins by its distance after the draft minus the "
        "other's"
    )
    by_gap: dict[int, list[int]] = collections.defaultdict(lambda: [0, 0])
    for g in finished:
        start = g["start"]
        assert isinstance(start, list) and len(start) == 2
        special = int(g["special"])  # type: ignore[call-overload]
        gap = max(-3, min(3, start[special] - start[1 - special]))
        by_gap[gap][0] += g["winner"] == special
        by_gap[gap][1] += 1
    for gap in sorted(by_gap):
        wins, games = by_gap[gap]
        label = f"{gap:+d}" if abs(gap) < 3 else f"{gap:+d} or {'more' if gap > 0 else 'less'}"
        print(f"   {label:>10}: {rate(wins, games)}")

    sighted = run(args.games, args.seed, sighted=True, workers=args.workers)
    wins = sum(1 for g in sighted if g["winner"] == g["special"])
    print("\n3. A sighted greedy (sees the opponent's rack when giving up a tile) against greedy")
    print(f"   sighted greedy wins {rate(wins, len(sighted))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
