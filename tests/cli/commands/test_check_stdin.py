"""`tendays check` reading journeys from standard input: one JSON answer per
line, an exit status for all."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys

import pytest


def check(stdin: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "tendays", "check", "usa", *args],
        input=stdin,
        capture_output=True,
        timeout=60,
    )


COMPLETE = b"WA OR CA NV UT CO NM TX OK KS\n"
BROKEN = b"WA,OR,CA,NV,UT,NM,TX,OK,KS,MO\n"


@pytest.mark.parametrize(
    ("lines", "status"),
    [
        (COMPLETE + COMPLETE, 0),
        (COMPLETE + BROKEN, 1),
        (BROKEN + b"WA XX\n" + COMPLETE, 2),  # bad input counts more than an incomplete journey
        (b"", 0),
    ],
)
def test_the_exit_status_sums_up_every_line(lines: bytes, status: int) -> None:
    result = check(lines)
    assert result.returncode == status
    assert len(result.stdout.splitlines()) == len(lines.splitlines())


def test_every_line_is_answered_with_its_number_blank_ones_too() -> None:
    result = check(b"\n" + COMPLETE + b"   \n\t\n" + BROKEN + b"\n")
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert [answer["line"] for answer in answers] == [1, 2, 3, 4, 5, 6]
    assert [answer.get("valid") for answer in answers] == [None, True, None, None, False, None]
    assert answers[0] == answers[2] | {"line": 1} == {"line": 1, "empty": True}
    assert result.returncode == 1 and result.stderr == b""


def test_bytes_that_are_not_utf8_are_an_error_line_not_echoed() -> None:
    result = check(COMPLETE + b"WA \xff\xfe OR\n" + COMPLETE)
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert answers[1] == {"line": 2, "error": "line 2 is not UTF-8 text (byte 4)"}
    assert answers[0]["valid"] and answers[2]["valid"] and result.returncode == 2
    assert b"\\x" not in result.stdout and b"\xff" not in result.stdout


def test_the_help_explains_the_stdin_mode() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tendays", "check", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    help_text = " ".join(result.stdout.split())
    assert "with no TILE, journeys are read from standard input, one per line" in help_text
    assert 'one JSON answer is printed per line read, with its "line" number' in help_text
    assert '{"empty": true} for a blank line' in help_text
    assert (
        "Exit status: 0 every journey complete, 1 some journey not complete, 2 some line was bad "
        "input" in help_text
    )


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_an_interactive_terminal_gets_a_prompt() -> None:
    import pty

    main, secondary = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "tendays", "check", "usa"],
        stdin=secondary,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    os.close(secondary)
    # a journey, then Ctrl-D at the start of a line: the end of input
    os.write(main, COMPLETE + b"\x04")
    out, err = process.communicate(timeout=60)
    os.close(main)
    assert b"Type a journey of 10 Days in the USA per line" in err and b"Ctrl-D ends" in err
    assert json.loads(out.splitlines()[0])["valid"] is True and process.returncode == 0


def test_a_line_that_never_ends_is_an_error_line_in_little_memory() -> None:
    # 8 MiB with no line end, then a journey: a reader without a bound on the line holds it whole
    endless = subprocess.run(
        [sys.executable, "-m", "tendays", "check", "usa"],
        input=b"x" * (8 << 20) + b"\n" + COMPLETE,
        capture_output=True,
        timeout=60,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)),
    )
    answers = [json.loads(line) for line in endless.stdout.splitlines()]
    assert answers[0] == {
        "line": 1,
        "error": "line 1 has 8388608 bytes: a journey line has at most 4096",
    }
    assert answers[1]["valid"] and endless.returncode == 2
