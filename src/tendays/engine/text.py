"""Public events and tiles in words, for logs and user interfaces."""

from __future__ import annotations

from collections.abc import Sequence

from .edition import Edition
from .state import Event

__all__ = ["describe_event", "tile_name"]


def tile_name(edition: Edition, tile: int | None) -> str:
    """A tile's name for players ("Ohio", "pink airplane"); "?" for a hidden tile."""
    return "?" if tile is None else edition.tiles[tile].name


def describe_event(edition: Edition, event: Event, names: Sequence[str] = ()) -> str:
    """One line of the public game log."""
    who = (names[event.player] if event.player is not None and event.player < len(names)
           else f"Player {(event.player or 0) + 1}")
    tile = tile_name(edition, event.tile)
    kind = event.kind
    if kind == "draft":
        return f"{who} put a tile on day {event.day}"
    if kind == "reveal":
        return f"{tile} is turned up as discard pile {event.pile}"
    if kind == "start":
        return f"{who} begins"
    if kind == "draw":
        return f"{who} drew from the draw pile"
    if kind == "take":
        return f"{who} took {tile} from discard pile {event.pile}"
    if kind == "swap":
        return f"{who} swapped days {event.day} and {event.day2}"
    if kind == "replace":
        return f"{who} replaced day {event.day}, discarding {tile} onto pile {event.pile}"
    if kind == "discard":
        return f"{who} discarded {tile} onto pile {event.pile}"
    if kind == "reshuffle":
        return f"the discard piles ({event.count} tiles below the tops) are shuffled into a new draw pile"
    if kind == "win":
        return f"{who} completes the journey and wins"
    if kind == "limit":
        return f"the turn limit ({event.count} turns) is reached: nobody wins"
    return kind
