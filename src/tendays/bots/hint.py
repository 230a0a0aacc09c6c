"""Hints for players: how far the rack is from a complete journey, which days to change, and
where the tile in hand goes (in the draft: the day the greedy bot would draft it onto, and why).

The sentence is in the current language (:func:`tendays.engine.i18n.use_language`) or in ``lang``.
"""

from __future__ import annotations

from dataclasses import dataclass

from tendays.engine import Phase, PlayerView, knowledge_of
from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import join_list, ngettext, use_language

from .distance import analyze
from .greedy import TileOdds, draft_scores

__all__ = ["HandAdvice", "Hint", "hand_advice", "hint"]


@dataclass(frozen=True, slots=True)
class Hint:
    """The viewer's journey distance, the days to change for one
    shortest completion, and a sentence."""

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
        return Hint(
            analysis.distance,
            days,
            _advice(
                analysis.distance,
                [d for d in days if view.rack[d - 1] is None],
                [d for d in days if view.rack[d - 1] is not None],
            ),
        )


@dataclass(frozen=True, slots=True)
class HandAdvice:
    """Where the tile in hand does the most good: ``day`` (0: nowhere,
    discard it) and a sentence."""

    day: int
    message: str


def hand_advice(view: PlayerView, *, lang: str | None = None) -> HandAdvice | None:
    """For the viewer placing a tile in hand: the day where it brings the journey closest to
    complete, or the advice to discard it when it brings it no closer; None when the
    viewer holds no tile to place. In the draft the tile goes onto an empty day."""
    with use_language(lang):
        if view.rack is None or view.in_hand is None or not view.is_my_turn:
            return None
        if view.phase is Phase.DRAFT:
            return _draft_advice(view, view.rack, view.in_hand)
        if view.phase is not Phase.PLACE:
            return None
        rack = view.rack
        now = analyze(view.edition, rack).distance
        placed = [
            (analyze(view.edition, rack[: day - 1] + (view.in_hand,) + rack[day:]).distance, day)
            for day in range(1, len(rack) + 1)
        ]
        distance, day = min(placed)
        if distance >= now:
            return HandAdvice(0, _("the tile in hand brings the journey no closer: discard it"))
        if distance == 0:
            return HandAdvice(
                day, _("the tile in hand completes the journey on day {day}").format(day=day)
            )
        return HandAdvice(
            day,
            ngettext(
                "the tile in hand goes best on day {day} ({count} tile from complete then)",
                "the tile in hand goes best on day {day} ({count} tiles from complete then)",
                distance,
            ).format(day=day, count=distance),
        )


def _draft_advice(view: PlayerView, rack: tuple[int | None, ...], tile: int) -> HandAdvice:
    """The empty day the greedy bot drafts ``tile`` onto (the rack it leaves is the fewest tiles
    from complete, then has the most ways to finish, judged by where the missing tiles are), and
    why."""
    odds = TileOdds.from_knowledge(knowledge_of(view), view.draw_pile_size)
    scored = draft_scores(view.edition, rack, tile, view.legal_moves(), odds)
    (distance, _outs), move = min(scored, key=lambda scored: (scored[0], scored[1].day))
    if distance < analyze(view.edition, rack).distance:
        return HandAdvice(
            move.day,
            ngettext(
                "put the drafted tile on day {day}: it fits a shortest journey there and leaves "
                "the most ways to finish it ({count} tile from complete then)",
                "put the drafted tile on day {day}: it fits a shortest journey there and leaves "
                "the most ways to finish it ({count} tiles from complete then)",
                distance,
            ).format(day=move.day, count=distance),
        )
    return HandAdvice(
        move.day,
        _(
            "the drafted tile fits no shortest journey of your rack: put it on day {day}, where it "
            "closes the fewest ways to finish"
        ).format(day=move.day),
    )


def _advice(distance: int, empty: list[int], change: list[int]) -> str:
    """The sentence for ``distance`` tiles: days to fill and days to
    change (``distance`` days in all)."""
    facts = {"count": distance, "fill": join_list(empty), "change": join_list(change)}
    if not change:
        return ngettext(
            "{count} tile from a complete journey: fill day {fill}",
            "{count} tiles from a complete journey: fill days {fill}",
            distance,
        ).format(**facts)
    if not empty:
        return ngettext(
            "{count} tile from a complete journey: change day {change}",
            "{count} tiles from a complete journey: change days {change}",
            distance,
        ).format(**facts)
    # Both: at least two tiles. Each list may hold one day or several.
    if len(empty) == 1 and len(change) == 1:
        message = ngettext(
            "{count} tile from a complete journey: fill day {fill} and change day {change}",
            "{count} tiles from a complete journey: fill day {fill} and change day {change}",
            distance,
        )
    elif len(empty) == 1:
        message = ngettext(
            "{count} tile from a complete journey: fill day {fill} and change days {change}",
            "{count} tiles from a complete journey: fill day {fill} and change days {change}",
            distance,
        )
    elif len(change) == 1:
        message = ngettext(
            "{count} tile from a complete journey: fill days {fill} and change day {change}",
            "{count} tiles from a complete journey: fill days {fill} and change day {change}",
            distance,
        )
    else:
        message = ngettext(
            "{count} tile from a complete journey: fill days {fill} and change days {change}",
            "{count} tiles from a complete journey: fill days {fill} and change days {change}",
            distance,
        )
    return message.format(**facts)
