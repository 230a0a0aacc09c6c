"""What a key press costs in the terminal game, early in a game and late in a long one.

    python benchmarks/terminal_keys.py                    # a game at move ~20 and one at move ~650
    python benchmarks/terminal_keys.py --late 1300 --json
    python benchmarks/terminal_keys.py --log-piece 500    # the whole log in one Static

A person (keys chosen as the greedy bot would) plays ``--moves`` of their own moves against the
random bot in ``tendays play``'s app, headless at 80x24 (Textual's pilot), with no bot delay. Each
key press is timed from the press until the app has handled it and everything it set off (the
bot's answer included), in CPU seconds of this process, so that other work on the machine does not
count. The late game is a two-seat USA game dealt and played by random bots up to ``--late`` moves,
then handed to the person. Reported: the median and the 90th percentile per key press, in ms.

``--log-piece`` is the number of log lines kept in one Static (:data:`LOG_PIECE`); with 500, the
whole log (at most 500 lines) is one Static that is rewrapped for each new line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "cli"))

from tui_driver import Person, keys_for, settle  # noqa: E402

from tendays.bots import make_bot  # noqa: E402
from tendays.cli.tui import widgets  # noqa: E402
from tendays.cli.tui.play_app import PlayApp  # noqa: E402
from tendays.cli.tui.table import PlayConfig, Table, parse_seats  # noqa: E402
from tendays.engine import Options, Phase  # noqa: E402


def game_at(moves: int) -> Table:
    """A game not over after about ``moves`` moves, at the person's (seat 1's) turn to draw."""
    bot = make_bot("random")
    for seed in range(1, 1000):
        table = Table("usa", Options(players=2, first_seat=0), seed, parse_seats("me,random"))
        while not table.is_over and (
            table.move_count < moves
            or table.current != 0
            or table.view_for(0).phase is not Phase.DRAW
        ):
            decision = table.next_decision()
            assert decision is not None
            table.play(bot.choose(decision.view, decision.rng), decision.seat)
        if not table.is_over:
            return table
    raise SystemExit(f"no game of the random bots lasted {moves} moves")


async def key_times(table: Table, moves: int) -> list[float]:
    """CPU seconds of each key press while the person plays ``moves`` moves."""
    app = PlayApp(PlayConfig(players="me,random", bot_delay=0), table=table)
    person = Person(1)
    times: list[float] = []
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settle(pilot)
        for _ in range(moves):
            if table.is_over:
                break
            for key in keys_for(person.choose(screen)):
                start = time.process_time()
                await pilot.press(key)
                await pilot.pause()
                times.append(time.process_time() - start)
            await settle(pilot)
    return times


def summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {
        "keys": len(ordered),
        "median_ms": round(statistics.median(ordered) * 1000, 1),
        "p90_ms": round(ordered[int(0.9 * (len(ordered) - 1))] * 1000, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--early", type=int, default=20, help="moves before the early game (20)")
    parser.add_argument("--late", type=int, default=650, help="moves before the late game (650)")
    parser.add_argument("--moves", type=int, default=30, help="the person's moves timed (30)")
    parser.add_argument(
        "--log-piece", type=int, default=widgets.LOG_PIECE, help="log lines per Static"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    widgets.LOG_PIECE = args.log_piece
    results = {
        "log_piece": args.log_piece,
        "early": {
            "move": args.early,
            **summary(asyncio.run(key_times(game_at(args.early), args.moves))),
        },
        "late": {
            "move": args.late,
            **summary(asyncio.run(key_times(game_at(args.late), args.moves))),
        },
    }
    if args.json:
        print(json.dumps(results))
        return 0
    print(f"log lines per Static: {args.log_piece}")
    for name in ("early", "late"):
        row = results[name]
        print(
            f"{name:>5} game (from move {row['move']}): {row['keys']} key presses, "
            f"median {row['median_ms']} ms, p90 {row['p90_ms']} ms (CPU)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
