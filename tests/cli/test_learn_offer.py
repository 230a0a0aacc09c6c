"""The setup screen offers the guided game to a first-time player, and the
guided game keeps its place."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.app import App
from tui_driver import screen_text

from tendays.cli.tui.learn_screen import LearnScreen, move_keys
from tendays.cli.tui.play_app import PlayApp
from tendays.cli.tui.setup_screen import SetupScreen
from tendays.cli.tui.table import PlayConfig
from tendays.engine import Move
from tendays.learn import Tutor, load_lesson
from tendays.learn.progress import ENV_VAR, Progress, default_path


@pytest.mark.slow
async def test_a_first_time_player_is_offered_the_guided_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "learn.json"))
    app = PlayApp(PlayConfig(bot_delay=0), setup=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        await pilot.click("#setup-learn")
        await pilot.pause()
        assert isinstance(app.screen, LearnScreen) and app.screen.edition == "usa"
        await pilot.press("0")  # the first step puts the drafted tile on day 10
        await pilot.pause()
        assert app.screen.number == 1
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
    assert Progress.load().step("usa") == 1


@pytest.mark.slow
async def test_no_offer_once_the_guided_game_was_finished_or_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "learn.json"
    path.write_text(json.dumps({"steps": {}, "finished": False, "skipped": True}))
    monkeypatch.setenv(ENV_VAR, str(path))
    app = PlayApp(PlayConfig(bot_delay=0), setup=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not app.screen.query("#setup-learn")


def test_the_progress_file_and_its_defaults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_path() == tmp_path / "tendays" / "learn.json"
    progress = Progress.load()
    assert progress.first_time and progress.step("usa") == 0
    progress.steps["usa"] = 7
    progress.save()
    assert Progress.load().step("usa") == 7
    default_path().write_text("not json")
    assert Progress.load().step("usa") == 0  # a damaged file is a fresh start, not a traceback
    default_path().write_text(
        json.dumps({"steps": {"usa": "seven", "germany": 2}, "finished": "yes"})
    )
    again = Progress.load()
    assert again.steps == {"germany": 2} and again.first_time


def test_the_keys_each_move_takes() -> None:
    assert [
        move_keys(m)
        for m in (Move.draft(10), Move.draw(), Move.take(2), Move.replace(5, 1), Move.discard(3))
    ] == ["0", "d", "2", "5, then 1", "x, then 3"]


def test_the_help_names_the_edition_learnt_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    from tendays.cli.learn_cmd import default_lesson
    from tendays.cli.main import main
    from tendays.engine import default_edition

    with pytest.raises(SystemExit):
        main(["learn", "--help"])
    assert default_lesson() == default_edition()
    assert f"(default {default_edition()})" in " ".join(capsys.readouterr().out.split())


class LessonApp(App[None]):
    """The USA guided game on its own, keeping its place in ``progress``."""

    def __init__(self, progress: Progress) -> None:
        super().__init__()
        self.progress = progress

    def on_mount(self) -> None:
        self.push_screen(LearnScreen(Tutor(load_lesson("usa")), self.progress, self.exit))


def lesson_text(app: App[None]) -> str:
    return " ".join(screen_text(app).split())


async def test_s_asks_before_skipping_the_guided_game_for_good(tmp_path: Path) -> None:
    path = tmp_path / "learn.json"
    app = LessonApp(Progress(path))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        assert app.is_running and "s again skips the guided game for good" in lesson_text(app)
        assert Progress.load(path).first_time  # nothing skipped yet
        await pilot.press("escape")  # goes on
        await pilot.pause()
        assert "s again" not in lesson_text(app)
        await pilot.press("s", "0")  # another key in between: the next s asks again
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        assert app.is_running and Progress.load(path).first_time
        await pilot.press("s")
        await pilot.pause()
        assert not app.is_running
    assert Progress.load(path).skipped


async def test_a_progress_file_that_cannot_be_written_says_so(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("")
    path = tmp_path / "a-file" / "learn.json"  # its "folder" is a file
    app = LessonApp(Progress(path))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("0")  # the first step puts the drafted tile on day 10
        await pilot.pause()
        assert isinstance(app.screen, LearnScreen) and app.screen.number == 1
        assert f"The place reached cannot be kept in {path}" in lesson_text(app)
        await pilot.press("s", "s")  # a skip that cannot be kept is not a silent exit
        await pilot.pause()
        assert app.is_running and f"cannot be kept in {path}" in lesson_text(app)


@pytest.mark.parametrize("name", ["", "a-file/learn.json"])
def test_learn_refuses_a_progress_file_it_cannot_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    from tendays.cli.main import main

    (tmp_path / "a-file").write_text("")
    assert main(["learn", "--progress", str(tmp_path / name)]) == 2
    error = capsys.readouterr().err
    assert "tendays learn: --progress:" in error
    assert "give a file the place reached can be kept in" in error
