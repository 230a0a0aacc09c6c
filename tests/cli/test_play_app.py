"""The terminal game driven headlessly: whole games, hot-seat privacy,
save and resume, bad input."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Markdown
from tui_driver import Person, keys_for, make_app, screen_text, settle

from tendays.cli.tui.end_screen import EndScreen
from tendays.cli.tui.game_screen import GameScreen
from tendays.cli.tui.play_app import PlayApp
from tendays.cli.tui.render import name_width, rack_line
from tendays.cli.tui.rules import rules_markdown
from tendays.cli.tui.save_file import load_save
from tendays.cli.tui.screens import HelpScreen, PrivacyScreen, TextScreen
from tendays.cli.tui.seats import parse_seats
from tendays.cli.tui.setup_screen import SetupScreen
from tendays.cli.tui.table import PlayConfig, Table
from tendays.cli.tui.widgets import DayRow
from tendays.engine import GameRecord, Move, Options, Phase, PlayerView, checker_for, load_edition


def shown_rack_lines(screen: GameScreen) -> list[str]:
    """The day rows on screen, without the cursor column."""
    return [row.content.plain[1:] for row in screen.query(DayRow)]  # type: ignore[union-attr]


def own_rack_lines(screen: GameScreen, seat: int) -> list[str]:
    """What the day rows must show for ``seat``: its own view's rack, nothing else."""
    from tendays.cli.tui.render import day_marks

    pv = screen.table.view_for(seat)
    assert pv.rack is not None
    marks = day_marks(screen.edition, pv.rack)
    return [
        rack_line(screen.edition, day, tile, marks.get(day), name_width(screen.edition)).plain
        for day, tile in enumerate(pv.rack, 1)
    ]


async def play_person_turns(
    pilot: Pilot[None], screen: GameScreen, person: Person, seat: int, use_mouse: bool = False
) -> int:
    """Play the person's moves until the game ends; returns how many moves the person made."""
    made = 0
    while not screen.table.is_over:
        screen = await settle(pilot)
        if screen.table.is_over:
            break
        assert screen.table.current == seat
        assert screen.viewer == seat
        # Only the person's own rack is ever on screen.
        assert shown_rack_lines(screen) == own_rack_lines(screen, seat)
        move = person.choose(screen)
        if use_mouse and made % 2:
            await click_move(pilot, move)
        else:
            for key in keys_for(move):
                await pilot.press(key)
        made += 1
    return made


async def click_move(pilot: Pilot[None], move: Move) -> None:
    """Make ``move`` with the mouse: click days and piles."""
    kind = move.kind.value
    if kind == "draft":
        await pilot.click(f"#day-{move.a}")
    elif kind == "draw":
        await pilot.click("#drawpile")
    elif kind == "take":
        await pilot.click(f"#pile-{move.a}")
    elif kind == "replace":
        await pilot.click(f"#day-{move.a}")
        await pilot.click(f"#pile-{move.b}")
    elif kind == "discard":
        await pilot.click(f"#pile-{move.a}")
    else:
        raise AssertionError(f"no clicks for {move}")


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_a_person_plays_a_whole_game_against_a_bot_with_keys_and_mouse() -> None:
    app = make_app("me,greedy", seed=11)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settle(pilot)
        made = await play_person_turns(pilot, screen, Person(1), seat=0, use_mouse=True)
        await pilot.pause()
        table = screen.table
        assert table.is_over and made >= 10  # the whole draft and at least some turns
        assert isinstance(app.screen, EndScreen)
        text = screen_text(app)
        winner = table.names[table.view_for(None).winner]  # type: ignore[index]
        if winner == "You":
            assert "You win after" in text and "Your journey, day by day" in text
        else:
            assert f"{winner} wins after" in text and f"{winner}'s journey, day by day" in text
        # Every rack is revealed at the end, each with its verdict.
        final = table.view_for(None)
        assert final.racks is not None
        for rack in final.racks:
            for tile in rack:
                assert final.edition.tiles[tile].name in text  # type: ignore[index]
        assert checker_for(final.edition).is_complete(final.racks[final.winner])  # type: ignore[index]
        # The game is reproducible from its record.
        assert table.record.replay().racks == final.racks


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_germany_five_days_to_the_end_at_a_large_size() -> None:
    app = make_app("me,greedy", seed=5, edition="germany", days=5)
    async with app.run_test(size=(160, 50)) as pilot:
        screen = await settle(pilot)
        await play_person_turns(pilot, screen, Person(2), seat=0)
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        assert "10 Tage durch Deutschland, 5 days" in screen_text(app)


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_hot_seat_shows_a_privacy_screen_and_never_another_rack() -> None:
    app = make_app("Ann,Bob,random", seed=3, days=3)
    people = {0: Person(1), 1: Person(2)}
    async with app.run_test(size=(80, 24)) as pilot:
        privacy_screens = 0
        for _ in range(8):  # the draft (3 days each) and a turn each
            screen = await settle(pilot)
            table = screen.table
            if table.is_over:
                break
            seat = table.current
            assert isinstance(app.screen, PrivacyScreen), (
                "every human turn after another seat's starts private"
            )
            assert f"Pass the keyboard to {table.names[seat]}" in screen_text(app)
            # Behind the privacy screen nobody's tiles are drawn.
            assert screen.viewer is None
            assert all("········" in line for line in shown_rack_lines(screen))
            privacy_screens += 1
            await pilot.press("enter")
            await pilot.pause()
            on_top: object = app.screen
            assert on_top is screen and screen.viewer == seat
            assert shown_rack_lines(screen) == own_rack_lines(screen, seat)
            while not table.is_over and table.current == seat:
                for key in keys_for(people[seat].choose(screen)):
                    await pilot.press(key)
                await pilot.pause()
        assert privacy_screens >= 6  # at least the whole draft


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_save_and_resume_continue_the_same_game(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    app = make_app("me,greedy,random", seed=21, days=5, save_path=save)
    person = Person(4)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settle(pilot)
        for _ in range(4):  # part of the draft
            for key in keys_for(person.choose(screen)):
                await pilot.press(key)
            screen = await settle(pilot)
        await pilot.press("s")
        await pilot.pause()
        assert f"Saved to {save}" in screen_text(app)
        before = screen.table.view_for(0)
        moves = screen.table.record.moves
    record, specs = load_save(save)
    assert specs == ["human", "greedy", "random"]
    assert record.moves == moves and record.names == ("You", "Bot 2", "Bot 3")
    # a plain game record for every other reader
    assert GameRecord.loads(save.read_text()).seed == 21
    resumed = Table.from_record(record, parse_seats(",".join(specs), record.names))
    app = PlayApp(PlayConfig(bot_delay=0, save_path=save), table=resumed)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settle(pilot)
        assert screen.table.view_for(0) == before
        await play_person_turns(pilot, screen, person, seat=0)
        assert screen.table.is_over


async def test_play_command_resumes_from_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tendays.cli import play_cmd
    from tendays.cli.main import build_parser

    save = tmp_path / "game.json"
    table = Table("usa", PlayConfig(players="me,random").options(), 4, parse_seats("me,random"))
    table.save(save)
    started: list[PlayApp] = []
    monkeypatch.setattr(PlayApp, "run", lambda self: started.append(self))
    args = build_parser().parse_args(["play", "--resume", str(save), "--delay", "0"])
    assert play_cmd.run(args) == 0
    app = started[0]
    assert app.first_table is not None and app.first_table.record == table.record
    assert app.config.save_path == save  # saving again goes back into the same file


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_bad_input_is_explained_never_ignored() -> None:
    app = make_app("me,random", seed=8, days=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("9")
        await pilot.pause()
        assert "there is no day 9; the rack has days 1-5" in screen_text(app)
    app = make_app("me,random", seed=8, days=5, skip_to_first_turn=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settle(pilot)
        # Drawing: nothing to discard yet, no pile 7, no swapping without the variant.
        await pilot.press("x")
        await pilot.pause()
        assert "There is nothing to discard" in screen_text(app)
        await pilot.press("7")
        await pilot.pause()
        assert "there is no discard pile 7; the piles are 1-3" in screen_text(app)
        await pilot.press("w")
        await pilot.pause()
        assert "swapping is only allowed with the swap variant" in screen_text(app)
        # A typed move that the rules do not allow now: the engine's reason is shown.
        await pilot.press("colon")
        await pilot.press(*"replace 2 1", "enter")
        await pilot.pause()
        assert "'replace 2 1' comes after drawing" in screen_text(app)
        await pilot.press("colon")
        await pilot.press(*"fly 3", "enter")
        await pilot.pause()
        assert "unknown move 'fly'" in screen_text(app)
        # The emptied-pile rule: pile 1 holds one tile; take it, then
        # the discard must go back there.
        pv = screen.table.view_for(0)
        assert len(pv.piles[0]) == 1
        await pilot.press("1")
        await pilot.pause()
        await pilot.press("3")
        await pilot.pause()
        assert "so it must go onto pile 1" in screen_text(app)
        await pilot.press("2")
        await pilot.pause()
        assert (
            "you took the last tile of discard pile 1, so your discard must go onto pile 1"
            in screen_text(app)
        )
        assert screen.table.view_for(0).phase is Phase.PLACE  # nothing was played
        moves_before = screen.table.move_count
        await pilot.press("enter")
        await pilot.pause()
        assert screen.table.record.moves[moves_before] == Move.replace(3, 1)
        # Quitting an unsaved game asks first.
        await settle(pilot)
        await pilot.press("q")
        await pilot.pause()
        assert "q again quits without saving" in screen_text(app)
        assert app.is_running
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_keys_during_a_bots_turn_say_to_wait() -> None:
    # the bot waits, so its turn lasts
    config = PlayConfig(players="me,random", seed=2, bot_delay=30)
    app = PlayApp(config, table=Table("usa", config.options(), 2, parse_seats(config.players)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.game_screen
        if screen.table.current == 0:
            await pilot.press("1")  # draft a tile: now the bot drafts, slowly
            await pilot.pause()
        assert screen.table.current == 1 and screen.bot_busy
        await pilot.press("2")
        await pilot.pause()
        assert "It is Bot 2's turn (random bot); wait for your turn." in screen_text(app)
        await pilot.press("q")


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_swap_variant_by_keys() -> None:
    app = make_app("me,random", seed=6, days=5, swap=True, skip_to_first_turn=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settle(pilot)
        rack = screen.table.view_for(0).rack
        assert rack is not None
        await pilot.press("w", "2")
        await pilot.pause()
        assert "Swap day 2 with which day?" in screen_text(app)
        await pilot.press("4")
        await settle(pilot)
        swapped = screen.table.view_for(0).rack
        assert swapped is not None and (swapped[1], swapped[3]) == (rack[3], rack[1])


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_help_verdict_and_hint() -> None:
    app = make_app("me,random", seed=9, edition="usa", skip_to_first_turn=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        rules = app.screen.query_one(Markdown).source
        assert "airplane" in rules and "Alaska and Hawaii are purple" in rules and "car" in rules
        await pilot.press("escape")
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, TextScreen)
        verdict = checker_for(screen.edition).check(screen.table.view_for(0).rack)  # type: ignore[arg-type]
        text = screen_text(app)
        for link in verdict.links:
            assert link.message in text
        await pilot.press("escape")
        await pilot.press("h")
        await pilot.pause()
        assert "Hint: " in screen_text(app)


def test_help_speaks_the_german_editions_words() -> None:
    rules = rules_markdown(load_edition("germany"), Options(players=2, days=5))
    assert "train" in rules and "bus" in rules and "Berlin is colourless" in rules
    assert "Berlin has two tiles" in rules and "journey of **5 days**" in rules
    assert "airplane" not in rules and "swap" not in rules.split("## Keys")[0]


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_resizing_never_crashes() -> None:
    app = make_app("me,greedy", seed=12)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for width, height in ((160, 50), (40, 12), (80, 24)):
            await pilot.resize_terminal(width, height)
            await pilot.pause()
        assert "Your journey" in screen_text(app)


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_setup_screen_starts_a_game_and_explains_bad_seats() -> None:
    app = PlayApp(PlayConfig(bot_delay=0), setup=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        players = app.screen.query_one("#setup-players")
        players.value = "me,expert:many"  # type: ignore[attr-defined]
        await pilot.click("#setup-start")
        await pilot.pause()
        assert "bad expert budget 'many'" in screen_text(app)
        players.value = "me,random"  # type: ignore[attr-defined]
        seed = app.screen.query_one("#setup-seed")
        seed.value = "77"  # type: ignore[attr-defined]
        seed.focus()
        await pilot.press("enter")  # Enter in a field starts the game too
        screen = await settle(pilot)
        assert screen.table.record.seed == 77 and screen.table.names == ("You", "Bot 2")


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_play_again_with_the_same_options() -> None:
    app = make_app("me,greedy", seed=11, days=5, turn_limit=2, skip_to_first_turn=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settle(pilot)
        await play_person_turns(pilot, screen, Person(1), seat=0)
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        assert "Nobody wins: the game stopped after 2 turns." in screen_text(app)
        await pilot.press("n")
        new_screen = await settle(pilot)
        assert new_screen is not screen and not new_screen.table.is_over
        assert new_screen.table.options == screen.table.options
        assert new_screen.table.record.seed == 12


class BrokenBot:
    """A bot whose program has crashed."""

    name = "broken"

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        raise RuntimeError("the engine program exited")


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_a_failing_bot_is_reported_and_the_game_can_still_be_saved(tmp_path: Path) -> None:
    from tendays.cli.tui.seats import TerminalSeat

    seats = [TerminalSeat("You", "human"), TerminalSeat("Bot 2", "cmd:./engine", BrokenBot())]
    table = Table("usa", Options(players=2, days=5), 1, seats)
    save = tmp_path / "broken.json"
    app = PlayApp(PlayConfig(players="me,random", days=5, bot_delay=0, save_path=save), table=table)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("1")  # draft a tile; then the bot fails to draft
        screen = await settle(pilot)
        text = screen_text(app)
        assert "Bot 2 could not move: the engine program exited" in text
        assert "The game cannot go on with this bot" in text
        await pilot.press("2")
        await pilot.pause()
        assert "Bot 2 could not move" in screen_text(app)
        await pilot.press("s")
        await pilot.pause()
        assert load_save(save)[0].moves == screen.table.record.moves


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_a_game_against_an_engine_program_to_the_end() -> None:
    import sys

    players = f"me,cmd:{sys.executable} -m tendays engine --bot greedy"
    app = make_app(players, seed=13, days=5)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settle(pilot)
        assert screen.table.seats[1].level == "engine bot"
        await play_person_turns(pilot, screen, Person(7), seat=0)
        assert screen.table.is_over and screen.bot_error is None
        engine = screen.table.seats[1].bot
    assert getattr(engine, "_process", "none") is None  # the program was stopped with the game
