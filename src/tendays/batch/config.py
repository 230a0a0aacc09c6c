"""The static part of a batched game: the edition's tables and the options, as constant arrays.

Everything here is fixed for one compiled function. The connection tables, the link table included,
come from the engine (``edition.tables``, wrapped with ``numpy.frombuffer``) and the action
numbering from :class:`tendays.engine.ActionCodec`, so an action index means the same move in both
engines.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tendays.engine import ActionCodec, Edition, MoveKind, Options, load_edition

__all__ = ["DISCARD", "DRAFT", "DRAW", "REPLACE", "SWAP", "TAKE", "Config"]

# Action kinds, as small integers (the order of ActionCodec's blocks).
DRAFT, DRAW, TAKE, REPLACE, DISCARD, SWAP = range(6)
_KIND = {
    MoveKind.DRAFT: DRAFT,
    MoveKind.DRAW: DRAW,
    MoveKind.TAKE: TAKE,
    MoveKind.REPLACE: REPLACE,
    MoveKind.DISCARD: DISCARD,
    MoveKind.SWAP: SWAP,
}


@dataclass(frozen=True, eq=False)
class Config:
    """One edition and one set of options, with the arrays the batched rules read.

    Build it with :meth:`Config.of`. Sizes: ``tiles`` kinds of tile, ``box`` physical tiles,
    ``days`` days per rack, ``players`` racks, ``pile_capacity`` slots per discard pile (every tile
    outside the racks), ``actions`` action indices (``ActionCodec(days).size``).
    """

    edition: Edition
    options: Options
    tiles: int
    box: int
    pile_capacity: int
    actions: int
    is_region: np.ndarray  # bool[tiles]
    # bool[tiles * tiles]: step_table[a * tiles + b], regions a, b share a border
    step_table: np.ndarray
    hop_table: np.ndarray  # bool[tiles ** 3]: hop_table[(a * tiles + via) * tiles + b]
    # bool[(tiles + 1) ** 3]: the engine's ``edition.tables.link``; ``tiles``: no tile
    link_table: np.ndarray
    counts: np.ndarray  # int32[tiles]: copies of each tile in the box
    box_tiles: np.ndarray  # int32[box]: every physical tile, in manifest order (the unshuffled box)
    action_kind: np.ndarray  # int32[actions]: DRAFT .. SWAP
    action_day: np.ndarray  # int32[actions]: 0-based day of a draft, replace or swap (0 otherwise)
    action_day2: np.ndarray  # int32[actions]: 0-based second day of a swap (0 otherwise)
    # int32[actions]: 0-based pile of a take, replace or discard (0 otherwise)
    action_pile: np.ndarray
    # int32[actions]: the fact that makes the action legal (rules.legal_mask)
    action_fact: np.ndarray

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def days(self) -> int:
        return self.options.days

    @classmethod
    def of(cls, edition: Edition | str, options: Options) -> Config:
        """The static config of ``options`` with ``edition`` (an ``Edition`` or a shipped edition's
        id).

        Raises ``ValueError`` if the scalar engine would refuse the options, or if they use a rules
        version other than 2 (the only one the batched engine plays).
        """
        if isinstance(edition, str):
            edition = load_edition(edition)
        options.validate(edition)
        if options.rules != 2:
            raise ValueError(f"the batched engine plays rules version 2, not {options.rules}")
        tables = edition.tables
        n = tables.n
        codec = ActionCodec(options.days)
        kind = np.zeros(codec.size, np.int32)
        day = np.zeros(codec.size, np.int32)
        day2 = np.zeros(codec.size, np.int32)
        pile = np.zeros(codec.size, np.int32)
        for index in range(codec.size):
            move = codec.decode(index)
            kind[index] = _KIND[move.kind]
            if move.kind in (MoveKind.DRAFT, MoveKind.REPLACE, MoveKind.SWAP):
                day[index] = move.day - 1
            if move.kind is MoveKind.SWAP:
                day2[index] = move.b - 1
            if move.kind in (MoveKind.TAKE, MoveKind.REPLACE, MoveKind.DISCARD):
                pile[index] = move.pile - 1
        # Facts: day d of the drafting rack is empty (d), the draw pile has a tile (D), pile p has a
        # tile (D + 1 + p), pile p may take the discard (D + 4 + p),
        # swapping is allowed now (D + 7).
        days = options.days
        fact = np.select(
            [kind == DRAFT, kind == DRAW, kind == TAKE, (kind == REPLACE) | (kind == DISCARD)],
            [day, days, days + 1 + pile, days + 4 + pile],
            days + 7,
        ).astype(np.int32)
        return cls(
            edition=edition,
            options=options,
            tiles=n,
            box=edition.tile_count,
            pile_capacity=edition.tile_count - options.players * options.days,
            actions=codec.size,
            is_region=np.array(tables.is_region, bool),
            step_table=np.frombuffer(tables.step, np.uint8).astype(bool),
            hop_table=np.frombuffer(tables.hop, np.uint8).astype(bool),
            link_table=np.frombuffer(tables.link, np.uint8).astype(bool),
            counts=np.array(tables.counts, np.int32),
            box_tiles=np.array(edition.all_tiles(), np.int32),
            action_kind=kind,
            action_day=day,
            action_day2=day2,
            action_pile=pile,
            action_fact=fact,
        )
