"""Small screens shared by the play and replay apps: help, text pop-ups, the move prompt, privacy."""

from __future__ import annotations

from rich.console import RenderableType
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Input, Markdown, Static

__all__ = ["HelpScreen", "MoveInputScreen", "PrivacyScreen", "TextScreen"]


class HelpScreen(Screen[None]):
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


class TextScreen(ModalScreen[None]):
    """A pop-up with a title and some text (the journey verdict, a hint)."""

    BINDINGS = [Binding("escape,enter,q,v,h", "close", "Close")]

    def __init__(self, title: str, body: RenderableType) -> None:
        super().__init__()
        self.title_text = title
        self.body = body

    def compose(self) -> ComposeResult:
        with Vertical(id="popup"):
            yield Static(self.title_text, id="popup-title")
            with VerticalScroll(id="popup-scroll"):
                yield Static(self.body, id="popup-body")
            yield Static("Esc or Enter to close", id="popup-keys")

    def action_close(self) -> None:
        self.dismiss(None)


class MoveInputScreen(ModalScreen[str | None]):
    """Type a move in the notation (``replace 5 1``); returns the text, or None when cancelled."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, legal_example: str) -> None:
        super().__init__()
        self.legal_example = legal_example

    def compose(self) -> ComposeResult:
        with Vertical(id="popup"):
            yield Static("Type a move and press Enter (Esc cancels)", id="popup-title")
            yield Input(placeholder=self.legal_example, id="move-input")
            yield Static("draw · take PILE · replace DAY PILE · discard PILE · draft DAY · swap DAY DAY",
                         id="popup-keys")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class PrivacyScreen(Screen[None]):
    """Shown between two people's turns at one keyboard: nothing of any rack is on screen."""

    BINDINGS = [Binding("enter", "ready", "Ready"), Binding("q", "app.quit", "Quit")]

    def __init__(self, name: str, what: str) -> None:
        super().__init__()
        self.player_name = name
        self.what = what

    def compose(self) -> ComposeResult:
        with Vertical(id="privacy"):
            yield Static(f"Pass the keyboard to {self.player_name}", id="privacy-title")
            yield Static(f"{self.what}\n\n{self.player_name}: press Enter when nobody else is looking.",
                         id="privacy-body")
        yield Footer()

    def action_ready(self) -> None:
        self.dismiss(None)
