"""The requests and answers of a person's moderation calls (reports and blocks), as the API page
describes them."""

from __future__ import annotations

from pydantic import BaseModel, Field

from ...people.moderation_types import ReportReason
from ...people.reports import REPORT_TEXT
from ..routing import ID_PATTERN, STRICT

__all__ = ["BlockAnswer", "BlockList", "BlockedPlayer", "ReportReceipt", "ReportRequest"]


class ReportRequest(BaseModel):
    model_config = STRICT

    player: str = Field(min_length=1, max_length=64, description="the reported player's name")
    reason: str = Field(
        max_length=16, description="why: " + ", ".join(reason.value for reason in ReportReason)
    )
    game: str | None = Field(
        default=None,
        max_length=32,
        pattern=ID_PATTERN,
        description="the game it happened in: one the player sat at (optional)",
    )
    text: str = Field(
        default="",
        # room for line breaks sent as two characters: the words say the limit itself
        max_length=2 * REPORT_TEXT,
        description=f"a few words for the operator: at most {REPORT_TEXT} characters, no control "
        "characters but line breaks",
    )


class ReportReceipt(BaseModel):
    id: int = Field(description="the report's number")
    new: bool = Field(
        description="false: the same report (this player, this game) was already open, and still is"
    )


class BlockedPlayer(BaseModel):
    name: str
    since: float = Field(description="when the block began, Unix seconds")


class BlockList(BaseModel):
    players: list[BlockedPlayer] = Field(description="everyone the signed-in person blocks")


class BlockAnswer(BaseModel):
    name: str = Field(description="the player's name as they wrote it")
    blocked: bool = Field(description="whether the signed-in person now blocks them")
