"""The observation: a fixed-shape float32 vector encoded from one player's view, and nothing else.

The encoder reads only :class:`tendays.engine.PlayerView` (own rack, the held tile when the viewer
may see it, the face-up discard piles, pile sizes) and what the public history reveals, as the
engine works it out (:func:`tendays.engine.knowledge_of`), so two states that differ only in hidden
information (other racks, the draw-pile order, the seed) give the same observation.

With ``T`` tile kinds (56 in the USA, 44 in Germany), ``D`` days and 3 discard piles, the blocks
are, in order (every value lies in [-1, 1]):

===================  ===========  ==================================================================
block                size         meaning
===================  ===========  ==================================================================
phase                4            one-hot: draft, draw, place, over to_move              4
one-hot seat of the player to move, counted from the viewer (0 = me) progress             1
turns played / turn limit rack                 D*T          own rack, one-hot tile per day (an empty
day is all zero) rack_empty           D            1 where a day of the own rack is still empty
(draft) rack_sound           D+1          own rack: 1 for each sound gap between days 1..D, then day
1 and
                                  day D being regions (see :mod:`tendays.rl.progress`)
held                 T            one-hot tile being placed, when the viewer may see it
held_source          4            one-hot where it came from: draw pile, discard pile 1, 2, 3
held_gain            D            own turn: change of the rack's progress if the held tile went on
                                  each day, divided by 4
pile_top             3*T          one-hot top tile of each discard pile
pile_contents        3*T          copies of each tile in each pile / copies in the game
pile_size            3            tiles in each pile / tiles in the game
pile_top_gain        3            best change of progress if that pile's top went on some day, / 4
draw_pile_size       1            tiles in the draw pile / tiles in the game
unseen               T            copies of each tile the viewer cannot place (draw pile or unknown
                                  days of other racks) / copies in the game
opponents            3*(2+D*T)    per other seat, in turn order after the viewer: present, tiles in
                                  rack / D, then the tiles known to be on each day, one-hot (from
                                  tiles publicly taken from a pile and placed; everything with open
                                  hands or once the game is over)
===================  ===========  ==================================================================
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from tendays.engine import Edition, Options, Phase, PlayerView, known_racks
from tendays.engine.layout import Block, env_layout

from .progress import RackProgress

__all__ = ["Block", "ObservationEncoder"]

_GAIN_SCALE = 0.25  # a single placement changes the progress by at most 4
# entries per kind; cleared when full (they recur within a few steps, not across games)
_CACHE_SIZE = 512
_HOLDING = (Phase.PLACE, Phase.DRAFT)  # phases in which the player to move holds a tile
# Tile counts are packed into one Python integer, a byte per kind of tile, so that adding up the
# counts of the rack, the piles and the known rows costs a few integer additions instead of a numpy
# call each. A count never reaches 256: there are fewer tiles in a box.
_COUNT_BITS = 8


def _packed(tiles: Iterable[int | None]) -> int:
    """The counts of ``tiles`` (None ignored), packed a byte per kind of tile."""
    return sum(1 << (_COUNT_BITS * t) for t in tiles if t is not None)


Row = tuple[int | None, ...]


class _Rack:
    """What the observation needs of one own rack, worked out once: a rack
    stays the same for several turns."""

    __slots__ = ("best_gain", "counts", "gains", "segment")

    def __init__(self, segment: np.ndarray, counts: int, gains: np.ndarray) -> None:
        self.segment = segment  # float32: the rack, rack_empty and rack_sound blocks (contiguous)
        self.counts = counts  # copies of each tile on the rack, packed
        # int16[D, T]: progress change of each tile on each day (shared, read-only)
        self.gains = gains
        # the best of them per tile, scaled
        self.best_gain = (gains.max(axis=0) * _GAIN_SCALE).tolist()


class ObservationEncoder:
    """Encodes player views of games with one edition and one set of options.

    A view is encoded from scratch each time, but what a rack, a discard pile or a known row of
    another rack contributes is kept for the recently seen ones (racks and piles change a tile at a
    time), and what the public history reveals is read incrementally by the engine
    (:func:`tendays.engine.known_racks`).
    """

    def __init__(self, edition: Edition, options: Options) -> None:
        self.edition = edition
        self.options = options
        self.progress = RackProgress(edition)
        self.tile_kinds = tiles = len(edition.tiles)
        self.days = days = options.days
        self._copies = np.array(edition.tables.counts, np.int16)
        self._inverse_copies = 1.0 / self._copies
        self._tile_count = edition.tile_count
        self.blocks = env_layout(tiles, days)
        self.size = max(block.stop for block in self.blocks.values())
        self._start = {name: block.start for name, block in self.blocks.items()}
        self._racks: dict[Row, _Rack] = {}
        self._piles: dict[tuple[int, ...], tuple[np.ndarray, int]] = {}
        self._rows: dict[Row, tuple[np.ndarray, int]] = {}

    def encode(self, view: PlayerView) -> np.ndarray:
        """The observation vector of ``view`` (a player's view, not a spectator's)."""
        me = view.player
        rack = view.rack
        if me is None or rack is None:
            raise ValueError("an observation is encoded from a player's view, not a spectator's")
        if view.edition is not self.edition or view.options.days != self.days:
            raise ValueError("this view is of another edition or rack size than the encoder's")
        tiles, days, start = self.tile_kinds, self.days, self._start
        players = view.options.players
        obs = np.zeros(self.size, dtype=np.float32)

        own = self._racks.get(rack) or self._rack(rack)
        segment = start["rack"]
        obs[segment : segment + own.segment.size] = own.segment
        # Single values are gathered and written with one call: each numpy call
        # costs more than its work here.
        limit = view.options.turn_limit
        index = [
            start["phase"] + int(view.phase),
            start["to_move"] + (view.current - me) % players,
            start["progress"],
            start["draw_pile_size"],
        ]
        value = [
            1.0,
            1.0,
            min(1.0, view.turn / limit) if limit else 0.0,
            view.draw_pile_size / self._tile_count,
        ]

        seen = own.counts
        held = view.in_hand
        if held is not None:
            index.append(start["held"] + held)
            value.append(1.0)
            if view.taken_from >= 0:
                index.append(start["held_source"] + view.taken_from)
                value.append(1.0)
            if view.current == me and view.phase is not Phase.OVER:
                gain_start = start["held_gain"]
                obs[gain_start : gain_start + days] = own.gains[:, held] * _GAIN_SCALE
            if view.phase in _HOLDING:
                seen += 1 << (_COUNT_BITS * held)

        top_start, contents_start = start["pile_top"], start["pile_contents"]
        size_start, gain_start = start["pile_size"], start["pile_top_gain"]
        total, best_gain = self._tile_count, own.best_gain
        for p, pile in enumerate(view.piles):
            if pile:
                top = pile[-1]
                index += (top_start + p * tiles + top, size_start + p, gain_start + p)
                value += (1.0, len(pile) / total, best_gain[top])
                contents, counts = self._piles.get(pile) or self._pile(pile)
                offset = contents_start + p * tiles
                obs[offset : offset + tiles] = contents
                seen += counts

        known = known_racks(view)
        slot_size = 2 + days * tiles
        offset = start["opponents"]
        rack_counts = view.rack_counts
        for k in range(1, players):
            seat = (me + k) % players
            index += (offset, offset + 1)
            value += (1.0, rack_counts[seat] / days)
            row = known[seat]
            if row.count(None) < days:
                row_segment, counts = self._rows.get(row) or self._row(row)
                obs[offset + 2 : offset + slot_size] = row_segment
                seen += counts
            offset += slot_size
        obs.put(index, value)

        unseen = np.maximum(
            self._copies - np.frombuffer(seen.to_bytes(tiles, "little"), np.uint8), 0
        )
        unseen_start = start["unseen"]
        obs[unseen_start : unseen_start + tiles] = unseen * self._inverse_copies
        return obs

    def describe(self, observation: np.ndarray) -> dict[str, np.ndarray]:
        """The observation split into its named blocks (for inspection and tests)."""
        return {name: observation[block.start : block.stop] for name, block in self.blocks.items()}

    def _rack(self, rack: Row) -> _Rack:
        """Work out and keep the rack blocks, tile counts and progress
        gains of the own rack ``rack``."""
        tiles, days, progress = self.tile_kinds, self.days, self.progress
        segment = np.zeros(days * tiles + 2 * days + 1, np.float32)  # rack, rack_empty, rack_sound
        empty, sound = days * tiles, days * tiles + days
        ones = [d * tiles + t if t is not None else empty + d for d, t in enumerate(rack)]
        ones += [sound + i for i, ok in enumerate(progress.sound_gaps(rack)) if ok]
        is_region = progress.is_region
        first, last = rack[0], rack[-1]
        if first is not None and is_region[first]:
            ones.append(sound + days - 1)
        if last is not None and is_region[last]:
            ones.append(sound + days)
        segment.put(ones, 1.0)
        entry = _Rack(segment, _packed(rack), progress.gain_table(rack))
        if len(self._racks) >= _CACHE_SIZE:
            self._racks.clear()
        self._racks[rack] = entry
        return entry

    def _pile(self, pile: tuple[int, ...]) -> tuple[np.ndarray, int]:
        """Keep the pile_contents block (float32[T]) and the packed
        tile counts of a discard pile."""
        counts = np.bincount(pile, minlength=self.tile_kinds)
        entry = (counts * self._inverse_copies).astype(np.float32), _packed(pile)
        if len(self._piles) >= _CACHE_SIZE:
            self._piles.clear()
        self._piles[pile] = entry
        return entry

    def _row(self, row: Row) -> tuple[np.ndarray, int]:
        """Keep the one-hot days of a known row of another rack (float32[D *
        T]) and its packed tile counts."""
        tiles = self.tile_kinds
        segment = np.zeros(self.days * tiles, np.float32)
        segment.put([d * tiles + t for d, t in enumerate(row) if t is not None], 1.0)
        entry = segment, _packed(row)
        if len(self._rows) >= _CACHE_SIZE:
            self._rows.clear()
        self._rows[row] = entry
        return entry
