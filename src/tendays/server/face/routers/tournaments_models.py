"""The requests and answers of the tournament calls (``/api/tournaments``), as the API page
describes them."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, Field

from tendays.engine.i18n import gettext as _

from ...people.tournament_rules import TournamentKind
from ...people.tournament_spec import MAX_MINUTES, MAX_NAME, MAX_ROUNDS, EventSpec
from ..routing import STRICT
from .lobby_models import OptionsRequest, PaceRequest

__all__ = [
    "ChatLine",
    "ChatLines",
    "ChatRequest",
    "Created",
    "TournamentList",
    "TournamentRequest",
    "when",
]


class TournamentRequest(BaseModel):
    model_config = STRICT

    name: str = Field(max_length=MAX_NAME, description="the tournament's name")
    kind: TournamentKind = Field(
        strict=False,  # the enum's value as JSON text
        description="arena: a fixed time, paired as soon as two are free; swiss: fixed rounds",
    )
    edition: str = Field(max_length=32, description="the edition's id", examples=["usa"])
    options: OptionsRequest | None = Field(None, description="the rule options of every game")
    clock: PaceRequest | None = Field(None, description="every game's pace; null: no clock")
    minutes: int | None = Field(
        None, ge=1, le=MAX_MINUTES, description="an arena's length (20 to 180 minutes)"
    )
    rounds: int | None = Field(
        None, ge=1, le=MAX_ROUNDS, description="a Swiss tournament's rounds (1 to 20)"
    )
    starts_at: float | str | None = Field(
        None,
        description="the start: Unix seconds or ISO 8601 (UTC unless it says); null: now",
        examples=[1767225600],
    )
    rated: bool = Field(True, description="whether games between people move their ratings")
    bots: list[str] = Field(
        default_factory=list,
        max_length=4,
        description="ladder bot levels that play as entrants (one each); their games are unrated",
    )
    table_size: int = Field(2, ge=2, le=4, description="players at each table (Swiss: 2 to 4)")
    rating_min: float | None = Field(None, description="the lowest rating that may join")
    rating_max: float | None = Field(None, description="the highest rating that may join")
    bots_allowed: bool = Field(
        False, description="bot accounts (programs on the Bot API, marked BOT) may enter"
    )

    def spec(self) -> EventSpec:
        options = {} if self.options is None else self.options.model_dump(exclude_none=True)
        return EventSpec(
            name=self.name,
            kind=TournamentKind(self.kind),
            edition=self.edition,
            options=options,
            clock=None if self.clock is None else self.clock.to_pace(),
            minutes=self.minutes,
            rounds=self.rounds,
            table_size=self.table_size,
            rated=self.rated,
            bots=tuple(self.bots),
            rating_min=self.rating_min,
            rating_max=self.rating_max,
            bots_allowed=self.bots_allowed,
        )


def when(value: float | str | None, now: float) -> float:
    """Unix seconds of a time given as seconds or ISO 8601 (UTC unless it says); ``now`` for
    none; ``ValueError`` in words for a text that is not a time."""
    if value is None:
        return now
    if isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            raise ValueError(
                _("'{value}' is not a time: give Unix seconds or ISO 8601").format(value=value[:40])
            ) from None
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        return moment.timestamp()
    return float(value)


class Created(BaseModel):
    id: int = Field(description="the tournament's id")
    url: str = Field(description="its page, /tournaments/{id}")


class TournamentList(BaseModel):
    tournaments: list[dict[str, Any]] = Field(
        description="each tournament: id, name, kind, status, edition, options, clock, minutes, "
        "rounds, table_size, rated, bots, rating limits, starts_at, ends_at, round, created_by, "
        "entrants"
    )


class ChatRequest(BaseModel):
    model_config = STRICT

    text: str = Field(max_length=2000, description="one line of plain text")


class ChatLine(BaseModel):
    id: int
    name: str = Field(description="who wrote it")
    text: str
    at: float = Field(description="Unix seconds")


class ChatLines(BaseModel):
    lines: list[ChatLine] = Field(description="the latest lines, oldest first")
