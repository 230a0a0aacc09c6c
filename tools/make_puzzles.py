"""Make the shipped puzzles: play bot games, cut every position with one proven answer, write the
data files.

    python tools/make_puzzles.py                       # both editions, 2000 puzzles each, into the
                                                       # package
    python tools/make_puzzles.py --edition usa --count 200 --workers 4 --out /tmp/puzzles

Games are two-player games of the bot pairs in ``PAIRS`` (a careless bot leaves finishes on the
piles for longer than a careful one, so their positions differ), dealt by the simulator's seeds
(:class:`tendays.sim.Tournament`). Each puzzle is proven by the engine when it is cut
(:func:`tendays.puzzles.prove`) and again by the tests. Positions that show the same rack, pile tops
and (for a block) drawn tile and other rack are kept once. A third of the puzzles are blocks where
the games give that many. The same arguments write the same files.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

from tendays.bots import make_bot
from tendays.engine import Game, State, apply, available_editions, load_edition, new_game, play_bots
from tendays.puzzles import Kind, Puzzle, prove
from tendays.puzzles.cut import cut
from tendays.puzzles.shipped import data_file
from tendays.sim import Tournament

PAIRS = (
    ("fallible:0.25", "fallible:0.5"),
    ("greedy", "fallible:0.5"),
    ("fallible:0.25", "fallible:0.25"),
)
DATA = Path(__file__).resolve().parent.parent / "src" / "tendays" / "puzzles" / "data"
BLOCK_SHARE = 1 / 3
BATCH = 64


def states(game: Game) -> Iterator[State]:
    """The state after each move of a finished game, from its record."""
    state = new_game(load_edition(game.edition_id), game.options, game.seed)
    yield state
    for move in game.moves:
        state = apply(state, move)
        yield state


def puzzles_of_game(edition: str, pair: int, index: int, seed: int) -> list[dict[str, object]]:
    """The puzzles of game ``index`` of bot pair ``pair`` (JSON forms, so
    they cross process boundaries)."""
    tournament = Tournament(edition, PAIRS[pair], games=index + 1, seed=seed * 100 + pair)
    game_seed = tournament.game_seed(index)
    seating = tournament.seating(index)
    game = Game(edition, tournament.options(), game_seed)
    play_bots(game, [make_bot(tournament.players[seating[seat]]) for seat in range(2)])
    return [puzzle.to_json() for puzzle in cut(states(game), game_seed)]


def key(puzzle: Puzzle) -> tuple[object, ...]:
    return (
        puzzle.kind,
        puzzle.rack,
        tuple(p[-1] for p in puzzle.piles),
        puzzle.held,
        puzzle.opponent,
    )


def collect(edition: str, count: int, seed: int, workers: int) -> list[Puzzle]:
    """Play games until ``count`` different puzzles are found (a third of them
    blocks, where there are so many)."""
    wanted = {Kind.BLOCK: round(count * BLOCK_SHARE)}
    wanted[Kind.FINISH] = count - wanted[Kind.BLOCK]
    found: dict[Kind, dict[tuple[object, ...], Puzzle]] = {Kind.FINISH: {}, Kind.BLOCK: {}}
    games = 0
    with ProcessPoolExecutor(workers) as pool:
        while (
            len(found[Kind.FINISH]) < wanted[Kind.FINISH]
            or len(found[Kind.BLOCK]) < wanted[Kind.BLOCK]
        ):
            jobs = [
                (edition, (games + i) % len(PAIRS), (games + i) // len(PAIRS), seed)
                for i in range(BATCH)
            ]
            for batch in pool.map(puzzles_of_game, *zip(*jobs, strict=True)):
                for data in batch:
                    puzzle = Puzzle.from_json(data)
                    found[puzzle.kind].setdefault(key(puzzle), puzzle)
            games += BATCH
            print(
                f"{edition}: {games} games, {len(found[Kind.FINISH])} finish, "
                f"{len(found[Kind.BLOCK])} block",
                file=sys.stderr,
            )
            if games >= 400 * count:  # the games give too few blocks: fill up with finishes
                break
    blocks = list(found[Kind.BLOCK].values())[: wanted[Kind.BLOCK]]
    finishes = list(found[Kind.FINISH].values())[: count - len(blocks)]
    # Ids number each kind from 1: usa-f0001, usa-b0001.
    return [
        replace(puzzle, id=f"{edition}-{puzzle.kind.value[0]}{number:04d}")
        for kind in (finishes, blocks)
        for number, puzzle in enumerate(kind, 1)
    ]


def write(puzzles: list[Puzzle], path: Path) -> None:
    lines = "".join(json.dumps(p.to_json(), separators=(",", ":")) + "\n" for p in puzzles)
    # mtime 0: the same puzzles give the same bytes.
    with (
        path.open("wb") as raw,
        gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as file,
    ):
        file.write(lines.encode("utf-8"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--edition",
        choices=available_editions(),
        action="append",
        help="an edition (again for more; default: all)",
    )
    parser.add_argument("--count", type=int, default=2000, help="puzzles per edition (2000)")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the games (1)")
    parser.add_argument("--workers", type=int, default=2, help="processes playing games (2)")
    parser.add_argument(
        "--out", type=Path, default=DATA, help="the folder of the data files (the package's)"
    )
    args = parser.parse_args(argv)
    if args.count < 1 or args.workers < 1:
        parser.error("--count and --workers must be at least 1")
    args.out.mkdir(parents=True, exist_ok=True)
    for edition in args.edition or available_editions():
        puzzles = collect(edition, args.count, args.seed, args.workers)
        for puzzle in puzzles:
            prove(puzzle)
        write(puzzles, args.out / data_file(edition))
        kinds = {kind: sum(p.kind is kind for p in puzzles) for kind in Kind}
        print(
            f"{edition}: {len(puzzles)} puzzles "
            f"({', '.join(f'{n} {k.value}' for k, n in kinds.items())}) in "
            f"{args.out / data_file(edition)}",
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
