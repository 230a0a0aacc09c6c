"""Every key the docs and the help offer, pressed on the game screen; a whole
game with the arrow keys alone."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from arrows import next_arrow_keys
from textual.pilot import Pilot
from tui_driver import Person, keys_for, make_app, screen_lines, settle, shown, shown_in

from tendays.bots import LEVELS, GreedyBot
from tendays.cli.tui.end_screen import EndScreen
from tendays.cli.tui.game_screen import GameScreen
from tendays.cli.tui.replay_app import ReplayApp, ReplayScreen
from tendays.cli.tui.rules import keys_help
from tendays.cli.tui.screens import HelpScreen, MoveInputScreen, PrivacyScreen, TextScreen
from tendays.cli.tui.widgets import GameLog
from tendays.engine import EventKind, Game, Move, Options, Phase, play_bots

DOCS = Path(__file__).parents[2] / "docs" / "terminal.md"
KEY_NAMES = {
    "↑": "up",
    "↓": "down",
    "←": "left",
    "→": "right",
    "Enter": "enter",
    "Esc": "escape",
    ":": "colon",
    "?": "question_mark",
    "F1": "f1",
}


def documented_keys(table: str) -> set[str]:
    """The keys in the first column of a Markdown key table, as Textual names them."""
    keys: set[str] = set()
    for row in table.splitlines():
        if not row.startswith("| `"):
            continue
        first = row.split(" | ")[0]
        for key in re.findall(r"`([^`]+)`", first):
            keys.add(KEY_NAMES.get(key, key))
        if "`1`…`9`" in first:
            keys.update(str(n) for n in range(10))
    return keys


def bound_keys() -> set[str]:
    return {key for binding in GameScreen.BINDINGS for key in binding.key.split(",")}  # type: ignore[union-attr]


def test_every_key_in_the_docs_and_the_help_is_bound() -> None:
    docs = DOCS.read_text()
    table = docs[docs.index("## Keys and mouse") : docs.index("**The arrow keys alone")]
    assert documented_keys(table) == documented_keys(keys_help())
    assert documented_keys(table) <= bound_keys()
    assert {
        "up",
        "down",
        "left",
        "right",
        "enter",
        "escape",
        "0",
        "9",
        "colon",
        "f1",
    } <= documented_keys(table)


def footer(app: object) -> str:
    return screen_lines(app)[-1]  # type: ignore[arg-type]


async def press(pilot: Pilot[None], *keys: str) -> None:
    await pilot.press(*keys)
    await pilot.pause()


async def played(pilot: Pilot[None], screen: GameScreen, *keys: str) -> tuple[Move, ...]:
    """Press ``keys`` on the person's turn; the moves they made (the bots' later moves left out)."""
    before = screen.table.move_count
    await press(pilot, *keys)
    moves = screen.table.record.moves[before:]
    await settle(pilot)
    return moves


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_every_day_key_drafts_onto_its_day_and_the_footer_offers_no_draw() -> None:
    app = make_app("me,random", seed=4)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settle(pilot)
        for key in "1234567890":
            assert "Draw" not in footer(app) and "Discard" not in footer(app)
            await pilot.press(key)
            screen = await settle(pilot)
        pv = screen.table.view_for(0)
        assert [e.day for e in pv.events if e.kind is EventKind.DRAFT and e.player == 0] == list(
            range(1, 11)
        )


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_every_key_of_the_game_screen(tmp_path: Path) -> None:
    app = make_app(
        "me,random", seed=9, swap=True, save_path=tmp_path / "s.json", skip_to_first_turn=True
    )
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settle(pilot)
        table, model = screen.table, screen.input
        assert app.focused is None  # nothing takes the keyboard: every key reaches the game screen
        assert "d Draw" in footer(app) and "w Swap" in footer(app) and "Discard" not in footer(app)
        # The turn starts with the cursor on the draw pile; ↓ ↑ move it over the piles.
        assert model.on_piles and model.pile_cursor == 0 and "▸ d draw pile" in shown(app)
        await press(pilot, "down")
        assert model.pile_cursor == 1 and "▸ 1 " in shown(app)
        await press(pilot, "up")
        # ← goes to the rack: ↓ moves the day cursor and the line under the rack explains that day.
        await press(pilot, "left", "down")
        assert not model.on_piles and model.cursor == 2
        assert "day 2" in screen.query_one("#day-detail").content.plain  # type: ignore[union-attr]
        # → the piles, Enter draws
        assert await played(pilot, screen, "up", "right", "enter") == (Move.draw(),)
        assert table.view_for(0).phase is Phase.PLACE
        assert "x Discard" in footer(app) and "Draw" not in footer(app)
        await press(pilot, "x")
        assert "onto a discard pile" in shown(app)
        await press(pilot, "escape")
        assert "Cancelled." in shown(app) and model.pending is None
        await press(pilot, "0")  # day 10
        assert model.pending is not None and model.pending.day == 10
        assert (await played(pilot, screen, "2"))[0] == Move.replace(10, 2)
        await press(pilot, "d", "colon")
        assert isinstance(app.screen, MoveInputScreen)
        assert (await played(pilot, screen, *"discard 3", "enter"))[0] == Move.discard(3)
        assert (await played(pilot, screen, "w", "3", "4"))[0] == Move.swap(3, 4)
        # a digit key is a day when a day comes next: here, swap days
        for key in ("5", "6", "7", "8", "9"):
            assert (await played(pilot, screen, "w", key, "1"))[0] == Move.swap(int(key), 1)
        # The discard goes where the cursor last stood: pile 3 (also the pile it must go to, if 3 is
        # emptied). take pile 3, day 1, Enter on the pile offered
        moves = await played(pilot, screen, "3", "1", "enter")
        assert moves[:2] == (Move.take(3), Move.replace(1, 3))
        # Information: the verdict (scrolled with the arrows, closed with Enter
        # or Esc), a hint, save, help.
        await press(pilot, "v")
        assert isinstance(app.screen, TextScreen)
        await press(pilot, "down", "pagedown", "up", "pageup", "enter")
        assert app.screen is screen
        await press(pilot, "v", "escape", "h")
        assert app.screen is screen and "Hint: " in shown(app)
        await press(pilot, "s")
        assert (
            "Saved to" in shown_in(app, "#prompt")
            and str(tmp_path / "s.json") in screen.message.plain
        )
        for key in ("question_mark", "f1"):
            await press(pilot, key)
            assert isinstance(app.screen, HelpScreen)
            await press(pilot, key)
            assert app.screen is screen
        await press(pilot, "e")
        assert "The game is not over yet." in shown(app)
        await press(pilot, "q")  # saved, so nothing is lost: q quits at once
        assert not app.is_running


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_the_log_never_takes_the_focus_so_the_arrows_stay_with_the_rack() -> None:
    app = make_app("me,random", seed=2, skip_to_first_turn=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settle(pilot)
        log = screen.query_one(GameLog)
        assert not log.can_focus and log.max_scroll_y > 0  # the log is full: it scrolls
        await press(pilot, "tab")
        assert app.focused is None
        await press(pilot, "left")
        for day in (2, 3, 4):
            await press(pilot, "down")
            assert screen.input.cursor == day
        await press(pilot, "up")
        assert screen.input.cursor == 3 and log.scroll_y == log.max_scroll_y


@pytest.mark.slow  # plays the terminal game's screens through whole games
@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
async def test_a_whole_game_with_the_arrow_keys_and_enter_alone(size: tuple[int, int]) -> None:
    app = make_app("me,random", seed=8)
    person = Person(3)
    async with app.run_test(size=size) as pilot:
        screen = await settle(pilot)
        while not screen.table.is_over:
            move = person.choose(screen)
            before = screen.table.move_count
            while screen.table.move_count == before:
                for key in next_arrow_keys(screen.input, move, screen.table.options.days):
                    assert key in ("up", "down", "left", "right", "enter")
                    await pilot.press(key)
                await pilot.pause()
                assert "✗" not in screen.message.plain, screen.message.plain
            screen = await settle(pilot)
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_every_key_of_the_replay() -> None:
    game = Game("usa", Options(players=2, days=5), 3, ("Ann", "Bob"))
    play_bots(game, [GreedyBot(), GreedyBot()])
    last = game.move_count
    app = ReplayApp(game.record, step_seconds=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        for keys, position in (
            (("right",), 1),
            (("l",), 2),
            (("n",), 3),
            (("left",), 2),
            (("h",), 1),
            (("p",), 0),
            (("pagedown",), 10),
            (("pageup",), 0),
            (("end",), last),
            (("home",), 0),
            (("G",), last),
            (("g",), 0),
        ):
            await press(pilot, *keys)
            assert screen.position == position, keys
        for key in ("question_mark", "f1"):
            await press(pilot, key)
            assert isinstance(app.screen, HelpScreen)
            await press(pilot, "escape")
            assert app.screen is screen
        await press(pilot, "space")
        assert screen.autoplay is not None
        await press(pilot, "space")
        assert screen.autoplay is None
        await press(pilot, "escape")
        assert not app.is_running
    app = ReplayApp(game.record)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "q")
        assert not app.is_running


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_every_key_of_the_end_screen_the_help_and_the_verdict(tmp_path: Path) -> None:
    app = make_app(
        "me,greedy",
        seed=11,
        days=5,
        turn_limit=2,
        save_path=tmp_path / "e.json",
        skip_to_first_turn=True,
    )
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settle(pilot)
        for key in ("v", "h", "q", "escape", "enter"):  # each closes the verdict
            await press(pilot, "v")
            assert isinstance(app.screen, TextScreen)
            await press(pilot, key)
            assert app.screen is screen, key
        for key in ("escape", "q", "question_mark", "f1"):  # each closes the help
            await press(pilot, "question_mark")
            await press(pilot, key)
            assert app.screen is screen, key
        person = Person(1)
        while not screen.table.is_over:
            for key in keys_for(person.choose(screen)):
                await pilot.press(key)
            screen = await settle(pilot)
        await pilot.pause()
        end = app.screen
        assert isinstance(end, EndScreen)
        await press(pilot, "down", "pagedown", "up")  # the end scrolls
        for key in ("escape", "b"):
            await press(pilot, key)
            assert app.screen is screen
            await press(pilot, "e")
            assert isinstance(app.screen, EndScreen)
        await press(pilot, "s")
        assert (tmp_path / "e.json").exists() and "Saved to" in shown(app)
        await press(pilot, "n")
        new_screen = await settle(pilot)
        assert new_screen is not screen and not new_screen.table.is_over


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_the_privacy_screen_asks_before_quitting_an_unsaved_game() -> None:
    app = make_app("Ann,Bob", seed=3, days=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, PrivacyScreen)
        await press(pilot, "enter", "1")  # Ann drafts: now the game has a move not saved
        await settle(pilot)
        assert isinstance(app.screen, PrivacyScreen)
        await press(pilot, "q")
        assert app.is_running and "q again quits without saving" in shown(app)
        await press(pilot, "q")
        assert not app.is_running


def test_the_docs_show_the_bots_ratings_of_today() -> None:
    docs = DOCS.read_text()
    for level in LEVELS.values():
        if level.rating is not None:
            assert f"rated {level.rating:.1f}" in " ".join(docs.split()), level.name


@pytest.mark.slow  # runs tendays play in subprocesses
def test_the_refusals_in_the_docs_are_what_the_command_says(tmp_path: Path) -> None:
    docs = DOCS.read_text()
    block = docs[docs.index('```console\n$ tendays play --players "me,hrad"') :]
    block = block[len("```console\n") : block.index("\n```", 10)]
    lines = block.splitlines()
    locale = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
    english = {key: value for key, value in os.environ.items() if key not in locale}
    for command, answer in zip(lines[::2], lines[1::2], strict=True):
        said = subprocess.run(
            [sys.executable, "-m", "tendays", *shlex.split(command.removeprefix("$ tendays "))],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=120,
            env=english,
        )
        assert said.returncode == 2 and said.stderr.strip() == answer, command
