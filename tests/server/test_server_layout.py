"""The server's folders show its parts: the HTTP face, people (accounts, ratings, pairing), the matches
and the database, each resting only on the ones below it (face → people → matches → storage →
settings and the vocabulary)."""

from __future__ import annotations

import ast
from importlib import resources
from pathlib import Path

import pytest

SERVER = Path(str(resources.files("tendays.server")))
ROOMS = ("face", "people", "matches", "storage")  # each may import the rooms after it, never one before
TOP = {"__init__.py", "settings.py", "vocabulary.py"}  # under every room


def modules(room: str) -> list[Path]:
    return sorted(path for path in (SERVER / room).rglob("*.py") if "versions" not in path.parts)


def imported(path: Path, room: str) -> set[str]:
    """The server rooms (or ``settings``, ``vocabulary``) a module imports, absolute or relative."""
    package = ["tendays", "server", *path.relative_to(SERVER).parent.parts]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            targets = [".".join([*base, node.module or ""]).strip(".")]
            if not node.module:
                targets = [".".join([*base, alias.name]) for alias in node.names]
        elif isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            continue
        for target in targets:
            parts = target.split(".")
            if parts[:2] == ["tendays", "server"] and len(parts) > 2 and parts[2] != room:
                names.add(parts[2])
    return names


def test_no_module_lies_loose_at_the_top_of_the_server() -> None:
    loose = sorted(path.name for path in SERVER.glob("*.py") if path.name not in TOP)
    assert not loose, f"put {loose} in one of the server's folders: {', '.join(ROOMS)}"
    folders = sorted(path.name for path in SERVER.iterdir() if path.is_dir() and path.name != "__pycache__")
    assert folders == sorted(ROOMS)


@pytest.mark.parametrize("room", ROOMS)
def test_each_room_is_a_package_that_says_what_it_holds(room: str) -> None:
    init = SERVER / room / "__init__.py"
    assert ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))), f"{room}/__init__.py says nothing"
    assert len(modules(room)) > 2


@pytest.mark.slow  # over a second of CPU
@pytest.mark.parametrize("room", ROOMS)
def test_each_room_imports_only_the_rooms_below_it(room: str) -> None:
    allowed = {*ROOMS[ROOMS.index(room) + 1 :], "settings", "vocabulary"}
    for path in modules(room):
        wrong = imported(path, room) - allowed
        assert not wrong, f"{path.relative_to(SERVER)} imports {sorted(wrong)}, a room above {room}"


def test_the_migrations_live_with_the_database() -> None:
    assert (SERVER / "storage" / "migrations" / "env.py").is_file()
    assert sorted((SERVER / "storage" / "migrations" / "versions").glob("0001_*.py"))
