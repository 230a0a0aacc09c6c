"""The observation encoder as first written: plain, slow and obviously following docs/rl.md's table.

The fast :class:`tendays.rl.ObservationEncoder` must give exactly the same vectors (tests/rl/
test_observation_reference.py); this one reads the full :func:`tendays.engine.knowledge_of` and
works out each progress gain from :meth:`RackProgress.gap_sound` one gap at a time.
"""

from __future__ import annotations

import numpy as np

from tendays.engine import MAX_PLAYERS, PILES, Edition, Options, Phase, PlayerView, knowledge_of
from tendays.rl import RackProgress

OPPONENT_SLOTS = MAX_PLAYERS - 1
_GAIN_SCALE = 0.25


def gains(
    progress: RackProgress, rack: tuple[int | None, ...], tile: int, sound: list[bool]
) -> list[int]:
    """For each day, how the score changes if ``tile`` is put on that day, gap by gap."""
    days = len(rack)
    work = list(rack)
    result = []
    for d in range(days):
        low, high = max(0, d - 2), min(days - 2, d + 1)
        old = work[d]
        work[d] = tile
        gain = sum(progress.gap_sound(work, i) - sound[i] for i in range(low, high + 1))
        work[d] = old
        if d == 0 or d == days - 1:
            gain += progress.is_region[tile] - (old is not None and progress.is_region[old])
        result.append(gain)
    return result


class ReferenceEncoder:
    """The observation of a player's view, block by block."""

    def __init__(self, edition: Edition, options: Options) -> None:
        self.edition = edition
        self.progress = RackProgress(edition)
        self.tiles = tiles = len(edition.tiles)
        self.days = days = options.days
        self.inverse = 1.0 / np.array(edition.tables.counts)
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
        self.start: dict[str, int] = {}
        self.size = 0
        for name, size in sizes:
            self.start[name] = self.size
            self.size += size

    def encode(self, view: PlayerView) -> np.ndarray:
        assert view.player is not None and view.rack is not None
        me, rack, start = view.player, view.rack, self.start
        tiles, days, players = self.tiles, self.days, view.options.players
        total = self.edition.tile_count
        obs = np.zeros(self.size, dtype=np.float32)
        obs[start["phase"] + int(view.phase)] = 1.0
        obs[start["to_move"] + (view.current - me) % players] = 1.0
        limit = view.options.turn_limit
        obs[start["progress"]] = min(1.0, view.turn / limit) if limit else 0.0
        for d, t in enumerate(rack):
            if t is None:
                obs[start["rack_empty"] + d] = 1.0
            else:
                obs[start["rack"] + d * tiles + t] = 1.0
        sound = self.progress.sound_gaps(rack)
        for i, ok in enumerate(sound):
            obs[start["rack_sound"] + i] = float(ok)
        is_region = self.progress.is_region
        obs[start["rack_sound"] + days - 1] = float(rack[0] is not None and is_region[rack[0]])
        obs[start["rack_sound"] + days] = float(rack[-1] is not None and is_region[rack[-1]])
        held = view.in_hand
        if held is not None:
            obs[start["held"] + held] = 1.0
            if view.taken_from >= 0:
                obs[start["held_source"] + view.taken_from] = 1.0
            if view.current == me and view.phase is not Phase.OVER:
                for d, gain in enumerate(gains(self.progress, rack, held, sound)):
                    obs[start["held_gain"] + d] = gain * _GAIN_SCALE
        for p, pile in enumerate(view.piles):
            if pile:
                obs[start["pile_top"] + p * tiles + pile[-1]] = 1.0
                offset = start["pile_contents"] + p * tiles
                obs[offset : offset + tiles] = np.bincount(pile, minlength=tiles) * self.inverse
                obs[start["pile_size"] + p] = len(pile) / total
                obs[start["pile_top_gain"] + p] = (
                    max(gains(self.progress, rack, pile[-1], sound)) * _GAIN_SCALE
                )
        obs[start["draw_pile_size"]] = view.draw_pile_size / total
        knowledge = knowledge_of(view)
        slot = 2 + days * tiles
        for k in range(1, players):
            seat = (me + k) % players
            offset = start["opponents"] + (k - 1) * slot
            obs[offset] = 1.0
            obs[offset + 1] = view.rack_counts[seat] / days
            for d, t in enumerate(knowledge.racks[seat]):
                if t is not None:
                    obs[offset + 2 + d * tiles + t] = 1.0
        obs[start["unseen"] : start["unseen"] + tiles] = (
            np.array(knowledge.unseen_counts) * self.inverse
        )
        return obs
