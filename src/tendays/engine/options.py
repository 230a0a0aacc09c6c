"""Rule options: the fixed settings of one game, and the limits every game keeps to.

Options are validated against an edition before a game is dealt, and refused in the game's words
(in the current language, :mod:`tendays.engine.i18n`) when they cannot be played.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .edition import Edition
from .i18n import gettext as _
from .i18n import ngettext

__all__ = [
    "KNOWN_RULES",
    "MAX_DAYS",
    "MAX_PLAYERS",
    "MIN_DAYS",
    "PILES",
    "RULES_VERSION",
    "Options",
]

PILES = 3
MAX_PLAYERS = 4
MIN_DAYS = 2
MAX_DAYS = 20

#: The rules this engine plays. A record keeps the version it was played under, so it replays
#: under the same rules after they change (see :class:`Options`).
#:   1: the draw pile was reshuffled at the end of the turn that emptied it.
#:   2: as printed, the reshuffle happens the moment the last tile is drawn, before placing.
RULES_VERSION = 2
KNOWN_RULES = (1, 2)


@dataclass(frozen=True, slots=True)
class Options:
    """Rule options of one game (see docs/rules.md); fixed for the whole game.

    ``first_seat`` is the seat that takes the first turn (0-based); ``None`` leaves it to chance.
    ``rules`` is the version of the rules the game is played under (:data:`RULES_VERSION`).
    """

    players: int = 2
    days: int = 10
    swap: bool = False
    open_hands: bool = False
    turn_limit: int | None = None
    first_seat: int | None = None
    rules: int = RULES_VERSION

    def validate(self, edition: Edition) -> None:
        """Raise ``ValueError``, in the game's words, if these options
        cannot be played with ``edition``."""
        if not 1 <= self.players <= MAX_PLAYERS:
            raise ValueError(
                ngettext(
                    "a game has 1 to {most} player, not {players}",
                    "a game has 1 to {most} players, not {players}",
                    MAX_PLAYERS,
                ).format(most=MAX_PLAYERS, players=self.players)
            )
        if not MIN_DAYS <= self.days <= MAX_DAYS:
            raise ValueError(
                ngettext(
                    "a rack has {least} to {most} day, not {days}",
                    "a rack has {least} to {most} days, not {days}",
                    MAX_DAYS,
                ).format(least=MIN_DAYS, most=MAX_DAYS, days=self.days)
            )
        left = edition.tile_count - self.players * self.days - PILES
        facts = {
            "edition": edition.name,
            "tiles": edition.tile_count,
            "players": self.players,
            "days": self.days,
            "piles": PILES,
            "left": max(left, 0),
        }
        # rules 1 asked only that the racks and piles could be dealt
        if self.rules == 1 and left < 0:
            raise ValueError(
                ngettext(
                    "{edition} has {tiles} tiles: not enough for {players} rack of {days} days and "
                    "{piles} discard piles",
                    "{edition} has {tiles} tiles: not enough for {players} racks of {days} days "
                    "and {piles} discard piles",
                    self.players,
                ).format(**facts)
            )
        if self.rules >= 2 and left < self.players:
            # With fewer tiles left to draw than players, the draw pile is gone before everyone has
            # drawn once, and a handful of tiles would circulate between the piles, perhaps forever.
            most = (edition.tile_count - PILES - self.players) // self.players
            raise ValueError(
                ngettext(
                    "{edition} has {tiles} tiles: {players} rack of {days} days and {piles} "
                    "discard piles would leave {left} in the draw pile, too few for every player "
                    "to draw once; with {players} player a rack has at most {most} days",
                    "{edition} has {tiles} tiles: {players} racks of {days} days and {piles} "
                    "discard piles would leave {left} in the draw pile, too few for every player "
                    "to draw once; with {players} players a rack has at most {most} days",
                    self.players,
                ).format(most=most, **facts)
            )
        if self.turn_limit is not None and self.turn_limit < 1:
            raise ValueError(
                _("the turn limit must be at least 1, not {limit}").format(limit=self.turn_limit)
            )
        if self.first_seat is not None and not 0 <= self.first_seat < self.players:
            raise ValueError(
                ngettext(
                    "the first player must be seat {players}, the only one, not seat {seat}",
                    "the first player must be one of the {players} seats, not seat {seat}",
                    self.players,
                ).format(players=self.players, seat=self.first_seat + 1)
            )
        if self.rules not in KNOWN_RULES:
            raise ValueError(
                _(
                    "rules version {rules} is unknown to this version of tendays (it knows {known})"
                ).format(rules=self.rules, known=", ".join(map(str, KNOWN_RULES)))
            )

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "days": self.days,
            "swap": self.swap,
            "open_hands": self.open_hands,
            "turn_limit": self.turn_limit,
            "first_seat": self.first_seat,
            "rules": self.rules,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], *, rules_if_missing: int = RULES_VERSION) -> Options:
        """Options from their JSON form. ``rules_if_missing`` is the rules version of data that
        names none (records written before rules versions existed were played under version 1)."""
        unknown = set(data) - set(cls.__slots__)
        if unknown:
            raise ValueError(_("unknown options {names}").format(names=sorted(unknown)))
        for key in ("players", "days", "turn_limit", "first_seat", "rules"):
            value = data.get(key)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise ValueError(
                    _("option {key} must be a whole number, not {value}").format(
                        key=repr(key), value=repr(value)
                    )
                )
        for key in ("swap", "open_hands"):
            if key in data and not isinstance(data[key], bool):
                raise ValueError(
                    _("option {key} must be true or false, not {value}").format(
                        key=repr(key), value=repr(data[key])
                    )
                )
        if (
            data.get("players", 2) is None
            or data.get("days", 10) is None
            or data.get("rules", 1) is None
        ):
            raise ValueError(_("options 'players', 'days' and 'rules' cannot be null"))
        return cls(**{"rules": rules_if_missing, **data})
