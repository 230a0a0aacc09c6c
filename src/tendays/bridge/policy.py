"""Which challenges the bridge accepts: its settings, and for a challenge it turns down, the reason
it gives (one of the site's decline reasons, docs/protocol.md "Challenges")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

__all__ = ["ClockChoice", "Decline", "Policy", "RatedChoice"]


class RatedChoice(StrEnum):
    """``--rated``: which challenges by their ``rated`` flag."""

    ANY = "any"
    YES = "yes"  # rated ones only
    NO = "no"  # casual ones only


class ClockChoice(StrEnum):
    """``--clocks``: which challenges by their clock."""

    ANY = "any"
    LIVE = "live"
    CORRESPONDENCE = "correspondence"
    NONE = "none"  # no clock at all


class Decline(StrEnum):
    """The site's reasons for declining a challenge, as the decline call takes them."""

    GENERIC = "generic"
    LATER = "later"  # the bridge is playing as many games as it may
    CLOCK = "clock"
    RATED = "rated"  # "please send me a rated challenge instead"
    CASUAL = "casual"  # "please send me a casual challenge instead"
    EDITION = "edition"


@dataclass(frozen=True)
class Policy:
    """The bridge's settings for challenges. ``editions`` empty: any edition."""

    editions: frozenset[str] = frozenset()
    games: int = 1
    rated: RatedChoice = RatedChoice.ANY
    clocks: ClockChoice = ClockChoice.ANY

    def verdict(self, challenge: Mapping[str, Any], playing: int) -> Decline | None:
        """None to accept ``challenge`` (the event stream's object) while ``playing`` games are
        being played, else the reason to decline it. The first rule broken decides: the edition,
        the clock, rated or casual, then the number of games."""
        if self.editions and challenge.get("edition") not in self.editions:
            return Decline.EDITION
        if not self._clock_fits(challenge.get("clock")):
            return Decline.CLOCK
        rated = bool(challenge.get("rated"))
        if self.rated is RatedChoice.YES and not rated:
            return Decline.RATED
        if self.rated is RatedChoice.NO and rated:
            return Decline.CASUAL
        if playing >= self.games:
            return Decline.LATER
        return None

    def said(self) -> str:
        """The settings in a line of the log."""
        editions = ",".join(sorted(self.editions)) or "any"
        return (
            f"editions {editions}, games at once {self.games}, rated {self.rated}, "
            f"clocks {self.clocks}"
        )

    def _clock_fits(self, clock: object) -> bool:
        if self.clocks is ClockChoice.ANY:
            return True
        if clock is None:
            return self.clocks is ClockChoice.NONE
        kind = clock.get("kind") if isinstance(clock, Mapping) else None
        return kind == self.clocks.value
