"""What a tournament is asked to be (:class:`EventSpec`), checked in words before it is stored, and
the words every tournament refusal is made of (:class:`TournamentError`).

The same spec comes from a person (``POST /api/tournaments``) and from the operator (``tendays
admin tournament create`` and ``schedule``), so one function checks both: the kind, the edition
and its options at every table size the event can seat, the pace, an arena's minutes or a Swiss
event's rounds, the table size, the ladder bots and the rating limits.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from tendays import bots
from tendays.engine import Options, load_edition
from tendays.engine.i18n import gettext as _
from tendays.engine.plain_text import text_problem

from ..settings import MasterSettings, Pace
from .ratings import SEEK_LIMITS
from .tournament_rules import TournamentKind

__all__ = [
    "MAX_MINUTES",
    "MAX_NAME",
    "MAX_ROUNDS",
    "EventSpec",
    "TournamentError",
    "TournamentStatus",
    "check_spec",
]

MAX_NAME = 80  # characters in a tournament's name
MAX_MINUTES = 180  # the longest arena
MAX_ROUNDS = 20  # the most Swiss rounds
MAX_AHEAD = 30 * 86400.0  # the latest start, seconds from now


class TournamentStatus(StrEnum):
    UPCOMING = "upcoming"  # before its start: people join
    RUNNING = "running"  # paired by its director
    FINISHED = "finished"  # every game ended; the standings are final
    CANCELLED = "cancelled"  # by the operator: nobody is paired any more


class TournamentError(Exception):
    """A refused request about a tournament: the HTTP status and the reason in words."""

    def __init__(self, status: int, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after


@dataclass(frozen=True)
class EventSpec:
    """A tournament as asked for (or a series' events). ``options``: the rule options as the REST
    lobby takes them (days, swap, ...); ``clock``: the pace, None for none; ``minutes`` (an arena)
    or ``rounds`` (a Swiss event); ``bots``: ladder levels, one bot entrant each."""

    name: str
    kind: TournamentKind
    edition: str
    options: dict[str, Any] = field(default_factory=dict)
    clock: Pace | None = None
    minutes: int | None = None
    rounds: int | None = None
    table_size: int = 2
    rated: bool = True
    bots: tuple[str, ...] = ()
    rating_min: float | None = None
    rating_max: float | None = None
    bots_allowed: bool = False  # bot accounts (programs on the Bot API) may enter

    def row(self) -> dict[str, Any]:
        """The columns an event (or a series) stores of it."""
        return {
            "name": self.name,
            "kind": self.kind.value,
            "edition": self.edition,
            "options": json.dumps(self.options, sort_keys=True),
            "clock": None if self.clock is None else json.dumps(self.clock.to_json()),
            "minutes": self.minutes,
            "rounds": self.rounds,
            "table_size": self.table_size,
            "rated": self.rated,
            "bots": json.dumps(list(self.bots)),
            "rating_min": self.rating_min,
            "rating_max": self.rating_max,
            "bots_allowed": self.bots_allowed,
        }

    @staticmethod
    def of_row(row: Any) -> EventSpec:
        """The spec of a stored event or series."""
        return EventSpec(
            name=str(row.name),
            kind=TournamentKind(row.kind),
            edition=str(row.edition),
            options=dict(json.loads(row.options)),
            clock=None if row.clock is None else Pace.from_json(json.loads(row.clock)),
            minutes=row.minutes,
            rounds=row.rounds,
            table_size=int(row.table_size),
            rated=bool(row.rated),
            bots=tuple(json.loads(row.bots)),
            rating_min=row.rating_min,
            rating_max=row.rating_max,
            bots_allowed=bool(row.bots_allowed),
        )

    def table_sizes(self) -> Sequence[int]:
        """The sizes of table the event may seat: an arena two; a Swiss event its table size or
        less, down to two (a round of few players seats them at one smaller table)."""
        return range(2, self.table_size + 1)


def check_spec(spec: EventSpec, settings: MasterSettings) -> EventSpec:
    """The spec with its name tidied, or :class:`TournamentError` (422) saying what is wrong."""
    try:
        return _checked(spec, settings)
    except ValueError as error:
        raise TournamentError(422, str(error)) from None


def _checked(spec: EventSpec, settings: MasterSettings) -> EventSpec:
    name = " ".join(spec.name.split())
    problem = text_problem(name, _("the tournament's name"))
    if problem is not None:
        raise ValueError(problem)
    if not 1 <= len(name) <= MAX_NAME:
        raise ValueError(_("a tournament's name has 1 to {most} characters").format(most=MAX_NAME))
    if spec.kind is TournamentKind.ARENA:
        _check_arena(spec, settings)
    else:
        _check_swiss(spec)
    edition = load_edition(spec.edition)
    for players in spec.table_sizes():
        try:
            Options.from_json({**spec.options, "players": players}).validate(edition)
        except (TypeError, KeyError) as error:
            raise ValueError(_("the options are not valid: {error}").format(error=error)) from None
    if spec.clock is not None:
        settings.paces.check(spec.clock)
    levels = bots.level_names()
    for level in spec.bots:
        if level not in levels:
            raise ValueError(
                _("'{level}' is not a bot level of the ladder; choose among {levels}").format(
                    level=level, levels=", ".join(levels)
                )
            )
    if len(set(spec.bots)) != len(spec.bots):
        raise ValueError(_("each bot level plays once in a tournament"))
    for limit in (spec.rating_min, spec.rating_max):
        if limit is not None and not SEEK_LIMITS[0] <= limit <= SEEK_LIMITS[1]:
            raise ValueError(
                _("a rating limit lies between {low} and {high}").format(
                    low=f"{SEEK_LIMITS[0]:g}", high=f"{SEEK_LIMITS[1]:g}"
                )
            )
    if (
        spec.rating_min is not None
        and spec.rating_max is not None
        and spec.rating_min > spec.rating_max
    ):
        raise ValueError(_("the lowest rating allowed is above the highest"))
    return EventSpec(**{**spec.__dict__, "name": name})


def _check_arena(spec: EventSpec, settings: MasterSettings) -> None:
    least = settings.tournament_min_minutes
    if spec.rounds is not None:
        raise ValueError(_("an arena lasts some minutes; rounds are for a Swiss tournament"))
    if spec.minutes is None or not least <= spec.minutes <= MAX_MINUTES:
        raise ValueError(
            _("an arena lasts {least} to {most} minutes").format(
                least=f"{least:g}", most=MAX_MINUTES
            )
        )
    if spec.table_size != 2:
        raise ValueError(_("an arena seats two players at each table"))


def _check_swiss(spec: EventSpec) -> None:
    if spec.minutes is not None:
        raise ValueError(_("a Swiss tournament has rounds; minutes are for an arena"))
    if spec.rounds is None or not 1 <= spec.rounds <= MAX_ROUNDS:
        raise ValueError(_("a Swiss tournament has 1 to {most} rounds").format(most=MAX_ROUNDS))
    if not 2 <= spec.table_size <= 4:
        raise ValueError(_("a Swiss tournament seats 2 to 4 players at each table"))
