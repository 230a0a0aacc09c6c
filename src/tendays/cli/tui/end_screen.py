"""The end of a game: the winner's journey day by day, every rack revealed
with its verdict, a summary."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static

from tendays.engine import EventKind, checker_for
from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import ngettext

from .render import (
    YOU,
    bullets,
    day_marks,
    journey_report,
    name_width,
    palette_choice,
    person,
    rack_line,
)
from .screens import FittedScreen
from .table import PlayConfig, Table

__all__ = ["EndScreen", "end_text", "save_game", "unsaved_warning"]


def save_game(table: Table, wanted: Path, palette: str, replay: bool) -> tuple[str, bool]:
    """Save ``table`` to ``wanted`` (or, when that file holds another game, to a new name beside
    it): the words that say where and how to go on (``replay``: with ``tendays replay``), and
    whether saving failed."""
    from ..writable import write_problem

    problem = write_problem(wanted)
    if problem is not None:
        return _("could not save the game: {problem}").format(problem=problem), True
    path = table.save_target(wanted)
    try:
        table.save(path, palette)
    except OSError as error:
        return _("could not save to {path}: {error}").format(
            path=path, error=error.strerror or error
        ), True
    then = (
        _("replay it with: tendays replay {path}")
        if replay
        else _("continue it with: tendays play --resume {path}")
    ).format(path=path)
    if path == wanted:
        return _("Saved to {path}; {then}").format(path=path, then=then), False
    return _("{wanted} holds another game, so this one is saved to {path}; {then}").format(
        wanted=wanted, path=path, then=then
    ), False


def unsaved_warning(table: Table, path: Path) -> str:
    """What a first ``q`` says when quitting would lose moves that are not saved (``path``: where
    ``s`` would save to)."""
    path = table.save_target(path)
    what = (
        _("The finished game is not saved: s saves it (to {path}), q again quits without saving.")
        if table.is_over
        else _(
            "The game since the last save would be lost: s saves it (to {path}), q again quits "
            "without saving."
        )
    )
    return what.format(path=path)


def end_text(table: Table) -> tuple[str, Group]:
    """The title and the body of the end screen: every rack is public once the game is over."""
    pv = table.view_for(None)
    edition = pv.edition
    names = table.names
    seats = table.seats
    assert pv.racks is not None
    if pv.winner is not None:
        winner = names[pv.winner]
        title = (
            ngettext("You win after {turns} turn!", "You win after {turns} turns!", pv.turn)
            if winner == YOU
            else ngettext(
                "{name} wins after {turns} turn!", "{name} wins after {turns} turns!", pv.turn
            )
        )
        title = title.format(name=winner, turns=pv.turn)
    else:
        title = ngettext(
            "Nobody wins: the game stopped after {turns} turn.",
            "Nobody wins: the game stopped after {turns} turns.",
            pv.turn,
        ).format(turns=pv.turn)
    parts: list[RenderableType] = []
    if pv.winner is not None:
        parts.append(
            Text(
                _("Your journey, day by day")
                if names[pv.winner] == YOU
                else _("{name}'s journey, day by day").format(name=names[pv.winner]),
                style="bold",
            )
        )
        parts.append(journey_report(edition, pv.racks[pv.winner], name_width(edition)))
        parts.append(Text(""))
    for seat_index, rack in enumerate(pv.racks):
        if seat_index == pv.winner:
            continue
        problems = [str(p) for p in checker_for(edition).check(rack).problems]
        heading = Text.assemble(
            (f"{person(names[seat_index])} ({seats[seat_index].level}): ", "bold"),
            ngettext("{count} broken link", "{count} broken links", len(problems)).format(
                count=len(problems)
            ),
        )
        marks = day_marks(edition, rack)
        days = Text("\n").join(
            rack_line(edition, day, tile, marks.get(day), name_width(edition))
            for day, tile in enumerate(rack, 1)
        )
        parts += [heading, days, bullets(problems, "✗", "red"), Text("")]
    reshuffles = sum(1 for e in pv.events if e.kind is EventKind.RESHUFFLE)
    length, turns = table.options.days, pv.turn
    summary = [
        ", ".join(
            (
                edition.name,
                ngettext("{count} day", "{count} days", length).format(count=length),
                ngettext("{count} turn", "{count} turns", turns).format(count=turns),
                ngettext("{count} reshuffle", "{count} reshuffles", reshuffles).format(
                    count=reshuffles
                ),
            )
        )
    ]
    summary += [
        f"{person(seat.name)} ({seat.level})"
        + ("  " + _("winner") if seat_index == pv.winner else "")
        for seat_index, seat in enumerate(seats)
    ]
    parts += [Text(_("Summary"), style="bold"), bullets(summary, "·", "")]
    return title, Group(*parts)


class EndScreen(FittedScreen[None]):
    """The end of the game; play again with the same options, save,
    go back to the board, or quit."""

    BINDINGS = [
        Binding("n", "again", "Play again"),
        Binding("s", "save", "Save"),
        Binding("escape,b", "back", "Board"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, table: Table, config: PlayConfig, play_again: Callable[[], None]) -> None:
        super().__init__()
        self.table = table
        self.config = config
        self.play_again = play_again
        self.quit_asked = False

    def compose(self) -> ComposeResult:
        title, body = end_text(self.table)
        yield Static(Text(title, style="bold"), id="end-title")
        with VerticalScroll(id="end-scroll"):
            yield Static(body, id="end-body")
        yield Static(id="end-message")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#end-scroll").focus()

    def say(self, message: str, error: bool = False) -> None:
        self.query_one("#end-message", Static).update(
            Text(message, style="bold red" if error else "bold")
        )

    def action_again(self) -> None:
        self.play_again()

    def action_save(self) -> None:
        self.say(*save_game(self.table, self.config.save_path, palette_choice().name, replay=True))

    def action_quit(self) -> None:
        """Quit; a game not saved since its last move asks for a second q first."""
        if not self.table.unsaved or self.quit_asked:
            self.app.exit()
            return
        self.quit_asked = True
        self.say(unsaved_warning(self.table, self.config.save_path), error=True)

    def action_back(self) -> None:
        self.dismiss(None)
