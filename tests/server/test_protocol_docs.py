"""docs/protocol.md's WebSocket section names exactly the table's vocabulary: the message kinds a
client sends and the server sends, the error codes, the end reasons and the kinds of chat line, and
its REST section the kinds of pace, as :mod:`tendays.server.vocabulary` declares them; and the table
socket handles every kind a client may send after its hello. Docs and code cannot drift apart."""

from __future__ import annotations

import re
from pathlib import Path

from tendays.server.face.sockets.table_requests import handled_kinds
from tendays.server.vocabulary import (
    ChatKind,
    ClientKind,
    EndReason,
    PaceKind,
    RejectionCode,
    ServerKind,
)

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"

_TYPE = re.compile(r'\{"type": "(\w+)"')


def _section(text: str, start: str, end: str) -> str:
    """The text from the line ``start`` up to the line ``end``."""
    lines = text.splitlines()
    first = lines.index(start)
    last = lines.index(end, first + 1)
    return "\n".join(lines[first + 1 : last])


def _websocket() -> str:
    return _section(PROTOCOL.read_text(encoding="utf-8"), "## WebSocket `/ws/games/{id}`", "## Bot API")


def _bullets(section: str) -> list[str]:
    """The items of a Markdown list, each with its continuation lines."""
    return [item for item in re.split(r"^- ", section, flags=re.MULTILINE)[1:]]


def _first_types(section: str) -> list[str]:
    """The message kind each item of a list opens with."""
    kinds = []
    for item in _bullets(section):
        found = _TYPE.match(item.lstrip("`"))
        if found:
            kinds.append(found.group(1))
    return kinds


def test_the_docs_list_every_kind_a_client_sends_and_no_other() -> None:
    websocket = _websocket()
    hello = _TYPE.search(websocket)
    assert hello is not None and hello.group(1) == ClientKind.HELLO  # the section opens with it
    after_hello = _first_types(_section(websocket, "Client to server:", ""))
    assert sorted([ClientKind.HELLO.value, *after_hello]) == sorted(ClientKind)
    assert len(after_hello) == len(set(after_hello))


def test_the_docs_list_every_kind_the_server_sends_and_no_other() -> None:
    websocket = _websocket()
    listed = _first_types(_section(websocket, "Server to client:", "More about `state`:"))
    answers = re.findall(r'answered with `\{"type": "(\w+)"\}`', websocket)
    assert sorted(listed + answers) == sorted(ServerKind)


def test_the_docs_name_every_error_code_and_no_other() -> None:
    error = next(
        item
        for item in _bullets(_section(_websocket(), "Server to client:", "More about `state`:"))
        if item.startswith(f'`{{"type": "{ServerKind.ERROR}"')
    )
    codes_said = re.search(r'"code": ((?:"\w+"(?: \| )?)+)', error)
    assert codes_said is not None
    codes = re.findall(r'"(\w+)"', codes_said.group(1))
    assert codes == [code.value for code in RejectionCode]


def test_the_docs_name_every_end_reason_and_no_other() -> None:
    ended = re.search(r'"ended": null((?: \| "\w+")+)', _websocket())
    assert ended is not None
    assert re.findall(r'"(\w+)"', ended.group(1)) == [reason.value for reason in EndReason]


def test_the_docs_name_every_chat_kind_and_no_other() -> None:
    chat = re.search(r'"chat": \[\{[^]]*?"kind": ((?:"\w+"(?: \| )?)+)', _websocket())
    assert chat is not None
    assert re.findall(r'"(\w+)"', chat.group(1)) == [kind.value for kind in ChatKind]


def test_the_docs_name_every_pace_kind_and_no_other() -> None:
    rest = _section(
        PROTOCOL.read_text(encoding="utf-8"),
        "## REST (OpenAPI at `/docs` and `/openapi.json`)",
        "## Accounts and sessions",
    )
    pace = next(item for item in _bullets(rest) if item.startswith("`pace`:"))
    assert re.findall(r'\{"kind": "(\w+)"', pace) == [kind.value for kind in PaceKind]


def test_the_table_handles_every_kind_after_the_hello() -> None:
    assert handled_kinds() == [kind for kind in ClientKind if kind != ClientKind.HELLO]
