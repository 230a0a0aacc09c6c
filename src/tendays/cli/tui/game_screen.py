"""The game screen: who sees what, whose turn it is, and the bots' turns at their own pace.

Everything on screen is drawn from ``view(state, seat)`` of the person at the keyboard (or a
spectator's view when nobody may look), so no rack but one's own ever appears before the end. Keys
and clicks go to the input model; the moves it returns are played here, and the bots' moves come
from the engine's turn loop.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.events import Resize
from textual.widgets import Footer, Static

from tendays.engine import IllegalMoveError, Phase, PlayerView
from tendays.engine.i18n import gettext as _

from .bot_turn import play_bot_turn
from .captions import (
    handover_words,
    hint_words,
    instruction,
    journey_of,
    not_your_turn,
    rack_on_board,
    status_text,
    verdict_title,
)
from .end_screen import EndScreen, save_game, unsaved_warning
from .input_model import InputModel, Reply, key_usable, move_verbs, typed_example
from .render import journey_report, move_words, name_width, palette_choice, person
from .rules import rules_markdown
from .screens import FittedScreen, HelpScreen, MoveInputScreen, PrivacyScreen, TextScreen
from .table import PlayConfig, Table
from .widgets import DayRow, LinksPane, PileRow, RackPane, SidePane, show_text

__all__ = ["WIDE", "GameScreen"]

WIDE = 110  # from this many columns the journey's verdict in words stands beside the rack


class GameScreen(FittedScreen[None]):
    """The game: your journey, the piles, the other seats, the log and what to do next."""

    BINDINGS = [
        Binding("d", "draw", "Draw"),
        Binding("d", "pile(0)", show=False),
        Binding("x", "discard", "Discard"),
        Binding("x", "discard_key", show=False),
        Binding("w", "swap", "Swap"),
        Binding("w", "swap_key", show=False),
        Binding("e", "show_end", "End"),
        Binding("e", "end_key", show=False),
        Binding("v", "verdict", "Verdict"),
        Binding("h", "hint", "Hint"),
        Binding("s", "save", "Save"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("q", "quit", "Quit"),
        Binding("colon", "type_move", "Type move", show=False),
        Binding("c", "palette", "Colours", show=False),
        Binding("up", "cursor(-1)", "Up", show=False),
        Binding("down", "cursor(1)", "Down", show=False),
        Binding("left", "point(False)", "Rack", show=False),
        Binding("right", "point(True)", "Piles", show=False),
        Binding("enter", "enter", "Choose", show=False),
        Binding("escape", "cancel", "Cancel", show=False),
        *(Binding(str(n), f"digit({n})", str(n), show=False) for n in range(10)),
    ]

    def __init__(self, table: Table, config: PlayConfig, play_again: Callable[[], None]) -> None:
        super().__init__()
        self.table = table
        self.config = config
        self.play_again = play_again
        self.edition = table.view_for(None).edition
        self.input = InputModel()
        self.unlocked: int | None = None  # in hot-seat: the person who may see their rack now
        # days the last hint suggested changing, marked until the next move
        self.hinted: set[int] = set()
        self.message = Text("")
        self.bot_busy = False
        self.bot_error: str | None = None
        self.end_shown = False
        self.quit_asked = -1  # the move count at which q was pressed once

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="body"):
            yield RackPane(self.edition, self.table.options.days)
            yield LinksPane()
            yield SidePane()
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
        return self.table.viewer(self.unlocked)

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
        """True when nothing happens until a person acts (their turn, a
        privacy screen, or the end)."""
        return not self.bot_busy and (
            self.table.is_over
            or self.table.seats[self.table.current].is_human
            or self.bot_error is not None
        )

    # -- the flow of the game ----------------------------------------------------------------

    def advance(self) -> None:
        """After any move: show the new table, then hand over to the next seat."""
        table = self.table
        self.hinted = set()
        seat = table.seats[table.current]
        private = (
            not table.is_over
            and seat.is_human
            and table.hot_seat
            and self.unlocked != table.current
        )
        if private:
            self.unlocked = None
        self.input.reset(self.my_turn_view())
        self.refresh_view()
        if table.is_over:
            self.show_end()
        elif not seat.is_human:
            self.bot_busy = True
            self.run_worker(self.bot_turn(), group="bot", exclusive=True)
        elif private:
            what = handover_words(seat, table.view_for(None).phase is Phase.DRAFT)
            self.app.push_screen(
                PrivacyScreen(person(seat.name), what, self.unsaved_warning, self.save_game),
                lambda _: self.unlock(table.current),
            )

    def unlock(self, seat: int) -> None:
        self.unlocked = seat
        self.message = Text("")
        self.input.reset(self.my_turn_view())
        self.refresh_view()

    async def bot_turn(self) -> None:
        self.bot_error = await play_bot_turn(self.table, self.config.bot_delay)
        self.bot_busy = False
        if self.bot_error is None:
            self.advance()
            return
        # the game is kept: it can be saved and resumed with other seats
        words = _("{problem}. Save the game (s) and resume it with other --players.")
        self.say(words.format(problem=self.bot_error), error=True)

    def show_end(self) -> None:
        if not self.end_shown:
            self.end_shown = True
            self.app.push_screen(EndScreen(self.table, self.config, self.play_again))

    # -- drawing -----------------------------------------------------------------------------

    def say(self, message: str, error: bool = False) -> None:
        self.message = Text(
            ("✗ " if error else "") + message, style="bold red" if error else "bold"
        )
        self.refresh_prompt()

    def refresh_view(self) -> None:
        pv = self.current_view()
        show_text(self.query_one("#status", Static), status_text(pv, self.table.names))
        self.refresh_rack(pv)
        self.refresh_prompt()
        self.refresh_bindings()

    @property
    def pile_cursor(self) -> int | None:
        """The pile the cursor stands on: only on the turn of the person at the keyboard."""
        return (
            self.input.pile_cursor
            if self.input.on_piles and self.my_turn_view() is not None
            else None
        )

    def shown_rack(self, pv: PlayerView) -> tuple[int, tuple[int | None, ...]] | None:
        return rack_on_board(pv, self.table.humans)

    def refresh_rack(self, pv: PlayerView) -> None:
        pane = self.query_one(RackPane)
        pile_cursor = self.pile_cursor
        self.query_one(SidePane).show(pv, self.table.seats, pile_cursor)
        shown = self.shown_rack(pv)
        self.query_one(LinksPane).show(self.edition, shown[1] if shown else None)
        if shown is None:
            pane.show_hidden(
                _("Nobody's tiles are shown while the keyboard changes hands.")
                if self.table.humans
                else _("Every rack stays hidden until the end of the game.")
            )
            return
        owner, rack = shown
        pending = self.input.pending
        pane.show_rack(
            self.edition,
            journey_of(self.table.names[owner]),
            rack,
            self.input.cursor,
            pile_cursor is None,
            pending.day if pending is not None else 0,
            self.hinted,
        )

    def refresh_prompt(self) -> None:
        prompt = Text()
        if self.message.plain:
            prompt.append_text(self.message)
            prompt.append("\n")
        table = self.table
        prompt.append_text(
            instruction(
                table.is_over,
                table.seats[table.current],
                self.my_turn_view(),
                self.input.pending,
                self.bot_busy,
                self.bot_error is not None,
            )
        )
        show_text(self.query_one("#prompt", Static), prompt)

    def on_resize(self, event: Resize) -> None:
        self.set_class(event.size.width >= WIDE, "-wide")
        self.refresh_view()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer Draw, Discard, Swap and End in the footer only when they can be used now (and no
        game key while the terminal is too small to show the board)."""
        if not super().check_action(action, parameters):
            return False
        return key_usable(action, self.table.is_over, self.my_turn_view())

    # -- playing -----------------------------------------------------------------------------

    def my_turn_or_explain(self) -> PlayerView | None:
        pv = self.my_turn_view()
        if pv is not None:
            return pv
        table = self.table
        seat = table.seats[table.current]
        self.say(not_your_turn(table.is_over, seat, self.bot_error), error=True)
        return None

    def answer(self, pv: PlayerView, reply: Reply) -> None:
        """Play the move a key or click came to, or show its words; the engine
        has the last word on a move."""
        move = reply.move
        if move is None:
            if reply.message:
                self.say(reply.message, error=reply.error)
            else:
                self.message = Text("")
            self.refresh_view()
            return
        try:
            self.table.play(move, pv.current)
        except IllegalMoveError as error:
            self.answer(pv, self.input.refused(pv, move, error))
            return
        self.message = Text(_("You played: {move}").format(move=move_words(move)), style="dim")
        self.advance()

    def with_my_turn(self, handle: Callable[[PlayerView], Reply]) -> None:
        pv = self.my_turn_or_explain()
        if pv is not None:
            self.answer(pv, handle(pv))

    @on(DayRow.Chosen)
    def day_clicked(self, event: DayRow.Chosen) -> None:
        self.with_my_turn(lambda pv: self.input.choose_day(pv, event.day))

    @on(PileRow.Chosen)
    def pile_clicked(self, event: PileRow.Chosen) -> None:
        self.action_pile(event.pile)

    def action_pile(self, pile: int) -> None:
        self.with_my_turn(lambda pv: self.input.choose_pile(pv, pile))

    def action_draw(self) -> None:
        self.action_pile(0)

    def action_digit(self, number: int) -> None:
        self.with_my_turn(lambda pv: self.input.digit(pv, number))

    def action_discard(self) -> None:
        self.with_my_turn(self.input.discard)

    action_discard_key = action_discard

    def action_swap(self) -> None:
        self.with_my_turn(self.input.swap)

    action_swap_key = action_swap

    def action_enter(self) -> None:
        self.with_my_turn(self.input.enter)

    def action_cursor(self, step: int) -> None:
        if self.pile_cursor is None:
            self.input.point_at_piles(False)  # the piles are chosen only on one's own turn
        pv = self.my_turn_view()
        self.input.move_cursor(
            step, self.table.options.days, holding=pv is not None and pv.phase is Phase.PLACE
        )
        self.refresh_rack(self.current_view())

    def action_point(self, piles: bool) -> None:
        """← the rack, → the piles (on one's own turn)."""
        pv = self.my_turn_or_explain() if piles else self.my_turn_view()
        if piles and pv is None:
            return
        self.input.point_at_piles(piles, pv)
        self.refresh_view()

    def action_cancel(self) -> None:
        reply = self.input.cancel()
        if reply is not None:
            self.message = Text(reply.message, style="dim")
            self.refresh_view()

    def action_type_move(self) -> None:
        pv = self.my_turn_or_explain()
        if pv is None:
            return
        legal = pv.legal_moves()
        example = typed_example(legal[0]) if legal else move_verbs()["draw"]

        def typed(text: str | None) -> None:
            if text:
                self.with_my_turn(lambda pv: self.input.typed(text))

        self.app.push_screen(MoveInputScreen(example), typed)

    # -- information -------------------------------------------------------------------------

    def action_verdict(self) -> None:
        pv = self.current_view()
        shown = self.shown_rack(pv)
        if shown is None:
            self.say(_("No rack is shown right now, so there is no journey to check."), error=True)
            return
        owner, rack = shown
        title = verdict_title(self.table.names[owner], owner == pv.player)
        report = journey_report(self.edition, rack, name_width(self.edition))
        self.app.push_screen(TextScreen(title, report))

    def action_hint(self) -> None:
        pv = self.current_view()
        if pv.rack is None or pv.is_over:
            self.say(_("There is no rack of yours on screen to give a hint for."), error=True)
            return
        words, self.hinted = hint_words(pv)
        self.say(words)
        self.refresh_rack(pv)

    def save_game(self) -> tuple[str, bool]:
        """Save the game: what to say, and whether saving failed (a finished game is saved to be
        replayed, as it cannot be continued)."""
        table = self.table
        return save_game(table, self.config.save_path, palette_choice().name, table.is_over)

    def action_save(self) -> None:
        self.say(*self.save_game())

    def unsaved_warning(self) -> str | None:
        """What quitting now would lose, or None."""
        return unsaved_warning(self.table, self.config.save_path) if self.table.unsaved else None

    def action_quit(self) -> None:
        """Quit; a game with moves since it was last saved (finished or
        not) asks for a second q first."""
        warning = self.unsaved_warning()
        if warning is None or self.quit_asked == self.table.move_count:
            self.app.exit()
            return
        self.quit_asked = self.table.move_count
        self.say(warning, error=True)

    def action_palette(self) -> None:
        """c: switch the tile colours between the edition's palette and its
        palette for colour-blind players."""
        chosen = palette_choice().toggle()
        self.config = replace(self.config, palette=chosen)
        self.say(
            _("Colours for colour-blind players (c switches back)")
            if chosen == "cb"
            else _("The edition's own colours (c: colours for colour-blind players)")
        )
        self.refresh_view()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(rules_markdown(self.edition, self.table.options)))

    def action_show_end(self) -> None:
        if self.table.is_over:
            self.app.push_screen(EndScreen(self.table, self.config, self.play_again))
        else:
            self.say(_("The game is not over yet."), error=True)

    action_end_key = action_show_end
