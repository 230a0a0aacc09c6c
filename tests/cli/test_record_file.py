"""Reading a save file that anyone may have sent: only a regular file of at most 1 MiB is read, and
names, seats and seeds that could take over the terminal or that no game uses are refused in words.
What the terminal shows of a name passes through ``shown`` whoever gave it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from test_bad_files import saved_game

from tendays.cli.record_file import MAX_RECORD_BYTES, read_record_bytes
from tendays.cli.replay_cmd import print_game
from tendays.cli.tui.render import person
from tendays.cli.tui.save_file import load_save, saved_palette
from tendays.cli.tui.seats import SeatError, parse_seats
from tendays.engine import Game, Options, RecordError

TITLE = "\x1b]2;pwned\x07"  # an escape sequence that retitles the terminal


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    return saved_game(tmp_path_factory.mktemp("save") / "good.json")


def written(path: Path, data: dict[str, object]) -> Path:
    path.write_text(json.dumps(data))
    return path


def refusal(path: Path) -> str:
    with pytest.raises(RecordError) as refused:
        load_save(path)
    return str(refused.value)


def test_a_pipe_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    pipe = tmp_path / "save.json"
    os.mkfifo(pipe)
    # without the refusal this would wait for a writer forever
    assert refusal(pipe) == (
        f"{pipe} is not a tendays game record: it is a pipe; tendays reads game records from "
        f"files of at most 1 MiB ({MAX_RECORD_BYTES} bytes)"
    )
    assert saved_palette(pipe) is None


@pytest.mark.parametrize(("path", "kind"), [("/dev/zero", "a device"), ("/dev/null", "a device")])
def test_a_device_is_refused_before_a_byte_is_read(path: str, kind: str) -> None:
    assert f"it is {kind}; tendays reads game records from files of at most 1 MiB" in refusal(
        Path(path)
    )


def test_a_folder_is_refused(tmp_path: Path) -> None:
    assert f"{tmp_path} is not a tendays game record: it is a folder" in refusal(tmp_path)


def test_a_file_over_the_limit_is_refused_naming_its_size_and_the_limit(
    good: dict[str, object], tmp_path: Path
) -> None:
    text = json.dumps(good)
    at_limit = tmp_path / "at-limit.json"
    at_limit.write_text(text + " " * (MAX_RECORD_BYTES - len(text)))
    assert load_save(at_limit)[0].seed == good["seed"]  # padded to the limit: still read
    over = tmp_path / "over.json"
    over.write_text(text + " " * (MAX_RECORD_BYTES + 1 - len(text)))
    assert refusal(over) == (
        f"{over} is too large ({MAX_RECORD_BYTES + 1} bytes): tendays reads game records from "
        f"files of at most 1 MiB ({MAX_RECORD_BYTES} bytes)"
    )


def test_the_bounded_read_returns_the_whole_file(tmp_path: Path) -> None:
    path = tmp_path / "bytes"
    content = os.urandom(200_000)  # several pieces
    path.write_bytes(content)
    assert read_record_bytes(path) == content


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("names", ["Ann", TITLE], "the name of player 2 holds the character U+001B"),
        ("names", ["Bob\u202e", "Ann"], "the name of player 1 holds the character U+202E"),
        ("names", ["Ann", "C1\x9b"], "the name of player 2 holds the character U+009B"),
        ("seats", ["human", TITLE], "seat 2 holds the character U+001B"),
    ],
)
def test_a_save_whose_names_or_seats_hold_control_characters_is_refused(
    field: str, value: list[str], words: str, good: dict[str, object], tmp_path: Path
) -> None:
    path = written(tmp_path / "save.json", {**good, field: value})
    problem = refusal(path)
    assert problem.startswith(f"{path} is not a tendays game record: {words}"), problem
    assert "\x1b" not in problem and "\x9b" not in problem


def test_a_file_name_with_an_escape_sequence_is_named_without_it(tmp_path: Path) -> None:
    path = tmp_path / f"{TITLE}.json"
    path.write_text("[]")
    problem = refusal(path)
    assert "\x1b" not in problem and "\x07" not in problem and "]2;pwned" in problem


def test_a_seed_too_long_to_read_is_refused_naming_the_limit(
    good: dict[str, object], tmp_path: Path
) -> None:
    path = tmp_path / "seed.json"
    path.write_text(json.dumps(good).replace(f'"seed": {good["seed"]}', '"seed": ' + "9" * 5000))
    assert refusal(path) == (
        f"{path} is not a tendays game record: it holds a whole number of 5000 digits: tendays "
        "reads numbers of at most 20 digits"
    )


def test_a_seed_beyond_64_bits_is_refused_naming_the_range(
    good: dict[str, object], tmp_path: Path
) -> None:
    path = written(tmp_path / "seed.json", {**good, "seed": 2**63})
    assert refusal(path) == (
        f"{path} is not a tendays game record: a seed is a whole number from "
        f"-9223372036854775808 to 9223372036854775807, not {2**63}"
    )


def test_a_person_named_with_an_escape_sequence_on_the_command_line_is_refused() -> None:
    with pytest.raises(SeatError, match="seat 2 of --players holds the character U\\+001B"):
        parse_seats(f"me,{TITLE},greedy")
    with pytest.raises(SeatError, match="seat 1 of --players holds the character U\\+202E"):
        parse_seats("human:Bob\u202e,greedy")


def test_what_is_shown_of_a_name_never_holds_a_control_character(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A record made in code is not checked as a file is: the display is the last line of defence.
    game = Game("usa", Options(players=2, days=3), 5, names=(TITLE, "Ann\u202e"))
    while len(game.moves) < 10:
        game.play(game.state.legal_moves()[0])
    record = game.record
    assert person(TITLE) == "\ufffd]2;pwned\ufffd"
    print_game(record, record.states(), reveal=True)
    seats = parse_seats("me,greedy", record.names)
    out = capsys.readouterr().out
    assert "\ufffd]2;pwned\ufffd put a tile on day" in out  # the log
    assert "\ufffd]2;pwned\ufffd: " in out  # the racks
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    assert [seat.name for seat in seats] == ["\ufffd]2;pwned\ufffd", "Ann\ufffd"]
