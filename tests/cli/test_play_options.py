"""The options of a terminal game: who begins, how many days, the registries it offers, old save
files, and the bots' turns taken by the engine's turn loop."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest
from tui_driver import Person, keys_for, make_app, screen_text, settle

from tendays.bots import LEVELS, bot_names, make_bot
from tendays.cli.main import build_parser, main
from tendays.cli.tui.play_app import PlayApp
from tendays.cli.tui.save_file import load_save
from tendays.cli.tui.seats import SeatError, parse_seats
from tendays.cli.tui.setup_screen import SetupScreen
from tendays.cli.tui.table import PlayConfig, Table
from tendays.engine import (
    EventKind,
    Game,
    GameRecord,
    Options,
    available_editions,
    next_decision,
    play_bots,
)

GERMANY_17_DAYS = (
    "10 Tage durch Deutschland has 54 tiles: 3 racks of 17 days and 3 discard piles would leave 0 "
    "in the draw pile, too few for every player to draw once; with 3 players a rack has at most 16 "
    "days"
)


def started_app(monkeypatch: pytest.MonkeyPatch, *argv: str) -> PlayApp:
    """The app ``tendays play ARGV`` would run, without running it."""
    from tendays.cli import play_cmd

    started: list[PlayApp] = []
    monkeypatch.setattr(PlayApp, "run", lambda self: started.append(self))
    assert play_cmd.run(build_parser().parse_args(["play", *argv])) == 0
    return started[0]


def play_the_draft(table: Table) -> None:
    bot = make_bot("greedy")
    while table.view_for(None).phase.name == "DRAFT":
        decision = table.next_decision()
        assert decision is not None
        table.play(bot.choose(decision.view, decision.rng), decision.seat)


def test_first_seat_on_the_command_line_counts_from_one(monkeypatch: pytest.MonkeyPatch) -> None:
    app = started_app(
        monkeypatch, "--players", "me,random,random", "--first-seat", "3", "--seed", "4"
    )
    table = app.first_table
    assert table is not None and table.options.first_seat == 2 and app.config.first_seat == 2
    play_the_draft(table)
    assert table.current == 2 and table.view_for(0).events[-1].kind is EventKind.START
    app = started_app(monkeypatch, "--players", "me,random", "--first-seat", "random")
    assert app.first_table is not None and app.first_table.options.first_seat is None


def test_a_first_seat_that_is_not_at_the_table_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["play", "--players", "me,normal", "--first-seat", "3"]) == 2
    assert (
        capsys.readouterr().err
        == "tendays play: the first player must be one of the 2 seats, not seat 3\n"
    )
    with pytest.raises(SystemExit):
        main(["play", "--first-seat", "0"])
    assert (
        "give a seat number (1 for the first seat) or 'random', not '0'" in capsys.readouterr().err
    )


def test_a_save_file_carries_the_first_seat_and_a_resumed_game_keeps_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save = tmp_path / "game.json"
    table = Table(
        "usa", PlayConfig(players="me,random", first_seat=1).options(), 4, parse_seats("me,random")
    )
    table.save(save)
    assert json.loads(save.read_text())["options"]["first_seat"] == 1
    app = started_app(monkeypatch, "--resume", str(save))
    assert app.first_table is not None and app.first_table.options.first_seat == 1
    assert app.config.first_seat == 1


def test_days_the_tiles_cannot_support_are_refused_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert (
        main(
            [
                "play",
                "--days",
                "17",
                "--players",
                "me,normal,normal",
                "--edition",
                "germany",
                "--lang",
                "en",
            ]
        )
        == 2
    )
    assert capsys.readouterr().err == f"tendays play: {GERMANY_17_DAYS}\n"
    assert (
        main(["play", "--days", "17", "--players", "me,normal,normal", "--edition", "germany"]) == 2
    )
    assert capsys.readouterr().err.startswith(
        "tendays play: 10 Tage durch Deutschland hat 54 Plättchen: 3 Reisepläne"
    )
    assert main(["play", "--days", "1"]) == 2
    assert capsys.readouterr().err == "tendays play: a rack has 2 to 20 days, not 1\n"


def test_longer_journeys_than_ten_days_can_be_played(monkeypatch: pytest.MonkeyPatch) -> None:
    app = started_app(monkeypatch, "--days", "14", "--players", "me,normal")
    assert app.first_table is not None and app.first_table.options.days == 14


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_the_setup_screen_offers_who_begins_and_shows_the_engines_refusal() -> None:
    app = PlayApp(PlayConfig(bot_delay=0), setup=True)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        text = screen_text(app)
        assert all(level in text for level in LEVELS)
        screen.query_one("#setup-edition").value = "germany"  # type: ignore[attr-defined]
        screen.query_one("#setup-days").value = 17  # type: ignore[attr-defined]
        screen.query_one("#setup-players").value = "me,normal,normal"  # type: ignore[attr-defined]
        await pilot.click("#setup-start")
        await pilot.pause()
        assert app.screen is screen
        assert screen_text(app).count(GERMANY_17_DAYS) == 1
        screen.query_one("#setup-days").value = 5  # type: ignore[attr-defined]
        screen.query_one("#setup-first-seat").value = "4"  # type: ignore[attr-defined]
        screen.query_one("#setup-players").focus()
        # Enter in a field starts the game too (the button ignores quick clicks)
        await pilot.press("enter")
        await pilot.pause()
        assert "the first player must be one of the 3 seats, not seat 4" in screen_text(app)
        screen.query_one("#setup-first-seat").value = "2"  # type: ignore[attr-defined]
        screen.query_one("#setup-players").focus()
        await pilot.press("enter")
        game = await settle(pilot)
        assert game.table.options == Options(players=3, days=5, first_seat=1)
        assert game.table.edition == "germany"


def test_the_command_offers_the_registered_editions_and_bots() -> None:
    play = build_parser()._subparsers._group_actions[0].choices["play"]  # type: ignore[union-attr]
    assert isinstance(play, argparse.ArgumentParser)
    edition = next(a for a in play._actions if a.dest == "edition")
    assert list(edition.choices or ()) == list(available_editions())
    for name in bot_names():
        seat = parse_seats(f"me,{name}")[1]
        assert not seat.is_human and seat.spec == name


def write_old_save(path: Path) -> Game:
    """A save file as tendays wrote it before rules versions: options
    without "rules" or "first_seat"."""
    game = Game("usa", Options(players=2, days=5, rules=1), 4, ("You", "Bot 2"))
    bot = make_bot("greedy")
    while game.move_count < 16:
        decision = next_decision(game)
        assert decision is not None
        game.play(bot.choose(decision.view, decision.rng), decision.seat)
    path.write_text(
        json.dumps(
            {
                "format": "tendays-record/1",
                "edition": "usa",
                "options": {
                    "players": 2,
                    "days": 5,
                    "swap": False,
                    "open_hands": False,
                    "turn_limit": None,
                },
                "seed": 4,
                "moves": [str(move) for move in game.moves],
                "names": ["You", "Bot 2"],
                "seats": ["human", "greedy"],
            }
        )
    )
    return game


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_an_old_save_file_resumes_under_the_rules_it_was_played_by(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save = tmp_path / "old.json"
    old = write_old_save(save)
    app = started_app(monkeypatch, "--resume", str(save), "--delay", "0")
    table = app.first_table
    assert table is not None and table.options.rules == 1 and table.options.first_seat is None
    assert table.record == old.record
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settle(pilot)
        await pilot.press("s")
        await pilot.pause()
        assert load_save(save)[0] == old.record  # saved again: still a rules-1 game
        assert json.loads(save.read_text())["options"]["rules"] == 1
        person = Person(5)
        while not screen.table.is_over:
            for key in keys_for(person.choose(screen)):
                await pilot.press(key)
            screen = await settle(pilot)
        assert screen.table.options.rules == 1
        assert screen.table.record.replay().winner == screen.table.view_for(None).winner


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_the_bots_move_as_the_engines_turn_loop_would() -> None:
    app = make_app("greedy,random,greedy", seed=17, days=5)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settle(pilot)
        assert screen.table.is_over
        record = screen.table.record
    game = Game("usa", Options(players=3, days=5), 17)
    play_bots(game, [make_bot("greedy"), make_bot("random"), make_bot("greedy")])
    assert record.moves == game.moves


def test_the_rules_screen_says_who_begins() -> None:
    from tendays.cli.tui.rules import rules_markdown
    from tendays.engine import load_edition

    usa = load_edition("usa")
    assert "and player 2 in turn order begins" in rules_markdown(
        usa, Options(players=3, first_seat=1)
    )
    assert "and a random player begins" in rules_markdown(usa, Options(players=3))


def test_play_command_rejects_bad_seats_before_starting(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--players", "me,expert:many"]) == 2
    assert "bad expert budget 'many'" in capsys.readouterr().err
    assert main(["play", "--players", "me,a,b,c,d"]) == 2
    assert "1 to 4 players" in capsys.readouterr().err
    assert main(["play", "--resume", "/nonexistent/game.json"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_save_file_is_a_game_record_with_seats(tmp_path: Path) -> None:
    table = Table("germany", PlayConfig(players="Ann,hard").options(), 5, parse_seats("Ann,hard"))
    path = tmp_path / "g.json"
    table.save(path)
    data = json.loads(path.read_text())
    assert data["seats"] == ["human", "hard"] and data["names"] == ["Ann", "Bot 2"]
    assert GameRecord.from_json(data) == table.record


@pytest.mark.parametrize(
    ("word", "meant"),
    [
        ("hrad", "hard"),
        ("nromal", "normal"),
        ("eays", "easy"),
        ("expret:48", "expert:48"),
        ("greddy", "greedy"),
    ],
)
def test_a_misspelt_bot_is_refused_with_the_levels_and_the_way_to_seat_a_person(
    word: str, meant: str
) -> None:
    with pytest.raises(SeatError) as refused:
        parse_seats(f"me,{word}")
    message = str(refused.value)
    assert f"did you mean {meant!r}?" in message and f"Bot levels: {', '.join(LEVELS)}" in message
    assert f"write human:{word}" in message


def test_names_of_people_keep_working() -> None:
    seats = parse_seats("Ann,Norma,Ward,human:hard")
    assert [s.name for s in seats] == ["Ann", "Norma", "Ward", "hard"] and all(
        s.is_human for s in seats
    )
    assert not parse_seats("me,Hard")[1].is_human  # a bot's own name, in any case, is the bot


def slips(name: str) -> set[str]:
    """Every word one slip away from ``name``: a letter left out, or two neighbours swapped."""
    left_out = {name[:i] + name[i + 1 :] for i in range(len(name))}
    swapped = {name[:i] + name[i + 1] + name[i] + name[i + 2 :] for i in range(len(name) - 1)}
    return (left_out | swapped) - {name}


@pytest.mark.parametrize("level", list(LEVELS))
def test_every_slip_of_a_level_is_refused_naming_the_level(level: str) -> None:
    for word in sorted(slips(level)):
        with pytest.raises(SeatError, match=f"did you mean '{level}'"):
            parse_seats(f"me,{word}")


def test_short_lower_case_names_far_from_every_bot_seat_people() -> None:
    seats = parse_seats("ann,bob,eve,hans")
    assert [s.name for s in seats] == ["ann", "bob", "eve", "hans"]
    assert all(s.is_human for s in seats)
