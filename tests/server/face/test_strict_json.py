"""JSON as the server and the commands read it: JSON media types in any letter case, and one
bound on nesting, refused in words on a table, in a save and in an engine command."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from server_helpers import HUMAN, TestClient, new_game, open_table, settings

from tendays.cli.engine_cmd import serve
from tendays.cli.main import main
from tendays.cli.tui.save_file import load_save
from tendays.engine import GameRecord, RecordError
from tendays.engine.json_text import MAX_DEPTH, loads
from tendays.server.face.app import Limits, create_app

UNLIMITED = {"creates_per_minute": 0, "joins_per_minute": 0, "connections_per_minute": 0, "connections_at_once": 0}


@pytest.fixture
def app_client(tmp_path: Path) -> Any:
    with TestClient(create_app(f"sqlite:///{tmp_path / 't.db'}", settings(), Limits(**UNLIMITED))) as client:
        yield client


@pytest.mark.parametrize("kind", ["Application/JSON", "APPLICATION/json; charset=utf-8", "application/Vnd.X+JSON"])
def test_json_media_types_are_matched_in_any_letter_case(app_client: TestClient, kind: str) -> None:
    utf16 = json.dumps({"edition": "usa", "name": "Alice", "seats": [HUMAN, HUMAN]}).encode("utf-16")
    deep = b"[" * 200 + b"]" * 200
    big = b'{"edition": "usa", "name": "Alice", "seats": [], "options": {"days": 1' + b"0" * 5000 + b"}}"
    for body in (utf16, deep, big):
        answer = app_client.post("/api/games?lang=de", content=body, headers={"Content-Type": kind})
        assert answer.status_code == 422, (kind, body[:20])
        assert "JSON" in answer.json()["detail"] and "request" not in answer.json()["detail"]  # in German


def test_deep_json_on_a_table_is_malformed_and_the_connection_stays(app_client: TestClient) -> None:
    ticket = new_game(app_client, [HUMAN, HUMAN])
    with open_table(app_client, ticket["id"], ticket["token"]) as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_text("[" * 1900 + "]" * 1900)  # fits in 4 KiB
        answer = ws.receive_json()
        assert answer["type"] == "error" and answer["code"] == "malformed"
        ws.send_json({"type": "ping"})
        assert ws.receive_json()["type"] == "pong"


def test_one_bound_on_json_nesting() -> None:
    assert loads("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    assert loads('["[[[[[[' + "[" * 100 + '"]') is not None  # brackets inside a string do not count
    with pytest.raises(ValueError, match="nested deeper"):
        loads("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    with pytest.raises(RecordError):
        GameRecord.loads('{"moves": ' + "[" * 100_000 + "]" * 100_000 + "}")


def test_deep_json_in_a_save_or_an_engine_command_is_one_clear_refusal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text('{"edition": "usa", "moves": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert main(["replay", str(deep)]) == 2  # `tendays play --resume` reads saves the same way
    refusal = capsys.readouterr().err
    assert refusal.startswith("tendays replay: ") and "nested deeper than 64 levels" in refusal
    with pytest.raises(RecordError, match="nested deeper"):
        load_save(deep)
    sink = io.StringIO()
    assert serve("greedy", 0, io.StringIO("tendays 2\ngo " + "[" * 100_000 + "\nquit\n"), sink) == 0
    assert sink.getvalue().splitlines()[1].startswith("error 'go' needs the view as one JSON object")
