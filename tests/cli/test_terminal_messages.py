"""The terminal's messages say what is true in plain words: the seats a game needs, a bot a save
file names that does not exist, whose turn it is, and how a finished game can be seen again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Select
from tui_driver import make_app, screen_text, settle

from tendays.bots import make_bot
from tendays.cli.language import choose_language
from tendays.cli.main import main
from tendays.cli.tui.play_app import PlayApp
from tendays.cli.tui.screens import PrivacyScreen
from tendays.cli.tui.seats import parse_seats
from tendays.cli.tui.setup_screen import SetupScreen
from tendays.cli.tui.table import PlayConfig, Table
from tendays.engine import Options, Phase


def finished_save(path: Path) -> dict[str, object]:
    """A finished two-seat game (a person against greedy), saved; its JSON."""
    table = Table("usa", Options(players=2, days=4), 6, parse_seats("me,greedy"))
    bot = make_bot("greedy")
    while (decision := table.next_decision()) is not None:
        table.play(bot.choose(decision.view, decision.rng), decision.seat)
    table.save(path)
    data: dict[str, object] = json.loads(path.read_text())
    return data


def play(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["play", *argv])
    return code, capsys.readouterr().err


def test_too_few_seats_for_a_saved_game_are_a_seat_problem_counted_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "game.json"
    finished_save(save)
    code, error = play(["--resume", str(save), "--players", "me"], capsys)
    assert code == 2
    assert error == "tendays play: the game has 2 seats, but 1 player was given\n"
    code, error = play(["--resume", str(save), "--players", "me,easy,easy"], capsys)
    assert error == "tendays play: the game has 2 seats, but 3 players were given\n"


def test_a_save_naming_a_bot_that_does_not_exist_is_refused_not_seated_as_a_person(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    save = tmp_path / "game.json"
    data = finished_save(save)
    save.write_text(json.dumps({**data, "seats": ["human", "nonsense-bot"]}))
    started: list[PlayApp] = []
    monkeypatch.setattr(PlayApp, "run", lambda self: started.append(self))
    code, error = play(["--resume", str(save)], capsys)
    assert code == 2 and not started
    assert "the save file seats 'nonsense-bot' at seat 2, which is neither a person" in error
    assert "give the seats with --players to resume it" in error
    # the seats given on the command line replace the save's
    assert play(["--resume", str(save), "--players", "me,easy"], capsys)[0] == 0 and started


async def test_the_privacy_screen_speaks_to_you_when_the_seat_is_called_you() -> None:
    # A game saved against a bot ("You" and "Bot 2"), resumed by two people at one keyboard.
    seats = parse_seats("me,me", ["You", "Bot 2"])
    table = Table("usa", Options(players=2, days=3, first_seat=0), 3, seats)
    bot = make_bot("greedy")
    while table.view_for(None).phase is Phase.DRAFT:  # the draft, played before the turns
        decision = table.next_decision()
        assert decision is not None
        table.play(bot.choose(decision.view, decision.rng), decision.seat)
    app = PlayApp(PlayConfig(players="me,me", days=3, bot_delay=0), table=table)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, PrivacyScreen)
        said = " ".join(screen_text(app).split())
        assert table.current == 0 and "It is your turn." in said
        assert "You's" not in said


async def test_saving_a_finished_game_says_how_to_replay_it_not_to_continue_it(
    tmp_path: Path,
) -> None:
    save = tmp_path / "finished.json"
    table = Table("usa", Options(players=2, days=4), 6, parse_seats("me,greedy"))
    bot = make_bot("greedy")
    while (decision := table.next_decision()) is not None:
        table.play(bot.choose(decision.view, decision.rng), decision.seat)
    app = PlayApp(PlayConfig(players="me,greedy", days=4, bot_delay=0, save_path=save), table=table)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("b", "s")  # back to the board, and s there
        await pilot.pause()
        said = " ".join(screen_text(app).split())
        assert f"Saved to {save}; replay it with: tendays replay {save}" in said
        assert "--resume" not in said


async def test_the_hint_in_the_draft_says_which_day_the_drafted_tile_goes_on() -> None:
    app = make_app("me,greedy", seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settle(pilot)
        assert screen.table.view_for(0).phase is Phase.DRAFT
        await pilot.press("h")
        await pilot.pause()
        said = " ".join(screen_text(app).split())
        assert "Hint: put the drafted tile on day " in said and "fill days" not in said


async def test_no_game_key_acts_behind_the_too_small_notice(tmp_path: Path) -> None:
    app = make_app("me,greedy", seed=12, save_path=tmp_path / "game.json")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settle(pilot)
        moves = screen.table.move_count
        await pilot.resize_terminal(60, 15)
        await pilot.pause()
        assert "The terminal is too small: 60×15" in screen_text(app)
        await pilot.press("5", "d", "h", "s", "1")  # unseen, none of them acts
        await pilot.pause()
        assert screen.table.move_count == moves and screen.table.saved_to is None
        assert not (tmp_path / "game.json").exists()
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.press("5")  # seen again: the key drafts onto day 5
        await settle(pilot)
        assert screen.table.move_count > moves and screen.table.view_for(0).rack[4] is not None


async def test_the_german_edition_chosen_on_the_setup_screen_plays_in_german() -> None:
    # as `tendays play` under LANG=C.UTF-8: nothing asks for a language, so the edition's own
    app = PlayApp(
        PlayConfig(players="me,greedy", seed=3, bot_delay=0),
        setup=True,
        language="en",
        language_of=lambda edition: choose_language(None, edition),
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen) and "New game" in screen_text(app)
        app.screen.query_one("#setup-edition", Select).value = "germany"
        await pilot.press("enter")  # in the seats field: start
        screen = await settle(pilot)
        assert screen.table.edition == "germany"
        await pilot.press("d")  # no drawing in the draft: refused in German, by the app's task
        await pilot.pause()
        said = " ".join(screen_text(app).split())
        assert "Deine Reise" in said and "Your journey" not in said
        assert "✗ Beim Füllen" in said and "draw" not in said.lower()


def test_the_move_box_refuses_in_the_verbs_the_reader_types() -> None:
    from tendays.cli.tui.input_model import InputModel
    from tendays.engine import use_language

    with use_language("de"):
        model = InputModel()
        unknown = model.typed("fliegen 3").message
        assert unknown == (
            "unbekannter Spielzug 'fliegen'; die Spielzüge sind: ziehen, nehmen, ersetzen, "
            "abwerfen, legen, tauschen"
        )
        expected = "erwartet wird 'ersetzen TAG STAPEL'"
        assert model.typed("ersetzen 5").message == f"'ersetzen 5': {expected}"
        assert model.typed("replace x").message == f"'replace x': {expected}"
    with use_language("en"):
        assert InputModel().typed("fly").message == (
            "unknown move 'fly'; moves are: draw, take, replace, discard, draft, swap"
        )


def test_a_skip_tile_is_named_once_in_a_narrow_swatch_in_any_language() -> None:
    from tendays.cli.tui.render import swatch, tile_name
    from tendays.cli.tui.replay_app import short_name
    from tendays.engine import load_edition, use_language

    usa = load_edition("usa")
    car = usa.tile("car").index
    with use_language("de"):
        label = swatch(usa, car, 3).plain
        assert label.strip() == "" and f"{label} {short_name(usa, car, 12)}" == "    Auto"
        assert swatch(usa, car).plain.strip() == "Auto" and tile_name(usa, car, "  Auto  ") == ""
    with use_language("en"):
        assert swatch(usa, car, 3).plain == "car" and short_name(usa, car, 12) == ""


async def test_ctrl_c_and_the_command_palette_speak_the_players_language() -> None:
    from textual.command import CommandPalette

    from tendays.engine import use_language

    app = make_app("me,greedy", seed=12, language="de")
    with use_language("de"):
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("ctrl+c")
            await pilot.pause()
            notice = [(n.title, n.message) for n in app._notifications]
            assert notice == [("Willst du beenden?", "Drücke [b]q[/b] zum Beenden.")]
            titles = {command.title for command in app.get_system_commands(app.screen)}
            assert {"Farbschema", "Beenden", "Tasten", "Bildschirmfoto"} <= titles
            assert not titles & {"Theme", "Quit", "Keys", "Screenshot"}
            await pilot.press("ctrl+p")
            await pilot.pause()
            assert isinstance(app.screen, CommandPalette)
            assert app.screen._placeholder == "Befehle suchen…"


def test_help_and_refused_arguments_speak_the_language_asked_for(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from tendays.cli.main import main

    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert said.startswith("Aufruf: tendays play") and "Optionen:" in said
    assert "diese Hilfe zeigen und beenden" in said and "Tauschvariante: Ein Zug darf" in said
    with pytest.raises(SystemExit):
        main(["puzzles", "--kind", "sometimes"])
    assert "tendays puzzles: Fehler: Argument --kind: ungültige Wahl: 'sometimes'" in (
        capsys.readouterr().err
    )
    monkeypatch.setenv("LANG", "C.UTF-8")  # asks for no language: English, as argparse writes it
    with pytest.raises(SystemExit):
        main(["check", "--help", "--lang", "en"])
    assert capsys.readouterr().out.startswith("usage: tendays check")
    with pytest.raises(SystemExit):
        main(["map", "--lang", "de", "--help"])
    assert capsys.readouterr().out.startswith("Aufruf: tendays map")
