"""The palette the terminal draws tile colours in: the edition's own, or its palette for
colour-blind players.

Both palettes are edition data (``edition.palette``, ``edition.palette_cb``); this module only
remembers which one an app uses. It imports nothing heavy, so ``tendays play --help`` can list the
palettes.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from tendays.engine.i18n import gettext as _

__all__ = ["PALETTES", "PaletteChoice", "draw_with", "palette_choice", "use_palette"]

PALETTES = ("normal", "cb")  # the edition's palette, or its palette for colour-blind players


class PaletteChoice:
    """The palette a terminal app draws with; one object per app, so a key
    can switch it for every widget."""

    def __init__(self, name: str = "normal") -> None:
        if name not in PALETTES:
            raise ValueError(
                _("unknown palette {name!r}: the palettes are {names}").format(
                    name=name, names=", ".join(PALETTES)
                )
            )
        self.name = name

    def toggle(self) -> str:
        self.name = PALETTES[(PALETTES.index(self.name) + 1) % len(PALETTES)]
        return self.name


_PALETTE: ContextVar[PaletteChoice | None] = ContextVar("tendays_terminal_palette", default=None)


def palette_choice() -> PaletteChoice:
    """The palette of the app drawing now (the normal palette outside an app)."""
    return _PALETTE.get() or PaletteChoice()


@contextmanager
def use_palette(choice: PaletteChoice) -> Iterator[PaletteChoice]:
    """Draw with ``choice`` inside the block (an app runs inside it, so
    every task of the app sees it)."""
    token = _PALETTE.set(choice)
    try:
        yield choice
    finally:
        _PALETTE.reset(token)


def draw_with(choice: PaletteChoice) -> None:
    """Draw with ``choice`` from now on in this task and the tasks it starts: an app calls it when
    it loads, so its screens and widgets, each running in a task of its
    own, all see the same choice."""
    _PALETTE.set(choice)
