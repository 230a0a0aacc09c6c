"""The widgets of the game screen, each drawn from one player view: the rack, the piles and seats, the prompt.

They only render. A click on a day or a pile posts a message (:class:`DayRow.Chosen`,
:class:`PileRow.Chosen`) for the screen to pass on to the input model.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.events import Click
from textual.message import Message
from textual.widgets import RichLog, Static

from tendays.engine import PILES, Edition, Phase, PlayerView, checker_for

from .input_model import Pending
from .render import day_marks, last_actions, log_line, pile_text, rack_line, tile_text
from .table import Seat

__all__ = [
    "NAME_WIDTH",
    "DayRow",
    "PileRow",
    "RackPane",
    "SidePane",
    "journey_text",
    "possessive",
    "status_text",
    "turn_prompt",
]

NAME_WIDTH = 22


def day_key(day: int) -> str:
    """The key that chooses ``day`` (0 for day 10), or "" when no single key does."""
    return "0" if day == 10 else (str(day) if day < 10 else "")


def possessive(name: str) -> str:
    """The possessive of a seat's name: "Ann's", or "Your" for the seat called "You"."""
    return "Your" if name == "You" else f"{name}'s"


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
    """The draw pile (``pile`` 0) or a discard pile; clicking it takes from it or discards onto it."""

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


class RackPane(Vertical):
    """One rack, day by day with the verdict on each link, and the cursor day's link explained below."""

    def __init__(self, days: int) -> None:
        super().__init__(id="rack-pane")
        self.days = days

    def compose(self) -> ComposeResult:
        yield Static(id="rack-title")
        for day in range(1, self.days + 1):
            yield DayRow(day)
        yield Static(id="day-detail")

    def show_hidden(self, why: str) -> None:
        self.query_one("#rack-title", Static).update(Text("Racks are hidden", style="bold"), layout=False)
        for row in self.query(DayRow):
            row.update(Text(f"{row.day:>2} ········", style="dim"), layout=False)
        self.query_one("#day-detail", Static).update(Text(why, style="dim"))

    def show_rack(self, edition: Edition, heading: str, rack: Sequence[int | None], cursor: int,
                  chosen: int, hinted: Collection[int]) -> None:
        """``rack`` under ``heading``, with ``cursor`` and ``chosen`` days highlighted and ``hinted`` days marked."""
        self.query_one("#rack-title", Static).update(Text(heading, style="bold"), layout=False)
        marks = day_marks(edition, rack)
        for row in self.query(DayRow):
            day = row.day
            line = Text()
            line.append("▸" if day == cursor else ("◆" if day in hinted else " "), style="bold")
            line.append_text(rack_line(edition, day, rack[day - 1], marks.get(day), NAME_WIDTH))
            row.update(line, layout=False)
            row.set_class(day == cursor, "cursor")
            row.set_class(day == chosen, "chosen")
        mark = marks.get(cursor)
        if mark is not None:
            explained = mark.message
        elif rack[cursor - 1] is None:
            explained = f"day {cursor}: still empty"
        else:
            explained = f"day {cursor}: its link shows once the days around it are filled"
        self.query_one("#day-detail", Static).update(Text(explained, style="italic"))


class SidePane(Vertical):
    """The tile in hand, the draw pile, the discard piles, the other seats and the game log."""

    def __init__(self) -> None:
        super().__init__(id="side")
        self.logged_events = 0

    def compose(self) -> ComposeResult:
        yield Static(id="hand")
        for pile in range(PILES + 1):
            yield PileRow(pile)
        yield Static(id="seats")
        yield RichLog(id="log", wrap=True, min_width=20, max_lines=500)

    def show(self, pv: PlayerView, seats: Sequence[Seat]) -> None:
        edition = pv.edition
        self.query_one("#hand", Static).update(hand_text(pv, seats[pv.current].name))
        self.query_one("#drawpile", PileRow).update(
            Text.assemble(("d ", "bold"), f"draw pile: {pv.draw_pile_size} tiles face down"), layout=False)
        width = max(24, self.size.width or 36)
        for number in range(1, PILES + 1):
            self.query_one(f"#pile-{number}", PileRow).update(
                pile_text(edition, pv.piles[number - 1], number, width - 2), layout=False)
        self.query_one("#seats", Static).update(seats_text(pv, seats))
        log = self.query_one("#log", RichLog)
        names = [seat.name for seat in seats]
        for event in pv.events[self.logged_events:]:
            log.write(Text(log_line(edition, event, names)))
        self.logged_events = len(pv.events)


def hand_text(pv: PlayerView, holder: str) -> Text:
    """The tile the player to move holds and where it came from, as far as the view shows it."""
    if pv.phase is Phase.PLACE or pv.phase is Phase.DRAFT:
        source = "the draw pile" if pv.taken_from == 0 else f"discard pile {pv.taken_from}"
        if pv.in_hand is not None:
            who = "You hold" if pv.is_my_turn else f"{holder} holds"
            return Text.assemble(f"{who} ", tile_text(pv.edition, pv.in_hand), f" (from {source})")
        return Text(f"{holder} holds a tile from {source}", style="dim")
    if pv.is_over:
        return Text("")
    if pv.is_my_turn:
        return Text("Your hand is empty: take a tile", style="dim")
    return Text(f"{holder} is about to take a tile", style="dim")


def seats_text(pv: PlayerView, seats: Sequence[Seat]) -> Text:
    """Every other seat: a line with its name, level and tile count, and one with its latest turn.

    Each line is cut to the panel's width, so four seats fit in 80x24.
    """
    lines = Text()
    for seat_index, seat in enumerate(seats):
        if seat_index == pv.player:
            continue
        marker = "▶ " if seat_index == pv.current and not pv.is_over else "  "
        lines.append(marker, style="bold")
        lines.append(seat.name, style="bold")
        count = pv.rack_counts[seat_index]
        lines.append(f" ({seat.level}) {count} tile{'s' if count != 1 else ''}\n")
        done = last_actions(pv, seat_index)
        if done:
            lines.append(f"  {done}\n", style="dim")
    lines.rstrip()
    return lines


def status_text(pv: PlayerView, names: Sequence[str]) -> Text:
    """The top line: the edition, the turn, whose turn it is and the draw pile's size."""
    if pv.is_over:
        whose = f"{names[pv.winner]} won" if pv.winner is not None else "game over"
    elif pv.phase is Phase.DRAFT:
        whose = f"drafting: {names[pv.current]}"
    else:
        whose = "your turn" if pv.is_my_turn else f"{names[pv.current]}'s turn"
    return Text.assemble((pv.edition.name, "bold"), f" · turn {pv.turn + 1} · ", (whose, "bold"),
                         f" · draw pile {pv.draw_pile_size}")


def turn_prompt(pv: PlayerView, pending: Pending | None) -> Text:
    """What the person to move can do now, with the keys for it; ``pending`` is their half-made choice."""
    edition = pv.edition
    days = pv.options.days
    day_keys = "1-" + day_key(min(days, 10)) if days <= 10 else "1-0"
    if pv.phase is Phase.DRAFT:
        return Text.assemble("Drafting: put ", tile_text(edition, pv.in_hand),
                             f" on an empty day ({day_keys}, ↑↓ Enter, or click a day). It stays there.")
    if pv.phase is Phase.DRAW:
        if pending is not None and pending.kind == "swap":
            if pending.day:
                return Text(f"Swap day {pending.day} with which day? ({day_keys} or click; Esc cancels)")
            return Text(f"Swap: choose the first day ({day_keys} or click; Esc cancels)")
        swap = ", w swap two days" if pv.options.swap else ""
        return Text(f"Your turn: d draws from the draw pile, 1-3 takes the top of a discard pile{swap}.")
    held = tile_text(edition, pv.in_hand)
    if pending is None:
        return Text.assemble("Put ", held, f" on a day ({day_keys}, ↑↓ Enter, or click a day), "
                             "or x / click a discard pile to discard it.")
    if pending.day:
        assert pv.rack is not None
        what = Text.assemble(f"Day {pending.day}: ", tile_text(edition, pv.rack[pending.day - 1]),
                             " goes onto a discard pile: ")
    else:
        what = Text.assemble("Discard ", held, " onto a discard pile: ")
    forced = pv.forced_pile
    if forced:
        what.append(f"you took the last tile of pile {forced}, so it must go onto pile {forced} "
                    f"(there are always three discard piles): press {forced} or Enter.")
    else:
        what.append("1-3 or click a pile (Esc cancels).")
    return what


def journey_text(edition: Edition, rack: Sequence[int | None]) -> Text:
    """Every day of a rack with the verdict on its link, as ``tendays check`` gives it."""
    marks = day_marks(edition, rack)
    text = Text()
    for day, tile in enumerate(rack, 1):
        text.append_text(rack_line(edition, day, tile, marks.get(day), NAME_WIDTH))
        text.append("\n")
    verdict = checker_for(edition).check(rack)
    text.append("\n")
    if verdict.valid:
        text.append(f"A complete {len(rack)}-day journey.\n", style="bold green")
    else:
        count = len(verdict.problems)
        text.append(f"Not complete yet ({count} problem{'s' if count > 1 else ''}):\n", style="bold")
        for problem in verdict.problems:
            text.append(f"  ✗ {problem}\n", style="red")
    good = [link for link in verdict.links if link.ok]
    if good:
        text.append("Connected:\n", style="bold")
        for link in good:
            text.append(f"  ✓ day {link.from_day} → {link.to_day}: {link.message}\n", style="green")
    text.rstrip()
    return text
