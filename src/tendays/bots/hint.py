"""Hints for players: how far the rack is from a complete journey, and which days to change.

The sentence is in the current language (:func:`tendays.engine.i18n.use_language`) or in ``lang``.
"""

from __future__ import annotations

from dataclasses import dataclass

from tendays.engine import PlayerView
from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import join_list, ngettext, use_language

from .distance import analyze

__all__ = ["Hint", "hint"]


@dataclass(frozen=True, slots=True)
class Hint:
    """The viewer's journey distance, the days to change for one shortest completion, and a sentence."""

    distance: int
    days: tuple[int, ...]
    message: str


def hint(view: PlayerView, *, lang: str | None = None) -> Hint:
    """How close the viewer's rack is to a complete journey (empty days count as days to fill)."""
    with use_language(lang):
        if view.rack is None:
            raise ValueError(_("a spectator has no rack to give a hint for"))
        analysis = analyze(view.edition, view.rack)
        days = analysis.days_to_change
        if analysis.distance == 0:
            return Hint(0, (), _("Your journey is complete."))
        return Hint(analysis.distance, days, _advice(analysis.distance,
                                                     [d for d in days if view.rack[d - 1] is None],
                                                     [d for d in days if view.rack[d - 1] is not None]))


def _advice(distance: int, empty: list[int], change: list[int]) -> str:
    """The sentence for ``distance`` tiles: days to fill and days to change (``distance`` days in all)."""
    facts = {"count": distance, "fill": join_list(empty), "change": join_list(change)}
    if not change:
        return ngettext("{count} tile from a complete journey: fill day {fill}",
                        "{count} tiles from a complete journey: fill days {fill}", distance).format(**facts)
    if not empty:
        return ngettext("{count} tile from a complete journey: change day {change}",
                        "{count} tiles from a complete journey: change days {change}", distance).format(**facts)
    # Both: at least two tiles. Each list may hold one day or several.
    if len(empty) == 1 and len(change) == 1:
        message = ngettext("{count} tile from a complete journey: fill day {fill} and change day {change}",
                           "{count} tiles from a complete journey: fill day {fill} and change day {change}", distance)
    elif len(empty) == 1:
        message = ngettext("{count} tile from a complete journey: fill day {fill} and change days {change}",
                           "{count} tiles from a complete journey: fill day {fill} and change days {change}",
                           distance)
    elif len(change) == 1:
        message = ngettext("{count} tile from a complete journey: fill days {fill} and change day {change}",
                           "{count} tiles from a complete journey: fill days {fill} and change day {change}",
                           distance)
    else:
        message = ngettext("{count} tile from a complete journey: fill days {fill} and change days {change}",
                           "{count} tiles from a complete journey: fill days {fill} and change days {change}",
                           distance)
    return message.format(**facts)
