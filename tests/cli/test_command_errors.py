"""Every command's refusal is said one way: on standard error, after the command's name, with the
exit status the command gives it (``tendays.cli.command_error.CommandError``, caught in main)."""

from __future__ import annotations

import pytest

from tendays.cli.main import main


@pytest.mark.parametrize(
    ("argv", "status", "said"),
    [
        (["map", "atlantis"], 2, "tendays map: unknown edition 'atlantis'"),
        (
            ["check", "usa", "WA", "--days", "1"],
            2,
            "tendays check: a journey needs at least 2 days",
        ),
        (["check", "usa", "WA", "XX"], 2, "tendays check: 10 Days in the USA has no tile 'XX'"),
        (["puzzles", "--count", "0"], 2, "tendays puzzles: ask for at least one puzzle, not 0"),
        (["puzzles", "--date", "2026-01-01"], 2, "tendays puzzles: --date goes with --daily"),
        (["simulate", "--games", "1"], 2, "tendays simulate: name the players"),
        (
            ["engine", "--bot", "cmd:x"],
            2,
            "tendays engine: serve a built-in bot, not another engine",
        ),
        (
            ["admin", "backup", "copy.db", "--db", "postgresql://h/db"],
            1,
            "tendays admin: backup copies SQLite files",
        ),
    ],
)
def test_a_refusal_names_its_command_and_exits_with_its_status(
    argv: list[str],
    status: int,
    said: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LANGUAGE", "en")
    assert main(argv) == status
    out, err = capsys.readouterr()
    assert err.startswith(said) and err.endswith("\n") and err.count("\n") == 1 and out == ""
