"""The terminal game in German: the engine's sentences and the terminal's own
words, at 80x24, nothing cut."""

from __future__ import annotations

import argparse

import pytest
from test_play_app import play_person_turns
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

from tendays.cli.play_cmd import add_arguments, choose_language
from tendays.cli.tui.end_screen import EndScreen
from tendays.cli.tui.game_screen import GameScreen
from tendays.engine import use_language


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_a_whole_german_game_at_80x24_speaks_german_and_fits() -> None:
    app = make_app("me,greedy", seed=5, edition="germany", days=5, language="de")
    with use_language("de"):  # what PlayApp.run does for `tendays play --lang de`
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await settle(pilot)
            while screen.table.view_for(0).phase.name == "DRAFT":
                await play_person_turns_once(pilot, screen)
                screen = await settle(pilot)
            assert "Du bist am Zug: d zieht vom Nachziehstapel" in shown_in(app, "#prompt")
            status = shown_in(app, "#status")
            assert "10 Tage durch Deutschland · Zug" in status and "Nachziehstapel" in status
            assert "Runde" not in status  # a turn is a Zug: a Runde is everybody's round
            footer = shown(app)
            assert "Ziehen" in footer and "Tipp" in footer and "Beenden" in footer
            assert (
                "Spieler" in screen_text(app)
                or "beginnt" in screen_text(app)
                or "zieht" in screen_text(app)
            )
            lines = screen_lines(app)
            assert len(lines) == 24 and all(len(line) <= 80 for line in lines)
            await pilot.press("h")
            await pilot.pause()
            assert "Tipp: " in shown_in(app, "#prompt")
            await play_person_turns(pilot, screen, Person(2), seat=0)
            await pilot.pause()
            assert isinstance(app.screen, EndScreen)
            text = screen_text(app)
            assert "gewinn" in text  # "Du gewinnst nach …" / "Greedy gewinnt nach …"
            lines = screen_lines(app)
            assert len(lines) == 24 and all(len(line) <= 80 for line in lines)


async def play_person_turns_once(pilot: Pilot[None], screen: GameScreen) -> None:
    for key in keys_for(Person(3).choose(screen)):
        await pilot.press(key)
    await pilot.pause()


@pytest.mark.parametrize(
    ("argv", "env", "expected"),
    [
        (["--lang", "en", "--edition", "germany"], {}, "en"),
        (["--edition", "germany"], {}, "de"),
        ([], {}, "en"),
        ([], {"LANG": "de_DE.UTF-8"}, "de"),
        (["--edition", "germany"], {"LANG": "en_US.UTF-8"}, "en"),
        (["--edition", "germany"], {"LANG": "fr_FR.UTF-8"}, "de"),
        (["--edition", "germany"], {"LANG": "C.UTF-8"}, "de"),
    ],
)
def test_the_language_comes_from_lang_the_environment_or_the_edition(
    argv: list[str], env: dict[str, str], expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    for variable, value in env.items():
        monkeypatch.setenv(variable, value)
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(argv)
    assert choose_language(args.lang, args.edition or "usa") == expected
