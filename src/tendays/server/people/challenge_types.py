"""What a challenge is, in one place: where one stands, why one was declined, and one challenge as
stored (the rules and the table's statements are in :mod:`~tendays.server.people.challenges`)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from tendays.engine.i18n import gettext as _

from ..settings import Pace

__all__ = ["Challenge", "ChallengeStatus", "DeclineReason"]


class ChallengeStatus(StrEnum):
    """Where a challenge stands (``challenges.status``; ``expired`` is also said of an open one
    whose time is up)."""

    OPEN = "open"
    ACCEPTED = "accepted"  # the game follows within a second
    DECLINED = "declined"
    CANCELLED = "cancelled"  # by the challenger
    EXPIRED = "expired"


class DeclineReason(StrEnum):
    """Why a challenge was declined (``challenges.reason``), from lichess's short list."""

    GENERIC = "generic"
    LATER = "later"
    CLOCK = "clock"
    RATED = "rated"
    CASUAL = "casual"
    EDITION = "edition"

    def said(self) -> str:
        """The reason as the challenger reads it, in their language."""
        words = {
            DeclineReason.GENERIC: _("I am not accepting challenges at the moment."),
            DeclineReason.LATER: _("This is not the right time for me, please ask again later."),
            DeclineReason.CLOCK: _("This clock does not suit me, please ask with another one."),
            DeclineReason.RATED: _("Please send me a rated challenge instead."),
            DeclineReason.CASUAL: _("Please send me a casual (unrated) challenge instead."),
            DeclineReason.EDITION: _("I would rather play another edition."),
        }
        return words[self]


@dataclass(frozen=True, slots=True)
class Challenge:
    """One challenge as stored, with its people's names."""

    id: str
    challenger_id: int
    challenger: str
    challenged_id: int | None  # None: an open link
    challenged: str | None
    edition: str
    options: dict[str, Any]
    pace: Pace | None
    rated: bool
    status: ChallengeStatus
    reason: DeclineReason | None
    created: float
    expires_at: float
    answered_at: float | None
    accepter_id: int | None
    game_id: str | None
    challenger_bot: bool = False  # the challenger is a bot account

    @property
    def url(self) -> str:
        return f"/challenge/{self.id}"

    def status_at(self, now: float) -> ChallengeStatus:
        """The status as said at ``now``: an open challenge whose time is up has expired."""
        if self.status is ChallengeStatus.OPEN and self.expires_at <= now:
            return ChallengeStatus.EXPIRED
        return self.status

    def shown_to(self, account_id: int | None) -> bool:
        """Whether this person may read it: its people, and anyone for an open link."""
        return self.challenged_id is None or account_id in (
            self.challenger_id,
            self.challenged_id,
        )
