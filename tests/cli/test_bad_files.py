"""Bad files and bad options never end in a traceback: one line naming
the problem, exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tendays.bots import make_bot
from tendays.cli.tui.seats import parse_seats
from tendays.cli.tui.table import Table
from tendays.engine import Options

pytestmark = pytest.mark.slow  # runs tendays in a process of its own per test


def tendays(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tendays", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
    )


def saved_game(path: Path, days: int = 5) -> dict[str, object]:
    """A finished game saved by the terminal game (with its seats and position), as JSON."""
    table = Table("usa", Options(players=2, days=days), 6, parse_seats("me,greedy"))
    bot = make_bot("greedy")
    while (decision := table.next_decision()) is not None:
        table.play(bot.choose(decision.view, decision.rng), decision.seat)
    table.save(path)
    data: dict[str, object] = json.loads(path.read_text())
    return data


def one_line_refusal(result: subprocess.CompletedProcess[str], command: str, words: str) -> None:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith(f"tendays {command}: "), (
        result.stderr
    )
    assert words in result.stderr, result.stderr


def edited(data: dict[str, object], **changes: object) -> dict[str, object]:
    return {**data, **changes}


BAD_FILES = {
    "not an object": (b"[1, 2, 3]", "it holds an array, not a JSON object"),
    "not UTF-8": (b"\xff\xfe{\x00}", "it is not UTF-8 text"),
    "not JSON": (b"{not json", "not JSON"),
    "only the format line": (
        b'{"format": "tendays-record/1"}',
        "it has no 'edition', 'options', 'seed' or 'moves'",
    ),
}
BAD_RECORDS = {
    "seven players": ({"options": {"players": 7, "days": 5}}, "a game has 1 to 4 players, not 7"),
    "options a number": ({"options": 5}, "'options' must be an object such as"),
    "moves a string": ({"moves": "draw"}, "'moves' must be a list of moves"),
    "a seed that is not a number": ({"seed": "x"}, "'seed' must be a whole number"),
    "an unknown edition": ({"edition": "mars"}, "unknown edition 'mars'"),
    "another edition": (
        {"edition": "germany"},
        "the moves no longer lead to the game that was saved",
    ),
    "another seed": ({"seed": 7}, "the moves no longer lead to the game that was saved"),
    "fewer days": ({"options": {"players": 2, "days": 3}}, "does not replay"),
    "names for three": ({"names": ["a", "b", "c"]}, "the record names 3 players for a game of 2"),
}


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    return saved_game(tmp_path_factory.mktemp("save") / "good.json")


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_a_file_that_is_no_record_is_refused_in_one_line(case: str, tmp_path: Path) -> None:
    content, words = BAD_FILES[case]
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    one_line_refusal(tendays("replay", str(path)), "replay", words)
    one_line_refusal(tendays("play", "--resume", str(path)), "play", words)


@pytest.mark.parametrize("case", sorted(BAD_RECORDS))
def test_a_record_that_does_not_replay_as_saved_is_refused_in_one_line(
    case: str, good: dict[str, object], tmp_path: Path
) -> None:
    changes, words = BAD_RECORDS[case]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(edited(good, **changes)))
    one_line_refusal(tendays("replay", str(path), "--text"), "replay", words)
    one_line_refusal(tendays("play", "--resume", str(path)), "play", words)


def test_a_plain_record_whose_edition_no_longer_fits_its_moves_is_refused(
    good: dict[str, object], tmp_path: Path
) -> None:
    # A record without the terminal's fingerprint (from the server, say): a
    # move that fails is the tell.
    data = {key: value for key, value in good.items() if key not in ("position", "seats")}
    path = tmp_path / "plain.json"
    path.write_text(json.dumps(edited(data, options={"players": 2, "days": 4})))
    one_line_refusal(tendays("replay", str(path)), "replay", "does not replay")


def test_the_good_file_replays(good: dict[str, object], tmp_path: Path) -> None:
    path = tmp_path / "good.json"
    path.write_text(json.dumps(good))
    result = tendays("replay", str(path), "--text")
    assert result.returncode == 0 and "completes the journey and wins" in result.stdout


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--players", ""], "--players is empty"),
        (["--players", " "], "--players is empty"),
        (["--players", "me,hrad"], "'hrad' is not a bot: did you mean 'hard'?"),
        (["--players", "me,expret:48"], "did you mean 'expert:48'?"),
    ],
)
def test_seats_that_are_no_seats_are_refused(argv: list[str], words: str) -> None:
    one_line_refusal(tendays("play", *argv), "play", words)


@pytest.mark.parametrize(
    "extra",
    [
        ["--edition", "usa"],
        ["--days", "5"],
        ["--swap"],
        ["--seed", "3"],
        ["--first-seat", "2"],
        ["--setup"],
    ],
)
def test_resume_refuses_options_the_save_already_fixes(
    extra: list[str], good: dict[str, object], tmp_path: Path
) -> None:
    path = tmp_path / "good.json"
    path.write_text(json.dumps(good))
    one_line_refusal(
        tendays("play", "--resume", str(path), *extra),
        "play",
        f"a resumed game keeps the edition, days, first seat, variant and seed it was saved with; "
        f"leave out {extra[0]}",
    )


def test_a_save_file_never_starts_a_program_by_itself(tmp_path: Path) -> None:
    path = tmp_path / "save.json"
    data = saved_game(path)
    marker = tmp_path / "ran"
    data["seats"] = ["human", f"cmd:{sys.executable} -c \"open('{marker}', 'w')\""]
    path.write_text(json.dumps(data))
    result = tendays("play", "--resume", str(path))
    one_line_refusal(result, "play", "a save file never starts programs by itself")
    assert not marker.exists()
