"""The start-up shared by the terminal apps, and what Textual itself says in them.

``tendays play``, ``tendays replay`` and ``tendays learn`` are :class:`SpeakingApp` apps: each runs
in the player's language (every task of the app copies it), draws with the palette it was given,
and labels its keys in that language before any screen starts. Textual's own words are said in that
language too: Ctrl+C's notice that it does not quit, and the command palette's (Ctrl+P) commands
and search field. The words of the apps' own screens are the screens' business (the catalogues).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from textual.app import App, SystemCommand
from textual.command import CommandPalette
from textual.screen import Screen

from tendays.engine import use_language
from tendays.engine.i18n import gettext as _

from .palettes import PaletteChoice, draw_with
from .screens import translate_bindings

__all__ = ["SpeakingApp", "system_command_words"]


def system_command_words() -> dict[str, tuple[str, str]]:
    """Textual's command palette commands, by their English title: the title and the help line in
    the current language."""
    # TRANSLATORS: the commands of the command palette (Ctrl+P) and what each does.
    return {
        "Theme": (_("Theme"), _("Change the colours of the screens")),
        "Quit": (_("Quit"), _("Quit the application as soon as possible")),
        "Keys": (_("Keys"), _("Show or hide the keys of this screen")),
        "Maximize": (_("Maximize"), _("Show the chosen part alone, on the whole screen")),
        "Minimize": (_("Minimize"), _("Show the chosen part at its normal size again")),
        "Screenshot": (_("Screenshot"), _("Save a picture of the screen as an SVG file")),
    }


class SpeakingApp(App[None]):
    """An app that speaks ``language`` (None: whatever language the caller runs it in) and draws
    tiles in ``palette`` from its start; its Ctrl+C notice and command palette speak it too."""

    def __init__(self, language: str | None = None, palette: str = "normal") -> None:
        super().__init__()
        self.language = language
        self.palette = PaletteChoice(palette)

    async def run_async(self, *args: Any, **kwargs: Any) -> Any:
        # Every task and thread of the app copies this context: the engine's sentences (log,
        # verdicts, refused moves, hints) and the terminal's own words are all in the player's
        # language.
        with use_language(self.language):
            return await super().run_async(*args, **kwargs)

    def on_load(self) -> None:
        # before any screen starts, so every screen and widget draws with the palette and the
        # app's keys (Ctrl+P's "palette") are labelled in the player's language
        draw_with(self.palette)
        translate_bindings(self)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        words = system_command_words()
        for command in super().get_system_commands(screen):
            title, help_text = words.get(command.title, (command.title, command.help))
            yield SystemCommand(title, help_text, command.callback, command.discover)

    def action_command_palette(self) -> None:
        # App is invariant in its result: this app is an App[object] to the palette's check
        if self.use_command_palette and not CommandPalette.is_open(cast("App[object]", self)):
            self.push_screen(
                CommandPalette(id="--command-palette", placeholder=_("Search for commands…"))
            )

    def action_help_quit(self) -> None:
        """Ctrl+C: say which key quits (Ctrl+C does not, so that a reflex costs no game)."""
        for key, active in self.active_bindings.items():
            if active.binding.action in ("quit", "app.quit"):
                self.notify(
                    _("Press {key} to quit.").format(key=f"[b]{key}[/b]"),
                    title=_("Do you want to quit?"),
                )
                return
