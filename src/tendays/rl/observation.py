"""The observation: a fixed-shape float32 vector encoded from one player's view, and nothing else.

The encoder reads only :class:`tendays.engine.PlayerView` (own rack, the held tile when the viewer may
see it, the face-up discard piles, pile sizes) and what the public history reveals, as the engine works
it out (:func:`tendays.engine.knowledge_of`), so two states that differ only in hidden information (other
racks, the draw-pile order, the seed) give the same observation.

With ``T`` tile kinds (56 in the USA, 44 in Germany), ``D`` days and 3 discard piles, the blocks are, in
order (every value lies in [-1, 1]):

===================  ===========  ==================================================================
block                size         meaning
===================  ===========  ==================================================================
phase                4            one-hot: draft, draw, place, over
to_move              4            one-hot seat of the player to move, counted from the viewer (0 = me)
progress             1            turns played / turn limit
rack                 D*T          own rack, one-hot tile per day (an empty day is all zero)
rack_empty           D            1 where a day of the own rack is still empty (draft)
rack_sound           D+1          own rack: 1 for each sound gap between days 1..D, then day 1 and
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

from dataclasses import dataclass

import numpy as np

from tendays.engine import MAX_PLAYERS, PILES, Edition, Options, Phase, PlayerView, knowledge_of

from .progress import RackProgress

__all__ = ["Block", "ObservationEncoder"]

OPPONENT_SLOTS = MAX_PLAYERS - 1
_GAIN_SCALE = 0.25  # a single placement changes the progress by at most 4


@dataclass(frozen=True, slots=True)
class Block:
    """One named stretch of the observation vector."""

    name: str
    start: int
    size: int

    @property
    def stop(self) -> int:
        return self.start + self.size


class ObservationEncoder:
    """Encodes player views of games with one edition and one set of options."""

    def __init__(self, edition: Edition, options: Options) -> None:
        self.edition = edition
        self.options = options
        self.progress = RackProgress(edition)
        self.tile_kinds = tiles = len(edition.tiles)
        self.days = days = options.days
        self._inverse_copies = 1.0 / np.array(edition.tables.counts)
        self._tile_count = edition.tile_count
        sizes = [
            ("phase", 4),
            ("to_move", MAX_PLAYERS),
            ("progress", 1),
            ("rack", days * tiles),
            ("rack_empty", days),
            ("rack_sound", days + 1),
            ("held", tiles),
            ("held_source", PILES + 1),
            ("held_gain", days),
            ("pile_top", PILES * tiles),
            ("pile_contents", PILES * tiles),
            ("pile_size", PILES),
            ("pile_top_gain", PILES),
            ("draw_pile_size", 1),
            ("unseen", tiles),
            ("opponents", OPPONENT_SLOTS * (2 + days * tiles)),
        ]
        blocks: dict[str, Block] = {}
        start = 0
        for name, size in sizes:
            blocks[name] = Block(name, start, size)
            start += size
        self.blocks = blocks
        self.size = start

    def encode(self, view: PlayerView) -> np.ndarray:
        """The observation vector of ``view`` (a player's view, not a spectator's)."""
        me = view.player
        if me is None or view.rack is None:
            raise ValueError("an observation is encoded from a player's view, not a spectator's")
        if view.edition is not self.edition or view.options.days != self.days:
            raise ValueError("this view is of another edition or rack size than the encoder's")
        tiles, days, b = self.tile_kinds, self.days, self.blocks
        players = view.options.players
        obs = np.zeros(self.size, dtype=np.float32)
        progress = self.progress

        obs[b["phase"].start + int(view.phase)] = 1.0
        obs[b["to_move"].start + (view.current - me) % players] = 1.0
        limit = view.options.turn_limit
        obs[b["progress"].start] = min(1.0, view.turn / limit) if limit else 0.0

        rack = view.rack
        start = b["rack"].start
        obs[[start + d * tiles + t for d, t in enumerate(rack) if t is not None]] = 1.0
        start = b["rack_empty"].start
        obs[[start + d for d, t in enumerate(rack) if t is None]] = 1.0
        start = b["rack_sound"].start
        sound = progress.sound_gaps(rack)
        obs[[start + i for i, ok in enumerate(sound) if ok]] = 1.0
        is_region = progress.is_region
        first, last = rack[0], rack[-1]
        obs[start + days - 1] = float(first is not None and is_region[first])
        obs[start + days] = float(last is not None and is_region[last])

        held = view.in_hand
        my_turn = view.current == me and view.phase is not Phase.OVER
        if held is not None:
            obs[b["held"].start + held] = 1.0
            if view.taken_from >= 0:
                obs[b["held_source"].start + view.taken_from] = 1.0
            if my_turn:
                block = b["held_gain"]
                obs[block.start:block.stop] = progress.gains(rack, held, sound)
                obs[block.start:block.stop] *= _GAIN_SCALE

        top_start, contents_start = b["pile_top"].start, b["pile_contents"].start
        size_start, gain_start = b["pile_size"].start, b["pile_top_gain"].start
        inverse, total = self._inverse_copies, self._tile_count
        for p, pile in enumerate(view.piles):
            if not pile:
                continue
            top = pile[-1]
            obs[top_start + p * tiles + top] = 1.0
            offset = contents_start + p * tiles
            obs[offset:offset + tiles] = np.bincount(pile, minlength=tiles) * inverse
            obs[size_start + p] = len(pile) / total
            obs[gain_start + p] = max(progress.gains(rack, top, sound)) * _GAIN_SCALE
        obs[b["draw_pile_size"].start] = view.draw_pile_size / total

        knowledge = knowledge_of(view)
        known = knowledge.racks
        start = b["opponents"].start
        slot_size = 2 + days * tiles
        for k in range(1, players):
            seat = (me + k) % players
            offset = start + (k - 1) * slot_size
            obs[offset] = 1.0
            obs[offset + 1] = view.rack_counts[seat] / days
            row = known[seat]
            obs[[offset + 2 + d * tiles + t for d, t in enumerate(row) if t is not None]] = 1.0

        block = b["unseen"]
        obs[block.start:block.stop] = np.array(knowledge.unseen_counts) * inverse
        return obs

    def describe(self, observation: np.ndarray) -> dict[str, np.ndarray]:
        """The observation split into its named blocks (for inspection and tests)."""
        return {name: observation[block.start:block.stop] for name, block in self.blocks.items()}
