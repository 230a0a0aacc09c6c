"""What one player knows about where every tile is, worked out from their view alone.

Tiles are in the viewer's rack, face up on the discard piles, in another rack at a day the public
history reveals (a tile taken from a discard pile and put on a day stays known until it is discarded
again), or unseen: in the draw pile or on a day of another rack that nobody saw. This is the one
place that reads the public history for it: bots weigh tiles by these places, search deals the
unseen tiles at random to build complete states consistent with the view (:meth:`Knowledge.deal`),
and the RL observation encodes it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .history import Event, EventKind, EventLog
from .state import Phase, State
from .view import PlayerView

__all__ = ["Knowledge", "knowledge_of", "known_racks"]


@dataclass(frozen=True, slots=True)
class Knowledge:
    """Where the viewer knows (or does not know) each tile to be."""

    player: int
    racks: tuple[tuple[int | None, ...], ...]  # known tiles per rack and day; None: unseen or empty
    filled: tuple[tuple[bool, ...], ...]  # whether each day of each rack holds a tile
    held: int | None  # the tile the current player holds, if the viewer knows it
    held_hidden: bool  # the current player holds a tile the viewer cannot see
    unseen_counts: tuple[int, ...]  # per tile: copies whose place the viewer does not know
    visible_count: tuple[int, ...]  # per tile: copies on discard-pile tops
    buried_count: tuple[int, ...]  # per tile: copies below the tops of the discard piles
    opponent_count: tuple[int, ...]  # per tile: copies known to sit in another rack

    @property
    def unseen(self) -> tuple[int, ...]:
        """Every copy whose place the viewer does not know, one entry per copy (sorted)."""
        return tuple(t for t, n in enumerate(self.unseen_counts) for _ in range(n))

    def deal(
        self,
        view: PlayerView,
        rng: random.Random,
        weights: Mapping[int, Sequence[float]] | None = None,
        preset: Mapping[int, Mapping[int, int]] | None = None,
    ) -> State:
        """A complete state consistent with the view: the unseen tiles dealt at random.

        ``weights`` may give, for another player, a weight per kind of tile: that player's hidden
        days are then dealt by weighted sampling without replacement (a tile of weight 2 is twice as
        likely as one of weight 1 to be drawn first); the others' days, uniformly. The state has no
        history (its events are empty) and a fresh seed for later reshuffles; it is a sample of what
        the table may look like, for search.

        ``preset`` may fix, for another player, the tiles of some hidden days (day index 0-based to
        tile), each an unseen copy; the other unseen tiles are dealt around them.
        """
        tiles = list(self.unseen)
        for days in (preset or {}).values():
            for tile in days.values():
                tiles.remove(tile)  # a ValueError names a preset tile that is not unseen
        rng.shuffle(tiles)
        racks = []
        for player, (rack, filled) in enumerate(zip(self.racks, self.filled, strict=True)):
            fixed = preset.get(player, {}) if preset is not None else {}
            hidden = sum(
                1 for tile, has in zip(rack, filled, strict=True) if tile is None and has
            ) - len(fixed)
            chosen: list[int] = []
            if hidden and weights is not None and player in weights:
                # Efraimidis-Spirakis: the copies with the largest
                # random keys u ** (1 / weight) win.
                weight = weights[player]
                keyed = sorted(
                    range(len(tiles)),
                    reverse=True,
                    key=lambda i: rng.random() ** (1.0 / max(weight[tiles[i]], 1e-9)),
                )
                picked = set(keyed[:hidden])
                chosen = [tiles[i] for i in keyed[:hidden]]
                tiles = [t for i, t in enumerate(tiles) if i not in picked]
            dealt: list[int | None] = []
            for day, (known, has) in enumerate(zip(rack, filled, strict=True)):
                if known is None and has:
                    known = fixed[day] if day in fixed else chosen.pop() if chosen else tiles.pop()
                dealt.append(known)
            racks.append(tuple(dealt))
        in_hand = self.held
        if self.held_hidden:
            in_hand = tiles.pop()
        if len(tiles) != view.draw_pile_size:
            raise ValueError(
                f"inconsistent view: {len(tiles)} unseen tiles for a draw pile of "
                f"{view.draw_pile_size}"
            )
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


@dataclass(frozen=True, slots=True)
class _Revealed:
    """What the first ``length`` events of a game's history reveal to everyone at the table."""

    items: object  # the event list these events are a prefix of (its prefixes never change)
    length: int
    known: tuple[tuple[int | None, ...], ...]  # tile known to be on each day of each rack
    filled: tuple[tuple[bool, ...], ...]
    held_by: tuple[int | None, ...]  # the face-up tile each player took this turn


# The last fold of each recent game, keyed by its shared event list, so the next view of the same
# game reads only the events added since: the cost of a view stays flat over a long game.
_REVEALED: dict[int, _Revealed] = {}
_REVEALED_LIMIT = 256


def _revealed(events: Sequence[Event], players: int, days: int) -> _Revealed:
    items = events.lineage() if isinstance(events, EventLog) else None
    length = len(events)
    start = _REVEALED.get(id(items)) if items is not None else None
    if (
        start is None
        or start.items is not items
        or start.length > length
        or len(start.known) != players
    ):
        known: list[list[int | None]] = [[None] * days for _ in range(players)]
        filled = [[False] * days for _ in range(players)]
        held_by: list[int | None] = [None] * players
        begin = 0
    else:
        if start.length == length:
            return start
        known = [list(row) for row in start.known]
        filled = [list(row) for row in start.filled]
        held_by = list(start.held_by)
        begin = start.length
    for event in events[begin:length] if begin else events:
        p = event.player
        if p is None:
            continue
        kind = event.kind
        if kind is EventKind.DRAFT:
            filled[p][event.day - 1] = True
        elif kind is EventKind.TAKE:
            held_by[p] = event.tile
        elif kind is EventKind.DRAW or kind is EventKind.DISCARD:
            held_by[p] = None
        elif kind is EventKind.REPLACE:
            known[p][event.day - 1] = held_by[p]
            held_by[p] = None
        elif kind is EventKind.SWAP:
            row = known[p]
            row[event.day - 1], row[event.day2 - 1] = row[event.day2 - 1], row[event.day - 1]
    revealed = _Revealed(
        items, length, tuple(map(tuple, known)), tuple(map(tuple, filled)), tuple(held_by)
    )
    if items is not None:
        if len(_REVEALED) >= _REVEALED_LIMIT:
            _REVEALED.clear()
        _REVEALED[id(items)] = revealed
    return revealed


def known_racks(view: PlayerView) -> tuple[tuple[int | None, ...], ...]:
    """The tile the viewer knows to be on each day of each rack (None: unseen or empty), as
    :attr:`Knowledge.racks` holds it, without working out the rest of the knowledge."""
    if view.player is None or view.rack is None:
        raise ValueError("a spectator has no rack to reason about")
    if view.racks is not None:  # open hands, or the game is over
        return tuple(tuple(r) for r in view.racks)
    known = _revealed(view.events, view.options.players, view.options.days).known
    me = view.player
    return (*known[:me], tuple(view.rack), *known[me + 1 :])


def knowledge_of(view: PlayerView) -> Knowledge:
    """Work out the viewer's knowledge from the view and its public history."""
    if view.player is None or view.rack is None:
        raise ValueError("a spectator has no rack to reason about")
    edition = view.edition
    players = view.options.players
    days = view.options.days
    me = view.player
    revealed = _revealed(view.events, players, days)
    known: list[list[int | None]] = [list(row) for row in known_racks(view)]
    filled = [list(row) for row in revealed.filled]
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
        if pile:
            top = pile[-1]
            visible[top] += 1
            counts[top] -= 1
            for t in pile[:-1]:
                buried[t] += 1
                counts[t] -= 1
    for p in range(players):
        for placed in known[p]:
            if placed is not None:
                counts[placed] -= 1
                if p != me:
                    opponents[placed] += 1
    if held is not None:
        counts[held] -= 1
    return Knowledge(
        player=me,
        racks=tuple(tuple(r) for r in known),
        filled=tuple(tuple(f) for f in filled),
        held=held,
        held_hidden=held_hidden,
        unseen_counts=tuple(max(n, 0) for n in counts),
        visible_count=tuple(visible),
        buried_count=tuple(buried),
        opponent_count=tuple(opponents),
    )
