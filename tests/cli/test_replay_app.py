"""``tendays replay``: stepping through a saved game, every rack of a finished game shown."""

from __future__ import annotations

from pathlib import Path

import pytest
from tui_driver import screen_lines, screen_text, shown

from tendays.bots import GreedyBot
from tendays.cli.main import main
from tendays.cli.tui.render import day_marks, log_line
from tendays.cli.tui.replay_app import ReplayApp, ReplayScreen
from tendays.engine import Game, GameRecord, Move, Options, play_bots, use_language, view


def finished_record(seed: int = 3, days: int = 5) -> GameRecord:
    """A greedy game played to its end, with names."""
    game = Game("usa", Options(players=2, days=days), seed, ("Ann", "Bob"))
    play_bots(game, [GreedyBot(), GreedyBot()])
    return game.record


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_arrow_keys_step_through_a_finished_game_showing_every_rack() -> None:
    record = finished_record()
    app = ReplayApp(record)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert f"move 0/{len(record.moves)}: the deal" in screen_text(app)
        await pilot.press("right", "right", "right")
        assert screen.position == 3
        text = screen_text(app)
        # Ann, Bob, then Ann
        assert f"move 3/{len(record.moves)} Ann: draft onto day {record.moves[2].a}" in text
        # Every rack is shown: after three draft moves, each drafted tile is on screen.
        state = record.replay(3)
        for seat in range(2):
            for tile in view(state, seat).rack or ():
                if tile is not None:
                    assert state.edition.tiles[tile].name[:8] in text
        await pilot.press("left")
        assert screen.position == 2
        await pilot.press("end")
        text = screen_text(app)
        assert screen.position == len(record.moves) and "game over" in text
        assert "★ winner" in text and "completes the journey and wins" in text
        await pilot.press("home")
        assert screen.position == 0
        await pilot.press("left")  # stepping back from the deal stays at the deal
        assert screen.position == 0
        await pilot.resize_terminal(160, 50)
        await pilot.press("end")
        await pilot.resize_terminal(60, 20)
        await pilot.pause()


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_space_plays_the_game_back_to_its_end() -> None:
    record = finished_record()
    app = ReplayApp(record, step_seconds=0.01)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("space")
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        for _ in range(2000):
            if screen.position == len(record.moves):
                break
            await pilot.pause(0.01)
        await pilot.pause()
        assert screen.position == len(record.moves) and screen.autoplay is None
        assert "game over" in screen_text(app)


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_an_unfinished_game_keeps_its_racks_hidden_unless_revealed() -> None:
    full = finished_record()
    unfinished = GameRecord(full.edition, full.options, full.seed, full.moves[:12], full.names)
    app = ReplayApp(unfinished)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("end")
        text = screen_text(app)
        assert "saved unfinished" in text and "racks of an unfinished game stay hidden" in text
    app = ReplayApp(unfinished, reveal=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("end")
        assert "stay hidden" not in screen_text(app)


def test_replay_text_prints_the_log_and_the_racks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = finished_record()
    path = tmp_path / "game.json"
    path.write_text(record.dumps())
    assert main(["replay", str(path), "--text"]) == 0
    out = capsys.readouterr().out
    assert "completes the journey and wins" in out and "a complete journey" in out
    assert "Ann:" in out and "Bob:" in out


def test_replay_rejects_bad_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    assert main(["replay", str(path)]) == 2
    assert "not a tendays game record" in capsys.readouterr().err
    record = finished_record()
    broken = GameRecord(record.edition, record.options, record.seed, (Move.draw(), *record.moves))
    path.write_text(broken.dumps())
    assert main(["replay", str(path), "--text"]) == 2
    assert "does not replay" in capsys.readouterr().err
    path.write_text('{"not": "a record"}')  # what is missing, in words: never a Python key
    assert main(["replay", str(path), "--text"]) == 2
    assert "it has no 'edition', 'options', 'seed' or 'moves'" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_replay_refuses_a_record_whose_options_make_no_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "impossible.json"
    path.write_text(GameRecord("germany", Options(players=3, days=17), 1).dumps())
    assert main(["replay", str(path), "--text"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        f"tendays replay: {path}: this record cannot be replayed: 10 Tage durch Deutschland has "
        "54 tiles"
    )
    assert err.count("\n") == 1


def game_with_cars(players: int = 2) -> GameRecord:
    """A finished 10-day game, with long names, in which some rack ends with a car."""
    for seed in range(1, 60):
        game = Game(
            "usa",
            Options(players=players),
            seed,
            ("Annabelle", "Bartholomew", "Charlotte", "Dan")[:players],
        )
        play_bots(game, [GreedyBot()] * players)
        racks = game.state.racks
        if any(game.state.edition.tiles[t].name == "car" for rack in racks for t in rack):
            return game.record
    raise AssertionError("no game with a car")


async def test_at_80x24_every_day_name_and_mark_of_the_racks_is_shown_as_on_the_board() -> None:
    record = game_with_cars()
    app = ReplayApp(record)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("end")
        await pilot.pause()
        lines = screen_lines(app)
        text = shown(app)
        assert all(len(line) <= 80 for line in lines)
        # the whole header
        assert f"move {len(record.moves)}/{len(record.moves)}" in text and "game over" in text
        assert "Annabelle ★ winner" in text or "Bartholomew ★ winner" in text
        region = app.screen.query_one("#racks").region
        rows = [
            line
            for line in lines[region.y : region.y + region.height]
            if line[:2].strip().isdigit()
        ]
        assert [int(row[:2]) for row in rows] == list(range(1, 11))  # day 10 too, never "…"
        state = record.replay()
        for rack in state.racks:
            marks = day_marks(state.edition, rack)
            for day, row in enumerate(rows, 1):
                # the same marks as the board: ⚑ on the last day, never ✓
                assert marks[day].symbol in row
        assert "car car" not in text and "…" not in "".join(rows)
        for pile in state.piles:
            assert state.edition.tiles[pile[-1]].name in text  # every pile's top tile, in full


def test_replay_text_counts_problems_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text(game_with_cars().dumps())
    assert main(["replay", str(path), "--text"]) == 0
    out = capsys.readouterr().out
    assert "problem(s)" not in out and "car car" not in out
    assert " problem\n" in out or " problems\n" in out


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_the_person_called_you_holds_a_tile_in_the_replay() -> None:
    game = Game("usa", Options(players=2, days=5, first_seat=0), 3, ("You", "Bot 2"))
    play_bots(game, [GreedyBot(), GreedyBot()])
    record = game.record
    again = Game("usa", Options(players=2, days=5, first_seat=0), 3, ("You", "Bot 2"))
    drawn = -1
    for index, move in enumerate(record.moves):
        if move == Move.draw() and again.state.current == 0:
            drawn = index
            break
        again.play(move)
    assert drawn >= 0
    app = ReplayApp(record, reveal=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press(*["right"] * (drawn + 1))
        await pilot.pause()
        text = shown(app)
        assert "You hold " in text and "You holds" not in text


@pytest.mark.parametrize("language", ["en", "de"])
async def test_a_three_seat_replay_at_80x24_shows_its_last_moves_after_end(language: str) -> None:
    """At the end of a three-seat game the header and the racks' names wrap to two lines; the log
    below them still ends on the winner's line after End, after G and after stepping back."""
    edition = "germany" if language == "de" else "usa"
    names = ("Du", "Normaler Bot (Bot)", "Starker Bot (Bot)")
    game = Game(edition, Options(players=3), 3, names)
    play_bots(game, [GreedyBot(), GreedyBot(), GreedyBot()])
    with use_language(language):
        app = ReplayApp(game.record, language=language)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            events = view(screen.states[-1], None).events
            wins = log_line(screen.edition, events[-1], names)
            for keys in (("end",), ("home", "G"), ("left", "G")):
                await pilot.press(*keys)
                await pilot.pause()
                lines = screen_lines(app)
                assert lines[-2].rstrip(" ▁") == "▶ " + wins, (keys, lines)
