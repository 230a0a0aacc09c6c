"""``tendays play``: a full-screen terminal game against bots or friends at one keyboard.

With no options a setup screen asks for the edition, the seats, the days, who begins and the
variant; ``--resume FILE`` continues a saved game.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tendays.engine.i18n import gettext as _

from .command_error import CommandError
from .language import add_language_argument, choose_language

__all__ = [
    "DEFAULT_PLAYERS",
    "DEFAULT_SAVE",
    "MAX_DELAY",
    "add_arguments",
    "choose_language",
    "first_seat_arg",
    "run",
    "seed_arg",
]

DEFAULT_PLAYERS = "me,normal,normal"
DEFAULT_SAVE = Path("tendays-save.json")
MAX_DELAY = 60  # seconds: the longest pause before a bot's move that --delay allows


def first_seat_arg(text: str) -> int | str:
    """``--first-seat``: a seat number (1 for the first seat in --players) or "random"."""
    if text.strip().lower() == "random":
        return "random"
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(
            _("give a seat number (1 for the first seat) or 'random', not {text!r}").format(
                text=text
            )
        )
    return int(text)


def seed_arg(text: str) -> int:
    """``--seed``: a whole number in the range the engine deals with
    (:func:`tendays.engine.parse_seed`)."""
    from tendays.engine import parse_seed

    try:
        return parse_seed(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from tendays.bots import bot_names
    from tendays.engine import MAX_DAYS, MIN_DAYS, available_editions

    from .tui.palettes import PALETTES

    parser.add_argument(
        "--edition", choices=available_editions(), default=None, help=_("which game (default usa)")
    )
    parser.add_argument(
        "--players",
        default=None,
        metavar="SEATS",
        help=_(
            "comma-separated seats in turn order (default {players!r}): 'me', 'human', a name or "
            "human:NAME for a person; {bots} or cmd:PROGRAM for a bot"
        ).format(players=DEFAULT_PLAYERS, bots=", ".join(bot_names())),
    )
    parser.add_argument(
        "--days",
        type=int,
        default=None,
        metavar="N",
        help=_(
            "days in a journey, {least} to {most} as the edition's tiles allow (default 10)"
        ).format(least=MIN_DAYS, most=MAX_DAYS),
    )
    parser.add_argument(
        "--first-seat",
        type=first_seat_arg,
        default=None,
        metavar="N|random",
        help=_(
            "the seat that takes the first turn after the draft, counted in --players from 1, "
            "or random (default random)"
        ),
    )
    parser.add_argument(
        "--swap",
        action="store_true",
        default=None,
        help=_("swap variant: a turn may swap two days instead of drawing"),
    )
    parser.add_argument(
        "--seed",
        type=seed_arg,
        default=None,
        help=_(
            "shuffle seed, for a game that can be dealt again (a whole number of at most 19 digits)"
        ),
    )
    parser.add_argument(
        "--delay",
        type=float,
        default=0.6,
        metavar="SECONDS",
        help=_(
            "pause before each bot move so it can be followed, 0 to {most} (default 0.6; 0 for "
            "none)"
        ).format(most=MAX_DELAY),
    )
    parser.add_argument(
        "--save",
        type=Path,
        default=DEFAULT_SAVE,
        metavar="FILE",
        help=_("where the 's' key saves the game (default {path})").format(path=DEFAULT_SAVE),
    )
    parser.add_argument(
        "--resume",
        "--load",
        type=Path,
        default=None,
        metavar="FILE",
        help=_(
            "continue a saved game: its edition, days, variant and seats (--players seats it "
            "differently)"
        ),
    )
    add_language_argument(parser, by_edition=True)
    parser.add_argument(
        "--palette",
        choices=PALETTES,
        default=None,
        help=_(
            "the tile colours: the edition's (normal) or colours for colour-blind players (cb); "
            "the c key switches them during the game (default normal, or the resumed game's)"
        ),
    )
    parser.add_argument(
        "--setup", action="store_true", help=_("show the setup screen even when options are given")
    )


def run(args: argparse.Namespace) -> int:
    from tendays.engine import default_edition, use_language

    # Refusals before the game starts speak the game's language: --lang, LANG, else the edition's.
    with use_language(choose_language(args.lang, args.edition or default_edition())):
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from tendays.engine import RecordError, default_edition

    from .tui.play_app import PlayApp, fresh_seed
    from .tui.save_file import load_save, saved_palette
    from .tui.seats import PERSON_PREFIX, SeatError, parse_seats, saved_seats_problem
    from .tui.table import PlayConfig, Table

    if not 0 <= args.delay <= MAX_DELAY:  # also false for nan
        raise CommandError(
            _(
                "--delay {delay} is out of range: give a pause of 0 to {most} seconds (0 for none)"
            ).format(delay=f"{args.delay:g}", most=MAX_DELAY)
        )
    if args.save != DEFAULT_SAVE:
        from .writable import write_problem

        problem = write_problem(args.save)
        if problem is not None:
            words = _("--save: {problem}; give a file the game can be saved to")
            raise CommandError(words.format(problem=problem))
    fixed_by_the_save = [
        option
        for option, value in (
            ("--edition", args.edition),
            ("--days", args.days),
            ("--first-seat", args.first_seat),
            ("--swap", args.swap),
            ("--seed", args.seed),
            ("--setup", args.setup or None),
        )
        if value is not None
    ]
    if args.resume is not None and fixed_by_the_save:
        raise CommandError(
            _(
                "a resumed game keeps the edition, days, first seat, variant and seed it was saved "
                "with; leave out {options} (only --players, --save, --delay, "
                "--lang and --palette "
                "go with --resume)"
            ).format(options=", ".join(fixed_by_the_save))
        )
    if args.players is not None and not args.players.strip():
        raise CommandError(
            _("--players is empty: give 1 to 4 comma-separated seats, e.g. 'me,hard,normal'")
        )
    chosen = (args.edition, args.players, args.days, args.first_seat, args.swap, args.seed)
    config = PlayConfig(
        edition=args.edition or default_edition(),
        players=DEFAULT_PLAYERS if args.players is None else args.players,
        days=args.days if args.days is not None else 10,
        swap=bool(args.swap),
        first_seat=args.first_seat - 1 if isinstance(args.first_seat, int) else None,
        seed=args.seed,
        bot_delay=args.delay,
        save_path=args.save if args.resume is None or args.save != DEFAULT_SAVE else args.resume,
        palette=args.palette
        or (args.resume is not None and saved_palette(args.resume))
        or "normal",
    )
    table = None
    try:
        if args.resume is not None:
            record, specs = load_save(args.resume)
            programs = [spec for spec in specs or () if spec.lower().startswith("cmd:")]
            if programs and args.players is None:
                # A save file may come from anyone: it never starts a program by itself.
                raise SeatError(
                    _(
                        "the save file would start the program {program!r} for a seat; a save file "
                        "never starts programs by itself: give the seats with --players to resume "
                        "it (e.g. --players 'me,{seat}' if you trust that program)"
                    ).format(program=programs[0][4:].strip(), seat=programs[0])
                )
            unknown = None if args.players is not None else saved_seats_problem(specs or ())
            if unknown is not None:
                raise SeatError(unknown)
            players = (
                args.players
                if args.players is not None
                else (",".join(specs) if specs else ",".join(["human"] * record.options.players))
            )
            table = Table.from_record(record, parse_seats(players, record.names))
            # saving a resumed game may overwrite its own file
            table.own_files.add(args.resume.resolve())
            config = PlayConfig(
                edition=record.edition,
                players=",".join(
                    f"{PERSON_PREFIX}{s.name}" if s.is_human else s.spec for s in table.seats
                ),
                days=record.options.days,
                swap=record.options.swap,
                first_seat=record.options.first_seat,
                seed=None,
                bot_delay=args.delay,
                save_path=config.save_path,
                palette=config.palette,
            )
        elif not args.setup and any(value is not None for value in chosen):
            seed = config.seed if config.seed is not None else fresh_seed()
            table = Table(config.edition, config.options(), seed, config.seat_list())
    # SeatError and options the engine refuses are ValueErrors
    except (RecordError, ValueError) as error:
        # the engine's and the seats' words, translated
        raise CommandError(str(error)) from None
    app = PlayApp(
        config,
        table=table,
        setup=table is None,
        language=choose_language(args.lang, config.edition),
        # an edition chosen on the setup screen speaks as it would with --edition
        language_of=lambda edition: choose_language(args.lang, edition),
    )
    try:
        app.run()
    finally:
        if table is not None:
            table.close()  # stop any engine programs the game started
    return app.return_code or 0
