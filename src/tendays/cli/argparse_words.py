"""argparse's own words (``usage:``, the headings of ``--help``, its refusals) in the reader's
language.

argparse looks each of its sentences up through its module's ``_`` and ``ngettext`` at the moment it
writes it, so pointing those at the catalogues (:func:`speak_argparse`) translates them; the
sentences are listed here so that extraction finds them (docs/i18n.md).
"""

from __future__ import annotations

import argparse

from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import ngettext

__all__ = ["speak_argparse"]


def speak_argparse() -> None:
    """Make argparse write its sentences in the current language (English needs no catalogue, so
    English reads as argparse's own)."""
    argparse._ = _  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]


def _sentences() -> list[str]:
    """The argparse sentences a ``tendays`` command can write (Python 3.11 to 3.13)."""
    # TRANSLATORS: argparse's words around every `tendays ... --help` and its refusals; keep the
    # %-placeholders as they are.
    return [
        _("usage: "),
        _("positional arguments"),
        _("options"),
        _("show this help message and exit"),
        _("%(prog)s: error: %(message)s\n"),
        _("argument %(argument_name)s: %(message)s"),
        _("unrecognized arguments: %s"),
        _("the following arguments are required: %s"),
        _("expected one argument"),
        _("invalid %(type)s value: %(value)r"),
        _("invalid choice: %(value)r (choose from %(choices)s)"),
        _("ambiguous option: %(option)s could match %(matches)s"),
        _("not allowed with argument %s"),
        _("one of the arguments %s is required"),
    ]
