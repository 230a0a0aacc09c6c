"""The guided first game in the terminal: the rack and the piles on the left, the lesson on the
right.

The lesson (:class:`tendays.learn.Tutor`) says what to do, points at it (◀ on the rack or the piles)
and explains a wrong move; the keys are those of ``tendays play`` (a digit for a day or a pile, d to
draw, x to discard), read by the same :class:`InputModel`. The place reached is kept in the progress
file after each move, so the lesson goes on where it stopped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Footer, Static

from tendays.engine import Move, MoveKind
from tendays.engine.i18n import gettext as _
from tendays.engine.plain_text import shown
from tendays.learn import Step, Tutor, available_lessons, load_lesson
from tendays.learn.progress import Progress

from .input_model import InputModel, Reply
from .render import day_marks, name_width, pile_text, rack_line, tile_text
from .screens import FittedScreen
from .speaking_app import SpeakingApp

__all__ = ["LearnApp", "LearnScreen", "learn_offer", "move_keys", "open_lesson"]

POINTER = "◀"


def learn_offer() -> Iterator[Button]:
    """The setup screen's button that offers the guided game, to a player who
    never finished nor skipped it."""
    if Progress.load().first_time:
        yield Button(_("Learn to play"), id="setup-learn", compact=True)


def open_lesson(app: App[Any], edition: str) -> None:
    """Show the guided game of ``edition`` (or of the first edition with
    one) over the screen on top."""
    lessons = available_lessons()
    tutor = Tutor(load_lesson(edition if edition in lessons else lessons[0]))
    app.push_screen(LearnScreen(tutor, Progress.load(), app.pop_screen))


def move_keys(move: Move) -> str:
    """The keys that make ``move`` at this screen, in words ("5, then 1")."""
    kind = move.kind
    if kind is MoveKind.DRAFT:
        return str(move.a % 10)
    if kind is MoveKind.DRAW:
        return "d"
    if kind is MoveKind.TAKE:
        return str(move.a)
    first = "x" if kind is MoveKind.DISCARD else str(move.a % 10)
    pile = move.a if kind is MoveKind.DISCARD else move.b
    # TRANSLATORS: two keys pressed one after the other in the guided game ("5, then 1").
    return _("{first}, then {second}").format(first=first, second=pile)


class LearnScreen(FittedScreen[None]):
    """One edition's guided game; ``on_leave`` is called when the player
    leaves it (finished or not)."""

    CSS_PATH = Path(__file__).with_name("learn.tcss")

    BINDINGS = [
        *(Binding(str(n), f"digit({n})", str(n), show=False) for n in range(10)),
        Binding("d", "draw", "Draw"),
        Binding("x", "discard", "Discard"),
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("up", "scroll_lesson(-1)", "Up", show=False),
        Binding("down", "scroll_lesson(1)", "Down", show=False),
        Binding("r", "restart", "Restart"),
        Binding("s", "skip", "Skip"),
        Binding("q", "leave", "Quit"),
        Binding("enter", "leave_at_end", show=False),
    ]

    def __init__(self, tutor: Tutor, progress: Progress, on_leave: Callable[[], object]) -> None:
        super().__init__()
        labels = {"Restart": _("Restart"), "Skip": _("Skip the lesson")}
        keys = self._bindings.key_to_bindings
        for key, bindings in list(keys.items()):
            keys[key] = [
                replace(b, description=labels.get(b.description, b.description)) for b in bindings
            ]
        self.tutor = tutor
        self.progress = progress
        self.on_leave = on_leave
        self.edition = tutor.lesson.edition
        self.number = min(progress.step(self.edition), tutor.total)
        self.model = InputModel()
        self.message: Text | None = None
        self.skip_asked = False

    def compose(self) -> ComposeResult:
        yield Static(id="learn-title")
        with Horizontal(id="learn-body"):
            yield Static(id="learn-board")
            with Vertical(id="learn-side"):
                with VerticalScroll(id="learn-scroll"):
                    yield Static(id="learn-lesson")
                yield Static(id="learn-do")
        yield Footer()

    def on_mount(self) -> None:
        super().on_mount()
        self.model.reset(self.step.view)
        self.show()

    @property
    def step(self) -> Step:
        return self.tutor.step(self.number)

    def show(self) -> None:
        step = self.step
        edition = step.view.edition
        self.query_one("#learn-title", Static).update(
            _("Guided first game · {edition} · step {step} of {total}").format(
                edition=edition.name, step=min(step.number + 1, step.total), total=step.total
            )
        )
        self.query_one("#learn-board", Static).update(self._board(step))
        self.query_one("#learn-lesson", Static).update(self._lesson(step))
        self.query_one("#learn-scroll", VerticalScroll).scroll_home(animate=False)
        self.query_one("#learn-do", Static).update(self._instruction(step))

    def _board(self, step: Step) -> RenderableType:
        pv = step.view
        edition = pv.edition
        rack = pv.rack or ()
        marks = day_marks(edition, rack)
        width = min(name_width(edition), 20)
        pointer = step.pointer
        lines = [Text(_("Your rack"), style="bold")]
        for day, tile in enumerate(rack, 1):
            line = rack_line(edition, day, tile, marks.get(day), width)
            if pointer.area == "rack" and pointer.day == day:
                line.append(f" {POINTER}", style="bold yellow")
            lines.append(line)
        hand = Text(_("In hand: "), style="bold")
        hand.append_text(tile_text(edition, pv.in_hand) if pv.in_hand is not None else Text("—"))
        lines.append(hand)
        draw = Text("d ", style="bold")
        draw.append(_("draw pile ({count})").format(count=pv.draw_pile_size))
        if pointer.area == "draw":
            draw.append(f" {POINTER}", style="bold yellow")
        lines.append(draw)
        for number, pile in enumerate(pv.piles, 1):
            line = pile_text(edition, pile, number, 34)
            line.rstrip()
            if pointer.pile == number:
                line.append(f" {POINTER}", style="bold yellow")
            lines.append(line)
        return Group(*lines)

    def _lesson(self, step: Step) -> RenderableType:
        """The rules explained at this step, why the lesson makes its
        move, then what the others did."""
        parts: list[RenderableType] = []
        for text in step.lessons:
            parts.append(Text(text))
            parts.append(Text(""))
        if step.why:
            parts.append(Text(_("Why: {reason}").format(reason=step.why), style="italic"))
        for line in step.news[-3:]:
            parts.append(Text(f"· {line}", style="dim"))
        return Group(*parts)

    def _instruction(self, step: Step) -> RenderableType:
        parts: list[RenderableType] = []
        if self.message is not None:
            parts.append(self.message)
        parts.append(Text(f"▶ {step.instruction}", style="bold"))
        if step.expected is not None:
            parts.append(Text(_("Keys: {keys}").format(keys=move_keys(step.expected))))
        else:
            parts.append(Text(_("Press Enter or q to leave.")))
        return Group(*parts)

    # -- keys ----------------------------------------------------------------------------------

    def keep(self) -> bool:
        """Write the place reached; when the progress file cannot be written, say so (the lesson
        goes on, but the place is not kept for next time). True if written."""
        problem = self.progress.save()
        if problem is not None:
            self.message = Text(
                _("✗ The place reached cannot be kept in {path}: {problem}").format(
                    path=shown(str(self.progress.path)), problem=problem
                ),
                style="bold red",
            )
        return problem is None

    def _reply(self, reply: Reply) -> None:
        self.skip_asked = False
        if reply.move is not None:
            check = self.tutor.check(self.number, reply.move)
            if check.ok:
                self.number += 1
                self.message = None
                self.progress.steps[self.edition] = self.number
                if self.number == self.tutor.total:
                    self.progress.finished = True
                self.keep()
            else:
                self.message = Text(f"✗ {check.message}", style="bold red")
            self.model.reset(self.step.view)
        elif reply.message:
            self.message = (
                Text(f"✗ {reply.message}", style="bold red") if reply.error else Text(reply.message)
            )
        self.show()

    def _playing(self) -> bool:
        return not self.step.done

    def action_digit(self, number: int) -> None:
        if self._playing():
            self._reply(self.model.digit(self.step.view, number))

    def action_draw(self) -> None:
        if self._playing():
            self._reply(self.model.choose_pile(self.step.view, 0))

    def action_discard(self) -> None:
        if self._playing():
            self._reply(self.model.discard(self.step.view))

    def action_cancel(self) -> None:
        self.skip_asked = False
        self.model.reset(self.step.view)
        self.message = None
        self.show()

    def action_scroll_lesson(self, lines: int) -> None:
        """↑/↓ read a lesson longer than its column."""
        self.query_one("#learn-scroll", VerticalScroll).scroll_relative(y=lines, animate=False)

    def action_restart(self) -> None:
        self.skip_asked = False
        self.number = 0
        self.model.reset(self.step.view)
        self.message = None
        self.progress.steps[self.edition] = 0
        self.keep()
        self.show()

    def action_skip(self) -> None:
        """Leave the guided game for good, so it is no longer offered: the first s asks, the
        second skips."""
        if not self.skip_asked:
            self.skip_asked = True
            self.message = Text(
                _(
                    "s again skips the guided game for good (it is no longer offered); "
                    "q leaves and keeps the place, Esc goes on."
                ),
                style="bold red",
            )
            self.show()
            return
        self.progress.skipped = True
        if not self.keep():
            self.skip_asked = False
            self.show()  # the player reads why the skip is not kept, and leaves with q
            return
        self.on_leave()

    def action_leave(self) -> None:
        """Leave; the place reached is kept for next time."""
        self.on_leave()

    def action_leave_at_end(self) -> None:
        if self.step.done:
            self.on_leave()


class LearnApp(SpeakingApp):
    """``tendays learn``: the guided game on its own, in ``language``; the place reached is kept in
    ``progress``."""

    TITLE = "tendays learn"

    def __init__(self, tutor: Tutor, progress: Progress, language: str | None = None) -> None:
        super().__init__(language)
        self.tutor = tutor
        self.progress = progress

    def on_mount(self) -> None:
        self.push_screen(LearnScreen(self.tutor, self.progress, self.exit))
