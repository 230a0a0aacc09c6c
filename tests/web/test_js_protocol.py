"""The browser's names for the server's closed sets (web/static/js/shared/protocol.js) are the
server's: every StrEnum of tendays.server.vocabulary a browser reads, a tournament's kind and status
and a challenge's status, is one frozen object there, with the same members in the same order and
the same words, and the file holds nothing else."""

from __future__ import annotations

import re
from enum import StrEnum
from pathlib import Path

from tendays.server import vocabulary
from tendays.server.people.challenge_types import ChallengeStatus
from tendays.server.people.tournament_rules import TournamentKind
from tendays.server.people.tournament_spec import TournamentStatus

STATIC_JS = Path(__file__).resolve().parents[2] / "src" / "tendays" / "web" / "static" / "js"
PROTOCOL_JS = STATIC_JS / "shared" / "protocol.js"

OBJECT = re.compile(r"^export const (\w+) = Object\.freeze\(\{\n(.*?)\n\}\);$", re.S | re.M)
MEMBER = re.compile(r'^  ([A-Z][A-Z_]*): "([a-z_]+)",$')
EXPORT = re.compile(r"^export\b", re.M)

# said only between server processes: no browser reads it
SERVER_ONLY = {vocabulary.ChangeKind.__name__}


def js_vocabularies(source: str) -> dict[str, list[tuple[str, str]]]:
    """Each exported frozen object of protocol.js as its (name, word) pairs, in order."""
    objects: dict[str, list[tuple[str, str]]] = {}
    for name, body in OBJECT.findall(source):
        members = []
        for line in body.splitlines():
            match = MEMBER.match(line)
            assert match, f'{name}: {line!r} is not a member written as  NAME: "word",'
            members.append((match[1], match[2]))
        objects[name] = members
    exports = len(EXPORT.findall(source))
    assert exports == len(objects), "protocol.js exports only its frozen objects"
    return objects


def python_vocabularies() -> dict[str, list[tuple[str, str]]]:
    """Each StrEnum the browser reads as its (name, value) pairs, in order."""
    enums = [getattr(vocabulary, name) for name in vocabulary.__all__]
    enums += [TournamentKind, TournamentStatus, ChallengeStatus]
    return {
        enum.__name__: [(member.name, member.value) for member in enum]
        for enum in enums
        if isinstance(enum, type) and issubclass(enum, StrEnum) and enum.__name__ not in SERVER_ONLY
    }


def test_the_browser_names_exactly_the_servers_members() -> None:
    server = python_vocabularies()
    assert server, "the server's vocabulary exports its StrEnums"
    assert js_vocabularies(PROTOCOL_JS.read_text("utf-8")) == server


def test_a_member_missing_or_extra_in_the_browser_is_seen() -> None:
    source = PROTOCOL_JS.read_text("utf-8")
    server = python_vocabularies()
    assert js_vocabularies(source.replace('  STALE: "stale",\n', "")) != server
    extra = source.replace('  BOT: "bot",\n', '  BOT: "bot",\n  ROBOT: "robot",\n')
    assert js_vocabularies(extra) != server
    assert js_vocabularies(source.replace('OVER: "over"', 'OVER: "ended"')) != server
