"""The REST lobby's requests and answers (OpenAPI at ``/docs``).

Requests are strictly typed: ``"days": "10"`` is refused, not read as 10, and unknown fields are
refused. Names are checked by :func:`~tendays.server.text.clean_name`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from tendays.bots import bot_names
from tendays.engine import MAX_DAYS, MIN_DAYS

from .text import clean_name
from .timing import Pace

__all__ = ["ERRORS", "BotChoices", "BotInfo", "CreateGame", "EditionInfo", "ErrorAnswer", "GamePage",
           "GameSummary", "Health", "JoinGame", "LevelInfo", "SeatTicket"]

STRICT = ConfigDict(extra="forbid", strict=True)


class SeatRequest(BaseModel):
    model_config = STRICT

    kind: Literal["human", "bot"] = Field(description="a person (who joins by the link) or a bot")
    bot: str | None = Field(None, max_length=64, description=f"for a bot seat, a level or a bot (GET /api/bots): "
                                                             f"one of {', '.join(bot_names())}", examples=["normal"])


class OptionsRequest(BaseModel):
    model_config = STRICT

    days: int = Field(10, ge=MIN_DAYS, le=MAX_DAYS,
                      description="days in each rack (10, or 5 for '5 Days'); how many the tiles allow depends on "
                                  "the edition and the number of seats")
    swap: bool = Field(False, description="the swap variant: a turn may swap two of one's own tiles")
    open_hands: bool = Field(False, description="every rack visible to everyone (for learning)")
    turn_limit: int | None = Field(None, ge=1, le=100_000, description="end with no winner after this many turns")
    first_seat: int | None = Field(None, ge=-100, le=100, description="the seat that takes the first turn, from 0; "
                                                                      "null: chosen by chance", examples=[0])


class PaceRequest(BaseModel):
    model_config = STRICT

    kind: Literal["live", "correspondence"] = Field(description="live: seconds a move, shown as a clock; "
                                                                "correspondence: hours or days a move")
    per_move: int = Field(ge=1, le=366 * 86400, description="seconds each turn may take (the server's limits: "
                                                            "live 10 s to 10 min, correspondence 1 hour to 14 days)",
                          examples=[60])
    bank: int = Field(0, ge=0, le=86400, description="live: extra seconds each seat may spend over the whole game "
                                                     "when a turn takes longer", examples=[120])

    def to_pace(self) -> Pace:
        return Pace(self.kind, float(self.per_move), float(self.bank))


class CreateGame(BaseModel):
    model_config = STRICT

    edition: str = Field(max_length=32, description="the edition's id", examples=["usa"])
    name: str = Field(min_length=1, max_length=128, description="the creator's display name (seat 1): 1 to 32 "
                                                                "characters once normalised")
    seats: list[SeatRequest] = Field(min_length=1, max_length=4, description="every seat; seat 1 must be human")
    options: OptionsRequest = Field(default_factory=lambda: OptionsRequest.model_validate({}))
    pace: PaceRequest | None = Field(None, description="the clock: null (the default) for none")

    _name = field_validator("name")(clean_name)


class JoinGame(BaseModel):
    model_config = STRICT

    name: str = Field(min_length=1, max_length=128, description="the display name at the table (1 to 32 characters)")

    _name = field_validator("name")(clean_name)


class SeatTicket(BaseModel):
    id: str = Field(description="the game's id")
    seat: int = Field(description="the seat taken, from 0")
    token: str = Field(description="the seat's secret token: whoever holds it plays this seat")
    url: str = Field(description="the seat link, /play/{id}#token={token}; it resumes the seat on any device")


class SeatSummary(BaseModel):
    seat: int
    kind: Literal["human", "bot"]
    name: str | None = Field(description="the display name; null for a free seat")
    bot: str | None = Field(description="the bot level of a bot seat")
    taken: bool = Field(description="whether the seat has a player (bots always do)")
    reserved: bool = Field(False, description="a free seat kept for the player of the last game (a rematch)")
    left: bool = Field(False, description="the person left the game; a bot plays the seat")


class GameSummary(BaseModel):
    id: str
    edition: str
    status: Literal["waiting", "playing", "over"] = Field(description="waiting: human seats are free")
    ended: Literal["abandoned", "closed"] | None = Field(None, description="why a game ended before it was played "
                                                                           "out; null otherwise")
    seats: list[SeatSummary]
    options: dict[str, Any] = Field(description="days, swap, open_hands, turn_limit")
    pace: dict[str, Any] | None = Field(description="the clock: kind, per_move and bank (seconds); null: none")
    created: str = Field(description="when the game was created, ISO 8601")
    rematch: str | None = Field(None, description="the id of the rematch offered after this game")


class GamePage(BaseModel):
    games: list[GameSummary]
    page: int = Field(description="this page, from 1")
    pages: int = Field(description="how many pages there are")
    per_page: int
    total: int = Field(description="how many games there are in all")


class EditionInfo(BaseModel):
    id: str
    name: str
    default: bool = Field(description="whether this is the edition played when none is chosen")


class LevelInfo(BaseModel):
    name: str = Field(description="the level's name, for a bot seat's `bot`", examples=["normal"])
    bot: str = Field(description="the bot that plays this level", examples=["greedy"])
    description: str
    rating: float | None = Field(None, description="the level's openskill rating (mu) in the published ladder "
                                                   "tournament (docs/bots.md)", examples=[27.3])


class BotInfo(BaseModel):
    name: str = Field(description="the bot's name, for a bot seat's `bot`", examples=["greedy"])
    description: str


class BotChoices(BaseModel):
    levels: list[LevelInfo] = Field(description="the difficulty levels offered to people, easiest first")
    bots: list[BotInfo] = Field(description="every bot, which a seat may also name directly")
    phrases: list[str] = Field(description="quick chat phrases offered at the table")


class Health(BaseModel):
    status: Literal["ok"]
    games: int = Field(description="unfinished games held by the server")
    version: str


class ErrorAnswer(BaseModel):
    detail: str


ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorAnswer, "description": "no such game"},
    409: {"model": ErrorAnswer, "description": "every seat is taken, or this server cannot play the game "
                                               "(stored under rules it does not know)"},
    413: {"model": ErrorAnswer, "description": "the request body is larger than the server accepts"},
    422: {"model": ErrorAnswer, "description": "the request breaks a rule (the message says which)"},
    429: {"model": ErrorAnswer, "description": "too many requests from this address; see Retry-After"},
    503: {"model": ErrorAnswer, "description": "the server is full or its database is unavailable"},
}
