"""A lesson as data: the deal, every move of the guided game, and the moments when a rule first
matters.

A lesson file (``lessons/<edition>.json``) holds a game record (edition, options, seed, moves: the
newcomer's and the bots') with the seat the newcomer plays, the bot the others were played by, and
``notes``: for each move at which a rule first matters, the topics to explain there.
:func:`find_moments` finds those moments in any game from the engine's own states;
``tools/make_lessons.py`` chooses a deal where every topic occurs, and the tests prove that each
lesson's notes are exactly what the engine says happens.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from importlib import resources
from typing import Any

from tendays.engine import (
    GameRecord,
    Move,
    MoveKind,
    Options,
    RecordError,
    Role,
    State,
    apply,
    available_editions,
    checker_for,
    load_edition,
    new_game,
)
from tendays.engine.i18n import gettext as _

__all__ = [
    "FORMAT",
    "Lesson",
    "LessonError",
    "Topic",
    "available_lessons",
    "find_moments",
    "link_kinds",
    "load_lesson",
]

FORMAT = "tendays-lesson/1"


class LessonError(ValueError):
    """A lesson that is missing, malformed, or does not replay."""


class Topic(StrEnum):
    """A rule the guided game explains, once, the first time it matters."""

    DRAFT = "draft"  # filling the racks
    NEIGHBOURS = "neighbours"  # two regions side by side share a border
    LINK = "link"  # an airplane or train joins two regions of its colour
    SKIP = "skip"  # a car or bus stands for one region bordering both ends
    TURN = "turn"  # the racks are full: each turn, take a tile, then place or discard it
    DRAW = "draw"  # taking the top tile of the draw pile
    TAKE = "take"  # taking the top tile of a discard pile
    REPLACE = "replace"  # putting the tile on a day, the old one onto a discard pile
    DISCARD = "discard"  # putting the tile straight onto a discard pile
    EMPTIED_PILE = "emptied-pile"  # whoever takes a pile's last tile discards onto that pile
    RESHUFFLE = "reshuffle"  # the discard piles (all but their tops) become the new draw pile
    WIN = "win"  # a complete journey wins at once


_KIND_TOPIC = {
    MoveKind.DRAFT: Topic.DRAFT,
    MoveKind.DRAW: Topic.DRAW,
    MoveKind.TAKE: Topic.TAKE,
    MoveKind.REPLACE: Topic.REPLACE,
    MoveKind.DISCARD: Topic.DISCARD,
}
_ROLE_TOPIC = {Role.LINK: Topic.LINK, Role.SKIP: Topic.SKIP}


def link_kinds(state: State, seat: int) -> dict[Topic, tuple[int, ...]]:
    """Each kind of working link in ``seat``'s rack (neighbours, link, skip),
    with the days of its first one."""
    rack = state.racks[seat]
    found: dict[Topic, tuple[int, ...]] = {}
    for link in checker_for(state.edition).check(rack).links:
        if not link.ok:
            continue
        if link.via_day is None:
            found.setdefault(Topic.NEIGHBOURS, (link.from_day, link.to_day))
        else:
            via = rack[link.via_day - 1]
            assert via is not None
            found.setdefault(
                _ROLE_TOPIC[state.edition.tiles[via].role],
                (link.from_day, link.via_day, link.to_day),
            )
    return found


def find_moments(record: GameRecord, seat: int) -> dict[int, tuple[Topic, ...]]:
    """The moves (0-based numbers) at which a topic first matters to the player at ``seat``, with
    those topics.

    The player's own first draft, first turn, draw, take, replace and discard; the first working
    link of each kind in the player's rack; the player's first taking of a discard pile's last tile;
    the first reshuffle, whoever's draw caused it; and the player's winning move.
    """
    state = new_game(load_edition(record.edition), record.options, record.seed)
    seen: set[Topic] = set()
    moments: dict[int, tuple[Topic, ...]] = {}
    for number, move in enumerate(record.moves):
        after = apply(state, move)
        found: list[Topic] = []
        if state.current == seat:
            if move.kind is not MoveKind.DRAFT:
                found.append(Topic.TURN)
            topic = _KIND_TOPIC.get(move.kind)
            if topic is not None:
                found.append(topic)
            if move.kind is MoveKind.TAKE and len(state.piles[move.a - 1]) == 1:
                found.append(Topic.EMPTIED_PILE)
            if move.kind in (MoveKind.DRAFT, MoveKind.REPLACE):
                found.extend(link_kinds(after, seat))
        if after.reshuffles > state.reshuffles:
            found.append(Topic.RESHUFFLE)
        if after.winner == seat:
            found.append(Topic.WIN)
        new = tuple(dict.fromkeys(t for t in found if t not in seen))
        if new:
            seen.update(new)
            moments[number] = new
        state = after
    return moments


@dataclass(frozen=True)
class Lesson:
    """One guided game: its record, the newcomer's seat, the bot of the
    other seats, and the moments."""

    record: GameRecord
    seat: int
    bot: str
    notes: dict[int, tuple[Topic, ...]]

    @property
    def edition(self) -> str:
        return self.record.edition

    @property
    def options(self) -> Options:
        return self.record.options

    @property
    def moves(self) -> tuple[Move, ...]:
        return self.record.moves

    def to_json(self) -> dict[str, Any]:
        record = self.record.to_json()
        del record["format"]
        return {
            "format": FORMAT,
            **record,
            "seat": self.seat,
            "bot": self.bot,
            "notes": [
                {"move": number, "topics": [str(t) for t in topics]}
                for number, topics in sorted(self.notes.items())
            ],
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Lesson:
        try:
            if data.get("format") != FORMAT:
                raise LessonError(f"not a lesson ({FORMAT}): format {data.get('format')!r}")
            record = GameRecord.from_json(
                {k: data[k] for k in ("edition", "options", "seed", "moves")}
            )
            notes = {int(n["move"]): tuple(Topic(t) for t in n["topics"]) for n in data["notes"]}
            lesson = cls(record, int(data["seat"]), str(data["bot"]), notes)
        except (KeyError, TypeError, ValueError) as error:
            if isinstance(error, LessonError):
                raise
            raise LessonError(f"not a lesson: {error}") from error
        if not 0 <= lesson.seat < lesson.options.players:
            raise LessonError(
                f"lesson seat {lesson.seat + 1} is not a seat of a {lesson.options.players}-player "
                f"game"
            )
        try:
            lesson.record.replay()
        except RecordError as error:
            raise LessonError(str(error)) from error
        return lesson


def available_lessons() -> tuple[str, ...]:
    """The editions that have a lesson, in the order of :func:`available_editions`."""
    folder = resources.files("tendays.learn").joinpath("lessons")
    return tuple(e for e in available_editions() if folder.joinpath(f"{e}.json").is_file())


_LESSONS: dict[str, Lesson] = {}


def load_lesson(edition: str) -> Lesson:
    """The shipped lesson of an edition (read once); ``LessonError``
    names the editions that have one."""
    lesson = _LESSONS.get(edition)
    if lesson is None:
        if edition not in available_lessons():
            raise LessonError(
                _(
                    "there is no guided game for the edition '{edition}'; there is one for {known}"
                ).format(edition=edition[:32], known=", ".join(available_lessons()))
            )
        text = (
            resources.files("tendays.learn")
            .joinpath("lessons", f"{edition}.json")
            .read_text("utf-8")
        )
        lesson = _LESSONS[edition] = Lesson.from_json(json.loads(text))
    return lesson
