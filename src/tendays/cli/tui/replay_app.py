"""``tendays replay``: step through a saved game move by move, every rack shown, with the log.

A finished game is public, so every rack is shown; for an unfinished game the racks stay hidden
unless the replay is asked to reveal them.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Resize
from textual.timer import Timer
from textual.widgets import Footer, Static

from tendays.engine import (
    PILES,
    Edition,
    GameRecord,
    Role,
    load_edition,
    view,
)
from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import ngettext
from tendays.engine.plain_text import shown

from .render import (
    YOU,
    day_marks,
    link_and_skip,
    log_line,
    move_words,
    palette_choice,
    person,
    pile_text,
    swatch,
    tile_name,
    tile_text,
)
from .rules import rules_markdown
from .screens import FittedScreen, HelpScreen
from .speaking_app import SpeakingApp

__all__ = ["ReplayApp", "ReplayScreen"]

CSS_PATH = Path(__file__).with_name("tendays.tcss")


def short_name(edition: Edition, tile: int, room: int) -> str:
    """A tile's name in ``room`` characters: the full name, or its official id (``MA``, ``STU``), or
    for a transport its kind alone (the swatch beside it names the colour), cut with "…" only if
    even that is long."""
    label = swatch(edition, tile, 3).plain
    name = tile_name(edition, tile, label)
    if len(name) <= room:
        return name
    t = edition.tiles[tile]
    short = link_and_skip(edition)[0].one if t.role is Role.LINK else t.id
    return short if len(short) <= room else short[: max(1, room - 1)] + "…"


def racks_table(
    edition: Edition,
    racks: Sequence[Sequence[int | None]],
    names: Sequence[str],
    highlight: int | None,
    winner: int | None,
    width: int,
) -> RichTable:
    """Every rack side by side: one column per seat, one row per day, each
    link marked as on the board."""
    grid = RichTable(box=None, padding=(0, 1), pad_edge=False, show_edge=False, expand=False)
    players = max(1, len(racks))
    days = len(racks[0]) if racks else 0
    column = max(12, (width - 2 - 2 * players) // players)
    grid.add_column("", justify="right", style="dim", no_wrap=True, min_width=2)
    for seat, name in enumerate(names):
        label = (
            person(name)
            + (" ★ " + _("winner") if seat == winner else "")
            + (" ◀" if seat == highlight else "")
        )
        # a long name wraps
        grid.add_column(Text(label, style="bold"), width=column, overflow="fold")
    marks = [day_marks(edition, rack) for rack in racks]
    for day in range(1, days + 1):
        cells: list[Text | str] = [str(day)]
        for seat, rack in enumerate(racks):
            tile = rack[day - 1]
            mark = marks[seat].get(day)
            symbol = "" if mark is None else f" {mark.symbol}"
            if tile is None:
                cells.append(Text("    " + _("(empty)"), style="dim"))
                continue
            cell = swatch(edition, tile, 3)
            cell.append(" ")
            cell.append(short_name(edition, tile, column - 4 - len(symbol)))
            if mark is not None:
                cell.append(
                    symbol,
                    style="dim" if mark.ok is None else ("bold green" if mark.ok else "bold red"),
                )
            cells.append(cell)
        grid.add_row(*cells)
    return grid


class ReplayScreen(FittedScreen[None]):
    """One position of the game at a time; the arrow keys step through the moves."""

    BINDINGS = [
        Binding("right,l,n", "step(1)", "Next"),
        Binding("left,h,p", "step(-1)", "Back"),
        Binding("pagedown", "step(10)", "+10", show=False),
        Binding("pageup", "step(-10)", "-10", show=False),
        Binding("home,g", "go(0)", "Start"),
        Binding("end,G", "go(-1)", "End"),
        Binding("space", "autoplay", "Play/pause"),
        Binding("question_mark,f1", "help", "Rules"),
        Binding("c", "palette", "Colours", show=False),
        Binding("q,escape", "app.quit", "Quit"),
    ]

    def __init__(self, record: GameRecord, reveal: bool = False, step_seconds: float = 0.8) -> None:
        super().__init__()
        self.record = record
        self.states = record.states()
        self.edition = load_edition(record.edition)
        # names from a file: refused by load_save when unsafe, made safe here for any other record
        self.names = tuple(map(shown, record.names)) or tuple(
            _("Player {number}").format(number=i + 1) for i in range(record.options.players)
        )
        self.finished = self.states[-1].is_over
        self.reveal = reveal or self.finished  # a finished game is public
        self.position = 0
        self.step_seconds = step_seconds
        self.autoplay: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with VerticalScroll(id="replay-racks"):
            yield Static(id="racks")
        with Horizontal(id="replay-side"), Vertical():
            yield Static(id="piles")
            yield VerticalScroll(Static(id="replay-log-text"), id="replay-log")
        yield Footer(show_command_palette=False)  # every replay key fits 80 columns, in German too

    def on_mount(self) -> None:
        # The log keeps its last lines in view whenever the rows above it change height (the header
        # or a rack's name wrapping to a second line), not only when its own text changes.
        self.query_one("#replay-log", VerticalScroll).anchor()
        self.show()

    def on_resize(self, event: Resize) -> None:
        self.show()

    def action_step(self, step: int) -> None:
        self.position = max(0, min(len(self.states) - 1, self.position + step))
        self.show()

    def action_autoplay(self) -> None:
        """Step forward on its own, one move per ``step_seconds``, until paused or at the end."""
        if self.autoplay is not None:
            self.stop_autoplay()
            return
        if self.position == len(self.states) - 1:
            self.position = 0
        self.autoplay = self.set_interval(self.step_seconds, self.autoplay_step)
        self.show()

    def autoplay_step(self) -> None:
        self.action_step(1)
        if self.position == len(self.states) - 1:
            self.stop_autoplay()

    def stop_autoplay(self) -> None:
        if self.autoplay is not None:
            self.autoplay.stop()
            self.autoplay = None
            self.show()

    def action_go(self, position: int) -> None:
        self.position = position if position >= 0 else len(self.states) - 1
        self.show()

    def action_palette(self) -> None:
        """c: switch the tile colours between the edition's palette and its
        palette for colour-blind players."""
        palette_choice().toggle()
        self.show()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(rules_markdown(self.edition, self.record.options)))

    def show(self) -> None:
        state = self.states[self.position]
        moves = self.record.moves
        last = len(self.states) - 1
        spectator = view(state, None)
        if self.position:
            move = moves[self.position - 1]
            mover = self.states[self.position - 1].current
            done = _("move {number}/{moves} {name}: {move}").format(
                number=self.position,
                moves=last,
                name=person(self.names[mover]),
                move=move_words(move),
            )
        else:
            done = _("move 0/{moves}: the deal").format(moves=last)
        ending = ""
        if self.position == last:
            ending = " · " + (
                _("game over") if state.is_over else _("(the game was saved unfinished)")
            )
        elif self.autoplay is not None:
            ending = " · " + _("playing (space pauses)")
        self.query_one("#status", Static).update(
            Text.assemble(
                (self.edition.name, "bold"),
                f" · {done} · ",
                _("turn {turn}").format(
                    turn=spectator.turn if state.is_over else spectator.turn + 1
                ),
                " · ",
                _("draw pile {size}").format(size=spectator.draw_pile_size),
                ending,
            )
        )
        width = self.size.width or 80
        if self.reveal:
            # Each rack is read from its owner's view: the replay is
            # public, so every view may be shown.
            racks = [view(state, seat).rack or () for seat in range(self.record.options.players)]
            highlight = None if state.is_over else state.current
            self.query_one("#racks", Static).update(
                racks_table(self.edition, racks, self.names, highlight, state.winner, width)
            )
        else:
            counts = ", ".join(
                f"{person(name)}: "
                + ngettext("{count} tile", "{count} tiles", count).format(count=count)
                for name, count in zip(self.names, spectator.rack_counts, strict=True)
            )
            self.query_one("#racks", Static).update(
                Text(
                    _(
                        "The racks of an unfinished game stay hidden (tendays replay --reveal "
                        "shows them)."
                    )
                    + " "
                    + counts,
                    style="dim",
                )
            )
        piles = Text()
        # one pile a line, so every top tile's name is shown in full
        for number in range(1, PILES + 1):
            piles.append_text(
                pile_text(self.edition, spectator.piles[number - 1], number, min(width - 2, 44))
            )
            piles.append("\n")
        piles.rstrip()
        held = (
            view(state, state.current).in_hand
            if self.reveal and not state.is_over
            else spectator.in_hand
        )
        if held is not None:
            piles.append("\n")
            holder = self.names[state.current]
            holds = _("You hold {tile}") if holder == YOU else _("{name} holds {tile}")
            before, _tile, after = holds.partition("{tile}")
            piles.append_text(
                Text.assemble(before.format(name=holder), tile_text(self.edition, held), after)
            )
        self.query_one("#piles", Static).update(piles)
        log = Text()
        events = spectator.events
        previous = len(self.states[self.position - 1].events) if self.position else 0
        for index, event in enumerate(events):
            line = log_line(self.edition, event, self.names)
            log.append(
                ("▶ " if index >= previous else "  ") + line + "\n",
                style="bold" if index >= previous else "",
            )
        log.rstrip()
        self.query_one("#replay-log-text", Static).update(log)
        self.query_one("#replay-log", VerticalScroll).scroll_end(animate=False)


class ReplayApp(SpeakingApp):
    """Step through a saved game."""

    CSS_PATH = CSS_PATH
    TITLE = "tendays replay"

    def __init__(
        self,
        record: GameRecord,
        reveal: bool = False,
        step_seconds: float = 0.8,
        language: str | None = None,
        palette: str = "normal",
    ) -> None:
        super().__init__(language, palette)
        self.record = record
        self.reveal = reveal
        self.step_seconds = step_seconds

    def on_mount(self) -> None:
        self.push_screen(ReplayScreen(self.record, self.reveal, self.step_seconds))
