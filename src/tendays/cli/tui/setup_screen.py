"""The setup screen: the edition, the seats, the days, who begins and the variant, before the first
game.

Its choices come from the registries (the editions on disk, the bot levels) and the engine's limits;
whether they make a game is the engine's to say, and its refusal is shown in its own words.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.content import Content
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Footer, Input, Select, Static

from tendays.bots import BOTS, LEVELS
from tendays.engine import (
    MAX_DAYS,
    MAX_PLAYERS,
    MIN_DAYS,
    available_editions,
    load_edition,
    parse_seed,
)
from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import gettext as translated
from tendays.engine.i18n import ngettext

from .learn_screen import learn_offer, open_lesson
from .screens import FittedScreen
from .seats import PERSON_PREFIX
from .table import PlayConfig
from .widgets import Unfocused

__all__ = ["RANDOM_SEAT", "SetupScreen"]

RANDOM_SEAT = "random"  # the first-seat choice that leaves it to chance


def _rated(rating: float | None) -> str:
    return "" if rating is None else "; " + _("rated {rating}").format(rating=f"{rating:.1f}")


def _bot_names() -> str:
    """Every bot's name, the expert's variants after it (``expert (+model, +rivals)``), so the help
    keeps its few lines at 80x24 as bots are added."""
    plain = [name for name in BOTS if not name.startswith("expert+")]
    variants = [name.removeprefix("expert") for name in BOTS if name.startswith("expert+")]
    if "expert" in plain and variants:
        plain[plain.index("expert")] = "expert (" + ", ".join(variants) + ")"
    return ", ".join(plain)


def players_help() -> str:
    # The levels' descriptions are marked for the catalogues where the registry defines them.
    levels = ", ".join(
        f"{level.name} ({translated(level.description)}{_rated(level.rating)})"
        for level in LEVELS.values()
    )
    return _(
        "Players in turn order: me or a name for each person (several people share the keyboard; "
        "{prefix}NAME for a name that looks like a bot's); for a bot, a level: {levels}; or a bot "
        "by name: {bots}"
    ).format(prefix=PERSON_PREFIX, levels=levels, bots=_bot_names())


class TickBox(Checkbox):
    """A checkbox that shows ✓ when on and an empty box when off, so the
    two differ in more than colour."""

    @property
    def _button(self) -> Content:
        self.BUTTON_INNER = "✓" if self.value else " "
        return super()._button

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        # a label too long for the line (German, at 80 columns) wraps, see tendays.tcss: every row
        return Widget.get_content_height(self, container, viewport, width)  # not ToggleButton's 1


class SetupScreen(FittedScreen[None]):
    """Choose the options of a game; ``start`` deals it, or gives the reason the options make no
    game.

    The players' field has the focus first: typing goes straight into it, Tab moves on.
    """

    BINDINGS = [Binding("escape", "app.quit", "Quit")]

    def __init__(self, config: PlayConfig, start: Callable[[PlayConfig], str | None]) -> None:
        super().__init__()
        self.config = config
        self.start_game = start

    def compose(self) -> ComposeResult:
        config = self.config
        first = RANDOM_SEAT if config.first_seat is None else str(config.first_seat + 1)
        with Unfocused(id="setup"):
            yield Static(_("New game"), id="setup-title")
            yield Static(_("Edition"))
            yield Select(
                [(load_edition(e).name, e) for e in available_editions()],
                value=config.edition,
                allow_blank=False,
                id="setup-edition",
                compact=True,
            )
            yield Static(players_help())
            # Compact fields (one line each), so the whole form, the seed included, fits 80x24.
            yield Input(config.players, id="setup-players", compact=True)
            yield Static(_("Days"))
            yield Select(
                [
                    (ngettext("{count} day", "{count} days", days).format(count=days), days)
                    for days in range(MIN_DAYS, MAX_DAYS + 1)
                ],
                value=config.days,
                allow_blank=False,
                id="setup-days",
                compact=True,
            )
            yield Static(_("Who begins after the draft"))
            yield Select(
                [
                    (_("chosen by chance"), RANDOM_SEAT),
                    *(
                        (_("seat {seat} in the players' list").format(seat=seat), str(seat))
                        for seat in range(1, MAX_PLAYERS + 1)
                    ),
                ],
                value=first,
                allow_blank=False,
                id="setup-first-seat",
                compact=True,
            )
            yield TickBox(
                _("Swap variant: a turn may swap two days instead of drawing"),
                config.swap,
                id="setup-swap",
                compact=True,
            )
            yield Static(_("Seed (empty: a new shuffle every game)"))
            yield Input(
                "" if config.seed is None else str(config.seed), id="setup-seed", compact=True
            )
        with Horizontal(id="setup-bar"):
            yield Button(_("Start"), id="setup-start", variant="primary", compact=True)
            yield from learn_offer()
        # a full-width row of its own: a long refusal is wrapped, never cut
        yield Static(id="setup-error")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#setup-players", Input).focus()

    @on(Button.Pressed, "#setup-start")
    @on(Input.Submitted)
    def start(self) -> None:
        edition = self.query_one("#setup-edition", Select).value
        days = self.query_one("#setup-days", Select).value
        first = str(self.query_one("#setup-first-seat", Select).value)
        players = self.query_one("#setup-players", Input).value
        seed_text = self.query_one("#setup-seed", Input).value.strip()
        try:
            seed = parse_seed(seed_text) if seed_text else None
        except ValueError as error:
            self.refuse(str(error))
            return
        config = replace(
            self.config,
            edition=str(edition),
            days=int(str(days)),
            players=players,
            swap=self.query_one("#setup-swap", Checkbox).value,
            first_seat=None if first == RANDOM_SEAT else int(first) - 1,
            seed=seed,
        )
        problem = self.start_game(config)
        if problem:
            self.refuse(problem)

    @on(Button.Pressed, "#setup-learn")
    def learn(self) -> None:
        open_lesson(self.app, str(self.query_one("#setup-edition", Select).value))

    @on(Input.Changed)
    @on(Select.Changed)
    @on(Checkbox.Changed)
    def forget_refusal(self) -> None:
        """A changed field may mend what was refused: the old refusal goes
        until Start is pressed again."""
        self.query_one("#setup-error", Static).update("")

    def refuse(self, problem: str) -> None:
        self.query_one("#setup-error", Static).update(Text(f"✗ {problem}", style="bold red"))
