"""Public events and tiles in words, for logs and user interfaces, in the reader's language.

Both functions write in the current language (:func:`tendays.engine.i18n.use_language`) or in
``lang``.
"""

from __future__ import annotations

from collections.abc import Sequence

from .edition import Edition
from .history import Event, EventKind
from .i18n import Term, ngettext, use_language
from .i18n import gettext as _

__all__ = ["describe_event", "tile_name"]


def tile_name(edition: Edition, tile: int | None, *, lang: str | None = None) -> str:
    """A tile's name for players ("Ohio", "pink airplane", "Kalifornien"); "?" for a hidden tile."""
    return edition.words(lang).name(tile)


def describe_event(
    edition: Edition, event: Event, names: Sequence[str] = (), *, lang: str | None = None
) -> str:
    """One line of the public game log."""
    with use_language(lang):
        return _describe(edition, event, names)


def _describe(edition: Edition, event: Event, names: Sequence[str]) -> str:
    player = event.player
    who = (
        names[player]
        if player is not None and player < len(names)
        else _("Player {number}").format(number=(player or 0) + 1)
    )
    tile = edition.words().tile(event.tile) if event.tile is not None else Term("?")
    kind = event.kind
    day, day2, pile, count = event.day, event.day2, event.pile, event.count
    # TRANSLATORS: lines of the game log. {who} is a player's name, {tile} a tile's name ("Ohio",
    # "pink airplane"); "{tile:the}" is the name with its article ("the car", "das Auto"),
    # "{tile:The}" the same at the start of a sentence.
    if kind is EventKind.DRAFT:
        return _("{who} put a tile on day {day}").format(who=who, day=day)
    if kind is EventKind.REVEAL:
        return _("{tile} is turned up as discard pile {pile}").format(tile=tile, pile=pile)
    if kind is EventKind.START:
        return _("{who} begins").format(who=who)
    if kind is EventKind.DRAW:
        return _("{who} drew from the draw pile").format(who=who)
    if kind is EventKind.TAKE:
        return _("{who} took {tile} from discard pile {pile}").format(who=who, tile=tile, pile=pile)
    if kind is EventKind.SWAP:
        return _("{who} swapped days {day} and {day2}").format(who=who, day=day, day2=day2)
    if kind is EventKind.REPLACE:
        return _("{who} replaced day {day}, discarding {tile} onto pile {pile}").format(
            who=who, day=day, tile=tile, pile=pile
        )
    if kind is EventKind.DISCARD:
        return _("{who} discarded {tile} onto pile {pile}").format(who=who, tile=tile, pile=pile)
    if kind is EventKind.RESHUFFLE:
        return ngettext(
            "The discard piles ({count} tile below the tops) are shuffled into a new draw pile",
            "The discard piles ({count} tiles below the tops) are shuffled into a new draw pile",
            count,
        ).format(count=count)
    if kind is EventKind.WIN:
        return _("{who} completes the journey and wins").format(who=who)
    if kind is EventKind.LIMIT:
        return ngettext(
            "The turn limit ({count} turn) is reached: nobody wins",
            "The turn limit ({count} turns) is reached: nobody wins",
            count,
        ).format(count=count)
    return kind
