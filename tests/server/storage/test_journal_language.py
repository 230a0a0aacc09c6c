"""The journal's threads speak the caller's language: what a read or a write says in words (a bot's
name on a profile, a refusal) is in the language of the request that asked, not the server's."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tendays.engine import use_language
from tendays.engine.i18n import current_language
from tendays.server.storage.journal import Journal
from tendays.server.storage.store import Store


def test_a_read_and_a_write_run_in_the_callers_language(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'tendays.db'}")
    journal = Journal(store)

    async def asked_in_german() -> tuple[str, str]:
        try:
            with use_language("de"):
                return await journal.read(current_language), await journal.run(current_language)
        finally:
            await journal.close()

    try:
        assert asyncio.run(asked_in_german()) == ("de", "de")
    finally:
        store.close()
