"""What is on screen at 80x24 and at wide sizes: nothing a player needs is
cut, and resizing keeps it so."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from textual.pilot import Pilot
from tui_driver import (
    Person,
    keys_for,
    make_app,
    screen_lines,
    screen_text,
    settle,
    shown,
    shown_in,
)

from tendays.bots import LEVELS
from tendays.cli.tui.end_screen import EndScreen, end_text
from tendays.cli.tui.game_screen import GameScreen
from tendays.cli.tui.play_app import PlayApp
from tendays.cli.tui.render import day_marks
from tendays.cli.tui.screens import TextScreen
from tendays.cli.tui.setup_screen import SetupScreen
from tendays.cli.tui.table import PlayConfig
from tendays.cli.tui.widgets import GameLog, LinksPane
from tendays.engine import checker_for


async def press(pilot: Pilot[None], *keys: str) -> None:
    await pilot.press(*keys)
    await pilot.pause()


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_every_days_link_is_explained_in_full_under_the_rack_at_80x24() -> None:
    app = make_app("me,greedy,random,normal", seed=7, edition="germany", skip_to_first_turn=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settle(pilot)
        rack = screen.table.view_for(0).rack
        assert rack is not None
        marks = day_marks(screen.edition, rack)
        await press(pilot, "left")
        for day in range(1, 11):
            assert screen.input.cursor == day
            # wrapped, never cut
            assert " ".join(marks[day].message.split()) in shown_in(app, "#day-detail")
            await press(pilot, "down")


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_the_verdict_scrolls_and_always_shows_how_to_close_it() -> None:
    app = make_app("me,greedy,random,normal", seed=7, edition="germany", skip_to_first_turn=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settle(pilot)
        await press(pilot, "v")
        assert isinstance(app.screen, TextScreen)
        verdict = checker_for(screen.edition).check(screen.table.view_for(0).rack)  # type: ignore[arg-type]
        assert len(verdict.problems) >= 3
        assert "Esc or Enter to close" in shown(app)
        seen = shown_in(app, "#popup-scroll")
        for _ in range(6):
            await press(pilot, "pagedown")
            assert "Esc or Enter to close" in shown(app)
            seen += shown_in(app, "#popup-scroll")
        # every problem was on screen, in full, at some scroll position
        for problem in verdict.problems:
            assert " ".join(str(problem).split()) in seen


def test_wrapped_explanations_keep_their_indent() -> None:
    app = make_app("me,greedy", seed=11, days=5)
    table = app.first_table
    assert table is not None
    person = Person(1)
    while not table.is_over:
        decision = table.next_decision()
        assert decision is not None
        table.play(person.bot.choose(decision.view, decision.rng), decision.seat)
    _, body = end_text(table)
    console = Console(width=50, file=io.StringIO(), color_system=None, record=True)
    console.print(body)
    lines = console.export_text().splitlines()
    bullets = [i for i, line in enumerate(lines) if line.startswith(("  ✓ ", "  ✗ "))]
    assert bullets
    for i in bullets:
        following = lines[i + 1] if i + 1 < len(lines) else ""
        if following and not following.startswith(("  ✓", "  ✗")) and following.strip():
            # a continuation line stays under its text
            assert following.startswith("    "), following


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_resizing_rewraps_the_log_without_a_sideways_scrollbar_and_keeps_its_end() -> None:
    app = make_app("me,greedy,random,normal", seed=3, skip_to_first_turn=True)
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await settle(pilot)
        log = screen.query_one(GameLog)
        for width, height in ((80, 24), (160, 50), (80, 24)):
            await pilot.resize_terminal(width, height)
            await pilot.pause()
            await pilot.pause()
            assert log.max_scroll_x == 0 and not log.show_horizontal_scrollbar
            assert log.scroll_y == log.max_scroll_y  # still at the latest line
            # the latest line, rewrapped
            assert " ".join(log.lines[-1].split()) in shown_in(app, "#log")


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_a_terminal_too_small_says_so_and_the_game_comes_back() -> None:
    app = make_app("me,greedy", seed=12)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.resize_terminal(50, 15)
        await pilot.pause()
        text = shown(app)
        assert "The terminal is too small: 50×15" in text and "needs at least 72×20" in text
        assert "Your journey" not in text
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert "too small" not in shown(app) and "Your journey" in shown(app)
        await pilot.resize_terminal(40, 12)
        await pilot.pause()
        await press(pilot, "q")  # the keys still work behind the notice
        assert not app.is_running


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_a_wide_terminal_shows_every_link_in_words_beside_the_rack() -> None:
    app = make_app("me,greedy", seed=12, skip_to_first_turn=True)
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await settle(pilot)
        links = screen.query_one(LinksPane)
        assert links.display and links.size.width > 30
        verdict = checker_for(screen.edition).check(screen.table.view_for(0).rack)  # type: ignore[arg-type]
        text = shown_in(app, "#links")
        for problem in verdict.problems:
            assert " ".join(str(problem).split()) in text
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not links.display


async def test_the_prompt_names_the_day_keys_plainly() -> None:
    app = make_app("me,greedy", seed=12)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "(1-9, 0 = day 10; ↑↓ Enter; or click a day)" in shown(app)
        assert "1-0" not in shown(app)


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_the_setup_screen_takes_typing_at_once_and_refuses_a_misspelt_level() -> None:
    app = PlayApp(PlayConfig(bot_delay=0, players=""), setup=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        players = app.screen.query_one("#setup-players")
        assert app.focused is players
        await press(pilot, *"me,hrad", "enter")
        text = screen_text(app)
        assert f"'hrad' is not a bot: did you mean 'hard'? Bot levels: {', '.join(LEVELS)}" in text
        assert "For a person called hrad, write human:hrad" in text
        players.value = "me,human:Hrad"  # type: ignore[attr-defined]
        await press(pilot, "enter")
        screen = await settle(pilot)
        assert isinstance(screen, GameScreen) and screen.table.names == ("Player 1", "Hrad")


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_a_finished_game_not_saved_asks_before_quitting(tmp_path: Path) -> None:
    save = tmp_path / "end.json"
    app = make_app(
        "me,greedy", seed=11, days=5, turn_limit=2, save_path=save, skip_to_first_turn=True
    )
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settle(pilot)
        person = Person(1)
        while not screen.table.is_over:
            for key in keys_for(person.choose(screen)):
                await pilot.press(key)
            screen = await settle(pilot)
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        await press(pilot, "q")
        assert app.is_running and "The finished game is not saved: s saves it" in shown(app)
        await press(pilot, "escape", "q")  # the board asks too
        assert app.is_running and "The finished game is not saved" in shown(app)
        await press(pilot, "e", "s", "q")
        assert save.exists() and not app.is_running


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_every_screen_fits_80x24_without_cutting_the_footer() -> None:
    app = make_app("me,greedy,random,normal", seed=7, edition="germany", skip_to_first_turn=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for keys in ((), ("v",), ("escape", "question_mark"), ("escape", "colon")):
            await press(pilot, *keys)
            lines = screen_lines(app)
            assert len(lines) == 24 and all(len(line) <= 80 for line in lines)


def test_the_screens_in_the_docs_are_80x24_captures() -> None:
    docs = (Path(__file__).parents[2] / "docs" / "terminal.md").read_text()
    # commands name a language
    screens = [block for block in docs.split("```")[1::2] if block.startswith("\n")]
    assert len(screens) >= 7
    for block in screens:
        lines = block.strip("\n").split("\n")
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines), lines[0]


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_a_pop_up_in_a_terminal_too_small_says_so_too() -> None:
    app = make_app("me,greedy", seed=12)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("v")  # the verdict pop-up
        await pilot.pause()
        assert isinstance(app.screen, TextScreen)
        await pilot.resize_terminal(50, 15)
        await pilot.pause()
        assert "The terminal is too small: 50×15" in shown(app)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert "too small" not in shown(app)


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_the_setup_screen_at_80x24_shows_every_field_and_mends_its_refusals() -> None:
    app = PlayApp(PlayConfig(bot_delay=0), setup=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lines = screen_lines(app)
        assert any("Seed (empty: a new shuffle every game)" in line for line in lines)
        seed = app.screen.query_one("#setup-seed")
        # the whole field, not cut
        assert app.screen.query_one("#setup").region.contains_region(seed.region)
        swap = next(line for line in lines if "Swap variant" in line)
        assert "✓" not in swap
        app.screen.query_one("#setup-swap").value = True  # type: ignore[attr-defined]
        await pilot.pause()
        # on and off look different
        assert "✓" in next(line for line in screen_lines(app) if "Swap variant" in line)
        app.screen.query_one("#setup-players").value = "me,hrad,nromal,hadr"  # type: ignore[attr-defined]
        await press(pilot, "enter")
        refusal = next(line for line in screen_text(app).splitlines() if "is not a bot" in line)
        assert " ".join(refusal.split()) in shown(app)  # the whole refusal, wrapped, never cut
        app.screen.query_one("#setup-players").value = "me,hard"  # type: ignore[attr-defined]
        await pilot.pause()
        assert "is not a bot" not in shown(app)  # the field is mended: the old refusal is gone


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_a_long_paste_in_the_move_box_is_refused_without_covering_the_board() -> None:
    app = make_app("me,greedy", seed=7, skip_to_first_turn=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settle(pilot)
        moves = screen.table.move_count
        await press(pilot, "colon")
        app.screen.query_one("#move-input").value = "draw " * 20_000  # type: ignore[attr-defined]
        await press(pilot, "enter")
        assert app.screen is screen and screen.table.move_count == moves  # nothing was played
        assert "is not a move" in shown(app)
        assert "Your journey" in shown(app) and app.screen.query_one("#prompt").region.height <= 5


async def test_a_setup_label_too_long_for_its_line_wraps_instead_of_being_cut() -> None:
    from textual.app import App, ComposeResult

    from tendays.cli.tui.setup_screen import TickBox

    label = " ".join(f"word{n}" for n in range(25))  # about 170 columns

    class Box(App[None]):
        CSS_PATH = PlayApp.CSS_PATH

        def compose(self) -> ComposeResult:
            yield TickBox(label, False, id="setup-swap", compact=True)

    app = Box()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert label in shown(app), screen_lines(app)
