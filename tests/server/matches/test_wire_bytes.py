"""The table socket's messages are encoded once per change with orjson: their bytes are the
standard library's compact JSON of the same values (key order, numbers, and text written as
UTF-8, not escaped), in every language."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from server_helpers import close_lobby, open_lobby

from tendays.engine.i18n import use_language
from tendays.server.matches import messages
from tendays.server.settings import Pace
from tendays.server.vocabulary import RejectionCode


def standard(text: str) -> str:
    """The standard library's compact JSON of the value ``text`` holds."""
    return json.dumps(json.loads(text), ensure_ascii=False, separators=(",", ":"))


async def test_tables_and_chat_are_the_standard_librarys_bytes(tmp_path: Path) -> None:
    lobby = open_lobby(f"sqlite:///{tmp_path / 'games.db'}")
    try:
        match, _ = await lobby.create(
            "germany",
            [("human", None), ("human", None)],
            {},
            "Jürgen <b>",
            Pace("live", 60.0, 120.0),
        )
        await match.join("Zoë & “friends”")
        english = match.subscribe(0)
        with use_language("de"):
            german = match.subscribe(None)
        rng = random.Random(3)
        for turn in range(12):
            seat = match.state.current
            move = rng.choice(match.state.legal_moves())
            await match.submit(seat, str(move), match.version)
            if turn % 4 == 0:
                await match.say(seat, "Grüße… <script>\u2028 ✓")
        sent = english.drain() + german.drain()
    finally:
        await close_lobby(lobby)
    assert any(json.loads(text)["type"] == "chat" for text in sent)
    assert any("ü" in text for text in sent)  # the German log, as written
    for text in sent:
        assert text == standard(text)


def test_every_small_message_is_the_standard_librarys_bytes() -> None:
    built: list[messages.Outgoing] = [
        messages.error_message(RejectionCode.STALE, "la table a changé — réessayez"),
        messages.pong_message(),
        messages.hint_message(2, [1, 4], "zwei Plättchen fehlen"),
        messages.seat_message("abc", 1, "tök"),
        messages.seat_message("abc", None, "t"),
    ]
    values: list[Any] = [json.loads(message.text) for message in built]
    said = "la table a changé — réessayez"
    assert values[0] == {"type": "error", "code": "stale", "message": said}
    for message in built:
        assert message.text == standard(message.text)


def test_clock_figures_are_written_as_the_standard_library_writes_them() -> None:
    # the clock's figures: seconds rounded to 0.1, times since the epoch rounded to 0.001
    rng = random.Random(1)
    figures = [round(rng.uniform(0, 2e9), rng.choice((0, 1, 3))) for _ in range(20_000)]
    figures += [0.0, -0.0, 0.5, 119.9, 1e15]
    for figure in figures:
        assert messages.dumps(figure).decode() == json.dumps(figure)
