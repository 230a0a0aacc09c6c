"""The widgets of the game screen, each drawn from one player view: the rack, its links, the piles,
the seats, the log.

They only render. A click on a day or a pile posts a message (:class:`DayRow.Chosen`,
:class:`PileRow.Chosen`) for the screen to pass on to the input model. No widget here takes the
keyboard focus, so the arrow keys always reach the game screen.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.events import Click
from textual.message import Message
from textual.widgets import Static

from tendays.engine import PILES, Edition, PlayerView
from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import ngettext

from .captions import hand_text, seats_text
from .render import (
    SWATCH_WIDTH,
    day_marks,
    journey_report,
    log_line,
    name_width,
    pile_text,
    rack_line,
)
from .seats import TerminalSeat

__all__ = [
    "HINT_MARK",
    "DayRow",
    "GameLog",
    "LinksPane",
    "PileRow",
    "RackPane",
    "SidePane",
    "rack_pane_width",
    "show_text",
]

# a day the hint suggests changing: no colour's shape (● ▲ ■ ◆ ★ ✱), so it reads as no tile
HINT_MARK = "↻"

LOG_LINES = 500
# The log is kept in pieces of this many lines: a new line re-renders only the newest piece, so a
# move late in a long game costs what it costs early on (one Static of 500 lines, rewrapped for each
# new line, doubled the time of a key press by move 650).
LOG_PIECE = 25


def show_text(widget: Static, text: Text, layout: bool = True) -> None:
    """Put ``text`` in ``widget`` unless it is there already (a new layout costs a frame; a key that
    changes nothing must not pay for one)."""
    if widget.content != text:
        widget.update(text, layout=layout)


def rack_pane_width(edition: Edition) -> int:
    """The rack pane's width: the cursor, the day, the swatch, the longest
    name, the link mark, the border."""
    return 1 + 3 + SWATCH_WIDTH + 1 + name_width(edition) + 6 + 2


class DayRow(Static):
    """One day of the rack on screen; clicking it chooses that day."""

    class Chosen(Message):
        def __init__(self, day: int) -> None:
            super().__init__()
            self.day = day

    def __init__(self, day: int) -> None:
        super().__init__(id=f"day-{day}", classes="day")
        self.day = day

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(self.Chosen(self.day))


class PileRow(Static):
    """The draw pile (``pile`` 0) or a discard pile; clicking it takes
    from it or discards onto it."""

    class Chosen(Message):
        def __init__(self, pile: int) -> None:
            super().__init__()
            self.pile = pile

    def __init__(self, pile: int) -> None:
        super().__init__(id="drawpile" if pile == 0 else f"pile-{pile}", classes="pile")
        self.pile = pile

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(self.Chosen(self.pile))


class Unfocused(VerticalScroll, can_focus=False):
    """A scrolling area that the mouse wheel scrolls but the keyboard never enters."""


class RackPane(Vertical):
    """One rack, day by day with the verdict on each link, and the
    cursor day's link explained below."""

    def __init__(self, edition: Edition, days: int) -> None:
        super().__init__(id="rack-pane")
        self.days = days
        self.styles.width = rack_pane_width(edition)

    def compose(self) -> ComposeResult:
        yield Static(id="rack-title")
        with Unfocused(id="days") as days:
            days.styles.max_height = self.days  # a long rack scrolls; a short one leaves room below
            for day in range(1, self.days + 1):
                yield DayRow(day)
        yield Static(id="day-detail")

    def show_hidden(self, why: str) -> None:
        show_text(
            self.query_one("#rack-title", Static),
            Text(_("Racks are hidden"), style="bold"),
            layout=False,
        )
        for row in self.query(DayRow):
            show_text(row, Text(f" {row.day:>2} ········", style="dim"), layout=False)
            row.set_class(False, "cursor")
            row.set_class(False, "chosen")
        show_text(self.query_one("#day-detail", Static), Text(why, style="dim"))

    def show_rack(
        self,
        edition: Edition,
        heading: str,
        rack: Sequence[int | None],
        cursor: int,
        on_days: bool,
        chosen: int,
        hinted: Collection[int],
    ) -> None:
        """``rack`` under ``heading``: the ``cursor`` day (highlighted when ``on_days``), the
        ``chosen`` day and the ``hinted`` days marked, and the cursor day's
        link explained in full below."""
        show_text(self.query_one("#rack-title", Static), Text(heading, style="bold"), layout=False)
        marks = day_marks(edition, rack)
        for row in self.query(DayRow):
            day = row.day
            line = Text()
            line.append(
                "▸" if day == cursor and on_days else (HINT_MARK if day in hinted else " "),
                style="bold",
            )
            line.append_text(
                rack_line(edition, day, rack[day - 1], marks.get(day), name_width(edition))
            )
            show_text(row, line, layout=False)
            row.set_class(day == cursor and on_days, "cursor")
            row.set_class(day == chosen, "chosen")
        mark = marks.get(cursor)
        if mark is not None:
            explained = mark.message
        elif rack[cursor - 1] is None:
            explained = _("day {day}: still empty").format(day=cursor)
        else:
            explained = _("day {day}: its link shows once the days around it are filled").format(
                day=cursor
            )
        show_text(self.query_one("#day-detail", Static), Text(explained, style="italic"))
        if on_days:
            self.query_one("#days", Unfocused).scroll_to_widget(
                self.query_one(f"#day-{cursor}"), animate=False
            )


class LinksPane(Unfocused):
    """Wide terminals only: the whole journey's verdict in words beside
    the rack, every link explained."""

    def __init__(self) -> None:
        super().__init__(id="links")
        self.rack: Sequence[int | None] | None = ()

    def compose(self) -> ComposeResult:
        yield Static(id="links-body")

    def show(self, edition: Edition, rack: Sequence[int | None] | None) -> None:
        if rack == self.rack:
            return
        self.rack = rack
        body = self.query_one("#links-body", Static)
        if rack is None:
            body.update(Text(_("No rack is shown right now."), style="dim"))
            return
        # the rack is beside it
        body.update(journey_report(edition, rack, name_width(edition), with_days=False))


class GameLog(Unfocused):
    """The game log, newest line last, at most :data:`LOG_LINES` lines. It rewraps to its width and
    stays at its end unless scrolled back."""

    def __init__(self) -> None:
        super().__init__(id="log")
        self.pieces: list[list[str]] = []  # the lines of each Static in the log, oldest first
        self.following = True  # at the newest line; False once scrolled back (with the mouse wheel)

    @property
    def lines(self) -> list[str]:
        return [line for piece in self.pieces for line in piece]

    def watch_scroll_y(self, old: float, new: float) -> None:
        super().watch_scroll_y(old, new)
        self.following = new >= self.max_scroll_y - 1

    def on_resize(self) -> None:
        if self.following:
            self.scroll_end(animate=False)

    def add(self, lines: Sequence[str]) -> None:
        if not lines:
            return
        waiting = list(lines)
        while waiting:
            if not self.pieces or len(self.pieces[-1]) >= LOG_PIECE:
                self.pieces.append([])
                self.mount(Static(classes="log-piece"))
            newest = self.pieces[-1]
            room = LOG_PIECE - len(newest)
            newest += waiting[:room]
            del waiting[:room]
            self.query(".log-piece").last(Static).update(Text("\n".join(newest)))
        while len(self.pieces) > LOG_LINES // LOG_PIECE:  # the oldest piece goes
            del self.pieces[0]
            self.query(".log-piece").first().remove()
        if self.following:
            self.scroll_end(animate=False)


class SidePane(Vertical):
    """The tile in hand, the draw pile, the discard piles, the other seats and the game log."""

    def __init__(self) -> None:
        super().__init__(id="side")
        self.logged_events = 0
        self.seats_seen: tuple[object, ...] = ()

    def compose(self) -> ComposeResult:
        yield Static(id="hand")
        for pile in range(PILES + 1):
            yield PileRow(pile)
        yield Static(id="seats")
        yield GameLog()

    def show(self, pv: PlayerView, seats: Sequence[TerminalSeat], pile_cursor: int | None) -> None:
        """The side of the table from ``pv``; ``pile_cursor`` is the pile
        the cursor stands on, if any."""
        edition = pv.edition
        show_text(self.query_one("#hand", Static), hand_text(pv, seats[pv.current].name))
        # the panel's padding, then the cursor column
        width = max(20, (self.size.width or 38) - 2) - 2
        for row in self.query(PileRow):
            if row.pile == 0:
                line = Text.assemble(
                    ("d ", "bold"),
                    ngettext(
                        "draw pile: {count} tile face down",
                        "draw pile: {count} tiles face down",
                        pv.draw_pile_size,
                    ).format(count=pv.draw_pile_size),
                )
            else:
                line = pile_text(edition, pv.piles[row.pile - 1], row.pile, width)
            show_text(
                row,
                Text.assemble(("▸ " if row.pile == pile_cursor else "  ", "bold"), line),
                layout=False,
            )
            row.set_class(row.pile == pile_cursor, "cursor")
        # all that the seats' lines depend on
        seen = (len(pv.events), pv.current, pv.phase, pv.player)
        if seen != self.seats_seen:
            self.seats_seen = seen
            self.query_one("#seats", Static).update(seats_text(pv, seats))
        names = [seat.name for seat in seats]
        self.query_one(GameLog).add(
            [log_line(edition, event, names) for event in pv.events[self.logged_events :]]
        )
        self.logged_events = len(pv.events)
