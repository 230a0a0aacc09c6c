"""Small screens shared by the play and replay apps: help, text pop-ups, the move prompt, privacy.

Every screen of both apps is a :class:`FittedScreen` or :class:`FittedModal`: in a terminal smaller
than :data:`MIN_WIDTH` x :data:`MIN_HEIGHT` it shows only a notice asking for a larger window (its
keys still work, so ``q`` quits), and comes back as it was once the window is large enough.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from rich.console import RenderableType
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.events import Resize
from textual.geometry import Size
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Input, Markdown, Static

from tendays.engine.i18n import gettext as _

from .input_model import move_verbs

__all__ = [
    "MIN_HEIGHT",
    "MIN_WIDTH",
    "FittedModal",
    "FittedScreen",
    "HelpScreen",
    "MoveInputScreen",
    "PrivacyScreen",
    "TextScreen",
    "TooSmall",
    "key_labels",
    "translate_bindings",
]

MIN_WIDTH = 72
MIN_HEIGHT = 20

ResultType = TypeVar("ResultType")


def key_labels() -> dict[str, str]:
    """The labels of the keys (in the footer and the key list), in the current
    language, by their English words."""
    return {
        "Draw": _("Draw"),
        "Discard": _("Discard"),
        "Swap": _("Swap"),
        "End": _("End"),
        "Verdict": _("Verdict"),
        "Hint": _("Hint"),
        "Save": _("Save"),
        "Help": _("Help"),
        "Quit": _("Quit"),
        "Type move": _("Type move"),
        "Colours": _("Colours"),
        "Up": _("Up"),
        "Down": _("Down"),
        "Rack": _("Rack"),
        "Piles": _("Piles"),
        "Choose": _("Choose"),
        "Cancel": _("Cancel"),
        "Play again": _("Play again"),
        "Board": _("Board"),
        "Back": _("Back"),
        "Close": _("Close"),
        "Ready": _("Ready"),
        "Next": _("Next"),
        "Start": _("Start"),
        "Play/pause": _("Play/pause"),
        "Rules": _("Rules"),
        # TRANSLATORS: Textual's command palette (Ctrl+P), in the footer: one short word.
        "palette": _("palette"),
    }


def translate_bindings(node: Screen[Any] | App[Any]) -> None:
    """Label the keys of a screen, or of an app (Ctrl+P's "palette"), in the current language."""
    labels = key_labels()
    keys = node._bindings.key_to_bindings  # new lists: the class's own bindings stay in English
    for key, bindings in list(keys.items()):
        keys[key] = [
            replace(b, description=labels.get(b.description, b.description)) for b in bindings
        ]


class TooSmall(Static):
    """The notice that covers a screen while the terminal is too small for it."""

    def __init__(self) -> None:
        super().__init__(classes="too-small")

    def fit(self, size: Size) -> bool:
        """Show the notice if ``size`` is too small; True if it is."""
        small = size.width < MIN_WIDTH or size.height < MIN_HEIGHT
        if small:
            self.update(
                _(
                    "The terminal is too small: {width}×{height}.\ntendays needs at least "
                    "{min_width}×{min_height}: make the window larger, or press q to quit."
                ).format(
                    width=size.width, height=size.height, min_width=MIN_WIDTH, min_height=MIN_HEIGHT
                )
            )
        return small


# What a key may still do while the notice covers a screen: leave it or the game, never act
# unseen (a day key behind the notice would place a tile on a board nobody sees).
ACTIONS_BEHIND_THE_NOTICE = frozenset({"quit", "leave", "close", "back", "cancel"})


def _fit(screen: Screen[ResultType], size: Size) -> None:
    notices = screen.query(TooSmall)
    if notices:
        small = notices.first().fit(size)
        if small != screen.has_class("-too-small"):
            screen.set_class(small, "-too-small")
            screen.refresh_bindings()  # the footer offers only what the keys may do now


class FittedScreen(Screen[ResultType]):
    """A full screen that asks for a larger window when the terminal is too small for it; its keys
    are labelled in the current language."""

    def __init__(
        self, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name, id, classes)
        translate_bindings(self)

    def on_mount(self) -> None:
        self.mount(TooSmall())
        _fit(self, self.app.size)

    def on_resize(self, event: Resize) -> None:
        _fit(self, event.size)

    def on_screen_resume(self) -> None:
        _fit(self, self.app.size)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While the terminal is too small, only the keys that leave act."""
        return not self.has_class("-too-small") or action in ACTIONS_BEHIND_THE_NOTICE


class FittedModal(ModalScreen[ResultType], FittedScreen[ResultType]):
    """A pop-up that asks for a larger window when the terminal is too small for it."""


class HelpScreen(FittedScreen[None]):
    """The rules of the edition being played, and the keys."""

    BINDINGS = [
        Binding("escape,q,question_mark,f1", "close", "Back"),
    ]

    def __init__(self, markdown: str) -> None:
        super().__init__()
        self.markdown = markdown

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-scroll"):
            yield Markdown(self.markdown, id="help")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#help-scroll").focus()

    def action_close(self) -> None:
        self.dismiss(None)


class TextScreen(FittedModal[None]):
    """A pop-up with a title and some text (the journey verdict); the
    arrow keys scroll a long text."""

    BINDINGS = [
        Binding("escape,enter,q,v,h", "close", "Close"),
        Binding("up", "scroll(-1)", show=False),
        Binding("down", "scroll(1)", show=False),
        Binding("pageup", "scroll(-10)", show=False),
        Binding("pagedown", "scroll(10)", show=False),
    ]

    def __init__(self, title: str, body: RenderableType) -> None:
        super().__init__()
        self.title_text = title
        self.body = body

    def compose(self) -> ComposeResult:
        with Vertical(id="popup"):
            yield Static(self.title_text, id="popup-title")
            with VerticalScroll(id="popup-scroll"):
                yield Static(self.body, id="popup-body")
            yield Static(_("↑↓ PgUp PgDn scroll · Esc or Enter to close"), id="popup-keys")

    def on_mount(self) -> None:
        self.fit_text(self.app.size)

    def on_resize(self, event: Resize) -> None:
        self.fit_text(event.size)

    def fit_text(self, size: Size) -> None:
        # The text scrolls inside the pop-up, so its title and its keys always stay on screen.
        self.query_one("#popup-scroll").styles.max_height = max(3, size.height - 8)

    def action_scroll(self, lines: int) -> None:
        self.query_one("#popup-scroll", VerticalScroll).scroll_relative(y=lines, animate=False)

    def action_close(self) -> None:
        self.dismiss(None)


class MoveInputScreen(FittedModal[str | None]):
    """Type a move in the notation (``replace 5 1``); returns the text, or None when cancelled."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, legal_example: str) -> None:
        super().__init__()
        self.legal_example = legal_example

    def compose(self) -> ComposeResult:
        with Vertical(id="popup"):
            yield Static(_("Type a move and press Enter (Esc cancels)"), id="popup-title")
            yield Input(placeholder=self.legal_example, id="move-input")
            # TRANSLATORS: the moves as typed; {draw}, {take}... are the verbs, the capitalised
            # words stand for numbers.
            yield Static(
                _(
                    "{draw} · {take} PILE · {replace} DAY PILE · {discard} PILE · {draft} DAY · "
                    "{swap} DAY DAY"
                ).format(**move_verbs()),
                id="popup-keys",
            )

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class PrivacyScreen(FittedScreen[None]):
    """Shown between two people's turns at one keyboard: nothing of any rack is on screen."""

    BINDINGS = [
        Binding("enter", "ready", "Ready"),
        Binding("s", "save", "Save"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(
        self,
        name: str,
        what: str,
        unsaved: Callable[[], str | None] = lambda: None,
        save: Callable[[], tuple[str, bool]] | None = None,
    ) -> None:
        """``unsaved`` says what quitting now would lose, or None when nothing would be lost;
        ``save`` saves the game and returns what to say and whether saving failed (None: the
        game cannot be saved from here, and ``s`` does nothing)."""
        super().__init__()
        self.player_name = name
        self.what = what
        self.unsaved = unsaved
        self.save = save
        self.quit_asked = False

    def compose(self) -> ComposeResult:
        with Vertical(id="privacy"):
            yield Static(
                _("Pass the keyboard to {name}").format(name=self.player_name), id="privacy-title"
            )
            yield Static(
                self.what
                + "\n\n"
                + _("{name}: press Enter when nobody else is looking.").format(
                    name=self.player_name
                ),
                id="privacy-body",
            )
            yield Static(id="privacy-warning")
        yield Footer()

    def action_ready(self) -> None:
        self.dismiss(None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.save is not None if action == "save" else True

    def action_save(self) -> None:
        """Save the game as ``s`` on the board does: nothing of any rack is shown."""
        if self.save is None:
            return
        message, failed = self.save()
        self.quit_asked = False
        self.query_one("#privacy-warning", Static).update(
            Text(message, style="bold red" if failed else "bold")
        )

    def action_quit(self) -> None:
        """Quit; with moves not saved, a second q first (the first says what would be lost)."""
        warning = self.unsaved()
        if warning is None or self.quit_asked:
            self.app.exit()
            return
        self.quit_asked = True
        self.query_one("#privacy-warning", Static).update(Text(warning, style="bold red"))
