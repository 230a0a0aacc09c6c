"""The answers of the following calls (``/api/following``), as the API page describes them."""

from __future__ import annotations

from pydantic import BaseModel, Field

__all__ = ["FollowAnswer", "FollowedPlayer", "FollowingList"]


class FollowAnswer(BaseModel):
    name: str = Field(description="the player's name as they typed it")
    following: bool = Field(description="whether you now follow them")


class FollowedPlayer(BaseModel):
    name: str
    online: bool = Field(description="they have a page of the site open now")
    playing: str | None = Field(
        description="the id of the game they are playing now (watch it at /play/{id}), or null"
    )
    rating: float | None = Field(
        description="their rating in the edition they played most, as their profile shows it; "
        "null before their first rated game"
    )
    edition: str | None = Field(description="the edition of that rating")


class FollowingList(BaseModel):
    following: list[FollowedPlayer] = Field(
        description="the players you follow: those playing first, then those online, then the "
        "others, each part by name"
    )
