"""Helpers for driving the terminal apps headlessly with Textual's pilot."""

from __future__ import annotations

import random
from pathlib import Path

from rich.console import Console
from rich.text import Text
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Static

from tendays.bots import GreedyBot
from tendays.cli.tui.game_screen import GameScreen
from tendays.cli.tui.play_app import PlayApp
from tendays.cli.tui.seats import parse_seats
from tendays.cli.tui.table import PlayConfig, Table
from tendays.engine import Move, MoveKind, Options, Phase


def screen_text(app: App[None]) -> str:
    """Every Static on the active screen, as plain text."""
    console = Console(width=200, color_system=None)
    parts = []
    for widget in app.screen.query(Static):
        content = widget.content
        if isinstance(content, Text):
            parts.append(content.plain)
        elif isinstance(content, str):
            parts.append(content)
        else:  # a Rich renderable such as a table
            with console.capture() as capture:
                console.print(content)
            parts.append(capture.get())
    return "\n".join(parts)


def screen_lines(app: App[None]) -> list[str]:
    """The terminal as a person sees it: one string per row, exactly what was
    drawn (nothing clipped is in it)."""
    import io

    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        color_system=None,
        record=True,
        legacy_windows=False,
        safe_box=False,
    )
    console.print(
        app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    )
    return [line.rstrip() for line in console.export_text(styles=False).splitlines()][:height]


def shown(app: App[None]) -> str:
    """The rows on screen joined with spaces: a sentence wrapped over several rows reads as one."""
    return " ".join(" ".join(line.split()) for line in screen_lines(app))


def shown_in(app: App[None], selector: str) -> str:
    """What one widget shows on screen (its rows, cut to its own
    columns), joined as in :func:`shown`."""
    region = app.screen.query_one(selector).scrollable_content_region
    rows = screen_lines(app)[region.y : region.y + region.height]
    return " ".join(
        " ".join(row[region.x : region.x + region.width].split()) for row in rows
    ).strip()


def day_key(day: int) -> str:
    return "0" if day == 10 else str(day)


def keys_for(move: Move) -> list[str]:
    """The keys a person presses to make ``move``."""
    kind = move.kind
    if kind is MoveKind.DRAFT:
        return [day_key(move.a)]
    if kind is MoveKind.DRAW:
        return ["d"]
    if kind is MoveKind.TAKE:
        return [str(move.a)]
    if kind is MoveKind.REPLACE:
        return [day_key(move.a), str(move.b)]
    if kind is MoveKind.DISCARD:
        return ["x", str(move.a)]
    return ["w", day_key(move.a), day_key(move.b)]


async def settle(pilot: Pilot[None], limit: int = 5000) -> GameScreen:
    """Let the bots play until a person must act (their turn, a privacy screen) or the game ends."""
    app = pilot.app
    assert isinstance(app, PlayApp)
    for _ in range(limit):
        await pilot.pause()
        try:
            screen = app.game_screen
        except LookupError:  # the game screen is still being pushed
            continue
        if screen.waiting_for_human:
            return screen
    raise AssertionError("the bots never handed over")


def make_app(
    players: str,
    seed: int,
    edition: str = "usa",
    days: int = 10,
    swap: bool = False,
    turn_limit: int | None = None,
    save_path: Path = Path("tendays-save.json"),
    skip_to_first_turn: bool = False,
    language: str | None = None,
) -> PlayApp:
    """A game with no bot delay, dealt from ``seed``.

    With ``skip_to_first_turn`` the draft and any bot turns before seat 0's first turn are played
    outside the app (each seat choosing from its own view, by the engine's turn loop), so a test
    starts where it matters.
    """
    config = PlayConfig(
        edition=edition,
        players=players,
        days=days,
        swap=swap,
        seed=seed,
        bot_delay=0,
        save_path=save_path,
    )
    seats = parse_seats(players)
    options = Options(players=len(seats), days=days, swap=swap, turn_limit=turn_limit)
    table = Table(edition, options, seed, seats)
    if skip_to_first_turn:
        chooser = GreedyBot()
        while table.view_for(0).phase is Phase.DRAFT or table.current != 0:
            decision = table.next_decision()
            assert decision is not None
            table.play(chooser.choose(decision.view, decision.rng), decision.seat)
    return PlayApp(config, table=table, language=language)


class Person:
    """Plays a human seat by pressing keys, choosing moves like the
    greedy bot from that seat's view."""

    def __init__(self, seed: int) -> None:
        self.bot = GreedyBot()
        self.rng = random.Random(seed)

    def choose(self, screen: GameScreen) -> Move:
        pv = screen.my_turn_view()
        assert pv is not None, "it is not a person's turn"
        return self.bot.choose(pv, self.rng)
