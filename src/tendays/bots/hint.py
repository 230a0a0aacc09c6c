"""Hints for players: how far the rack is from a complete journey, and which days to change."""

from __future__ import annotations

from dataclasses import dataclass

from tendays.engine import PlayerView

from .distance import analyze

__all__ = ["Hint", "hint"]


@dataclass(frozen=True, slots=True)
class Hint:
    """The viewer's journey distance, the days to change for one shortest completion, and a sentence."""

    distance: int
    days: tuple[int, ...]
    message: str


def _listing(days: list[int]) -> str:
    words = [str(d) for d in days]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _days(days: list[int]) -> str:
    return f"day {days[0]}" if len(days) == 1 else f"days {_listing(days)}"


def hint(view: PlayerView) -> Hint:
    """How close the viewer's rack is to a complete journey (empty days count as days to fill)."""
    if view.rack is None:
        raise ValueError("a spectator has no rack to give a hint for")
    analysis = analyze(view.edition, view.rack)
    days = analysis.days_to_change
    distance = analysis.distance
    if distance == 0:
        return Hint(0, (), "Your journey is complete.")
    empty = [d for d in days if view.rack[d - 1] is None]
    change = [d for d in days if view.rack[d - 1] is not None]
    tiles = "1 tile" if distance == 1 else f"{distance} tiles"
    parts = []
    if empty:
        parts.append(f"fill {_days(empty)}")
    if change:
        parts.append(f"change {_days(change)}")
    return Hint(distance, days, f"{tiles} from a complete journey: {' and '.join(parts)}")
