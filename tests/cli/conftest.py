"""The terminal tests read the language from ``--lang`` and the editions,
never from the machine's locale."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def no_locale_from_the_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
