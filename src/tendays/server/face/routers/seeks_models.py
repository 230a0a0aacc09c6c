"""The requests and answers of quick pairing (``/api/seeks``), as the API page describes them."""

from __future__ import annotations

from pydantic import BaseModel, Field

from ...people.seeks import SeekStatus
from ..routing import STRICT
from .lobby_models import PaceRequest

__all__ = ["RatingRange", "RatingScale", "SeekAnswer", "SeekRequest"]


class RatingRange(BaseModel):
    model_config = STRICT

    min: float | None = Field(
        None, description="the lowest rating of an opponent (-1000 to 1000); null: any"
    )
    max: float | None = Field(
        None, description="the highest rating of an opponent (-1000 to 1000); null: any"
    )


class RatingScale(BaseModel):
    start: float = Field(description="the rating every new player starts at")
    low: float = Field(description="almost every rating is at least this")
    high: float = Field(description="almost every rating is at most this")
    said: str = Field(description="the scale in words, in the reader's language")


class SeekRequest(BaseModel):
    model_config = STRICT

    edition: str = Field(max_length=32, description="the edition's id", examples=["usa"])
    pace: PaceRequest | None = Field(
        None, description="the clock: null (the default) for none; only the same pace is paired"
    )
    rating_range: RatingRange | None = Field(
        None, description="the opponents' ratings (in this edition) to be paired with; null: anyone"
    )


class SeekAnswer(BaseModel):
    id: str = Field(description="the seek's id")
    status: SeekStatus = Field(
        description="open: waiting; paired: a game was made (its id follows once it exists); "
        "cancelled: by its owner or a newer seek of theirs; expired: nobody compatible came in time"
    )
    game: str | None = Field(description="the paired game's id; null while waiting")
    token: str | None = Field(
        None,
        description="your seat's secret token in the paired game (forgotten after 10 "
        "minutes: the seat is your account's, and opens wherever you are "
        "signed in)",
    )
    url: str | None = Field(
        None,
        description="your seat link, /play/{id}#token={token} (or /play/{id} once the "
        "token is forgotten)",
    )
    waited: float = Field(description="seconds since the seek was made")
    offer_bot_after: float = Field(
        description="seconds of waiting after which the page offers a bot instead"
    )
