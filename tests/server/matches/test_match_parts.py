"""The match master's shape: one object composing its helpers, each reading it through a named Protocol."""

from __future__ import annotations

import importlib
import inspect
import typing
from pathlib import Path

import pytest
from server_helpers import close_lobby, open_lobby

from tendays.server.matches.absence import Absence, AbsentTable
from tendays.server.matches.chat import Chat, ChatTable
from tendays.server.matches.following import FollowedTable, Follower
from tendays.server.matches.master import Match
from tendays.server.matches.seat_bots import BotTable, SeatBots

MATCH_MODULES = (
    "matches.master",
    "matches.absence",
    "matches.chat",
    "matches.following",
    "matches.seat_bots",
    "matches.timing",
    "settings",
    "matches.thinking",
)
HELPERS = (
    (Chat, ChatTable, "chat"),
    (Absence, AbsentTable, "absence"),
    (SeatBots, BotTable, "bots"),
    (Follower, FollowedTable, "follower"),
)


def protocol_members(protocol: type) -> set[str]:
    """The names a Protocol asks for, its own and those of the Protocols it extends: annotated
    attributes, properties and methods."""
    names: set[str] = set()
    for layer in protocol.__mro__:
        if not getattr(layer, "_is_protocol", False) or layer is typing.Protocol:
            continue
        names |= set(vars(layer).get("__annotations__", {}))
        names |= {name for name, value in vars(layer).items() if callable(value) or isinstance(value, property)}
    return {name for name in names if not name.startswith("_")}


@pytest.mark.parametrize("name", MATCH_MODULES)
def test_no_class_of_the_match_is_built_on_another_server_class(name: str) -> None:
    module = importlib.import_module(f"tendays.server.{name}")
    for _, cls in inspect.getmembers(module, inspect.isclass):
        if cls.__module__ != module.__name__:
            continue
        # A Protocol may extend a Protocol (an interface, not a slice of behaviour).
        is_protocol = getattr(cls, "_is_protocol", False)
        inherited = [
            base.__qualname__
            for base in cls.__mro__[1:]
            if base.__module__.startswith("tendays.server")
            and not (is_protocol and getattr(base, "_is_protocol", False))
        ]
        assert not inherited, f"{cls.__qualname__} is built on {inherited}"
        assert "provided by" not in inspect.getsource(cls)


async def test_the_match_composes_each_helper_and_answers_all_its_protocol_asks(tmp_path: Path) -> None:
    lobby = open_lobby(f"sqlite:///{tmp_path / 'games.db'}")
    try:
        match, _ = await lobby.create("usa", [("human", None), ("bot", "random")], {}, "Alice")
        assert type(match).__mro__ == (Match, object)
        for helper, protocol, attribute in HELPERS:
            assert isinstance(getattr(match, attribute), helper)
            members = protocol_members(protocol)
            assert members, protocol.__name__
            missing = sorted(name for name in members if not hasattr(match, name))
            assert not missing, f"the match lacks {missing} of {protocol.__name__}"
    finally:
        await close_lobby(lobby)
