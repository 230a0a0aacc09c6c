"""The REST lobby's requests and answers (OpenAPI at ``/docs``).

Requests are strictly typed: ``"days": "10"`` is refused, not read as 10, and unknown fields are
refused. Names are checked by :func:`~tendays.server.matches.text.clean_name`. A refused request is
answered in the requester's language (:func:`errors_in_words`).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator

from tendays.bots import bot_names
from tendays.engine import MAX_DAYS, MIN_DAYS

from ...matches.text import clean_name
from ...people.rated_rules import RatedOutcome
from ...settings import Pace
from ...vocabulary import EndReason, MatchStatus, PaceKind, SeatKind
from ..routing import STRICT

__all__ = [
    "BotChoices",
    "BotInfo",
    "CreateGame",
    "EditionInfo",
    "GamePage",
    "GameSummary",
    "GameTournament",
    "Health",
    "JoinGame",
    "LevelInfo",
    "SeatTicket",
]


class SeatRequest(BaseModel):
    model_config = STRICT

    kind: SeatKind = Field(
        strict=False,  # the enum's value as JSON text
        description="a person (who joins by the link) or a bot",
    )
    bot: str | None = Field(
        None,
        max_length=64,
        description=f"for a bot seat, a level or a bot (GET /api/bots): "
        f"one of {', '.join(bot_names())}",
        examples=["normal"],
    )


class OptionsRequest(BaseModel):
    model_config = STRICT

    days: int = Field(
        10,
        ge=MIN_DAYS,
        le=MAX_DAYS,
        description="days in each rack (10, or 5 for '5 Days'); how many the tiles allow depends "
        "on the edition and the number of seats",
    )
    swap: bool = Field(
        False, description="the swap variant: a turn may swap two of one's own tiles"
    )
    open_hands: bool = Field(False, description="every rack visible to everyone (for learning)")
    turn_limit: int | None = Field(
        None, ge=1, le=100_000, description="end with no winner after this many turns"
    )
    first_seat: int | None = Field(
        None,
        ge=-100,
        le=100,
        description="the seat that takes the first turn, from 0; null: chosen by chance",
        examples=[0],
    )


class PaceRequest(BaseModel):
    model_config = STRICT

    kind: PaceKind = Field(
        strict=False,  # the enum's value as JSON text
        description="live: seconds a move, shown as a clock; correspondence: hours or days a move",
    )
    per_move: int = Field(
        ge=1,
        le=366 * 86400,
        description="seconds each turn may take (the server's limits: "
        "live 10 s to 10 min, correspondence 1 hour to 14 days)",
        examples=[60],
    )
    bank: int = Field(
        0,
        ge=0,
        le=86400,
        description="live: extra seconds each seat may spend over the whole game "
        "when a turn takes longer",
        examples=[120],
    )

    def to_pace(self) -> Pace:
        return Pace(self.kind, float(self.per_move), float(self.bank))


class CreateGame(BaseModel):
    model_config = STRICT

    edition: str = Field(max_length=32, description="the edition's id", examples=["usa"])
    name: str = Field(
        min_length=1,
        max_length=128,
        description="the creator's display name (seat 1): 1 to 32 characters once normalised",
    )
    seats: list[SeatRequest] = Field(
        min_length=1, max_length=4, description="every seat; seat 1 must be human"
    )
    options: OptionsRequest = Field(default_factory=lambda: OptionsRequest.model_validate({}))
    pace: PaceRequest | None = Field(None, description="the clock: null (the default) for none")
    rated: bool = Field(
        False,
        description="a rated game: every seat a person, only signed-in people may create "
        "or join it (401 otherwise), and the result moves their ratings",
    )

    _name = field_validator("name")(clean_name)


class JoinGame(BaseModel):
    model_config = STRICT

    name: str = Field(
        min_length=1,
        max_length=128,
        description="the display name at the table (1 to 32 characters)",
    )

    _name = field_validator("name")(clean_name)


class SeatTicket(BaseModel):
    id: str = Field(description="the game's id")
    seat: int = Field(description="the seat taken, from 0")
    token: str = Field(description="the seat's secret token: whoever holds it plays this seat")
    url: str = Field(
        description="the seat link, /play/{id}#token={token}; it resumes the seat on any device"
    )


class SeatSummary(BaseModel):
    seat: int
    kind: SeatKind
    name: str | None = Field(description="the display name; null for a free seat")
    bot: str | None = Field(description="the bot level of a bot seat")
    taken: bool = Field(description="whether the seat has a player (bots always do)")
    reserved: bool = Field(
        False, description="a free seat kept for the player of the last game (a rematch)"
    )
    left: bool = Field(False, description="the person left the game; a bot plays the seat")
    account: bool = Field(
        False,
        description="a signed-in person's seat: the name is a registered account's "
        "(its profile is /players/{name})",
    )
    bot_account: bool = Field(
        False,
        description="the seat's account is a bot account (a program, marked BOT); kind stays "
        '"human"',
    )


class GameTournament(BaseModel):
    id: int = Field(description="the tournament's id")
    name: str = Field(description="the tournament's name")
    url: str = Field(description="its page, /tournaments/{id}")


class GameSummary(BaseModel):
    id: str
    edition: str
    status: MatchStatus = Field(description="waiting: human seats are free")
    ended: EndReason | None = Field(
        None,
        description="why a game ended before it was played out (forfeit: a rated game left to one "
        "person); null otherwise",
    )
    winner: int | None = Field(
        None,
        description="a game won by forfeit: the winner's seat (the person left at it); null "
        "otherwise (a played-out game's winner is in its table and its replay)",
    )
    places: list[int] | None = Field(
        None,
        description="a game won by forfeit: each seat's place (1 the winner, 2 those who left); "
        "null otherwise",
    )
    seats: list[SeatSummary]
    options: dict[str, Any] = Field(description="days, swap, open_hands, turn_limit")
    pace: dict[str, Any] | None = Field(
        description="the clock: kind, per_move and bank (seconds); null: none"
    )
    created: str = Field(description="when the game was created, ISO 8601")
    rematch: str | None = Field(None, description="the id of the rematch offered after this game")
    rated: bool = Field(
        False, description="a rated game: signed-in people only, and the result moves their ratings"
    )
    rated_outcome: RatedOutcome | None = Field(
        None,
        description="once a rated game is over, what its result did: counted, capped (beyond the "
        "repeat cap of the same two accounts), aborted (ended before every person's first move "
        "after the draft) or annulled (by the operator); null otherwise",
    )
    tournament: GameTournament | None = Field(
        None,
        description="the tournament the game belongs to (GET /api/games/{id} only); null: none",
    )


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
    language: str = Field(
        "en", description="the edition's own language, spoken unless a player chooses another"
    )


class LevelInfo(BaseModel):
    name: str = Field(description="the level's name, for a bot seat's `bot`", examples=["normal"])
    bot: str = Field(description="the bot that plays this level", examples=["greedy"])
    description: str
    rating: float | None = Field(
        None,
        description="the level's openskill rating (mu) in the published ladder "
        "tournament (docs/bots.md)",
        examples=[27.3],
    )


class BotInfo(BaseModel):
    name: str = Field(description="the bot's name, for a bot seat's `bot`", examples=["greedy"])
    description: str


class BotChoices(BaseModel):
    levels: list[LevelInfo] = Field(
        description="the difficulty levels offered to people, easiest first"
    )
    bots: list[BotInfo] = Field(description="every bot, which a seat may also name directly")
    phrases: list[str] = Field(description="quick chat phrases offered at the table")


class Health(BaseModel):
    status: Literal["ok"]
    games: int = Field(description="unfinished games held by the server")
    version: str
