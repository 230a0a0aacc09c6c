"""Keeping freed memory for reuse, so that a large result handed back every step does not page-fault
anew.

XLA's CPU backend takes each result buffer from the C library's ``malloc``. glibc serves a block
above its mmap threshold (32 MB at most, by default) from a fresh mapping and unmaps it when it is
freed, so a result that large is faulted in page by page on every call: the observations of a batch
of 4,096 USA games are 45 MB, and a fresh mapping made their step about twice as slow as the work
itself. :func:`keep_freed_memory` has glibc serve such blocks from its heap and keep freed memory
there, where the next step finds it.

The setting is process-wide and cannot be undone here; it only makes the process keep memory it
already used.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

__all__ = ["keep_freed_memory"]

_M_TRIM_THRESHOLD = -1  # glibc's mallopt parameters (malloc.h)
_M_MMAP_THRESHOLD = -3
_THRESHOLD = 1 << 30  # blocks up to 1 GiB come from the heap; up to 1 GiB of free heap top is kept

_applied = False


def keep_freed_memory() -> bool:
    """Ask glibc to serve blocks up to 1 GiB from its heap and keep what is freed; True once it is
    in effect.

    A no-op returning False where the C library is not glibc (macOS, Windows, musl) or refuses the
    values.
    """
    global _applied
    if _applied:
        return True
    if not sys.platform.startswith("linux"):
        return False
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    libc = ctypes.CDLL(name)
    if not hasattr(libc, "gnu_get_libc_version"):  # musl has a mallopt that does nothing
        return False
    _applied = bool(libc.mallopt(_M_MMAP_THRESHOLD, _THRESHOLD)) and bool(
        libc.mallopt(_M_TRIM_THRESHOLD, _THRESHOLD)
    )
    return _applied
