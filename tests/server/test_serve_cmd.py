"""``tendays serve``: clear refusals before starting, and tokens kept out of logs."""

from __future__ import annotations

import logging

import pytest

from tendays.cli.main import main
from tendays.cli.serve_cmd import _RedactTokens


def test_a_database_that_cannot_be_opened_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--db", "nonsense"]) == 2
    assert "tendays serve: cannot open the database 'nonsense'" in capsys.readouterr().err
    assert main(["serve", "--db", "sqlite:////no/such/folder/games.db"]) == 2
    assert "unable to open database file" in capsys.readouterr().err


def test_negative_settings_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--bot-delay", "-1"]) == 2
    assert "--bot-delay cannot be negative" in capsys.readouterr().err


def test_seat_tokens_never_reach_a_log() -> None:
    record = logging.LogRecord("uvicorn.error", logging.INFO, __file__, 1, '%s - "WebSocket %s" [accepted]',
                               ("127.0.0.1:5000", "/ws/games/abc?token=s3cr3t-T0ken_x"), None)
    assert _RedactTokens().filter(record)
    assert "s3cr3t" not in record.getMessage() and "token=…" in record.getMessage()
