"""A command's refusal: the reason in words and the exit status, said once by ``tendays``.

A command raises :class:`CommandError` where it cannot do what it was asked (a bad option, a file
it cannot read, a server that said no). :func:`tendays.cli.main.main` prints the reason on standard
error after the command's name (``tendays play: --delay 99 is out of range: ...``) and exits with
the status: 2 for input that makes no sense, unless the command says otherwise.
"""

from __future__ import annotations

__all__ = ["CommandError"]


class CommandError(Exception):
    """``message`` for standard error and the exit ``status``; ``named``: the message follows the
    command's name ("tendays check: ..."), else it stands alone."""

    def __init__(self, message: str, status: int = 2, *, named: bool = True) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.named = named
