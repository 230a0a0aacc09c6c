"""The answers of the players' calls: a profile (``GET /api/players/{name}``) and a leaderboard
(``GET /api/leaderboard``), as the API page describes them."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from ...people.moderation_types import AccountStatus
from ...people.rated_rules import RatedOutcome

__all__ = ["BotRatings", "Leaderboard", "LeaderboardEntry", "PlayerGame", "PlayerRating", "Profile"]


class PlayerRating(BaseModel):
    rating: float = Field(description="openskill mu, on the scale of the bots' published ratings")
    deviation: float = Field(description="openskill sigma: how uncertain the rating still is")
    games: int = Field(description="rated games played in this edition")
    provisional: bool = Field(
        description="the deviation is still large (a new player): not on the leaderboard"
    )


class RatingPoint(BaseModel):
    game: str = Field(description="the rated game's id")
    at: float = Field(description="when it ended, Unix seconds")
    rating: float
    deviation: float
    change: float = Field(description="how the game moved the rating")


class OtherSeat(BaseModel):
    name: str | None = Field(description="the name at the table (null: a free seat)")
    bot: str | None = Field(description="the bot level of a bot seat")
    place: int | None
    bot_account: bool = Field(
        False, description="the seat's account is a bot account (marked BOT; a program)"
    )
    profile: str | None = Field(
        description="the profile of the account that took the seat (/players/{name}); "
        "null for anonymous, bot and deleted players"
    )


class PlayerGame(BaseModel):
    id: str
    edition: str
    rated: bool
    rated_outcome: RatedOutcome | None = Field(
        None,
        description="what a rated game's result did: counted (moved ratings), capped (the same "
        "two accounts' games beyond the repeat cap: recorded, moved no rating), aborted (ended "
        "before every person's first move after the draft: not rated), annulled (by the "
        "operator); null: unrated, or not decided yet",
    )
    result: Literal["playing", "won", "drawn", "lost", "abandoned", "aborted"] = Field(
        description="drawn: first place shared; abandoned: ended early with no result; aborted: "
        "a rated game ended before every person's first move after the draft (not rated)"
    )
    place: int | None = Field(description="1 for the winner; ties share a place")
    players: int
    others: list[OtherSeat]
    ended: str | None = Field(
        description="why the game ended early (abandoned, closed, forfeit), if it did"
    )
    created: str
    finished_at: float | None
    rating: float | None = Field(description="the rating after this game (rated games)")
    change: float | None = Field(description="how this game moved the rating (rated games)")
    link: str = Field(
        description="the replay (/replay/{id}) of a finished game, else the table to watch"
    )


class Profile(BaseModel):
    name: str
    bot_account: bool = Field(
        False,
        description="a bot account: a program that plays through the Bot API (marked BOT)",
    )
    since: float = Field(description="when the account was made, Unix seconds")
    status: AccountStatus = Field(
        default=AccountStatus.ACTIVE,
        description='"active", or "suspended" or "closed" by the server\'s operator',
    )
    ratings: dict[str, PlayerRating] = Field(description="per edition")
    history: dict[str, list[RatingPoint]] = Field(
        description="per edition, the last 500 rated games, oldest first"
    )
    games: list[PlayerGame] = Field(description="one page of the games played, newest first")
    page: int
    per_page: int
    total: int
    pages: int


class LeaderboardEntry(BaseModel):
    rank: int
    name: str
    bot_account: bool = Field(False, description="a bot account (marked BOT)")
    rating: float
    deviation: float
    games: int


class BotRating(BaseModel):
    level: str
    bot: str
    rating: float
    deviation: float


class BotRatings(BaseModel):
    levels: list[BotRating] = Field(description="each level's published rating (bots/ratings.json)")
    edition: str | None = Field(
        description="the edition of the ladder tournament that measured them"
    )
    players: int | None = Field(description="players at its tables")


class Leaderboard(BaseModel):
    edition: str
    players: list[LeaderboardEntry] = Field(description="people with settled ratings, best first")
    bots: BotRatings
    page: int
    per_page: int
    total: int
    pages: int
