"""``tendays serve``: clear refusals before starting, and tokens kept out of logs."""

from __future__ import annotations

import logging

import pytest

from tendays.cli.main import main
from tendays.server.face.door.logs import RedactSecrets


def test_a_database_that_cannot_be_opened_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--db", "nonsense"]) == 2
    assert "tendays serve: cannot open the database 'nonsense'" in capsys.readouterr().err
    assert main(["serve", "--db", "sqlite:////no/such/folder/games.db"]) == 2
    assert "unable to open database file" in capsys.readouterr().err


def test_negative_settings_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--bot-delay", "-1"]) == 2
    assert "--bot-delay cannot be negative" in capsys.readouterr().err


def test_the_wait_before_a_bot_is_offered_is_a_duration(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--bot-offer-after", "soon"])
    assert "argument --bot-offer-after: 'soon' is not a duration such as 45s" in capsys.readouterr().err


def test_seat_tokens_never_reach_a_log() -> None:
    record = logging.LogRecord(
        "uvicorn.error",
        logging.INFO,
        __file__,
        1,
        '%s - "WebSocket %s" [accepted]',
        ("127.0.0.1:5000", "/ws/games/abc?token=s3cr3t-T0ken_x"),
        None,
    )
    assert RedactSecrets().filter(record)
    assert "s3cr3t" not in record.getMessage() and "token=…" in record.getMessage()


@pytest.mark.parametrize(
    "line",
    [
        "GET /health?lang=de&tok%65n=s3cr3t HTTP/1.1",
        "GET /?%74oken=s3cr3t&x=1",
        "GET /?Token=s3cr3t",
        "GET /?my+token=s3cr3t",
        'a hello {"token": "s3cr3t"}',
        'cut short {"type": "hello", "token": "s3cr3',
    ],
)
def test_tokens_are_redacted_however_they_are_spelt(line: str) -> None:
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, "%s", (line,), None)
    assert RedactSecrets().filter(record)
    assert "s3cr3" not in record.getMessage()


def test_websocket_frames_are_kept_out_of_the_log() -> None:
    frame = logging.LogRecord("uvicorn.error", logging.DEBUG, __file__, 1, "< %s", ("TEXT '{...}'",), None)
    assert not RedactSecrets().filter(frame)
