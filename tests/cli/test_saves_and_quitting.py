"""Saving never overwrites another game's save, and every way out (q, Ctrl+Q, the command palette's
Quit) asks first when moves would be lost."""

from __future__ import annotations

from pathlib import Path

import pytest
from tui_driver import make_app, screen_text, settle

from tendays.cli import play_cmd
from tendays.cli.main import build_parser, main
from tendays.cli.tui.play_app import PlayApp
from tendays.cli.tui.save_file import load_save
from tendays.cli.tui.screens import HelpScreen, PrivacyScreen
from tendays.cli.tui.seats import parse_seats
from tendays.cli.tui.table import PlayConfig, Table


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_saving_beside_another_games_save_keeps_it_and_says_where(tmp_path: Path) -> None:
    earlier = tmp_path / "tendays-save.json"
    Table("usa", PlayConfig(players="me,random").options(), 4, parse_seats("me,random")).save(
        earlier
    )
    kept = earlier.read_text()
    app = make_app("me,greedy", seed=21, save_path=earlier, skip_to_first_turn=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settle(pilot)
        await pilot.press("s")
        await pilot.pause()
        fresh = tmp_path / "tendays-save-2.json"
        assert earlier.read_text() == kept  # the earlier game is still there
        assert load_save(fresh)[0].moves == screen.table.record.moves
        said = " ".join(screen_text(app).split())
        assert f"{earlier} holds another game, so this one is saved to {fresh}" in said
        assert f"tendays play --resume {fresh}" in said
        await pilot.press("d", "s")  # saving again goes to the game's own file
        await pilot.pause()
        assert (
            load_save(fresh)[0].moves == screen.table.record.moves and earlier.read_text() == kept
        )
        assert not (tmp_path / "tendays-save-3.json").exists()


def test_a_resumed_game_saves_back_into_its_own_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save = tmp_path / "tendays-save.json"
    Table("usa", PlayConfig(players="me,random").options(), 4, parse_seats("me,random")).save(save)
    started: list[PlayApp] = []
    monkeypatch.setattr(PlayApp, "run", lambda self: started.append(self))
    assert (
        play_cmd.run(build_parser().parse_args(["play", "--resume", str(save), "--delay", "0"]))
        == 0
    )
    table = started[0].first_table
    assert table is not None and table.save_target(save) == save


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_ctrl_q_and_the_palettes_quit_ask_first_with_moves_not_saved(tmp_path: Path) -> None:
    app = make_app("me,greedy", seed=21, save_path=tmp_path / "game.json", skip_to_first_turn=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert app.is_running and "q again quits without saving" in " ".join(
            screen_text(app).split()
        )
        await pilot.press("ctrl+q")  # asked once: the second leaves
        await pilot.pause()
        assert not app.is_running
    app = make_app("me,greedy", seed=21, save_path=tmp_path / "game.json", skip_to_first_turn=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        await app.action_quit()  # what the command palette's "Quit" runs
        await pilot.pause()
        assert app.is_running and not isinstance(app.screen, HelpScreen)
        assert "q again quits without saving" in " ".join(screen_text(app).split())
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not app.is_running


async def test_s_on_the_privacy_screen_saves_where_q_says_it_would(tmp_path: Path) -> None:
    save = tmp_path / "hot-seat.json"
    app = make_app("Ann,Bob", seed=3, days=3, save_path=save)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settle(pilot)
        await pilot.press("enter", "1")  # Ann drafts: now the game has a move not saved
        await settle(pilot)
        assert isinstance(app.screen, PrivacyScreen)
        await pilot.press("q")
        await pilot.pause()
        assert f"s saves it (to {save})" in " ".join(screen_text(app).split())
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, PrivacyScreen)  # saving shows no rack
        assert load_save(save)[0].moves == screen.table.record.moves
        assert f"Saved to {save}" in " ".join(screen_text(app).split())
        await pilot.press("q")  # nothing is lost now: q quits at once
        await pilot.pause()
        assert not app.is_running


@pytest.mark.parametrize(
    ("target", "words"),
    [
        ("{tmp}", "{tmp} is a folder, not a file"),
        ("/dev/full", "/dev/full is a device, not a file"),
        ("{tmp}/missing/game.json", "the folder {tmp}/missing does not exist"),
    ],
)
def test_a_save_target_that_cannot_hold_a_game_is_refused_at_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str, words: str
) -> None:
    target = target.format(tmp=tmp_path)
    assert main(["play", "--players", "me,random", "--save", target]) == 2
    error = capsys.readouterr().err
    assert words.format(tmp=tmp_path) in error and "give a file the game can be saved to" in error
    assert list(tmp_path.iterdir()) == []  # no "-2" file beside it


@pytest.mark.parametrize("delay", ["inf", "nan", "1e308", "-1", "61"])
def test_a_delay_that_is_no_pause_is_refused_naming_the_range(
    capsys: pytest.CaptureFixture[str], delay: str
) -> None:
    assert main(["play", "--players", "me,random", "--delay", delay]) == 2
    assert "give a pause of 0 to 60 seconds" in capsys.readouterr().err


async def test_a_save_that_fails_says_so_and_never_saved_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "game.json"
    app = make_app("me,greedy", seed=21, save_path=folder, skip_to_first_turn=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settle(pilot)
        folder.mkdir()  # the target became a folder after the start
        await pilot.press("s")
        await pilot.pause()
        said = " ".join(screen_text(app).split())
        assert f"could not save the game: {folder} is a folder, not a file" in said
        assert "Saved to" not in said and sorted(tmp_path.iterdir()) == [folder]
        folder.rmdir()

        def full(self: Table, path: Path, palette: str = "normal") -> None:
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(Table, "save", full)
        await pilot.press("s")
        await pilot.pause()
        said = " ".join(screen_text(app).split())
        assert f"could not save to {folder}: No space left on device" in said
        assert "Saved to" not in said and screen.table.unsaved
