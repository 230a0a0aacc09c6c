"""What one player knows about where every tile is, worked out from their view alone.

Tiles are in the viewer's rack, face up on the discard piles, in another rack at a day the public history
reveals (a tile taken from a discard pile and put on a day stays known until it is discarded again), or
unseen: in the draw pile or on a day of another rack that nobody saw. This is the one place that reads
the public history for it: bots weigh tiles by these places, search deals the unseen tiles at random
to build complete states consistent with the view (:meth:`Knowledge.deal`), and the RL observation
encodes it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .history import EventLog
from .state import Phase, State
from .view import PlayerView

__all__ = ["Knowledge", "knowledge_of"]


@dataclass(frozen=True, slots=True)
class Knowledge:
    """Where the viewer knows (or does not know) each tile to be."""

    player: int
    racks: tuple[tuple[int | None, ...], ...]  # known tiles per rack and day; None: unseen or empty
    filled: tuple[tuple[bool, ...], ...]  # whether each day of each rack holds a tile
    held: int | None  # the tile the current player holds, if the viewer knows it
    held_hidden: bool  # the current player holds a tile the viewer cannot see
    unseen: tuple[int, ...]  # copies of tiles whose place the viewer does not know (sorted)
    visible_count: tuple[int, ...]  # per tile: copies on discard-pile tops
    buried_count: tuple[int, ...]  # per tile: copies below the tops of the discard piles
    opponent_count: tuple[int, ...]  # per tile: copies known to sit in another rack

    def unseen_count(self) -> list[int]:
        counts = [0] * len(self.visible_count)
        for t in self.unseen:
            counts[t] += 1
        return counts

    def deal(self, view: PlayerView, rng: random.Random) -> State:
        """A complete state consistent with the view: the unseen tiles dealt at random.

        The state has no history (its events are empty) and a fresh seed for later reshuffles; it is
        a sample of what the table may look like, for search.
        """
        tiles = list(self.unseen)
        rng.shuffle(tiles)
        racks = []
        for rack, filled in zip(self.racks, self.filled, strict=True):
            dealt = []
            for tile, has in zip(rack, filled, strict=True):
                if tile is None and has:
                    tile = tiles.pop()
                dealt.append(tile)
            racks.append(tuple(dealt))
        in_hand = self.held
        if self.held_hidden:
            in_hand = tiles.pop()
        if len(tiles) != view.draw_pile_size:
            raise ValueError(f"inconsistent view: {len(tiles)} unseen tiles for a draw pile of {view.draw_pile_size}")
        return State(
            edition=view.edition,
            options=view.options,
            seed=rng.getrandbits(32),
            phase=view.phase,
            current=view.current,
            racks=tuple(racks),
            draw_pile=tuple(tiles),
            piles=view.piles,
            in_hand=in_hand,
            taken_from=view.taken_from,
            turn=view.turn,
            winner=view.winner,
            reshuffles=0,
            events=EventLog(),
        )


def knowledge_of(view: PlayerView) -> Knowledge:
    """Work out the viewer's knowledge from the view and its public history."""
    if view.player is None or view.rack is None:
        raise ValueError("a spectator has no rack to reason about")
    edition = view.edition
    players = view.options.players
    days = view.options.days
    me = view.player
    known: list[list[int | None]] = [[None] * days for _ in range(players)]
    filled: list[list[bool]] = [[False] * days for _ in range(players)]
    held_by: list[int | None] = [None] * players
    for event in view.events:
        p = event.player
        kind = event.kind
        if kind == "draft" and p is not None:
            filled[p][event.day - 1] = True
        elif kind == "take" and p is not None:
            held_by[p] = event.tile
        elif kind == "draw" and p is not None:
            held_by[p] = None
        elif kind == "replace" and p is not None:
            known[p][event.day - 1] = held_by[p]
            held_by[p] = None
        elif kind == "discard" and p is not None:
            held_by[p] = None
        elif kind == "swap" and p is not None:
            row = known[p]
            row[event.day - 1], row[event.day2 - 1] = row[event.day2 - 1], row[event.day - 1]
    if view.racks is not None:  # open hands, or the game is over
        known = [list(r) for r in view.racks]
    known[me] = list(view.rack)
    for p in range(players):
        if view.racks is not None or p == me:
            filled[p] = [t is not None for t in known[p]]
    held: int | None = None
    held_hidden = False
    if view.phase in (Phase.PLACE, Phase.DRAFT):
        if view.in_hand is not None:
            held = view.in_hand
        else:
            held_hidden = True
    counts = [t.count for t in edition.tiles]
    visible = [0] * len(counts)
    buried = [0] * len(counts)
    opponents = [0] * len(counts)
    for pile in view.piles:
        for i, t in enumerate(pile):
            counts[t] -= 1
            if i == len(pile) - 1:
                visible[t] += 1
            else:
                buried[t] += 1
    for p in range(players):
        for placed in known[p]:
            if placed is not None:
                counts[placed] -= 1
                if p != me:
                    opponents[placed] += 1
    if held is not None:
        counts[held] -= 1
    unseen = tuple(t for t, n in enumerate(counts) for _ in range(max(n, 0)))
    return Knowledge(
        player=me,
        racks=tuple(tuple(r) for r in known),
        filled=tuple(tuple(f) for f in filled),
        held=held,
        held_hidden=held_hidden,
        unseen=unseen,
        visible_count=tuple(visible),
        buried_count=tuple(buried),
        opponent_count=tuple(opponents),
    )
