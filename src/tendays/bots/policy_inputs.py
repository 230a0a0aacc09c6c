"""What the learned bot's network reads: the batched engine's observation (laid out by the engine,
:func:`tendays.engine.layout.array_layout`), the edition's constant arrays (:class:`PolicySpec`,
from the engine's tables), and the *journey features* worked out from an observation
(:func:`features`): each day and tile's gain of journey conditions (:func:`journey_conditions`
counts them), and the journey distance (:func:`journey_distances`) with each day and tile's
shortening of it; and the greedy bot's yardstick of every action (:func:`greedy_yardstick`), which
the bot weighs with learned multiples.

Every function takes the array module (``numpy`` for play, ``jax.numpy`` for training), so the
network trains on exactly the numbers it plays with.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from tendays.engine import ActionCodec, Edition, MoveKind, Options
from tendays.engine.layout import OPPONENT_SLOTS, array_layout

__all__ = [
    "GREEDY_MULTIPLES",
    "MOVE_KINDS",
    "OPPONENT_SLOTS",
    "YARDSTICK",
    "YARDSTICK_GROUPS",
    "PolicySpec",
    "features",
    "greedy_yardstick",
    "journey_conditions",
    "journey_distances",
    "sound_days",
    "tile_odds",
]

# The kinds of move, in the order :attr:`PolicySpec.move_kind` numbers them.
MOVE_KINDS = (
    MoveKind.DRAFT,
    MoveKind.DRAW,
    MoveKind.TAKE,
    MoveKind.REPLACE,
    MoveKind.DISCARD,
    MoveKind.SWAP,
)

# > the number of regions: a sum of BASE ** -cost over them still rounds to the least cost
_BASE = 64.0


@dataclass(frozen=True, eq=False)
class PolicySpec:
    """The constant arrays of one edition and set of options that the network's inputs need."""

    tiles: int
    days: int
    players: int
    actions: int
    blocks: dict[str, tuple[int, int]]  # name: (start, stop) in the observation
    observation_size: int
    # int[inputs]: observation columns fed to the network: not the turn progress (the bot
    keep: np.ndarray
    # plays with any turn limit, or none), and of the other seats only the next one (so one network
    # plays any number of players)
    link: np.ndarray  # bool[(tiles + 1) ** 3]
    is_region: np.ndarray  # float32[tiles + 1]; 0 for "no tile"
    # int[actions]: 0 gains nothing, 1 the held tile's gain on a day, 2 a pile top's
    action_kind: np.ndarray
    action_day: np.ndarray  # int[actions]
    action_pile: np.ndarray  # int[actions]
    region_tiles: np.ndarray  # int[regions]
    transport_tiles: np.ndarray  # int[transports]
    # float32[2, regions, (1 + transports) * regions]: [0] region r to r' by a border,
    spread: np.ndarray
    # then r to r' over each transport (day r, transport, r'); [1] the same read backward (r' to r)
    tile_order: np.ndarray  # int[tiles]: the tiles' columns among regions-then-transports
    copies: np.ndarray  # float32[tiles]: how often each tile exists
    box: float  # the number of tiles in the box
    # int[actions]: which of :data:`MOVE_KINDS` each action is, its 0-based day and pile
    move_kind: np.ndarray
    move_day: np.ndarray
    move_pile: np.ndarray
    swap_days: np.ndarray  # int[swaps, 2]: the 0-based days of each swap action, in action order

    @classmethod
    def of(cls, edition: Edition, options: Options) -> PolicySpec:
        t, d = edition.tables.n, options.days
        layout = array_layout(t, d)
        blocks = {name: (block.start, block.stop) for name, block in layout.items()}
        start = max(stop for _, stop in blocks.values())
        # through the next seat's block: the same in every game
        present = blocks["opponents"][0] + 2 + d * t
        codec = ActionCodec(d)
        kind, day, pile = (np.zeros(codec.size, np.int64) for _ in range(3))
        move_kind, move_day, move_pile = (np.zeros(codec.size, np.int64) for _ in range(3))
        swaps = []
        for index in range(codec.size):
            move = codec.decode(index)
            move_kind[index] = MOVE_KINDS.index(move.kind)
            if move.kind in (MoveKind.DRAFT, MoveKind.REPLACE):
                move_day[index] = move.day - 1
            if move.kind in (MoveKind.TAKE, MoveKind.REPLACE, MoveKind.DISCARD):
                move_pile[index] = move.pile - 1
            if move.kind is MoveKind.SWAP:
                swaps.append((move.a - 1, move.b - 1))
            if move.kind in (MoveKind.DRAFT, MoveKind.REPLACE):
                kind[index], day[index] = 1, move.day - 1
            elif move.kind is MoveKind.TAKE:
                kind[index], pile[index] = 2, move.pile - 1
        link = np.frombuffer(edition.tables.link, np.uint8).astype(bool)
        cube = link.reshape(t + 1, t + 1, t + 1)
        regions, transports = np.array(edition.tables.regions), np.array(edition.tables.transports)
        # a region's soundness ignores the day after next
        border = cube[regions[:, None], regions[None, :], t]
        hops = cube[np.ix_(regions, transports, regions)]  # [r, x, r']
        spread = np.stack(
            [
                np.concatenate([border, hops.reshape(len(regions), -1)], axis=1),
                np.concatenate(
                    [border.T, hops.transpose(2, 1, 0).reshape(len(regions), -1)], axis=1
                ),
            ]
        )
        return cls(
            tiles=t,
            days=d,
            players=options.players,
            actions=codec.size,
            blocks=blocks,
            observation_size=start,
            keep=np.setdiff1d(np.arange(present), blocks["progress"][0]),
            link=link,
            region_tiles=regions,
            transport_tiles=transports,
            spread=spread.astype(np.float32),
            tile_order=np.argsort(np.concatenate([regions, transports])),
            is_region=np.array([*edition.tables.is_region, False], np.float32),
            action_kind=kind,
            action_day=day,
            action_pile=pile,
            copies=np.array(edition.tables.counts, np.float32),
            box=float(edition.tile_count),
            move_kind=move_kind,
            move_day=move_day,
            move_pile=move_pile,
            swap_days=np.array(swaps, np.int64).reshape(-1, 2),
        )

    @property
    def input_size(self) -> int:
        return len(self.keep) + 2 * (self.days * self.tiles + self.days + 3 + 1) + self.tiles


def sound_days(link: Any, rack: Any, xp: Any) -> Any:
    """float32[N, days - 1]: 1 where a day of the racks ``rack`` (``int[N, days]`` of ``tiles``
    kinds, ``tiles`` for an empty day) but the last is sound with the days after it, by the engine's
    link table ``link`` (``bool[(tiles + 1) ** 3]``, ``edition.tables.link``)."""
    m = round(link.shape[0] ** (1 / 3))  # tiles + 1
    after = xp.concatenate([rack[:, 2:], xp.full_like(rack[:, :1], m - 1)], axis=1)
    return xp.asarray(link)[(rack[:, :-1] * m + rack[:, 1:]) * m + after].astype(xp.float32)


def journey_conditions(link: Any, is_region: Any, rack: Any, xp: Any, sound: Any = None) -> Any:
    """float32[N]: how many of a journey's ``days`` conditions the racks ``rack`` (as
    :func:`sound_days`) meet: day 1 a region (``is_region``, ``[tiles + 1]``, false for "no tile"),
    and each day but the last sound (``sound``, :func:`sound_days` unless given). All of them: a
    complete journey."""
    if sound is None:
        sound = sound_days(link, rack, xp)
    return xp.asarray(is_region, xp.float32)[rack[:, 0]] + sound.sum(axis=1)


def journey_distances(spec: PolicySpec, rack: Any, xp: Any) -> tuple[Any, Any]:
    """Each rack's journey distance (``int[N]``) and, for every day and tile, the distance with that
    tile put on that day (``int[N, days, tiles]``), for racks ``rack`` (``int[N, days]``, ``tiles``
    for an empty day).

    The distance is the fewest days whose tile must change (an empty day always) so that the rack
    becomes a complete journey by the link table, ignoring how often each tile exists
    (``tendays.bots.distance``'s relaxed distance). A journey is a walk over regions where a
    transport day may sit between two regions, so a dynamic programme over days needs only the
    region of each day: the cost to reach region ``r'`` on a day is the least, over the regions
    before it, of the cost so far plus that day's change (a border from yesterday's region, or a hop
    over a transport tile on yesterday from the region the day before). A forward and a backward
    pass give, for every day and tile, the cheapest journey through it. Each least-over- neighbours
    is one matrix product on ``BASE ** -cost`` (the sum is the least cost's term within a factor of
    the number of regions, under ``BASE``), rounded back to the integer cost: fast on a batch."""
    n, d = rack.shape
    regions, transports = len(spec.region_tiles), len(spec.transport_tiles)
    cap = d + 1  # more than any distance: costs are clipped there
    # [N, d, R]
    cost = (rack[:, :, None] != xp.asarray(spec.region_tiles)[None, None, :]).astype(xp.int32)
    transport_cost = (rack[:, :, None] != xp.asarray(spec.transport_tiles)[None, None, :]).astype(
        xp.int32
    )
    spread = xp.asarray(spec.spread)
    log_base = np.float32(np.log(_BASE))

    def least(costs: Any, direction: int) -> Any:
        """``int[N, 1 + transports, R]``: the least of ``costs`` (``int[N, R]``) over each region's
        neighbours by a border, then over each transport."""
        total = (xp.exp(-log_base * costs.astype(xp.float32)) @ spread[direction]).reshape(
            n, 1 + transports, regions
        )
        rounded = xp.ceil(-xp.log(xp.maximum(total, 1e-30)) / log_base - 0.05)
        return xp.where(total > 0, xp.minimum(rounded, cap), cap).astype(xp.int32)

    # [i]: least cost of days before i, region r on day i
    arriving = [xp.zeros((n, regions), xp.int32)]
    upto = [cost[:, 0]]  # [i]: the same, day i included
    # [i]: [N, X, R'] least cost of days before i, transport x on day i, then r'
    hop_in: dict[int, Any] = {}
    for i in range(1, d):
        spread_i = least(upto[i - 1], 0)
        hop_in[i] = spread_i[:, 1:]
        reach = spread_i[:, 0]
        if i >= 2:
            reach = xp.minimum(
                reach, (transport_cost[:, i - 1, :, None] + hop_in[i - 1]).min(axis=1)
            )
        arriving.append(reach)
        upto.append(xp.minimum(reach + cost[:, i], cap))
    after: list[Any] = [None] * d  # [i]: least cost of the days after i, region r on day i
    fromhere: list[Any] = [None] * d  # [i]: the same, day i included
    # [i]: [N, X, R] least cost of days after i, region r on day i - 1, x on i
    hop_out: dict[int, Any] = {}
    after[d - 1], fromhere[d - 1] = xp.zeros((n, regions), xp.int32), cost[:, d - 1]
    for i in range(d - 2, -1, -1):
        spread_i = least(fromhere[i + 1], 1)
        hop_out[i] = spread_i[:, 1:]
        rest = spread_i[:, 0]
        if i + 2 < d:
            rest = xp.minimum(
                rest, (transport_cost[:, i + 1, :, None] + hop_out[i + 1]).min(axis=1)
            )
        after[i] = rest
        fromhere[i] = xp.minimum(rest + cost[:, i], cap)
    # a transport on the first or last day: never
    no_transport = xp.full((n, transports), cap, xp.int32)
    # [i]: [N, R + X] least cost of the other days of a journey with that tile on day i
    through = []
    for i in range(d):
        by_transport = (
            (upto[i - 1][:, None, :] + hop_out[i]).min(axis=2) if 0 < i < d - 1 else no_transport
        )
        through.append(xp.concatenate([arriving[i] + after[i], by_transport], axis=1))
    # [N, d, t]
    cheapest = xp.minimum(xp.stack(through, axis=1)[:, :, xp.asarray(spec.tile_order)], cap)
    # or change that day after all
    with_tile = xp.minimum(cheapest, cheapest.min(axis=2, keepdims=True) + 1)
    return upto[d - 1].min(axis=1), with_tile


def features(spec: PolicySpec, obs: Any, xp: Any) -> tuple[Any, Any, Any]:
    """The network's inputs (``float32[N, input_size]``), each action's journey gain and each
    action's shortening of the journey distance (``[N, actions]`` each) for observations ``obs``
    (``float32[N, observation_size]``), computed with the array module ``xp``."""
    n, t, d = obs.shape[0], spec.tiles, spec.days

    def tiles_of(name: str, groups: int) -> Any:  # one-hot groups to tile indices, ``t`` for none
        start, stop = spec.blocks[name]
        one_hot = obs[:, start:stop].reshape(n, groups, t)
        return xp.where(one_hot.sum(-1) > 0, one_hot.argmax(-1), t)

    rack, held, tops = tiles_of("rack", d), tiles_of("held", 1)[:, 0], tiles_of("pile_top", 3)
    link = xp.asarray(spec.link)
    region = xp.asarray(spec.is_region)

    def sound(a: Any, b: Any, c: Any) -> Any:
        return link[(a * (t + 1) + b) * (t + 1) + c].astype(xp.float32)

    empty = xp.full((n, 2), t, dtype=rack.dtype)
    padded = xp.concatenate([empty, rack, empty], axis=1)  # day k at k + 2
    now = sound_days(link, rack, xp)  # [N, d - 1]: days 0 .. d - 2 sound
    zero2 = xp.zeros((n, 2), xp.float32)
    now_padded = xp.concatenate([zero2, now, zero2], axis=1)
    # the links touching day k
    before = now_padded[:, 0:d] + now_padded[:, 1 : d + 1] + now_padded[:, 2 : d + 2]
    tile = xp.arange(t)[None, None, :]

    def day(offset: int) -> Any:
        return padded[:, offset : offset + d][:, :, None]

    # Day k holding tile x changes the links of days k - 2, k - 1 and k (an absent day never links).
    after = sound(day(0), day(1), tile) + sound(day(1), tile, day(3)) + sound(tile, day(3), day(4))
    first = region[:t][None, :] - region[rack[:, 0]][:, None]  # day 1 must be a region
    gain = after - before[:, :, None]
    gain = xp.concatenate([gain[:, :1] + first[:, None, :], gain[:, 1:]], axis=1)  # [N, d, t]
    distance, with_tile = journey_distances(spec, rack, xp)
    closer = (distance[:, None, None] - with_tile).astype(xp.float32)  # [N, d, t]: -1, 0 or 1

    def per_action(values: Any) -> tuple[Any, Any, Any]:
        """The held tile's value per day, each pile top's best over days, and each action's."""
        padded_values = xp.concatenate([values, xp.zeros((n, d, 1), xp.float32)], axis=2)
        held_value = xp.take_along_axis(
            padded_values, xp.broadcast_to(held[:, None, None], (n, d, 1)), axis=2
        )[:, :, 0]
        top_value = xp.take_along_axis(
            padded_values, xp.broadcast_to(tops[:, None, :], (n, d, 3)), axis=2
        ).max(axis=1)
        kind = xp.asarray(spec.action_kind)[None, :]
        action = xp.where(
            kind == 1,
            held_value[:, xp.asarray(spec.action_day)],
            xp.where(kind == 2, top_value[:, xp.asarray(spec.action_pile)], 0.0),
        )
        return held_value, top_value, action

    held_gain, top_gain, action_gain = per_action(gain)
    held_closer, top_closer, action_closer = per_action(closer)
    progress = journey_conditions(link, region, rack, xp, now)
    inputs = xp.concatenate(
        [
            obs[:, xp.asarray(spec.keep)],
            gain.reshape(n, d * t) / 2,
            held_gain / 2,
            top_gain / 2,
            (progress / d)[:, None],
            closer.reshape(n, d * t),
            held_closer,
            top_closer,
            (distance / d)[:, None].astype(xp.float32),
            closer.max(axis=1),
        ],
        axis=1,
    )
    return (
        inputs.astype(xp.float32),
        action_gain.astype(xp.float32),
        action_closer.astype(xp.float32),
    )


# The greedy bot's yardstick, per action (:func:`greedy_yardstick`), in this order.
YARDSTICK = ("closer", "outs", "keep", "cover", "pile", "draw")
# Multiples of those that make the yardstick alone choose as the greedy bot does: the distance
# first, then the weighted outs; keeping the rack wins a tie; then a pile whose top does not help,
# the largest; drawing beats any move that does not shorten the journey.
# (The outs of a rack with empty days reach a few hundred; the logits these make need float64.)
GREEDY_MULTIPLES = (1000.0, 1.0, 1e-3, -1e-4, 1e-5, 500.0)
# How much a copy of a tile counts toward an out, by where it is (``tendays.bots.greedy.TileOdds``).
_ON_TOP, _UNSEEN, _BURIED, _ELSEWHERE = 1.0, 0.5, 0.1, 0.02


def _tiles_of(spec: PolicySpec, obs: Any, name: str, groups: int, xp: Any) -> Any:
    """One-hot groups of an observation block to tile indices (``tiles`` for none)."""
    start, stop = spec.blocks[name]
    one_hot = obs[:, start:stop].reshape(obs.shape[0], groups, spec.tiles)
    return xp.where(one_hot.sum(-1) > 0, one_hot.argmax(-1), spec.tiles)


def tile_odds(spec: PolicySpec, obs: Any, xp: Any) -> Any:
    """float32[N, tiles]: how likely each tile is to reach the observing player, as the greedy bot
    weighs an out (``TileOdds.from_knowledge``): on a pile top 1, unseen 0.5 times the chance that
    an unseen copy is in the draw pile, buried 0.1, known in another rack 0.02."""
    n, t, d = obs.shape[0], spec.tiles, spec.days
    copies = xp.asarray(spec.copies)

    def block(name: str) -> Any:
        start, stop = spec.blocks[name]
        return obs[:, start:stop]

    unseen = xp.round(block("unseen") * copies)
    contents = xp.round(block("pile_contents").reshape(n, 3, t) * copies).sum(axis=1)
    visible = block("pile_top").reshape(n, 3, t).sum(axis=1)
    slots = block("opponents").reshape(n, OPPONENT_SLOTS, 2 + d * t)
    elsewhere = slots[:, :, 2:].reshape(n, OPPONENT_SLOTS, d, t).sum(axis=(1, 2))
    draw = xp.round(block("draw_size")[:, 0] * spec.box)
    share = xp.minimum(1.0, draw / xp.maximum(1.0, unseen.sum(axis=1)))
    in_draw = xp.where(draw > 0, _UNSEEN * share, _UNSEEN * 0.5)
    weight = (
        visible * _ON_TOP
        + unseen * in_draw[:, None]
        + (contents - visible) * _BURIED
        + elsewhere * _ELSEWHERE
    )
    return xp.minimum(1.0, weight).astype(xp.float32)


YARDSTICK_GROUPS = ("held", "tops", "swaps")


def greedy_yardstick(
    spec: PolicySpec,
    obs: Any,
    xp: Any,
    groups: tuple[str, ...] = YARDSTICK_GROUPS,
    exact: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None,
) -> Any:
    """float32[N, actions, len(YARDSTICK)]: for every action, the greedy bot's judgement of the rack
    it leaves, for observations ``obs``.

    ``closer``: how much shorter the journey distance gets (a take: with the pile's top where it
    leaves the best rack, or kept out); ``outs``: the rack's outs (each day's tiles that would
    shorten it) weighted by :func:`tile_odds`; ``keep``: 1 for discarding the held tile;
    ``cover``: 1 where a placement covers a pile top that is an out of the rack it leaves;
    ``pile``: the covered pile's size (a share of the box, less a thousandth per pile number);
    ``draw``: 1 for drawing. Distances are
    the relaxed ones of :func:`journey_distances` (the greedy bot's exact distance differs from it
    on rare racks).

    Only the racks of the actions of ``groups`` are analysed (``held``: drafts and placements,
    ``tops``: takes, ``swaps``); the other actions are judged as if they kept the rack, so a player
    that knows which kinds of move are legal saves the rest. With ``exact`` (numpy only: from the
    racks ``int[N, M, days]`` the actions leave, the first of each row the rack itself, and their
    relaxed distances ``int[N, M]``, the exact distances as
    :func:`tendays.bots.distance.journey_distance` gives them), ``closer`` counts the exact
    distance, as the greedy bot's does."""
    n, t, d = obs.shape[0], spec.tiles, spec.days
    rack = _tiles_of(spec, obs, "rack", d, xp)
    held = _tiles_of(spec, obs, "held", 1, xp)[:, 0]
    tops = _tiles_of(spec, obs, "pile_top", 3, xp)
    weight = tile_odds(spec, obs, xp)
    eye = xp.asarray(np.eye(d, dtype=bool))[None]
    # The racks the actions leave: [0] as it is, [1 + k] the held tile on day k, [1 + d + p d + k]
    # pile p's top on day k, [1 + 4 d + s] swap s.
    candidates = [rack[:, None, :]]
    if "held" in groups:
        candidates.append(xp.where(eye, held[:, None, None], rack[:, None, :]))
    if "tops" in groups:
        candidates += [xp.where(eye, tops[:, p, None, None], rack[:, None, :]) for p in range(3)]
    swaps = len(spec.swap_days)
    if "swaps" in groups:
        order = np.tile(np.arange(d), (swaps, 1))  # each swap's days, as permuted
        rows = np.arange(swaps)
        order[rows, spec.swap_days[:, 0]] = spec.swap_days[:, 1]
        order[rows, spec.swap_days[:, 1]] = spec.swap_days[:, 0]
        candidates.append(rack[:, xp.asarray(order)])
    analysed = xp.concatenate(candidates, axis=1)
    distance, with_tile = journey_distances(spec, analysed.reshape(-1, d), xp)
    judged = (
        distance
        if exact is None
        else xp.asarray(exact(np.asarray(analysed), np.asarray(distance).reshape(n, -1)))
    )
    # every group's racks, those not analysed judged as the rack itself
    sizes = {"held": d, "tops": 3 * d, "swaps": swaps}
    where, next_row = [np.zeros(1, np.int64)], 1
    for group in YARDSTICK_GROUPS:
        if group in groups:
            where.append(np.arange(next_row, next_row + sizes[group]))
            next_row += sizes[group]
        else:
            where.append(np.zeros(sizes[group], np.int64))
    rows_of = xp.asarray(np.concatenate(where))
    m = len(rows_of)
    distance = distance.reshape(n, -1)[:, rows_of].reshape(n * m)
    judged = judged.reshape(n, -1)[:, rows_of]
    with_tile = with_tile.reshape(n, -1, d, t)[:, rows_of].reshape(n * m, d, t)
    is_out = (with_tile < distance[:, None, None]).reshape(n, m, d, t)
    outs = (is_out * weight[:, None, None, :]).sum(axis=(2, 3))  # [N, M]
    out_tiles = xp.concatenate([is_out.any(axis=2), xp.zeros((n, m, 1), bool)], axis=2)
    closer = (judged[:, :1] - judged).astype(xp.float32)

    # A take is judged by its tile's best place (or none): the distance first, then the outs.
    best_places = []
    for p in range(3):
        places = xp.asarray(np.r_[0, 1 + d + p * d + np.arange(d)])
        best_places.append(places[xp.argmax(closer[:, places] * 1e4 + outs[:, places], axis=1)])
    take_rack = xp.stack(best_places, axis=1)  # [N, 3]

    kind = spec.move_kind
    day, pile = spec.move_day, spec.move_pile
    swap_index = np.cumsum(kind == MOVE_KINDS.index(MoveKind.SWAP)) - 1
    # each action's rack, by kind: draft and replace the held tile's, take its best, swap its own
    rack_of = np.select(
        [kind == 0, kind == 3, kind == 5], [1 + day, 1 + day, 1 + 4 * d + swap_index], 0
    )
    index = xp.broadcast_to(xp.asarray(rack_of)[None, :], (n, spec.actions))
    is_take = xp.asarray(kind == 2)[None, :]
    index = xp.where(is_take, take_rack[:, xp.asarray(pile)], index)
    action_closer = xp.take_along_axis(closer, index, axis=1)
    action_outs = xp.take_along_axis(outs, index, axis=1)
    placing = xp.asarray((kind == 3) | (kind == 4))[None, :]
    covered = tops[:, xp.asarray(pile)]  # [N, actions]
    covers_out = xp.take_along_axis(
        out_tiles.reshape(n, m * (t + 1)), index * (t + 1) + covered, axis=1
    )
    start, _ = spec.blocks["pile_size"]
    # the lower pile wins a tie, as with the greedy bot (a pile's size is a multiple of 1 / box)
    sizes = obs[:, start : start + 3][:, xp.asarray(pile)] - xp.asarray(pile * 1e-3, xp.float32)
    zero = xp.zeros((n, spec.actions), xp.float32)
    return xp.stack(
        [
            action_closer,
            action_outs,
            xp.broadcast_to(xp.asarray(kind == 4, xp.float32)[None, :], (n, spec.actions)),
            xp.where(placing, covers_out.astype(xp.float32), zero),
            xp.where(placing, sizes, zero),
            xp.broadcast_to(xp.asarray(kind == 1, xp.float32)[None, :], (n, spec.actions)),
        ],
        axis=2,
    ).astype(xp.float32)
