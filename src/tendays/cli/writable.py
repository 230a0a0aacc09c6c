"""Whether the terminal can write a file it was pointed at (``play --save``, ``learn --progress``),
asked before the game starts so a bad target is refused in words rather than lost later."""

from __future__ import annotations

import os
from pathlib import Path

from tendays.engine.i18n import gettext as _
from tendays.engine.plain_text import shown

from .record_file import file_kind

__all__ = ["write_problem"]


def write_problem(path: Path, make_folders: bool = False) -> str | None:
    """What keeps a file from being written at ``path``, in words; None when it can be. A folder,
    a device, a pipe or a socket is refused, and a folder that is missing or may not be written in
    (``make_folders``: the first folder that exists above it must allow making the rest). A file
    that exists but may not be written is left to the writing, which says so."""
    name = shown(str(path))
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:
        return _("cannot write {path}: {error}").format(path=name, error=error.strerror or error)
    if mode is not None:
        kind = file_kind(mode)
        if kind is not None:
            return _("{path} is {kind}, not a file").format(path=name, kind=kind)
    folder = path.absolute().parent
    if make_folders:
        while not folder.exists() and folder.parent != folder:
            folder = folder.parent
    if not folder.is_dir():
        return _("cannot write {path}: the folder {folder} does not exist").format(
            path=name, folder=shown(str(folder))
        )
    if not os.access(folder, os.W_OK | os.X_OK):
        return _("cannot write {path}: the folder {folder} may not be written").format(
            path=name, folder=shown(str(folder))
        )
    return None
