"""What the operator decides about the tables (bot pacing, the game cap, clocks, timeouts, chat,
expiry), and the values those settings are made of: a game's pace and the limits on it."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import ngettext

from .vocabulary import PaceKind

__all__ = ["MasterSettings", "Pace", "PaceLimits"]


@dataclass(frozen=True, slots=True)
class Pace:
    """How fast a game is played: ``kind`` is a :class:`~tendays.server.vocabulary.PaceKind` (or
    a word :meth:`PaceLimits.check` refuses); seconds per move and of bank."""

    kind: str
    per_move: float
    bank: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "per_move": self.per_move, "bank": self.bank}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Pace:
        return cls(str(data["kind"]), float(data["per_move"]), float(data.get("bank") or 0.0))

    def describe(self) -> str:
        if self.kind == PaceKind.LIVE:
            bank = f" and a bank of {_duration(self.bank)}" if self.bank else ""
            return f"live: {_duration(self.per_move)} a move{bank}"
        return f"correspondence: {_duration(self.per_move)} a move"


@dataclass(frozen=True, slots=True)
class PaceLimits:
    """What the operator allows a game's pace to be (seconds)."""

    live_min: float = 10
    live_max: float = 600
    bank_max: float = 1800
    correspondence_min: float = 3600
    correspondence_max: float = 14 * 86400

    def check(self, pace: Pace) -> None:
        """Raise ``ValueError`` (in words) for a pace outside the operator's limits."""
        if pace.kind == PaceKind.LIVE:
            low, high = self.live_min, self.live_max
            if not 0 <= pace.bank <= self.bank_max:
                raise ValueError(
                    _("a live game's bank is 0 to {most}, not {given}").format(
                        most=_duration(self.bank_max), given=_duration(pace.bank)
                    )
                )
        elif pace.kind == PaceKind.CORRESPONDENCE:
            low, high = self.correspondence_min, self.correspondence_max
            if pace.bank:
                raise ValueError(
                    _("a correspondence game has no bank; each move has the same time")
                )
        else:
            raise ValueError(
                _("unknown pace '{kind}'; choose live or correspondence").format(kind=pace.kind)
            )
        if not low <= pace.per_move <= high:
            words = (
                _("a live game gives each move {least} to {most}, not {given}")
                if pace.kind == PaceKind.LIVE
                else _("a correspondence game gives each move {least} to {most}, not {given}")
            )
            raise ValueError(
                words.format(
                    least=_duration(low), most=_duration(high), given=_duration(pace.per_move)
                )
            )


def _duration(seconds: float) -> str:
    if seconds >= 86400 and seconds % 86400 == 0:
        days = int(seconds // 86400)
        return ngettext("{n} day", "{n} days", days).format(n=days)
    if seconds >= 3600 and seconds % 3600 == 0:
        hours = int(seconds // 3600)
        return ngettext("{n} hour", "{n} hours", hours).format(n=hours)
    if seconds >= 60 and seconds % 60 == 0:
        minutes = int(seconds // 60)
        return ngettext("{n} minute", "{n} minutes", minutes).format(n=minutes)
    return ngettext("{n} second", "{n} seconds", 1 if seconds == 1 else 2).format(n=f"{seconds:g}")


@dataclass
class MasterSettings:
    """How matches behave. Tests use ``bot_delay=0``."""

    bot_delay: float = 0.8  # seconds before a bot's turn, so people can follow it
    draft_delay: float = 0.2  # seconds before a bot's draft move (the draft has many small moves)
    # Worker processes where bots think (0: on threads of the server process).
    bot_processes: int = field(default_factory=lambda: min(4, max(1, (os.cpu_count() or 2) - 1)))
    max_games: int = 10_000  # unfinished games held at once; beyond it, creating a game is refused
    seed_source: Callable[[], int] = field(default=lambda: secrets.randbits(62))
    paces: PaceLimits = field(default_factory=PaceLimits)  # what a game's clock may be
    stand_in: str = "normal"  # the bot that plays a person's turn when their time runs out
    timeouts_to_bot: int = 3  # turns in a row on the clock before the seat is handed to the bot
    chat_length: int = 300  # characters in a chat message
    chat_lines: int = 5  # chat messages a seat may send ...
    chat_window: float = 15.0  # ... in this many seconds
    # an unfinished game with no move for this long is closed as abandoned
    idle_expiry: float = 14 * 86400.0
    # an ended game is deleted this long after; None: kept forever
    retention: float | None = 90 * 86400.0
    sweep_every: float = 60.0  # seconds between looks for games to expire or delete
    # Several processes on PostgreSQL (tendays.server.storage.cluster): a game whose driving process
    # went away is taken over once its lease runs out, within ``lease_ttl`` plus one
    # ``lease_renew``.
    lease_ttl: float = 10.0
    lease_batch: int = 1000  # games one process takes over at one look
    # Quick pairing ("Play someone now"): after ``bot_offer_after`` seconds of waiting the page
    # offers a game against a bot instead; an open seek lapses after ``seek_expiry``; each process
    # looks for pairs missed in a race every ``pairing_sweep`` seconds.
    bot_offer_after: float = 30.0
    seek_expiry: float = 600.0
    pairing_sweep: float = 0.5
    # Tournaments (people/tournament_director.py): an arena lasts at least this many minutes (tests
    # shorten it); each process's director looks at its tournaments every ``tournament_tick``
    # seconds (and at once when a game ends here); a person may create this many a day.
    tournament_min_minutes: float = 20.0
    tournament_tick: float = 1.0
    tournaments_per_day: int = 5
    # Bot accounts (people/bot_accounts.py): unfinished games one bot account may play at once;
    # accepting a challenge beyond it is refused (a tournament's pairing counts but never refuses).
    bot_games: int = 8
    # The Bot API's streams (face/routers/bot_streams.py) send an empty line after this many idle
    # seconds, and end then if their token was revoked.
    stream_keepalive: float = 7.0
    # Challenges one account may make a minute (besides the hourly limit); 0: no such limit.
    challenges_per_minute: int = 5

    @property
    def lease_renew(self) -> float:
        """Seconds between renewals (and looks for games to take over): a third of the lease."""
        return self.lease_ttl / 3
