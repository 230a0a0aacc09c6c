"""The end of a game: the winner's journey day by day, every rack revealed with its verdict, a summary."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from tendays.engine import checker_for

from .render import day_marks, rack_line
from .table import PlayConfig, Table
from .widgets import NAME_WIDTH, journey_text, possessive

__all__ = ["EndScreen", "end_text"]


def end_text(table: Table) -> tuple[str, Text]:
    """The title and the body of the end screen: every rack is public once the game is over."""
    pv = table.view_for(None)
    edition = pv.edition
    names = table.names
    seats = table.seats
    assert pv.racks is not None
    if pv.winner is not None:
        winner = names[pv.winner]
        title = f"{winner} {'win' if winner == 'You' else 'wins'} after {pv.turn} turns!"
    else:
        title = f"Nobody wins: the game stopped after {pv.turn} turns."
    body = Text()
    if pv.winner is not None:
        body.append(f"{possessive(names[pv.winner])} journey, day by day\n", style="bold")
        body.append_text(journey_text(edition, pv.racks[pv.winner]))
        body.append("\n\n")
    for seat_index, rack in enumerate(pv.racks):
        if seat_index == pv.winner:
            continue
        problems = [str(p) for p in checker_for(edition).check(rack).problems]
        body.append(f"{names[seat_index]} ({seats[seat_index].level}): ", style="bold")
        body.append(f"{len(problems)} broken link{'s' if len(problems) != 1 else ''}\n")
        marks = day_marks(edition, rack)
        for day, tile in enumerate(rack, 1):
            body.append_text(rack_line(edition, day, tile, marks.get(day), NAME_WIDTH))
            body.append("\n")
        for problem in problems:
            body.append(f"  ✗ {problem}\n", style="red")
        body.append("\n")
    body.append("Summary\n", style="bold")
    body.append(f"  {edition.name}, {table.options.days} days, {pv.turn} turns, "
                f"{sum(1 for e in pv.events if e.kind == 'reshuffle')} reshuffles\n")
    for seat_index, seat in enumerate(seats):
        body.append(f"  {seat.name} ({seat.level})" + ("  winner" if seat_index == pv.winner else "") + "\n")
    body.rstrip()
    return title, body


class EndScreen(Screen[None]):
    """The end of the game; play again with the same options, save, go back to the board, or quit."""

    BINDINGS = [
        Binding("n", "again", "Play again"),
        Binding("s", "save", "Save"),
        Binding("escape,b", "back", "Board"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, table: Table, config: PlayConfig, play_again: Callable[[], None]) -> None:
        super().__init__()
        self.table = table
        self.config = config
        self.play_again = play_again

    def compose(self) -> ComposeResult:
        title, body = end_text(self.table)
        yield Static(Text(title, style="bold"), id="end-title")
        with VerticalScroll(id="end-scroll"):
            yield Static(body, id="end-body")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#end-scroll").focus()

    def action_again(self) -> None:
        self.play_again()

    def action_save(self) -> None:
        try:
            self.table.save(self.config.save_path)
        except OSError as error:
            self.notify(f"could not save to {self.config.save_path}: {error.strerror or error}", severity="error")
            return
        self.notify(f"Saved to {self.config.save_path}; replay it with: tendays replay {self.config.save_path}")

    def action_back(self) -> None:
        self.dismiss(None)
