"""``tendays learn``: the guided first game, a short game where each rule is explained the first
time it matters.

The place reached is kept in a progress file (``--progress``, else ``$TENDAYS_LEARN_FILE``, else
``learn.json`` in the user's data folder), so the lesson goes on where it stopped; ``--restart``
starts over.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from .command_error import CommandError
from .language import add_language_argument, choose_language

__all__ = ["add_arguments", "default_lesson", "run"]


def default_lesson() -> str:
    """The edition learnt when none is named: the default edition, if it has a guided game."""
    from tendays.engine import default_edition
    from tendays.learn import available_lessons

    lessons = available_lessons()
    return default_edition() if default_edition() in lessons else lessons[0]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from tendays.engine.i18n import gettext as _
    from tendays.learn import available_lessons

    parser.add_argument(
        "edition",
        nargs="?",
        choices=available_lessons(),
        default=None,
        help=_("which game to learn (default {edition})").format(edition=default_lesson()),
    )
    parser.add_argument(
        "--restart", action="store_true", help=_("start the guided game again from its first step")
    )
    parser.add_argument(
        "--progress",
        type=Path,
        default=None,
        metavar="FILE",
        help=_(
            "the file that keeps the place reached (default $TENDAYS_LEARN_FILE, else "
            "learn.json in $XDG_DATA_HOME/tendays)"
        ),
    )
    add_language_argument(parser, by_edition=True)


def run(args: argparse.Namespace) -> int:
    from tendays.engine import use_language
    from tendays.learn import Tutor, load_lesson
    from tendays.learn.progress import Progress

    from .tui.learn_screen import LearnApp

    edition = args.edition or default_lesson()
    language = choose_language(args.lang, edition)
    if args.progress is not None:
        from tendays.engine.i18n import gettext as _

        from .writable import write_problem

        with use_language(language):
            problem = write_problem(args.progress, make_folders=True)
            if problem is not None:
                words = _("--progress: {problem}; give a file the place reached can be kept in")
                raise CommandError(words.format(problem=problem))
    progress = Progress.load(args.progress)
    if args.restart:
        progress.steps[edition] = 0
    with use_language(language):
        tutor = Tutor(load_lesson(edition))
    LearnApp(tutor, progress, language).run()
    return 0
