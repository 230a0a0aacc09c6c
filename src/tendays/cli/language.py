"""The language of the ``tendays`` command: ``--lang``, else what ``LANGUAGE``/``LANG`` ask for,
else the language of the edition the command is about (``tendays play --edition germany``,
``tendays check germany ...`` and ``tendays puzzles germany`` speak German), else English."""

from __future__ import annotations

import argparse
import os

from tendays.engine import available_languages, load_edition, match_language
from tendays.engine.i18n import gettext as _

__all__ = ["add_language_argument", "choose_language", "command_language", "environment_language"]


def add_language_argument(parser: argparse.ArgumentParser, by_edition: bool = False) -> None:
    """``--lang``: the language of everything the command says. A command about one edition
    (``by_edition``: its arguments hold ``edition``) falls back on the edition's own language, the
    others on English (:func:`command_language`)."""
    parser.add_argument(
        "--lang",
        choices=available_languages(),
        default=None,
        help=(
            _(
                "the language of what the command says (default: from LANGUAGE/LANG, else the "
                "edition's own)"
            )
            if by_edition
            else _(
                "the language of what the command says (default: from LANGUAGE/LANG, else English)"
            )
        ),
    )
    parser.set_defaults(speaks_edition=by_edition)


def environment_language() -> str | None:
    """The language LANGUAGE or LANG asks for, if the catalogues have it; None when they ask for
    nothing specific (unset, "C", "POSIX") or only for languages the game does not speak."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable, "").strip()
        if not value or value.split(".")[0] in ("C", "POSIX"):
            continue
        wanted = [part.split(".")[0].replace("_", "-") for part in value.split(":") if part]
        prefixes = {tag.split("-")[0].lower() for tag in wanted}
        lang = match_language(wanted)
        return lang if lang.split("-")[0] in prefixes else None
    return None


def choose_language(requested: str | None, edition: str | None) -> str:
    """``--lang``, else the environment's language, else the edition's own
    (English without an edition)."""
    if requested:
        return requested
    chosen = environment_language()
    if chosen:
        return chosen
    try:
        return load_edition(edition.lower()).language if edition else "en"
    except ValueError:  # an unknown edition: the command says so, in English
        return "en"


def command_language(args: argparse.Namespace) -> str:
    """The language of a parsed command line: its ``--lang``, else the environment's, else the
    edition's own for a command about one edition (its default edition when it names none), else
    English."""
    edition = None
    if getattr(args, "speaks_edition", False):
        from tendays.engine import default_edition

        edition = getattr(args, "edition", None) or default_edition()
    return choose_language(getattr(args, "lang", None), edition)
