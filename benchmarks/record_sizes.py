"""How large a save file gets: the figure behind the terminal's limit on the files it reads.

Plays seeded games between bots at the largest tables (4 players, the most days each edition
deals to 4) and reports the longest game in moves and the largest save file in bytes, beside the
most bytes any one move takes in a save. ``tendays replay`` and ``tendays play --resume`` refuse a
file larger than :data:`tendays.cli.record_file.MAX_RECORD_BYTES`; this shows how far above real
games that limit lies. Usage::

    python benchmarks/record_sizes.py               # 200 games per edition with greedy bots
    python benchmarks/record_sizes.py --games 50 --bot normal
"""

from __future__ import annotations

import argparse
import json

from tendays.bots import make_bot
from tendays.cli.record_file import MAX_RECORD_BYTES
from tendays.engine import MAX_PLAYERS, Game, Move, MoveKind, Options, load_edition, play_bots
from tendays.engine.options import MAX_DAYS, PILES


def most_days(edition_id: str, players: int) -> int:
    """The most days a rack of ``players`` can have in the edition (rules 2: every player draws
    once before the draw pile runs out)."""
    tiles = load_edition(edition_id).tile_count
    return min(MAX_DAYS, (tiles - PILES - players) // players)


def longest_move_bytes() -> int:
    """The most bytes one move adds to a save (the indented JSON list item and its line end)."""
    widest = [Move(MoveKind.REPLACE, MAX_DAYS, PILES), Move(MoveKind.SWAP, MAX_DAYS, MAX_DAYS - 1)]
    return max(len(f'  "{move}",\n'.encode()) for move in widest)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per edition (default 100)")
    parser.add_argument("--bot", default="greedy", help="the bot in every seat (default greedy)")
    parser.add_argument(
        "--turns", type=int, default=1000, help="the turn limit of each game (default 1000)"
    )
    args = parser.parse_args()
    per_move = longest_move_bytes()
    fit = MAX_RECORD_BYTES // per_move
    print(f"most bytes per move in a save: {per_move}")
    print(f"moves that fit in {MAX_RECORD_BYTES:,} bytes: over {fit:,} ({fit // 2:,} turns)")
    for edition_id in ("usa", "germany"):
        days = most_days(edition_id, MAX_PLAYERS)
        options = Options(players=MAX_PLAYERS, days=days, turn_limit=args.turns)
        bots = [make_bot(args.bot) for _ in range(MAX_PLAYERS)]
        won: list[int] = []  # moves of each game that was won
        largest = 0
        for seed in range(args.games):
            game = Game(edition_id, options, seed, names=("x" * 32,) * MAX_PLAYERS)
            play_bots(game, bots)
            if game.state.winner is not None:
                won.append(game.move_count)
            saved = json.dumps(game.record.to_json(), indent=1, ensure_ascii=False)
            largest = max(largest, len(saved.encode()))
        print(
            f"{edition_id}, {MAX_PLAYERS} players x {days} days, {args.games} {args.bot} games: "
            f"{len(won)} won, the longest in {max(won, default=0)} moves; "
            f"{args.games - len(won)} stopped at {args.turns} turns; "
            f"largest save {largest:,} bytes"
        )


if __name__ == "__main__":
    main()
