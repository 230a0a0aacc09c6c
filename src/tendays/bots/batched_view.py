"""The batched engine's observation of one player's view, in numpy: what a policy trained on the
vector env or pgx reads, made from what the engine protocol, the AEC env and the bots are given.

``batched_observation(view, form)`` is the row that ``tendays.batch`` (``observe_batch``,
``observe_indices``), the vector env and the pgx env give for the same game and seat, in the same
form: ``"float32"`` (shares in [0, 1]), ``"compact"`` (the same blocks as uint8 counts, the pgx
env's default) or ``"indices"`` (uint8 tile ids). It reads the :class:`tendays.engine.PlayerView`
alone (the public history through :func:`tendays.engine.knowledge_of`), never the hidden state, and
needs numpy only (no JAX), so an engine program can run a batched policy with it. The blocks are
documented in :mod:`tendays.batch.observe` and :mod:`tendays.batch.indices`; a test finds the rows
equal to the batched ones on seeded positions of both editions.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from tendays.engine import Phase, PlayerView, knowledge_of
from tendays.engine.layout import OPPONENT_SLOTS, Block, array_layout, index_layout

__all__ = ["FORMS", "batched_observation"]

FORMS = ("float32", "compact", "indices")  # as tendays.batch.forms names them
_HOLDING = (Phase.DRAFT, Phase.PLACE)  # the phases in which the seat to move holds a tile


@cache
def _array_blocks(tiles: int, days: int) -> dict[str, Block]:
    return array_layout(tiles, days)


@cache
def _index_blocks(tiles: int, days: int, players: int, capacity: int) -> dict[str, Block]:
    return index_layout(tiles, days, players, capacity)


def batched_observation(view: PlayerView, form: str = "float32") -> np.ndarray:
    """The batched observation of ``view`` (a player's view, not a spectator's) in ``form``:
    float32 for ``"float32"``, uint8 for ``"compact"`` and ``"indices"``."""
    if view.player is None or view.rack is None:
        raise ValueError("an observation is made of a player's view, not a spectator's")
    if form not in FORMS:
        names = ", ".join(repr(name) for name in FORMS)
        raise ValueError(f"form must be one of {names}, not {form!r}")
    known = _known_racks(view)
    if form == "indices":
        return _indices(view, known)
    return _blocks(view, known, compact=form == "compact")


def _known_racks(view: PlayerView) -> list[list[int | None]]:
    """Every rack as the viewer knows it: its own, the others' as the public history places
    tiles (every rack when they are shown: open hands, or the game is over)."""
    racks = view.racks if view.racks is not None else knowledge_of(view).racks
    known = [list(rack) for rack in racks]
    known[view.player or 0] = list(view.rack or ())
    return known


def _held(view: PlayerView) -> tuple[int | None, bool]:
    """The held tile as the viewer sees it (None: none or out of sight), and whether the seat to
    move holds a tile out of the viewer's sight."""
    holding = view.phase in _HOLDING
    held = view.in_hand if holding else None
    return held, holding and held is None


def _progress(view: PlayerView, compact: bool) -> float:
    limit = view.options.turn_limit
    if limit is None:
        return 0.0
    if compact:  # in 255ths: a turn limit may pass 255
        return min(view.turn, limit) * 255 // limit
    return float(
        min(np.float32(1.0), np.float32(view.turn) * (np.float32(1.0) / np.float32(limit)))
    )


def _blocks(view: PlayerView, known: list[list[int | None]], compact: bool) -> np.ndarray:
    """The ``"float32"`` or ``"compact"`` row (:mod:`tendays.batch.observe`): counts worked out as
    whole numbers, then each share in float32, as the compiled batched engine works it out."""
    edition, options = view.edition, view.options
    t, d, players, me = len(edition.tiles), options.days, options.players, view.player or 0
    blocks = _array_blocks(t, d)
    counts = np.zeros(max(block.stop for block in blocks.values()), np.int64)
    # the positions that hold shares in float32 (and counts in the compact form), with the whole
    # each is a share of
    wholes = np.ones(counts.size, np.float32)

    def at(name: str, offset: int = 0, value: int = 1) -> None:
        counts[blocks[name].start + offset] = value

    def span(name: str) -> slice:
        return slice(blocks[name].start, blocks[name].stop)

    copies = np.asarray(edition.tables.counts, np.int64)
    box = edition.tile_count
    at("phase", int(view.phase))
    at("to_move", (view.current - me) % players)
    held, hidden = _held(view)
    if held is not None:
        at("held", held)
    at("held_hidden", 0, int(hidden))
    if 0 <= view.taken_from <= 3:
        at("held_source", view.taken_from)
    if view.forced_pile:
        at("forced_pile", view.forced_pile - 1)
    contents = np.zeros((3, t), np.int64)
    for p, pile in enumerate(view.piles):
        np.add.at(contents[p], list(pile), 1)
        if pile:
            at("pile_top", p * t + pile[-1])
        at("pile_size", p, len(pile))
    counts[span("pile_contents")] = contents.reshape(-1)
    wholes[span("pile_contents")] = np.tile(copies, 3)
    wholes[span("pile_size")] = box
    at("draw_size", 0, view.draw_pile_size)
    wholes[span("draw_size")] = box
    placed = _placed(known, players, d, t)
    counts[span("rack")] = placed[me].reshape(-1)
    counts[span("rack_empty")] = [int(tile is None) for tile in view.rack or ()]
    unseen = copies - contents.sum(axis=0) - placed.sum(axis=(0, 1))
    if held is not None:
        unseen[held] -= 1
    counts[span("unseen")] = np.maximum(unseen, 0)
    wholes[span("unseen")] = copies
    slot_size = 2 + d * t
    for slot in range(1, OPPONENT_SLOTS + 1):
        if slot >= players:
            break
        seat = (me + slot) % players
        start = blocks["opponents"].start + (slot - 1) * slot_size
        counts[start] = 1
        counts[start + 1] = view.rack_counts[seat]
        wholes[start + 1] = d
        counts[start + 2 : start + slot_size] = placed[seat].reshape(-1)
    progress = blocks["progress"].start
    if compact:
        row = counts.astype(np.uint8)
        row[progress] = int(_progress(view, True))
        return row
    # XLA turns a division by a constant into a product with its reciprocal: the same here
    row = counts.astype(np.float32) * (np.float32(1.0) / wholes)
    row[progress] = _progress(view, False)
    return row


def _placed(known: list[list[int | None]], players: int, days: int, tiles: int) -> np.ndarray:
    """int[players, days, tiles]: one-hot the tile known on each day of each rack."""
    placed = np.zeros((players, days, tiles), np.int64)
    for seat, rack in enumerate(known):
        for day, tile in enumerate(rack):
            if tile is not None:
                placed[seat, day, tile] = 1
    return placed


def _indices(view: PlayerView, known: list[list[int | None]]) -> np.ndarray:
    """The ``"indices"`` row (:mod:`tendays.batch.indices`): tile ids, ``T`` for no tile."""
    edition, options = view.edition, view.options
    t, d, players, me = len(edition.tiles), options.days, options.players, view.player or 0
    capacity = edition.tile_count - players * d
    blocks = _index_blocks(t, d, players, capacity)
    row = np.zeros(max(block.stop for block in blocks.values()), np.uint8)

    def put(name: str, values: list[int]) -> None:
        row[blocks[name].start : blocks[name].stop] = values

    def ids(tiles: Sequence[int | None]) -> list[int]:
        return [t if tile is None else tile for tile in tiles]

    held, hidden = _held(view)
    put("phase", [int(view.phase)])
    put("to_move", [(view.current - me) % players])
    put("progress", [int(_progress(view, True))])
    put("rack", ids(view.rack or ()))
    put("held", ids([held]))
    put("held_hidden", [int(hidden)])
    put("held_source", [view.taken_from + 1])
    put("forced_pile", [view.forced_pile or 0])
    put("pile_top", ids([pile[-1] if pile else None for pile in view.piles]))
    put("pile_size", [len(pile) for pile in view.piles])
    put("draw_size", [view.draw_pile_size])
    padded = [[*pile, *[None] * (capacity - len(pile))] for pile in view.piles]
    put("piles", [tile for pile in padded for tile in ids(pile)])
    others: list[int] = []
    for slot in range(1, players):
        seat = (me + slot) % players
        others += [view.rack_counts[seat], *ids(known[seat])]
    put("opponents", others)
    return row
