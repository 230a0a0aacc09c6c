"""Names that look alike share one key (UTS #39's confusable skeleton, through ICU), and names that
look different do not; revision 0007 computes the same key for the rows already stored."""

from __future__ import annotations

import importlib.util
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tendays.server.matches.lookalikes import name_skeleton
from tendays.server.storage.schema import MIGRATIONS

# (a name, names a reader cannot tell from it)
LOOK_ALIKE = [
    ("Alice", ["\u0410lice", "Alic\u0435", "AIice", "ALICE", "alice", "\uff21lice", "Al\u200bice", " Alice  "]),
    ("NIKE", ["\u039d\u0399\u039a\u0395", "nike"]),  # Greek capitals
    ("Bob", ["B\u03bfb", "B0b"]),  # a Greek omicron, a zero
    ("Player One", ["Player  One", "P1ayer One"]),
    ("Easy bot", ["Easy b\u043et"]),  # a Cyrillic o
]
# pairs that merely share letters, or differ by one that shows
DIFFERENT = [("Alice", "Alina"), ("Bob", "Rob"), ("Anna", "Anne"), ("Émile", "Emile"), ("Zoë", "Zoe")]


@pytest.mark.parametrize(("name", "alike"), LOOK_ALIKE)
def test_names_a_reader_cannot_tell_apart_share_a_key(name: str, alike: list[str]) -> None:
    for other in alike:
        assert name_skeleton(other) == name_skeleton(name), (name, other)


@pytest.mark.parametrize(("name", "other"), DIFFERENT)
def test_names_that_look_different_keep_their_own_keys(name: str, other: str) -> None:
    assert name_skeleton(name) != name_skeleton(other)


def revision_0007() -> ModuleType:
    path = MIGRATIONS / "versions" / "0007_one_seat.py"
    spec = importlib.util.spec_from_file_location("revision_0007", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MIGRATION = revision_0007()


@pytest.mark.parametrize("name", [name for pair in LOOK_ALIKE for name in (pair[0], *pair[1])])
def test_the_migration_keys_stored_names_as_the_server_does(name: str) -> None:
    assert MIGRATION.name_skeleton(name) == name_skeleton(name)


@settings(max_examples=30, deadline=None)
@given(st.text(min_size=1, max_size=32))
def test_the_migration_keys_any_text_as_the_server_does(name: str) -> None:
    assert MIGRATION.name_skeleton(name) == name_skeleton(name)
