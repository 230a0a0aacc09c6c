"""``tendays accounts``: the operator's commands for people's accounts.

    tendays accounts reset-password NAME [--db URL]   # a new password for a forgotten one

There is no e-mail to send a reset link to, so the operator sets a new password and tells it to
the person by a channel they trust. The new password is read from standard input (asked twice at a
terminal), never from the command line, which ``ps`` shows; every session of the account ends, and
its sign-in limit is cleared. It works while the server runs.
"""

from __future__ import annotations

import argparse
import getpass
import sys

from tendays.engine.i18n import gettext as _

from .command_error import CommandError
from .database_option import add_database_argument


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    reset = sub.add_parser(
        "reset-password", help="set a new password for an account (read from standard input)"
    )
    reset.add_argument("name", help="the account's name (letter case does not matter)")
    add_database_argument(reset)


def _new_password() -> str:
    """The new password: typed twice at a terminal, else the first line of standard input."""
    if not sys.stdin.isatty():
        return sys.stdin.readline().rstrip("\r\n")
    first = getpass.getpass(_("New password: "))
    if getpass.getpass(_("The same again: ")) != first:
        raise CommandError(_("the two passwords differ; nothing was changed"), 1, named=False)
    return first


def run(args: argparse.Namespace) -> int:
    try:
        from tendays.server.people.accounts import AccountError, reset_password
        from tendays.server.storage.store import MissingDriver, Store
    except ImportError as error:
        missing = _(
            "the server's packages are not installed ({error}): pip install -e '.[server]' in a "
            "clone of tendays"
        )
        raise CommandError(missing.format(error=error), named=False) from None
    password = _new_password()
    try:
        store = Store(args.db)
    except MissingDriver as error:
        raise CommandError(str(error), named=False) from None
    try:
        reset_password(store.engine, args.name, password)
    except AccountError as error:
        raise CommandError(error.message, 1, named=False) from None
    finally:
        store.close()
    done = _("the password of {name} is new; every session of the account has ended")
    print(done.format(name=args.name))
    return 0
