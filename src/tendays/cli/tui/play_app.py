"""``tendays play`` as a Textual app: the setup screen, then a game screen per game, then the end
screen.

The rooms of the terminal game: ``seats`` (who sits where, from ``--players`` or a save),
``table`` (the game with its seats), ``save_file`` (reading saves), ``input_model`` (keys and clicks
to moves), ``captions`` (the words of the game screen), ``bot_turn`` (a bot's move at its pace),
``widgets`` (a view drawn on screen), ``game_screen``, ``setup_screen`` and ``end_screen``; the
start-up shared with replay and learn is ``speaking_app``. This module only moves between them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from textual.app import SystemCommand
from textual.screen import Screen

from tendays.engine import RULES_VERSION, Options, current_language, use_language
from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import set_language

from .end_screen import EndScreen
from .game_screen import GameScreen
from .screens import PrivacyScreen, translate_bindings
from .setup_screen import SetupScreen
from .speaking_app import SpeakingApp
from .table import PlayConfig, Table

__all__ = ["PlayApp", "fresh_seed"]

CSS_PATH = Path(__file__).with_name("tendays.tcss")


def fresh_seed() -> int:
    """A new shuffle for a game dealt without a seed."""
    return random.SystemRandom().randrange(2**31)


class PlayApp(SpeakingApp):
    """``tendays play``: a game against bots or friends at one keyboard."""

    CSS_PATH = CSS_PATH
    TITLE = "tendays"

    def __init__(
        self,
        config: PlayConfig,
        *,
        table: Table | None = None,
        setup: bool = False,
        language: str | None = None,
        language_of: Callable[[str], str] | None = None,
    ) -> None:
        """``language_of`` gives the language a game of an edition is played in (as ``tendays
        play --edition`` would choose it); None: every game in ``language``."""
        super().__init__(language, config.palette)
        self.language_of = language_of
        self.config = config
        self.first_table = table
        self.setup = setup
        self.seed_used: int | None = config.seed

    def on_mount(self) -> None:
        if self.first_table is not None:
            self.show_table(self.first_table)
        elif self.setup:
            self.push_screen(SetupScreen(self.config, self.start_game))
        else:
            problem = self.start_game(self.config)
            if problem:
                self.exit(return_code=2, message=problem)

    @property
    def game_screen(self) -> GameScreen:
        for screen in reversed(self.screen_stack):
            if isinstance(screen, GameScreen):
                return screen
        raise LookupError(_("no game is on screen"))

    def start_game(self, config: PlayConfig, options: Options | None = None) -> str | None:
        """Deal a new game with ``config`` (and ``options``, if given, instead of the config's);
        the reason in words if they do not make a game."""
        seed = config.seed if config.seed is not None else fresh_seed()
        language = (
            current_language() if self.language_of is None else (self.language_of(config.edition))
        )
        with use_language(language):  # the seats are named in the game's language
            try:
                table = Table(config.edition, options or config.options(), seed, config.seat_list())
            except ValueError as error:  # SeatError, or options the engine refuses
                return str(error)
        self.config = config
        self.seed_used = seed
        if language == current_language():
            self.show_table(table)
        else:
            # The edition chosen on the setup screen speaks another language. Every screen,
            # widget and worker copies the language of the task that starts it, and keys are
            # handled in the app's own task: switched there, before the game screen starts.
            self.call_next(self.show_table_in, language, table)
        return None

    def show_table_in(self, language: str, table: Table) -> None:
        set_language(language)
        translate_bindings(self)
        self.show_table(table)

    def show_table(self, table: Table) -> None:
        screen = GameScreen(table, self.config, self.play_again)
        if len(self.screen_stack) > 1:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The command palette's commands (Ctrl+P), its Quit in the player's
        language and asking as q does."""
        for command in super().get_system_commands(screen):
            if command.callback == self.action_quit:
                yield SystemCommand(
                    _("Quit"),
                    _("Quit the game; with moves not saved, it asks first"),
                    self.action_quit,
                )
            else:
                yield command

    async def action_quit(self) -> None:
        """Ctrl+Q and the command palette's Quit: as q on the board, they ask
        first when moves would be lost."""
        if isinstance(self.screen, (GameScreen, EndScreen, PrivacyScreen)):
            self.screen.action_quit()
            return
        try:
            game = self.game_screen
        except LookupError:  # the setup screen: no game to lose
            self.exit()
            return
        while self.screen is not game and len(self.screen_stack) > 1:
            self.pop_screen()  # a pop-up or the rules: back to the board, where the warning shows
        game.action_quit()

    def play_again(self) -> None:
        """A new game with the same options and seats: the next seed when one
        was given, else a fresh one."""
        seed = None if self.config.seed is None or self.seed_used is None else self.seed_used + 1
        # A new game is played under today's rules, even after a game resumed from an old save.
        options = replace(self.game_screen.table.options, rules=RULES_VERSION)
        self.pop_screen()  # the end screen
        self.start_game(replace(self.config, seed=seed), options)
