"""The terminal game: setup, the table, bots at their own pace, hot-seat privacy, the end of a game.

Everything on screen is drawn from ``view(state, seat)`` of the person at the keyboard (or a
spectator's view when nobody may look), so no rack but one's own ever appears before the end.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, replace
from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Click
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Footer, Input, RichLog, Select, Static

from tendays.bots import hint
from tendays.engine import (
    PILES,
    Edition,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    MoveKind,
    Options,
    Phase,
    PlayerView,
    available_editions,
    checker_for,
    load_edition,
)

from .render import day_marks, last_actions, log_line, pile_text, rack_line, tile_text
from .rules import rules_markdown
from .screens import HelpScreen, MoveInputScreen, PrivacyScreen, TextScreen
from .table import PlayConfig, Table

__all__ = ["GameScreen", "PlayApp", "SetupScreen"]

NAME_WIDTH = 22
CSS_PATH = Path(__file__).with_name("tendays.tcss")


def day_key(day: int) -> str:
    """The key that chooses ``day`` (0 for day 10), or "" when no single key does."""
    return "0" if day == 10 else (str(day) if day < 10 else "")


def possessive(name: str) -> str:
    """The possessive of a seat's name: "Ann's", or "Your" for the seat called "You"."""
    return "Your" if name == "You" else f"{name}'s"


def fresh_seed() -> int:
    return random.SystemRandom().randrange(2**31)


# -- widgets ---------------------------------------------------------------------------------


class DayRow(Static):
    """One day of the rack on screen; clicking it chooses that day."""

    def __init__(self, day: int) -> None:
        super().__init__(id=f"day-{day}", classes="day")
        self.day = day

    def on_click(self, event: Click) -> None:
        event.stop()
        self.screen_game().choose_day(self.day)

    def screen_game(self) -> GameScreen:
        screen = self.screen
        assert isinstance(screen, GameScreen)
        return screen


class PileRow(Static):
    """The draw pile (``pile`` 0) or a discard pile; clicking it takes from it or discards onto it."""

    def __init__(self, pile: int) -> None:
        super().__init__(id="drawpile" if pile == 0 else f"pile-{pile}", classes="pile")
        self.pile = pile

    def on_click(self, event: Click) -> None:
        event.stop()
        screen = self.screen
        assert isinstance(screen, GameScreen)
        screen.choose_pile(self.pile)


@dataclass(frozen=True)
class Pending:
    """A choice half made: ``kind`` "place" (``day`` 0 means discard the held tile) or "swap"."""

    kind: str
    day: int = 0


# -- the table -------------------------------------------------------------------------------


class GameScreen(Screen[None]):
    """The game: your journey, the piles, the other seats, the log and what to do next."""

    BINDINGS = [
        Binding("d", "draw", "Draw"),
        Binding("x", "discard", "Discard"),
        Binding("w", "swap", "Swap", show=False),
        Binding("v", "verdict", "Verdict"),
        Binding("h", "hint", "Hint"),
        Binding("s", "save", "Save"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("q", "quit", "Quit"),
        Binding("colon", "type_move", "Type move", show=False),
        Binding("up", "cursor(-1)", "Up", show=False),
        Binding("down", "cursor(1)", "Down", show=False),
        Binding("enter", "enter", "Choose", show=False),
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("e", "show_end", "End", show=False),
        *(Binding(str(n), f"digit({n})", str(n), show=False) for n in range(10)),
    ]

    def __init__(self, table: Table, config: PlayConfig) -> None:
        super().__init__()
        self.table = table
        self.config = config
        self.edition = load_edition(table.edition)
        self.unlocked: int | None = None  # in hot-seat: the person who may see their rack now
        self.pending: Pending | None = None
        self.hinted: set[int] = set()  # days the last hint suggested changing, marked until the next move
        self.cursor = 1
        self.message = Text("")
        self.bot_busy = False
        self.bot_error: str | None = None
        self.logged_events = 0
        self.end_shown = False
        self.saved_at = table.move_count  # a resumed game counts as saved until its next move
        self.quit_asked = -1  # the move count at which q was pressed once

    # -- layout ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="body"):
            with Vertical(id="rack-pane"):
                yield Static(id="rack-title")
                for day in range(1, self.table.options.days + 1):
                    yield DayRow(day)
                yield Static(id="day-detail")
            with Vertical(id="side"):
                yield Static(id="hand")
                yield PileRow(0)
                for pile in range(1, PILES + 1):
                    yield PileRow(pile)
                yield Static(id="seats")
                yield RichLog(id="log", wrap=True, min_width=20, max_lines=500)
        yield Static(id="prompt")
        yield Footer()

    def on_mount(self) -> None:
        self.advance()

    def on_unmount(self) -> None:
        self.workers.cancel_group(self, "bot")
        self.table.close()

    # -- who sees what -----------------------------------------------------------------------

    @property
    def viewer(self) -> int | None:
        """Whose view the screen shows: the person at the keyboard, or None (a spectator's view)."""
        table = self.table
        if table.is_over:
            return None
        current = table.current
        if table.seats[current].is_human:
            if not table.hot_seat or self.unlocked == current:
                return current
            return None
        if table.hot_seat or not table.humans:
            return None  # between two people's turns nobody's rack stays on screen
        return table.humans[0]

    def current_view(self) -> PlayerView:
        return self.table.view_for(self.viewer)

    def my_turn_view(self) -> PlayerView | None:
        """The view of the seat to move, if that seat is a person holding the keyboard now."""
        viewer = self.viewer
        if viewer is None or viewer != self.table.current or self.bot_busy:
            return None
        pv = self.table.view_for(viewer)
        return pv if pv.is_my_turn else None

    @property
    def waiting_for_human(self) -> bool:
        """True when nothing happens until a person acts (their turn, a privacy screen, or the end)."""
        return not self.bot_busy and (self.table.is_over or self.table.seats[self.table.current].is_human
                                      or self.bot_error is not None)

    # -- the flow of the game ----------------------------------------------------------------

    def advance(self) -> None:
        """After any move: show the new table, then hand over to the next seat."""
        table = self.table
        self.pending = None
        self.hinted = set()
        if table.is_over:
            self.refresh_view()
            self.show_end()
            return
        seat = table.seats[table.current]
        if not seat.is_human:
            self.refresh_view()
            self.bot_busy = True
            self.run_worker(self.bot_turn(), group="bot", exclusive=True)
            return
        if table.hot_seat and self.unlocked != table.current:
            self.unlocked = None
            self.refresh_view()
            pv = table.view_for(None)
            what = ("Time to put a drafted tile on your rack." if pv.phase is Phase.DRAFT
                    else f"It is {seat.name}'s turn.")
            self.app.push_screen(PrivacyScreen(seat.name, what), lambda _: self.unlock(table.current))
            return
        self.refresh_view()

    def unlock(self, seat: int) -> None:
        self.unlocked = seat
        self.message = Text("")
        self.refresh_view()

    async def bot_turn(self) -> None:
        table = self.table
        seat = table.current
        bot = table.seats[seat].bot
        assert bot is not None
        pv = table.view_for(seat)
        delay = self.config.bot_delay * (0.25 if pv.phase is Phase.DRAFT else 1.0)
        if delay > 0:
            await asyncio.sleep(delay)
        try:
            # Slow bots think in a thread so the screen keeps answering keys and resizes.
            move = await asyncio.to_thread(bot.choose, pv, table.bot_rng(seat))
            table.play(move, seat)
        except Exception as error:  # a bot (possibly an external program) failed: report it, keep the game
            self.bot_busy = False
            self.bot_error = f"{table.seats[seat].name} could not move: {error}"
            self.say(f"{self.bot_error}. Save the game (s) and resume it with other --players.", error=True)
            return
        self.bot_busy = False
        self.advance()

    def show_end(self) -> None:
        if not self.end_shown:
            self.end_shown = True
            self.app.push_screen(EndScreen(self.table, self.config))

    # -- drawing -----------------------------------------------------------------------------

    def say(self, message: str, error: bool = False) -> None:
        self.message = Text(("✗ " if error else "") + message, style="bold red" if error else "bold")
        self.refresh_prompt()

    def refresh_view(self) -> None:
        pv = self.current_view()
        names = self.table.names
        edition = self.edition
        table = self.table
        current = table.seats[pv.current]
        if pv.is_over:
            whose = f"{names[pv.winner]} won" if pv.winner is not None else "game over"
        elif pv.phase is Phase.DRAFT:
            whose = f"drafting: {current.name}"
        else:
            whose = "your turn" if pv.is_my_turn else f"{current.name}'s turn"
        self.query_one("#status", Static).update(Text.assemble(
            (edition.name, "bold"), f" · turn {pv.turn + 1} · ", (whose, "bold"),
            f" · draw pile {pv.draw_pile_size}",
        ), layout=False)
        self.refresh_rack(pv)
        self.refresh_side(pv)
        self.refresh_log(pv)
        self.refresh_prompt()

    def shown_rack(self, pv: PlayerView) -> tuple[int, tuple[int | None, ...]] | None:
        """Whose rack the board shows and that rack: the viewer's own, or after the game the winner's."""
        if pv.rack is not None and pv.player is not None:
            return pv.player, pv.rack
        if pv.racks is not None and pv.is_over:
            shown = pv.winner if pv.winner is not None else (self.table.humans or [0])[0]
            return shown, pv.racks[shown]
        return None

    def refresh_rack(self, pv: PlayerView) -> None:
        shown = self.shown_rack(pv)
        title = self.query_one("#rack-title", Static)
        detail = self.query_one("#day-detail", Static)
        days = self.table.options.days
        if shown is None:
            title.update(Text("Racks are hidden", style="bold"), layout=False)
            for day in range(1, days + 1):
                self.query_one(f"#day-{day}", DayRow).update(Text(f"{day:>2} ········", style="dim"), layout=False)
            why = ("Nobody's tiles are shown while the keyboard changes hands." if self.table.humans
                   else "Every rack stays hidden until the end of the game.")
            detail.update(Text(why, style="dim"))
            return
        owner, rack = shown
        owner_name = self.table.names[owner]
        heading = f"{possessive(owner_name)} journey"
        title.update(Text(heading, style="bold"), layout=False)
        marks = day_marks(self.edition, rack)
        chosen = self.pending.day if self.pending is not None else 0
        for day in range(1, days + 1):
            row = self.query_one(f"#day-{day}", DayRow)
            line = Text()
            line.append("▸" if day == self.cursor else ("◆" if day in self.hinted else " "), style="bold")
            line.append_text(rack_line(self.edition, day, rack[day - 1], marks.get(day), NAME_WIDTH))
            row.update(line, layout=False)
            row.set_class(day == self.cursor, "cursor")
            row.set_class(day == chosen, "chosen")
        mark = marks.get(self.cursor)
        if mark is not None:
            explained = mark.message
        elif rack[self.cursor - 1] is None:
            explained = f"day {self.cursor}: still empty"
        else:
            explained = f"day {self.cursor}: its link shows once the days around it are filled"
        detail.update(Text(explained, style="italic"))

    def refresh_side(self, pv: PlayerView) -> None:
        edition = self.edition
        names = self.table.names
        hand = self.query_one("#hand", Static)
        holder = names[pv.current]
        if pv.phase is Phase.PLACE or pv.phase is Phase.DRAFT:
            source = "the draw pile" if pv.taken_from == 0 else f"discard pile {pv.taken_from}"
            if pv.in_hand is not None:
                who = "You hold" if pv.is_my_turn else f"{holder} holds"
                hand.update(Text.assemble(f"{who} ", tile_text(edition, pv.in_hand), f" (from {source})"))
            else:
                hand.update(Text(f"{holder} holds a tile from {source}", style="dim"))
        else:
            if pv.is_over:
                waiting = ""
            elif pv.is_my_turn:
                waiting = "Your hand is empty: take a tile"
            else:
                waiting = f"{holder} is about to take a tile"
            hand.update(Text(waiting, style="dim"))
        draw = self.query_one("#drawpile", PileRow)
        draw.update(Text.assemble(("d ", "bold"), f"draw pile: {pv.draw_pile_size} tiles face down"), layout=False)
        side_width = max(24, self.query_one("#side").size.width or 36)
        for number in range(1, PILES + 1):
            self.query_one(f"#pile-{number}", PileRow).update(
                pile_text(edition, pv.piles[number - 1], number, side_width - 2), layout=False)
        # One line per seat and one for its latest turn, cut to the panel's width, so four seats fit in 80x24.
        lines = Text()
        for seat_index, seat in enumerate(self.table.seats):
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
        self.query_one("#seats", Static).update(lines)

    def refresh_log(self, pv: PlayerView) -> None:
        log = self.query_one("#log", RichLog)
        names = self.table.names
        for event in pv.events[self.logged_events:]:
            log.write(Text(log_line(self.edition, event, names)))
        self.logged_events = len(pv.events)

    def instruction(self) -> Text:
        """What the person at the keyboard can do now, with the keys for it."""
        table = self.table
        if table.is_over:
            return Text("The game is over: e shows the end, s saves, q quits.")
        seat = table.seats[table.current]
        if self.bot_error is not None:
            return Text("The game cannot go on with this bot: s saves it, q quits.")
        if self.bot_busy or not seat.is_human:
            return Text(f"{seat.name} ({seat.level}) is playing…", style="italic")
        pv = self.my_turn_view()
        if pv is None:
            return Text(f"Waiting for {seat.name}.")
        days = table.options.days
        day_keys = "1-" + day_key(min(days, 10)) if days <= 10 else "1-0"
        if pv.phase is Phase.DRAFT:
            return Text.assemble("Drafting: put ", tile_text(self.edition, pv.in_hand),
                                 f" on an empty day ({day_keys}, ↑↓ Enter, or click a day). It stays there.")
        if pv.phase is Phase.DRAW:
            if self.pending is not None and self.pending.kind == "swap":
                if self.pending.day:
                    return Text(f"Swap day {self.pending.day} with which day? ({day_keys} or click; Esc cancels)")
                return Text(f"Swap: choose the first day ({day_keys} or click; Esc cancels)")
            swap = ", w swap two days" if table.options.swap else ""
            return Text(f"Your turn: d draws from the draw pile, 1-3 takes the top of a discard pile{swap}.")
        held = tile_text(self.edition, pv.in_hand)
        forced = self.forced_pile(pv)
        if self.pending is None:
            return Text.assemble("Put ", held, f" on a day ({day_keys}, ↑↓ Enter, or click a day), "
                                 "or x / click a discard pile to discard it.")
        if self.pending.day:
            rack = pv.rack
            assert rack is not None
            what = Text.assemble(f"Day {self.pending.day}: ", tile_text(self.edition, rack[self.pending.day - 1]),
                                 " goes onto a discard pile: ")
        else:
            what = Text.assemble("Discard ", held, " onto a discard pile: ")
        if forced:
            what.append(f"you took the last tile of pile {forced}, so it must go onto pile {forced} "
                        f"(there are always three discard piles): press {forced} or Enter.")
        else:
            what.append("1-3 or click a pile (Esc cancels).")
        return what

    def refresh_prompt(self) -> None:
        prompt = Text()
        if self.message.plain:
            prompt.append_text(self.message)
            prompt.append("\n")
        prompt.append_text(self.instruction())
        self.query_one("#prompt", Static).update(prompt)

    @staticmethod
    def forced_pile(pv: PlayerView) -> int:
        """The pile a discard must go onto (the emptied pile rule), or 0 when any pile will do."""
        taken = pv.taken_from
        return taken if pv.phase is Phase.PLACE and taken > 0 and not pv.piles[taken - 1] else 0

    # -- playing -----------------------------------------------------------------------------

    def my_turn_or_explain(self) -> PlayerView | None:
        pv = self.my_turn_view()
        if pv is not None:
            return pv
        table = self.table
        if table.is_over:
            self.say("The game is over: press e for the end screen, or q to quit.", error=True)
        elif self.bot_error is not None:
            self.say(self.bot_error, error=True)
        else:
            seat = table.seats[table.current]
            self.say(f"It is {seat.name}'s turn ({seat.level}); wait for your turn.", error=True)
        return None

    def try_move(self, move: Move) -> None:
        """Play ``move`` for the person at the keyboard, or explain in the game's words why not."""
        pv = self.my_turn_or_explain()
        if pv is None:
            return
        try:
            self.table.play(move, pv.player if pv.player is not None else -1)
        except IllegalMoveError as error:
            if not (self.forced_pile(pv) and move.kind in (MoveKind.REPLACE, MoveKind.DISCARD)):
                self.pending = None  # keep a chosen day when only the pile was wrong, so the right pile completes it
            self.say(f"{move}: {error}", error=True)
            self.refresh_view()
            return
        self.message = Text(f"You played: {move}", style="dim")
        self.advance()

    def choose_day(self, day: int) -> None:
        pv = self.my_turn_or_explain()
        if pv is None:
            return
        days = self.table.options.days
        if not 1 <= day <= days:
            self.say(f"there is no day {day}; the rack has days 1-{days}", error=True)
            return
        self.cursor = day
        if pv.phase is Phase.DRAFT:
            self.try_move(Move.draft(day))
            return
        if pv.phase is Phase.DRAW:
            if self.pending is not None and self.pending.kind == "swap":
                if not self.pending.day:
                    self.pending = Pending("swap", day)
                    self.message = Text("")
                    self.refresh_view()
                else:
                    self.try_move(Move.swap(self.pending.day, day))
                return
            self.say("First take a tile: d draws from the draw pile, 1-3 takes the top of a discard pile"
                     + (" (or w to swap two days)." if self.table.options.swap else "."), error=True)
            self.refresh_view()
            return
        self.pending = Pending("place", day)
        self.message = Text("")
        self.refresh_view()

    def choose_pile(self, pile: int) -> None:
        """A pile key or click: take from it (drawing), or send the discard onto it (placing)."""
        pv = self.my_turn_or_explain()
        if pv is None:
            return
        if pv.phase is Phase.DRAFT:
            self.say("While drafting, put the tile on an empty day of your rack.", error=True)
        elif pv.phase is Phase.DRAW:
            if self.pending is not None and self.pending.kind == "swap":
                self.say("Choose days to swap, or Esc to cancel the swap.", error=True)
                return
            self.try_move(Move.draw() if pile == 0 else Move.take(pile))
        elif pile == 0:
            self.say("You already hold a tile: put it on a day or discard it.", error=True)
        elif self.pending is None:
            # A discard pile clicked before choosing a day means: discard the held tile there.
            self.try_move(Move.discard(pile))
        else:
            day = self.pending.day
            self.try_move(Move.replace(day, pile) if day else Move.discard(pile))

    def action_digit(self, number: int) -> None:
        pv = self.my_turn_or_explain()
        if pv is None:
            return
        choosing_pile = (pv.phase is Phase.DRAW and (self.pending is None or self.pending.kind != "swap")) or (
            pv.phase is Phase.PLACE and self.pending is not None)
        if choosing_pile:
            if not 1 <= number <= PILES:
                self.say(f"there is no discard pile {number}; the piles are 1-{PILES}", error=True)
                return
            self.choose_pile(number)
        else:
            self.choose_day(10 if number == 0 else number)

    def action_draw(self) -> None:
        self.choose_pile(0)

    def action_discard(self) -> None:
        pv = self.my_turn_or_explain()
        if pv is None:
            return
        if pv.phase is not Phase.PLACE:
            self.say("There is nothing to discard: first take a tile (d, or 1-3)." if pv.phase is Phase.DRAW
                     else "While drafting, every tile goes onto an empty day.", error=True)
            return
        self.pending = Pending("place", 0)
        self.message = Text("")
        self.refresh_view()

    def action_swap(self) -> None:
        pv = self.my_turn_or_explain()
        if pv is None:
            return
        if not self.table.options.swap:
            self.say("tiles in a rack never move: swapping is only allowed with the swap variant (--swap)",
                     error=True)
            return
        if pv.phase is not Phase.DRAW:
            self.say("A swap replaces drawing: it is only possible at the start of your turn.", error=True)
            return
        self.pending = Pending("swap")
        self.message = Text("")
        self.refresh_view()

    def action_enter(self) -> None:
        pv = self.my_turn_or_explain()
        if pv is None:
            return
        forced = self.forced_pile(pv)
        if pv.phase is Phase.PLACE and self.pending is not None:
            if forced:
                self.choose_pile(forced)
            else:
                self.say("Choose the discard pile: 1-3 or click a pile.", error=True)
        elif pv.phase is Phase.DRAW and (self.pending is None or self.pending.kind != "swap"):
            self.say("Choose where to take a tile from: d for the draw pile, 1-3 for a discard pile.", error=True)
        else:
            self.choose_day(self.cursor)

    def action_cursor(self, step: int) -> None:
        self.cursor = (self.cursor - 1 + step) % self.table.options.days + 1
        self.refresh_rack(self.current_view())

    def action_cancel(self) -> None:
        if self.pending is not None:
            self.pending = None
            self.message = Text("Cancelled.", style="dim")
            self.refresh_view()

    def action_type_move(self) -> None:
        pv = self.my_turn_or_explain()
        if pv is None:
            return
        example = str(pv.legal_moves()[0]) if pv.legal_moves() else "draw"

        def typed(text: str | None) -> None:
            if not text:
                return
            try:
                move = Move.from_text(text)
            except InvalidMoveError as error:
                self.say(str(error), error=True)
                return
            self.pending = None
            self.try_move(move)

        self.app.push_screen(MoveInputScreen(example), typed)

    # -- information -------------------------------------------------------------------------

    def action_verdict(self) -> None:
        pv = self.current_view()
        shown = self.shown_rack(pv)
        if shown is None:
            self.say("No rack is shown right now, so there is no journey to check.", error=True)
            return
        owner, rack = shown
        name = self.table.names[owner]
        title = "Your journey" if owner == pv.player else f"{possessive(name)} journey"
        self.app.push_screen(TextScreen(f"{title}, link by link", journey_text(self.edition, rack)))

    def action_hint(self) -> None:
        pv = self.current_view()
        if pv.rack is None or pv.is_over:
            self.say("There is no rack of yours on screen to give a hint for.", error=True)
            return
        advice = hint(pv)
        self.hinted = set(advice.days)
        self.say(f"Hint: {advice.message}")
        self.refresh_rack(pv)

    def action_save(self) -> None:
        path = self.config.save_path
        try:
            self.table.save(path)
        except OSError as error:
            self.say(f"could not save to {path}: {error.strerror or error}", error=True)
            return
        self.saved_at = self.table.move_count
        self.say(f"Saved to {path}; continue it with: tendays play --resume {path}")

    def action_quit(self) -> None:
        """Quit; an unsaved game in progress asks for a second q first."""
        table = self.table
        if table.is_over or self.saved_at == table.move_count or self.quit_asked == table.move_count:
            self.app.exit()
            return
        self.quit_asked = table.move_count
        self.say(f"The game since the last save would be lost: s saves it (to {self.config.save_path}), "
                 "q again quits without saving.", error=True)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(rules_markdown(self.edition, self.table.options)))

    def action_show_end(self) -> None:
        if self.table.is_over:
            self.app.push_screen(EndScreen(self.table, self.config))
        else:
            self.say("The game is not over yet.", error=True)

    def on_resize(self) -> None:
        self.refresh_view()


def journey_text(edition: Edition, rack: tuple[int | None, ...]) -> Text:
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


# -- the end of the game ---------------------------------------------------------------------


class EndScreen(Screen[None]):
    """The winner's journey day by day, every rack revealed, a summary; play again or quit."""

    BINDINGS = [
        Binding("n", "again", "Play again"),
        Binding("s", "save", "Save"),
        Binding("escape,b", "back", "Board"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, table: Table, config: PlayConfig) -> None:
        super().__init__()
        self.table = table
        self.config = config

    def compose(self) -> ComposeResult:
        pv = self.table.view_for(None)  # the game is over: every rack is public now
        edition = load_edition(self.table.edition)
        names = self.table.names
        seats = self.table.seats
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
        body.append(f"  {edition.name}, {self.table.options.days} days, {pv.turn} turns, "
                    f"{sum(1 for e in pv.events if e.kind == 'reshuffle')} reshuffles\n")
        for seat_index, seat in enumerate(seats):
            body.append(f"  {seat.name} ({seat.level})" + ("  winner" if seat_index == pv.winner else "") + "\n")
        body.rstrip()
        yield Static(Text(title, style="bold"), id="end-title")
        with VerticalScroll(id="end-scroll"):
            yield Static(body, id="end-body")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#end-scroll").focus()

    def action_again(self) -> None:
        app = self.app
        assert isinstance(app, PlayApp)
        app.play_again()

    def action_save(self) -> None:
        try:
            self.table.save(self.config.save_path)
        except OSError as error:
            self.notify(f"could not save to {self.config.save_path}: {error.strerror or error}", severity="error")
            return
        self.notify(f"Saved to {self.config.save_path}; replay it with: tendays replay {self.config.save_path}")

    def action_back(self) -> None:
        self.dismiss(None)


# -- setup -----------------------------------------------------------------------------------


class SetupScreen(Screen[None]):
    """Choose the edition, the seats, the days and the variant before the first game."""

    BINDINGS = [Binding("escape", "app.quit", "Quit")]

    def __init__(self, config: PlayConfig) -> None:
        super().__init__()
        self.config = config

    def compose(self) -> ComposeResult:
        config = self.config
        with VerticalScroll(id="setup"):
            yield Static("New game", id="setup-title")
            yield Static("Edition")
            yield Select([(load_edition(e).name, e) for e in available_editions()], value=config.edition,
                         allow_blank=False, id="setup-edition", compact=True)
            yield Static("Players in turn order: me or a name for each person (several people share the keyboard); "
                         "easy, normal, hard for bots")
            yield Input(config.players, id="setup-players")
            yield Static("Days")
            yield Select([("10 days", 10), ("5 days", 5)], value=config.days, allow_blank=False,
                         id="setup-days", compact=True)
            yield Checkbox("Swap variant: a turn may swap two days instead of drawing", config.swap,
                           id="setup-swap", compact=True)
            yield Static("Seed (empty: a new shuffle every game)")
            yield Input("" if config.seed is None else str(config.seed), id="setup-seed")
        with Horizontal(id="setup-bar"):
            yield Button("Start", id="setup-start", variant="primary", compact=True)
            yield Static(id="setup-error")
        yield Footer()

    @on(Button.Pressed, "#setup-start")
    @on(Input.Submitted)
    def start(self) -> None:
        edition = self.query_one("#setup-edition", Select).value
        days = self.query_one("#setup-days", Select).value
        players = self.query_one("#setup-players", Input).value
        seed_text = self.query_one("#setup-seed", Input).value.strip()
        error = self.query_one("#setup-error", Static)
        if seed_text and not seed_text.isdigit():
            error.update(Text(f"✗ the seed must be a whole number, not {seed_text!r}", style="bold red"))
            return
        config = replace(self.config, edition=str(edition), days=int(str(days)), players=players,
                         swap=self.query_one("#setup-swap", Checkbox).value,
                         seed=int(seed_text) if seed_text else None)
        app = self.app
        assert isinstance(app, PlayApp)
        problem = app.start_game(config)
        if problem:
            error.update(Text(f"✗ {problem}", style="bold red"))


# -- the app ---------------------------------------------------------------------------------


class PlayApp(App[None]):
    """``tendays play``: a game against bots or friends at one keyboard."""

    CSS_PATH = CSS_PATH
    TITLE = "tendays"

    def __init__(self, config: PlayConfig, *, table: Table | None = None, setup: bool = False) -> None:
        super().__init__()
        self.config = config
        self.first_table = table
        self.setup = setup
        self.seed_used: int | None = config.seed

    def on_mount(self) -> None:
        if self.first_table is not None:
            self.show_table(self.first_table)
        elif self.setup:
            self.push_screen(SetupScreen(self.config))
        else:
            problem = self.start_game(self.config)
            if problem:
                self.exit(return_code=2, message=problem)

    @property
    def game_screen(self) -> GameScreen:
        for screen in reversed(self.screen_stack):
            if isinstance(screen, GameScreen):
                return screen
        raise LookupError("no game is on screen")

    def start_game(self, config: PlayConfig, options: Options | None = None) -> str | None:
        """Deal a new game with ``config`` (and ``options``, if given, instead of the config's);
        the reason in words if they do not make a game."""
        seed = config.seed if config.seed is not None else fresh_seed()
        try:
            table = Table(config.edition, options or config.options(), seed, config.seat_list())
        except ValueError as error:  # SeatError, bad options
            return str(error)
        self.config = config
        self.seed_used = seed
        self.show_table(table)
        return None

    def show_table(self, table: Table) -> None:
        screen = GameScreen(table, self.config)
        if len(self.screen_stack) > 1:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def play_again(self) -> None:
        """A new game with the same options and seats: the next seed when one was given, else a fresh one."""
        seed = None if self.config.seed is None or self.seed_used is None else self.seed_used + 1
        options = self.game_screen.table.options
        self.pop_screen()  # the end screen
        self.start_game(replace(self.config, seed=seed), options)
