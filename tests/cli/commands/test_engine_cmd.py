"""`tendays engine`: protocol errors name the problem; only bots that can be served are offered."""

from __future__ import annotations

import io
import json
import random
import shlex
import subprocess
import sys
from typing import TextIO, cast

import pytest

from tendays.bots.engine_client import (
    MAX_LINE,
    EngineBot,
    EngineError,
    LongLine,
    bounded_lines,
)
from tendays.cli.engine_cmd import servable_bots, serve
from tendays.engine import Options, load_edition, new_game, view
from tendays.engine.wire import view_to_json

GOOD_GAME = json.dumps({"edition": "usa", "options": Options(players=2).to_json(), "player": 0})


def answers(*commands: str) -> list[str]:
    sink = io.StringIO()
    assert (
        serve("greedy", 0, io.StringIO("\n".join(["tendays 2", *commands, "quit"]) + "\n"), sink)
        == 0
    )
    return sink.getvalue().splitlines()[1:]


@pytest.mark.parametrize(
    ("command", "words"),
    [
        (
            "newgame {bad",
            'error \'newgame\' needs {"edition", "options", "player"} as one JSON object on the '
            "same "
            "line: Expecting property name",
        ),
        ("newgame", "error 'newgame' needs"),
        (
            "newgame [1]",
            'error \'newgame\' needs {"edition", "options", "player"} as a JSON object, not list',
        ),
        ('newgame {"edition": "usa"}', "error 'newgame' has no 'options', 'player'"),
        (
            'newgame {"edition": "mars", "options": {}, "player": 0}',
            "error 'newgame' describes no game: unknown edition",
        ),
        (
            'newgame {"edition": "usa", "options": {"players": 9}, "player": 0}',
            "error 'newgame' describes no game",
        ),
        (
            'newgame {"edition": "usa", "options": 5, "player": 0}',
            "'options' must be an object, not 5",
        ),
        (
            'newgame {"edition": "usa", "options": {"players": 2}, "player": 2}',
            "'player' must be a seat from 0 to 1",
        ),
        ("go {}", "error the view has no 'edition', 'options', 'player'"),
        ("go {bad", "error 'go' needs the view as one JSON object on the same line"),
        ('go "view"', "error 'go' needs the view as a JSON object, not str"),
    ],
)
def test_a_malformed_command_gets_an_error_naming_the_problem(command: str, words: str) -> None:
    reply = answers(command)
    assert len(reply) == 1 and reply[0].startswith("error ") and words in reply[0], reply


def test_after_an_error_the_engine_still_plays() -> None:
    state = new_game(load_edition("usa"), Options(players=2), 4)
    reply = answers(
        "newgame {bad",
        "go {}",
        "newgame " + GOOD_GAME,
        "go " + json.dumps(view_to_json(view(state, 0))),
    )
    assert reply[0].startswith("error") and reply[1].startswith("error")
    assert reply[2] == "ok" and reply[3].startswith("move draft ")


def test_a_line_that_is_not_utf8_gets_an_error_not_a_crash() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tendays", "engine"],
        input=b"tendays 2\ngo {\xff}\n\xe4\xff\nquit\n",
        capture_output=True,
        timeout=60,
    )
    lines = result.stdout.decode().splitlines()
    assert result.returncode == 0 and result.stderr == b"" and len(lines) == 3
    assert lines[2] == "error the line is not UTF-8 text (byte 1)"
    # the problem named as it is (docs/engine-protocol.md), never "unknown command '��'"
    assert lines[0] == "ready greedy" and lines[1] == "error the line is not UTF-8 text (byte 5)"


def test_an_unknown_bot_lists_only_the_bots_that_can_be_served() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tendays", "engine", "--bot", "hrad"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2 and result.stdout == ""
    assert (
        result.stderr
        == f"tendays engine: unknown bot 'hrad'; serve one of: {', '.join(servable_bots())}\n"
    )
    assert "cmd:" not in result.stderr and "hard" in result.stderr and "expert" in result.stderr
    result = subprocess.run(
        [sys.executable, "-m", "tendays", "engine", "--bot", "cmd:tendays engine"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2 and "serve a built-in bot, not another engine" in result.stderr


def test_a_huge_unknown_line_is_quoted_cut_in_the_answer() -> None:
    line = "x" * 1_000_000
    (answer,) = answers(line)
    assert answer.startswith("error unknown command 'xxxx") and "(1000000 characters)" in answer
    assert len(answer) < 200
    (answer,) = answers("hello")
    assert answer == "error unknown command 'hello'; commands: tendays, newgame, go, quit"


class PiecemealStream:
    """A stream that can only be read a bounded piece at a time: a reader that asked for a whole
    line, as an endless line would need, fails the test."""

    def __init__(self, text: str) -> None:
        self._text = io.StringIO(text)

    def readline(self, size: int = -1) -> str:
        assert 0 < size <= MAX_LINE + 1, "an unbounded read"
        return self._text.readline(size)


def test_a_line_longer_than_the_limit_is_answered_without_being_held_whole() -> None:
    source = PiecemealStream("tendays 2\n" + "x" * (3 * MAX_LINE + 5) + "\r\nhello\nquit\n")
    sink = io.StringIO()
    assert serve("greedy", 0, cast(TextIO, source), sink) == 0
    assert sink.getvalue().splitlines() == [
        "ready greedy",
        f"error a line of {3 * MAX_LINE + 5} characters; a line has at most {MAX_LINE}",
        "error unknown command 'hello'; commands: tendays, newgame, go, quit",
    ]


def test_bounded_lines_keeps_lines_at_the_limit_and_skips_longer_ones() -> None:
    lines = list(
        bounded_lines(io.StringIO("a" * 10 + "\n" + "b" * 11 + "\nc\n" + "d" * 25), most=10)
    )
    assert lines == ["a" * 10 + "\n", LongLine(11), "c\n", LongLine(25)]


def test_an_engine_that_answers_with_an_endless_line_is_stopped_in_words() -> None:
    program = "import sys; sys.stdout.write('x' * (3 << 20) + '\\n'); sys.stdout.flush(); input()"
    bot = EngineBot(f"{shlex.quote(sys.executable)} -c {shlex.quote(program)}")
    state = new_game(load_edition("usa"), Options(players=2), 4)
    try:
        with pytest.raises(EngineError) as stopped:
            bot.choose(view(state, 0), random.Random(0))
    finally:
        bot.close()
    assert str(stopped.value) == (
        f"the engine sent a line of {3 << 20} characters answering the greeting 'tendays 2'; "
        f"a line has at most {MAX_LINE}"
    )
