"""Table chat over the socket: seated players write, everyone reads, spectators only read; limits on
length and rate; plain text kept as typed; stored with the game and shown again after a restart."""

from __future__ import annotations

from typing import Any

import pytest
from server_helpers import HUMAN, TestClient, join, new_game, open_table, settings
from starlette.testclient import WebSocketTestSession

from tendays.server.face.app import Limits, create_app

Message = dict[str, Any]


def next_of(ws: WebSocketTestSession, kind: str) -> Message:
    for _ in range(50):
        message: Message = ws.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message came")


def new_lines(ws: WebSocketTestSession) -> list[Message]:
    """The lines of the next ``chat`` message: a line alone does not send the table again."""
    message = next_of(ws, "chat")
    lines: list[Message] = message["chat"]
    return lines


HTML = '<img src=x onerror=alert(1)> <b>hi</b> & "you"'


def test_chat_reaches_everyone_at_the_table_as_plain_text(client: TestClient) -> None:
    alice = new_game(client, [HUMAN, HUMAN])
    bob = join(client, alice["id"])
    with (
        open_table(client, alice["id"], alice["token"]) as ws_a,
        open_table(client, alice["id"], bob["token"]) as ws_b,
        open_table(client, alice["id"]) as ws_watch,
    ):
        for ws in (ws_a, ws_b, ws_watch):
            first = next_of(ws, "state")
            assert first["game"]["chat"] == [] and first["game"]["chat_from"] == 0
        ws_a.send_json({"type": "chat", "text": f"  {HTML}\n  Good luck!  "})
        for ws in (ws_a, ws_b, ws_watch):
            line = new_lines(ws)[-1]
            assert line["text"] == f"{HTML} Good luck!"  # one line, spaces collapsed, the markup kept as text
            assert (line["seat"], line["name"], line["kind"]) == (0, "Alice", "chat")
        ws_watch.send_json({"type": "chat", "text": "can I talk?"})
        refusal = next_of(ws_watch, "error")
        assert refusal["code"] == "forbidden" and "spectators read the table's chat" in refusal["message"]
        ws_b.send_json({"type": "chat", "text": "Well played!"})
        message = next_of(ws_a, "chat")  # only the new line
        assert message["chat_from"] == 1 and [c["text"] for c in message["chat"]] == ["Well played!"]
    with open_table(client, alice["id"]) as ws_late:  # a newcomer's first table has every line
        assert [c["text"] for c in next_of(ws_late, "state")["game"]["chat"]] == [f"{HTML} Good luck!", "Well played!"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("x" * 301, "at most 300 characters, not 301"),
        ("", "at least one visible character"),
        ("\u200b\u200d ", "at least one visible character"),
        ("bell\x07", "control characters"),
        ("\u202eevil", "change the direction of text"),
        ("a\U0001bca0b", "the character U+1BCA0"),  # a shorthand format control
        (42, "a chat message is a text"),
    ],
)
def test_bad_chat_lines_are_refused_in_words(client: TestClient, text: Any, words: str) -> None:
    alice = new_game(client, [HUMAN])
    with open_table(client, alice["id"], alice["token"]) as ws:
        next_of(ws, "state")
        ws.send_json({"type": "chat", "text": text})
        refusal = next_of(ws, "error")
        assert refusal["code"] == "malformed" and words in refusal["message"], refusal


def test_chat_has_a_rate_limit(db_url: str) -> None:
    with TestClient(create_app(db_url, settings(chat_lines=3, chat_window=60.0), Limits())) as client:
        alice = new_game(client, [HUMAN])
        with open_table(client, alice["id"], alice["token"]) as ws:
            next_of(ws, "state")
            for number in range(3):
                ws.send_json({"type": "chat", "text": f"line {number}"})
                assert new_lines(ws)[-1]["text"] == f"line {number}"
            ws.send_json({"type": "chat", "text": "one too many"})
            refusal = next_of(ws, "error")
            assert refusal["code"] == "rate_limited" and "at most 3 chat messages in 60 seconds" in refusal["message"]


def test_chat_is_stored_with_the_game_and_shown_in_the_replay(db_url: str) -> None:
    with TestClient(create_app(db_url, settings())) as client:
        alice = new_game(client, [HUMAN], turn_limit=1, days=2)
        with open_table(client, alice["id"], alice["token"]) as ws:
            table = next_of(ws, "state")
            ws.send_json({"type": "chat", "text": "gg 🧑‍🤝‍🧑"})
            new_lines(ws)
            while table["game"]["status"] != "over":
                moves = table["game"]["legal_moves"]
                if moves:
                    ws.send_json({"type": "move", "move": moves[0]["text"], "version": table["version"]})
                table = next_of(ws, "state")
    with TestClient(create_app(db_url, settings())) as client, open_table(client, alice["id"]) as ws:
        replay = next_of(ws, "state")["game"]  # the ended game, as a spectator opens it later
        assert replay["status"] == "over" and [c["text"] for c in replay["chat"]] == ["gg 🧑‍🤝‍🧑"]
