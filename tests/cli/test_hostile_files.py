"""Hostile files given to ``tendays replay`` and ``tendays play --resume``: escape sequences in the
names, a seed of thousands of digits, ``/dev/zero``, a pipe, a folder. Each is refused in one line
in the game's words, exit status 2, fast and in little memory; never a traceback, never the escape
sequence on the terminal."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from test_bad_files import one_line_refusal, saved_game

from tendays.cli.record_file import MAX_RECORD_BYTES

pytestmark = pytest.mark.slow  # runs tendays in a process of its own per test

TITLE = "\x1b]2;pwned\x07"  # retitles the terminal
MEMORY = 1 << 30  # bytes of address space a refusal may use: a regression fails, not the machine
LIMIT_WORDS = f"tendays reads game records from files of at most 1 MiB ({MAX_RECORD_BYTES} bytes)"


def _bounded_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def tendays(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tendays", *args],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=_bounded_memory,
        # the terminal game must not find a terminal to draw on, whatever the test runs in
        stdin=subprocess.DEVNULL,
    )


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    return saved_game(tmp_path_factory.mktemp("save") / "good.json")


def both_refuse(path: Path, words: str) -> None:
    for result, command in (
        (tendays("replay", "--text", str(path)), "replay"),
        (tendays("replay", str(path)), "replay"),
        (tendays("play", "--resume", str(path)), "play"),
    ):
        one_line_refusal(result, command, words)
        assert "\x1b" not in result.stderr and "\x07" not in result.stderr


def test_a_save_whose_name_retitles_the_terminal_is_refused(
    good: dict[str, object], tmp_path: Path
) -> None:
    path = tmp_path / "save.json"
    path.write_text(json.dumps({**good, "names": [TITLE, "Ann"]}))
    both_refuse(path, "the name of player 1 holds the character U+001B: a control or formatting")


def test_a_plain_record_whose_name_reads_backwards_is_refused(
    good: dict[str, object], tmp_path: Path
) -> None:
    plain = {key: value for key, value in good.items() if key not in ("seats", "position")}
    path = tmp_path / "record.json"
    path.write_text(json.dumps({**plain, "names": ["Ann", "Bob\u202eexe.txt"]}))
    both_refuse(path, "the name of player 2 holds the character U+202E RIGHT-TO-LEFT OVERRIDE")


def test_a_5000_digit_seed_is_refused_naming_the_limit(
    good: dict[str, object], tmp_path: Path
) -> None:
    path = tmp_path / "seed.json"
    path.write_text(json.dumps(good).replace(f'"seed": {good["seed"]}', '"seed": ' + "9" * 5000))
    both_refuse(path, "it holds a whole number of 5000 digits: tendays reads numbers of at most 20")


def test_a_seed_beyond_64_bits_on_the_command_line_is_refused_naming_the_range() -> None:
    result = tendays("play", "--seed", "9" * 5000)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert (
        "argument --seed: a seed is a whole number from -9223372036854775808 to "
        "9223372036854775807, not a number of 5000 digits" in result.stderr
    )


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_an_endless_device_is_refused_at_once(device: str) -> None:
    both_refuse(
        Path(device), f"{device} is not a tendays game record: it is a device; {LIMIT_WORDS}"
    )


def test_a_pipe_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    pipe = tmp_path / "save.json"
    os.mkfifo(pipe)
    both_refuse(pipe, f"it is a pipe; {LIMIT_WORDS}")


def test_a_folder_is_refused(tmp_path: Path) -> None:
    both_refuse(tmp_path, f"{tmp_path} is not a tendays game record: it is a folder")


def test_a_huge_file_is_refused_naming_its_size_and_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as file:
        file.truncate(5 << 30)  # 5 GiB of holes: no disk used
    both_refuse(path, f"is too large ({5 << 30} bytes): {LIMIT_WORDS}")
