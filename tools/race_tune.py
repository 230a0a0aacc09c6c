"""Duplicate matches between variants of the race bot and other bots, for tuning its weights.

    python tools/race_tune.py --a "race solo.T=0.5" --b race --seed 3000 --deals 100

A player is a registry spec, or ``race`` followed by ``key=value`` settings: those of ``RaceBot``
(``give``, ``cover``), ``solo.NAME`` for a constant of :mod:`tendays.bots.solo` while the bot
chooses (``solo.T=0.5``: the soft distance's temperature), and ``finish``, ``closer`` and
``samples`` for a denial tried and not kept: a thrown tile (or a covered top) costs ``finish``
times the share of sampled racks of the next player it would finish, plus ``closer`` times the
share of those two short it would bring closer (the racks sampled as the history allows, below).
Each deal of the tournament seed is played once per seating, the same deals as ``tendays simulate
--duplicate`` with that seed; the interval of the first player's win rate is over the deals.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from dataclasses import dataclass

from tendays.bots import Bot, make_bot, solo
from tendays.bots.distance import analyze, graph_for
from tendays.bots.race import RaceBot
from tendays.bots.reading import TableFacts, table_facts
from tendays.bots.rivals import distance_shares, journey_ends, sample_distance, walk_journey
from tendays.engine import (
    Edition,
    Game,
    Knowledge,
    Move,
    Phase,
    PlayerView,
    knowledge_of,
    load_edition,
    play_bots,
)
from tendays.sim import Tournament

_DENIAL = ("finish", "closer", "samples")


def build(spec: str) -> Bot:
    """A bot from a spec (see the module's docstring)."""
    name, *settings = spec.split()
    if name != "race" or not settings:
        return make_bot(name)
    kwargs: dict[str, float] = {}
    denial: dict[str, float] = {}
    constants: dict[str, float] = {}
    for setting in settings:
        key, value = setting.split("=")
        if key.startswith("solo."):
            constants[key.removeprefix("solo.")] = float(value)
        elif key in _DENIAL:
            denial[key] = float(value)
        else:
            kwargs[key] = float(value)
    race = RaceBot(**kwargs)  # type: ignore[arg-type]
    bot: Bot = race
    if denial:
        bot = _Denying(
            race,
            denial.get("finish", 0.0),
            denial.get("closer", 0.0),
            int(denial.get("samples", 16)),
        )
    return _Constants(bot, constants) if constants else bot


class _Constants:
    """A bot that plays with some of the solo race's constants changed."""

    name = "race"

    def __init__(self, bot: Bot, constants: dict[str, float]) -> None:
        self.bot, self.constants = bot, constants

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        saved = {k: getattr(solo, k) for k in self.constants}
        for k, v in self.constants.items():
            setattr(solo, k, v)
        try:
            return self.bot.choose(view, rng)
        finally:
            for k, v in saved.items():
                setattr(solo, k, v)


class _Denying:
    """The race bot whose placements also weigh how likely the thrown (or covered) tile is to
    finish the next player's journey, by :func:`rival_odds`."""

    name = "race"

    def __init__(self, race: RaceBot, finish: float, closer: float, samples: int) -> None:
        self.race, self.finish, self.closer, self.samples = (
            race,
            finish,
            closer,
            samples,
        )

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        moves = view.legal_moves()
        if view.options.players == 1 or view.phase is not Phase.PLACE or len(moves) == 1:
            return self.race.choose(view, rng)
        assert view.player is not None
        facts = table_facts(view)
        rival = (view.player + 1) % view.options.players
        odds = rival_odds(view.edition, knowledge_of(view), facts, rival, rng, self.samples)
        pairs = zip(odds.finish, odds.closer, strict=True)
        risk = [self.finish * f + self.closer * c for f, c in pairs]

        def wanted(tile: int) -> float:
            if tile in facts.passed_now[rival]:
                return 0.0
            return 0.5 if facts.discarded[rival][tile] or facts.passed[rival][tile] else 1.0

        race = self.race
        return solo.solo_move(
            view,
            moves,
            given=lambda tile: race.give * wanted(tile) + risk[tile],
            covered=lambda tile: race.cover * wanted(tile) + risk[tile],
        )


@dataclass(frozen=True, slots=True)
class RivalOdds:
    """Per tile: the share of sampled racks it finishes, and of those two short it brings closer."""

    finish: tuple[float, ...]
    closer: tuple[float, ...]
    samples: int  # racks that counted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", required=True)
    parser.add_argument("--b", required=True)
    parser.add_argument("--seed", type=int, default=3000)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--edition", default="usa")
    args = parser.parse_args()
    edition = load_edition(args.edition)
    bots = [build(args.a), build(args.b)]
    tournament = Tournament(
        args.edition,
        ("greedy", "greedy"),
        games=2 * args.deals,
        seed=args.seed,
        duplicate=True,
    )
    shares = []
    think = [0.0, 0.0]
    moves = [0, 0]
    began = time.time()
    for deal in range(args.deals):
        wins = 0
        for seating in range(2):
            index = 2 * deal + seating
            order = tournament.seating(index)
            game = Game(edition, tournament.options(), tournament.game_seed(index))
            timed = [_Timed(bots[order[seat]], think, moves, order[seat]) for seat in range(2)]
            play_bots(game, timed)
            winner = game.state.winner
            wins += winner is not None and order[winner] == 0
        shares.append(wins / 2)
    mean = statistics.fmean(shares)
    half = 1.959964 * statistics.stdev(shares) / math.sqrt(len(shares))
    print(
        json.dumps(
            {
                "a": args.a,
                "b": args.b,
                "seed": args.seed,
                "deals": args.deals,
                "a_win": round(mean, 4),
                "ci95": [round(mean - half, 4), round(mean + half, 4)],
                "won_split_lost": [
                    shares.count(1.0),
                    shares.count(0.5),
                    shares.count(0.0),
                ],
                "ms": [round(1000 * t / max(m, 1), 1) for t, m in zip(think, moves, strict=True)],
                "seconds": round(time.time() - began),
                "shares": shares,
            }
        ),
        flush=True,
    )


class _Timed:
    name = "timed"

    def __init__(self, bot: Bot, think: list[float], moves: list[int], who: int) -> None:
        self.bot, self.think, self.moves, self.who = bot, think, moves, who

    def choose(self, view, rng):  # type: ignore[no-untyped-def]
        began = time.perf_counter()
        try:
            return self.bot.choose(view, rng)
        finally:
            self.think[self.who] += time.perf_counter() - began
            self.moves[self.who] += 1


_TRIES = 8  # journeys tried for one sample before it is skipped


def rival_odds(
    edition: Edition,
    knowledge: Knowledge,
    facts: TableFacts,
    player: int,
    rng: random.Random,
    samples: int = 16,
) -> RivalOdds:
    """The odds that each tile finishes ``player``'s journey, over ``samples`` plausible racks."""
    tiles = len(edition.tiles)
    finish = [0.0] * tiles
    closer = [0.0] * tiles
    counted = 0
    table = distance_shares(edition)
    for _ in range(samples):
        distance = sample_distance(table, facts.replaced[player], rng)
        rack = _sample_rack(edition, knowledge, facts, player, distance, rng)
        if rack is None:
            continue
        counted += 1
        analysis = analyze(edition, rack)
        if analysis.distance > 2:
            continue
        tally = finish if analysis.distance == 1 else closer
        for t in {t for outs in analysis.outs for t in outs}:
            tally[t] += 1.0
    n = max(counted, 1)
    return RivalOdds(tuple(f / n for f in finish), tuple(c / n for c in closer), counted)


def _sample_rack(
    edition: Edition,
    knowledge: Knowledge,
    facts: TableFacts,
    player: int,
    distance: int,
    rng: random.Random,
) -> list[int] | None:
    """A rack for ``player`` ``distance`` days from a journey, consistent with what is known."""
    graph = graph_for(edition)
    rack, filled = knowledge.racks[player], knowledge.filled[player]
    if not all(filled):
        return None
    days = len(rack)
    hidden = [d for d in range(days) if rack[d] is None]
    if not hidden:
        return list(rack)  # type: ignore[arg-type]
    # the journey may use any copy not known to sit in this player's rack
    held = [0] * len(edition.tiles)
    for t in rack:
        if t is not None:
            held[t] += 1
    pool = [max(0, c - h) for c, h in zip(graph.counts, held, strict=True)]
    backward = journey_ends(graph, rack, pool)
    if backward is None:
        return None
    refused = facts.passed_now[player]
    for _ in range(_TRIES):
        journey = walk_journey(graph, rack, backward, list(pool), rng)
        if journey is None:
            continue
        unseen = list(knowledge.unseen_counts)
        must: list[int] = []  # days whose journey tile the player cannot hold
        for d, t in journey.items():  # in the order of the days
            if unseen[t] > 0:
                unseen[t] -= 1
            else:
                must.append(d)
        if len(must) > distance:
            continue
        others = [d for d in hidden if d not in must]
        spoilt = must + rng.sample(others, min(distance - len(must), len(others)))
        spare = [t for t, n in enumerate(unseen) for _ in range(n)]
        full: list[int | None] = list(rack)
        for d, t in journey.items():
            full[d] = t
        for d in spoilt:
            wrong = [t for t in spare if t != journey[d]]
            if not wrong:
                break
            tile = rng.choice(wrong)
            spare.remove(tile)
            full[d] = tile
        else:
            analysis = analyze(edition, full)
            if analysis.distance == distance and not any(
                t in refused for outs in analysis.outs for t in outs
            ):
                return full  # type: ignore[return-value]
    return None


if __name__ == "__main__":
    main()
