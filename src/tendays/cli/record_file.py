"""Reading a game record or save file that anyone may have sent: bounded, and never left waiting.

A save file comes from disk, a download or a friend, so the terminal reads it as it would read
anything from outside. Only a regular file is read: a folder, a pipe (``mkfifo``, ``<(...)``) or a
device (``/dev/zero``, ``/dev/stdin``) is refused before a byte is read, since a pipe may never end
and a device may never stop. A regular file is read in pieces up to :data:`MAX_RECORD_BYTES` and
refused beyond it, even one that grows while it is read. Every refusal is a :class:`RecordError` in
the game's words, naming the file and the limit.

Why 1 MiB: a move takes at most 18 bytes in a save (``  "replace 20 3",`` and its line end), so
the limit holds 58,254 moves, 29,127 turns. Of 200 seeded games of four greedy bots at the largest
tables (USA 14 days, Germany 11), the longest won game has 598 moves, and a game stopped by a limit
of 1,000 turns saves in 26 KB (``python benchmarks/record_sizes.py``). A game with no turn limit has
no longest game in principle, but one of 29,000 turns takes some 40 hours at 5 seconds a turn.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from tendays.engine import RecordError
from tendays.engine.i18n import gettext as _
from tendays.engine.plain_text import shown

__all__ = ["MAX_RECORD_BYTES", "file_kind", "read_record_bytes"]

MAX_RECORD_BYTES = 1 << 20
_PIECE = 1 << 16


def _limit_words() -> str:
    return _("tendays reads game records from files of at most 1 MiB ({most} bytes)").format(
        most=MAX_RECORD_BYTES
    )


def file_kind(mode: int) -> str | None:
    """What a file that is not a regular file is, in words; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return _("a folder")
    if stat.S_ISFIFO(mode):
        return _("a pipe")
    if stat.S_ISSOCK(mode):
        return _("a socket")
    return _("a device")


def read_record_bytes(path: Path) -> bytes:
    """The bytes of the game record at ``path``; a :class:`RecordError` in words for a file that
    is not a regular file, is larger than :data:`MAX_RECORD_BYTES`, or cannot be read."""
    name = shown(str(path))
    try:
        # O_NONBLOCK: opening a pipe nobody writes to returns at once instead of waiting
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise RecordError(
            _("cannot read {path}: {error}").format(path=name, error=error.strerror or error)
        ) from None
    try:
        status = os.fstat(handle)
        kind = file_kind(status.st_mode)
        if kind is not None:
            raise RecordError(
                _("{path} is not a tendays game record: it is {kind}; {limit}").format(
                    path=name, kind=kind, limit=_limit_words()
                )
            )
        if status.st_size > MAX_RECORD_BYTES:
            raise RecordError(_too_large(name, status.st_size))
        pieces: list[bytes] = []
        size = 0
        while piece := os.read(handle, _PIECE):
            size += len(piece)
            if size > MAX_RECORD_BYTES:
                raise RecordError(_too_large(name, None))
            pieces.append(piece)
        return b"".join(pieces)
    except OSError as error:
        raise RecordError(
            _("cannot read {path}: {error}").format(path=name, error=error.strerror or error)
        ) from None
    finally:
        os.close(handle)


def _too_large(name: str, size: int | None) -> str:
    if size is None:
        return _("{path} is too large: {limit}").format(path=name, limit=_limit_words())
    return _("{path} is too large ({size} bytes): {limit}").format(
        path=name, size=size, limit=_limit_words()
    )
