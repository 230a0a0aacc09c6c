"""The requests and answers of challenges (``/api/challenges``), as the API page describes them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from ...people.challenge_types import ChallengeStatus, DeclineReason
from ..routing import STRICT
from .lobby_models import OptionsRequest, PaceRequest

__all__ = ["AcceptAnswer", "ChallengeAnswer", "ChallengeList", "ChallengeRequest", "DeclineRequest"]


class ChallengeRequest(BaseModel):
    model_config = STRICT

    to: str | None = Field(
        max_length=128,
        description="the challenged player's name; null for an open link that the first "
        "signed-in taker accepts",
        examples=["alice"],
    )
    edition: str = Field(max_length=32, description="the edition's id", examples=["usa"])
    options: OptionsRequest = Field(
        default_factory=lambda: OptionsRequest.model_validate({}),
        description="the rule options (for two players)",
    )
    clock: PaceRequest | None = Field(None, description="the clock: null (the default) for none")
    rated: bool = Field(False, description="whether the result moves both players' ratings")


class DeclineRequest(BaseModel):
    model_config = STRICT

    reason: DeclineReason = Field(
        DeclineReason.GENERIC,
        strict=False,  # the enum's value as JSON text
        description="why, shown to the challenger in their language: "
        + ", ".join(reason.value for reason in DeclineReason),
    )


class ChallengeAnswer(BaseModel):
    id: str = Field(description="the challenge's id")
    from_: str = Field(alias="from", description="the challenger's name")
    to: str | None = Field(description="the challenged player's name; null for an open link")
    edition: str
    options: dict[str, Any] = Field(description="the rule options asked for")
    clock: dict[str, Any] | None = Field(description="the clock asked for; null: none")
    rated: bool
    status: ChallengeStatus = Field(
        description="open: waiting for an answer; accepted: the game is made (see game); "
        "declined: see reason; cancelled: by the challenger; expired: nobody answered in time"
    )
    reason: DeclineReason | None = Field(description="why it was declined; null otherwise")
    reason_said: str | None = Field(
        description="the decline's reason in the reader's language; null if not declined"
    )
    expires_at: float = Field(description="when an open challenge lapses (Unix seconds)")
    url: str = Field(description="the challenge's page, /challenge/{id}")
    game: str | None = Field(description="the game's id once accepted; null until then")


class ChallengeList(BaseModel):
    incoming: list[ChallengeAnswer] = Field(description="the open challenges to you")
    outgoing: list[ChallengeAnswer] = Field(
        description="your open challenges, and those answered or expired in the last 10 minutes"
    )


class AcceptAnswer(BaseModel):
    game: str = Field(description="the game's id")
    token: str = Field(description="your seat's secret token in the game")
    url: str = Field(description="your seat link, /play/{id}#token={token}")
