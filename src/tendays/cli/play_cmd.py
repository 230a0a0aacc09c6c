"""``tendays play``: a full-screen terminal game against bots or friends at one keyboard.

With no options a setup screen asks for the edition, the seats, the days and the variant;
``--resume FILE`` continues a saved game.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

DEFAULT_PLAYERS = "me,normal,normal"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--edition", choices=("usa", "germany"), default=None, help="which game (default usa)")
    parser.add_argument("--players", default=None, metavar="SEATS",
                        help=f"comma-separated seats in turn order (default {DEFAULT_PLAYERS!r}): 'me', 'human' or "
                             "a name for a person; easy, normal, hard, random, greedy, expert or cmd:PROGRAM for a bot")
    parser.add_argument("--days", type=int, choices=(10, 5), default=None, help="days in a journey (default 10)")
    parser.add_argument("--swap", action="store_true", default=None,
                        help="swap variant: a turn may swap two days instead of drawing")
    parser.add_argument("--seed", type=int, default=None, help="shuffle seed, for a game that can be dealt again")
    parser.add_argument("--delay", type=float, default=0.6, metavar="SECONDS",
                        help="pause before each bot move so it can be followed (default 0.6; 0 for none)")
    parser.add_argument("--save", type=Path, default=Path("tendays-save.json"), metavar="FILE",
                        help="where the 's' key saves the game (default tendays-save.json)")
    parser.add_argument("--resume", "--load", type=Path, default=None, metavar="FILE",
                        help="continue a saved game (its seats, unless --players is given)")
    parser.add_argument("--setup", action="store_true", help="show the setup screen even when options are given")


def run(args: argparse.Namespace) -> int:
    from tendays.engine import RecordError

    from .tui.play_app import PlayApp
    from .tui.table import PlayConfig, Table, load_save, parse_seats

    if args.delay < 0:
        print("tendays play: --delay cannot be negative", file=sys.stderr)
        return 2
    chosen = (args.edition, args.players, args.days, args.swap, args.seed)
    config = PlayConfig(
        edition=args.edition or "usa",
        players=args.players or DEFAULT_PLAYERS,
        days=args.days or 10,
        swap=bool(args.swap),
        seed=args.seed,
        bot_delay=args.delay,
        save_path=args.save if args.resume is None or args.save != Path("tendays-save.json") else args.resume,
    )
    table = None
    try:
        if args.resume is not None:
            record, specs = load_save(args.resume)
            players = args.players or (",".join(specs) if specs else ",".join(["human"] * record.options.players))
            table = Table.from_record(record, parse_seats(players, record.names))
            config = PlayConfig(
                edition=record.edition,
                players=",".join(s.name if s.is_human else s.spec for s in table.seats),
                days=record.options.days,
                swap=record.options.swap,
                seed=args.seed,
                bot_delay=args.delay,
                save_path=config.save_path,
            )
        elif not args.setup and any(value is not None for value in chosen):
            seed = config.seed
            if seed is None:
                from .tui.play_app import fresh_seed

                seed = fresh_seed()
            table = Table(config.edition, config.options(), seed, config.seat_list())
    except (RecordError, ValueError) as error:  # SeatError and bad options are ValueErrors
        print(f"tendays play: {error}", file=sys.stderr)
        return 2
    app = PlayApp(config, table=table, setup=table is None)
    try:
        app.run()
    finally:
        if table is not None:
            table.close()  # stop any engine programs the game started
    return app.return_code or 0
