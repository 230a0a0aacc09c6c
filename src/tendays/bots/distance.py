"""Journey distance: the fewest replacements that turn a rack into a complete journey.

A journey is a walk over *walk states*: "at region r" or "on transport t, having left region r" (the
region before a transport matters: a car needs a region bordering both ends, a plane or train needs
the colour of both ends). Sets of walk states are bitmasks (Python ints), so one step of the walk
for a whole set costs a few dozen integer operations.

For a rack, a forward pass computes, for every day and every budget ``c`` of changed days, the walk
states reachable on that day with at most ``c`` changes so far; a backward pass computes the states
from which the rest of the rack completes with at most ``c`` changes. Together they give the relaxed
distance (which ignores that each tile exists only a few times), and for every day and tile the
distance after putting that tile there: the *outs* that bring a rack one step closer.

The exact distance respects the tile counts: each region tile exists once (Berlin twice) and each
transport as often as the edition says; a completion keeps some of the rack's tiles in place and
fills the other days with tiles from outside the rack. A depth-first search, pruned by the backward
pass, finds such a completion, starting at the relaxed distance.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from tendays.engine import Edition

__all__ = [
    "Analysis",
    "JourneyGraph",
    "analyze",
    "bit_indices",
    "graph_for",
    "journey_distance",
    "relaxed_distance",
]

Rack = Sequence[int | None]

# A depth-first search for a completion gives up at a distance after this many nodes and tries one
# change more; racks where that matters have many near-completions, so the answer stays sound
# (a completion that really exists) and at worst one change longer than the shortest.
_SEARCH_NODE_LIMIT = 20_000
_MEMO_LIMIT = 200_000
_SPARSE = 24  # below this many states, stepping state by state beats testing every region


def bit_indices(mask: int) -> Iterator[int]:
    """The indices of the set bits of ``mask``, lowest first (the
    states of a set of walk states)."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class JourneyGraph:
    """The walk-state graph of one edition, built from its connection tables. Get one with
    :func:`graph_for`."""

    def __init__(self, edition: Edition) -> None:
        tables = edition.tables
        n, step, hop = tables.n, tables.step, tables.hop
        self.edition = edition
        regions = list(tables.regions)
        transports = list(tables.transports)
        n_regions = len(regions)
        self.n_regions = n_regions
        self.regions = regions
        self.transports = transports
        self.counts = tables.counts
        self.all_regions = (1 << n_regions) - 1
        # State bits: region k -> bit k; (region k, transport j) -> bit offset[j] + k.
        self.offsets = [n_regions * (1 + j) for j in range(len(transports))]
        self.state_tile: list[int] = list(regions) + [
            t for t in transports for _ in range(n_regions)
        ]
        self.state_region: list[int] = list(range(n_regions)) * (1 + len(transports))
        # [j][k] -> mask of regions reachable from region k over transport j
        hop_targets: list[list[int]] = []
        left_ok: list[int] = []  # [j] -> mask of regions that can start transport j
        for t in transports:
            targets = []
            ok = 0
            for k, a in enumerate(regions):
                row = (a * n + t) * n
                mask = sum(1 << k2 for k2, b in enumerate(regions) if hop[row + b])
                targets.append(mask)
                if mask:
                    ok |= 1 << k
            hop_targets.append(targets)
            left_ok.append(ok)
        self.left_ok = left_ok
        neighbors = [
            sum(1 << k2 for k2, b in enumerate(regions) if step[a * n + b]) for a in regions
        ]
        # pred[k2]: every state with a step to region k2.
        self.pred = [0] * n_regions
        for k2 in range(n_regions):
            mask = sum(1 << k for k in range(n_regions) if neighbors[k] >> k2 & 1)
            for j, offset in enumerate(self.offsets):
                mask |= sum(
                    1 << (offset + k) for k in range(n_regions) if hop_targets[j][k] >> k2 & 1
                )
            self.pred[k2] = mask
        # succ[s]: every state one step after state s.
        n_states = len(self.state_tile)
        self.succ = [0] * n_states
        for k in range(n_regions):
            mask = neighbors[k]
            for j, offset in enumerate(self.offsets):
                if left_ok[j] >> k & 1:
                    mask |= 1 << (offset + k)
            self.succ[k] = mask
            for j, offset in enumerate(self.offsets):
                self.succ[offset + k] = hop_targets[j][k]
        # tile_mask[tile]: the states whose tile is ``tile`` (for transports: the whole block).
        self.tile_mask = [0] * n
        for k, t in enumerate(regions):
            self.tile_mask[t] = 1 << k
        for j, t in enumerate(transports):
            self.tile_mask[t] = left_ok[j] << self.offsets[j]
        self._step_memo: dict[int, int] = {}
        self._pre_memo: dict[int, int] = {}

    def mask_of(self, tile: int | None) -> int:
        return 0 if tile is None else self.tile_mask[tile]

    def step(self, states: int) -> int:
        """Every state one step after some state in ``states``."""
        memo = self._step_memo
        result = memo.get(states)
        if result is not None:
            return result
        result = 0
        if states.bit_count() <= _SPARSE:
            succ = self.succ
            for s in bit_indices(states):
                result |= succ[s]
        else:
            pred = self.pred
            for k2 in range(self.n_regions):
                if pred[k2] & states:
                    result |= 1 << k2
            regions = states & self.all_regions
            for ok, offset in zip(self.left_ok, self.offsets, strict=True):
                result |= (regions & ok) << offset
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
        memo[states] = result
        return result

    def pre(self, states: int) -> int:
        """Every state with a step into ``states``."""
        memo = self._pre_memo
        result = memo.get(states)
        if result is not None:
            return result
        result = 0
        pred = self.pred
        for k2 in bit_indices(states & self.all_regions):
            result |= pred[k2]
        all_regions = self.all_regions
        for offset in self.offsets:
            result |= (states >> offset) & all_regions
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
        memo[states] = result
        return result

    def tiles_of(self, states: int) -> list[int]:
        """The tiles of a set of states, each once."""
        tiles = [self.regions[k] for k in bit_indices(states & self.all_regions)]
        for t, offset in zip(self.transports, self.offsets, strict=True):
            if (states >> offset) & self.all_regions:
                tiles.append(t)
        return tiles


_GRAPHS: dict[str, JourneyGraph] = {}


def graph_for(edition: Edition) -> JourneyGraph:
    """The (cached) walk-state graph of an edition."""
    graph = _GRAPHS.get(edition.id)
    if graph is None or graph.edition is not edition:
        graph = _GRAPHS[edition.id] = JourneyGraph(edition)
    return graph


@dataclass(frozen=True, slots=True)
class Analysis:
    """A rack's distance from a complete journey, one shortest completion, and its outs."""

    rack: tuple[int | None, ...]
    distance: int  # exact: fewest days to change, respecting tile counts
    relaxed: int  # a lower bound that ignores tile counts
    completion: tuple[int, ...]  # a complete journey that changes ``distance`` days of the rack
    # per day (index 0 = day 1): tiles that bring the rack one change closer
    outs: tuple[tuple[int, ...], ...]

    @property
    def days_to_change(self) -> tuple[int, ...]:
        """The 1-based days where ``completion`` differs from the rack."""
        return tuple(
            d + 1 for d, (a, b) in enumerate(zip(self.rack, self.completion, strict=True)) if a != b
        )


class _Passes:
    """Forward and backward reachability of one rack, computed level
    by level of changes as needed."""

    def __init__(self, graph: JourneyGraph, rack: Rack) -> None:
        self.graph = graph
        self.rack = rack
        self.days = len(rack)
        self.masks = [graph.mask_of(t) for t in rack]
        # forward[i][c]: states day i may hold with at most c changes on days 0..i.
        self.forward: list[list[int]] = [[] for _ in rack]
        # backward[i][c]: states on day i from which days i+1.. complete with at most c changes.
        self.backward: list[list[int]] = [[] for _ in rack]
        self.levels = -1

    def extend(self, level: int) -> None:
        """Compute both passes up to ``level`` changes."""
        graph = self.graph
        step, pre = graph.step, graph.pre
        masks, forward, backward = self.masks, self.forward, self.backward
        days = self.days
        all_regions = graph.all_regions
        for c in range(self.levels + 1, level + 1):
            forward[0].append(masks[0] & all_regions if c == 0 else all_regions)
            for i in range(1, days):
                before = forward[i - 1]
                if c > i + 1:  # every day so far may change: the set stops growing
                    forward[i].append(forward[i][-1])
                    continue
                kept = step(before[c]) & masks[i]
                forward[i].append(kept | step(before[c - 1]) if c else kept)
            backward[days - 1].append(all_regions)
            for i in range(days - 2, -1, -1):
                after = backward[i + 1]
                if c > days - 1 - i:
                    backward[i].append(backward[i][-1])
                    continue
                kept = pre(after[c] & masks[i + 1])
                backward[i].append(kept | pre(after[c - 1]) if c else kept)
        self.levels = max(self.levels, level)

    def relaxed_distance(self) -> int:
        all_regions = self.graph.all_regions
        c = 0
        while True:
            self.extend(c)
            if self.forward[-1][c] & all_regions or c >= self.days:
                return c
            c += 1

    def arriving(self, day: int, c: int) -> int:
        """States that day ``day`` may hold after days before it used at most ``c`` changes."""
        if c < 0:
            return 0
        if day == 0:
            return self.graph.all_regions
        return self.graph.step(self.forward[day - 1][c])

    def through(self, day: int, c: int) -> int:
        """States on day ``day`` that lie on a completion with at most
        ``c`` changes on the other days."""
        self.extend(c)
        backward = self.backward[day]
        result = 0
        for c1 in range(c + 1):
            result |= self.arriving(day, c1) & backward[c - c1]
        return result

    def complete(self, budget: int) -> tuple[int, ...] | None:
        """A completion with at most ``budget`` changes that respects
        tile counts, if one is found."""
        self.extend(budget)
        graph = self.graph
        rack, masks, backward = self.rack, self.masks, self.backward
        days = len(rack)
        spare = list(graph.counts)
        for t in rack:
            if t is not None:
                spare[t] -= 1
        state_tile, succ = graph.state_tile, graph.succ
        path: list[int] = []
        nodes = 0

        def search(day: int, previous: int, used: int) -> bool:
            nonlocal nodes
            if day == days:
                return True
            nodes += 1
            if nodes > _SEARCH_NODE_LIMIT:
                return False
            options = graph.all_regions if day == 0 else succ[previous]
            left = budget - used
            for state in bit_indices(options & masks[day] & backward[day][left]):
                path.append(state)
                if search(day + 1, state, used):
                    return True
                path.pop()
            if left >= 1:
                for state in bit_indices(options & ~masks[day] & backward[day][left - 1]):
                    tile = state_tile[state]
                    if spare[tile] <= 0:
                        continue
                    spare[tile] -= 1
                    path.append(state)
                    if search(day + 1, state, used + 1):
                        return True
                    path.pop()
                    spare[tile] += 1
            return False

        if search(0, -1, 0):
            return tuple(state_tile[s] for s in path)
        return None


_ANALYSES: dict[tuple[str, tuple[int | None, ...]], Analysis] = {}
_ANALYSIS_LIMIT = 50_000


def analyze(edition: Edition, rack: Rack) -> Analysis:
    """Distance, a shortest completion and the outs of a rack (``None`` marks an empty day)."""
    key = (edition.id, tuple(rack))
    cached = _ANALYSES.get(key)
    if cached is not None:
        return cached
    graph = graph_for(edition)
    passes = _Passes(graph, rack)
    relaxed = passes.relaxed_distance()
    distance = relaxed
    completion = passes.complete(distance)
    while completion is None and distance < len(rack):
        distance += 1
        completion = passes.complete(distance)
    if completion is None:  # pragma: no cover - a full rack of fresh tiles always completes
        raise ValueError("no complete journey of this length exists")
    if relaxed:
        outs = tuple(
            tuple(graph.tiles_of(passes.through(d, relaxed - 1))) for d in range(len(rack))
        )
    else:
        outs = tuple(() for _ in rack)
    analysis = Analysis(tuple(rack), distance, relaxed, completion, outs)
    if len(_ANALYSES) > _ANALYSIS_LIMIT:
        _ANALYSES.clear()
    _ANALYSES[key] = analysis
    return analysis


def journey_distance(edition: Edition, rack: Rack) -> int:
    """The fewest days to change (or fill) so that ``rack`` becomes a complete journey."""
    return analyze(edition, rack).distance


def relaxed_distance(edition: Edition, rack: Rack) -> int:
    """A lower bound of the distance that ignores how often each tile exists (no outs, no
    completion).

    It is the exact distance for nearly every rack and costs a fraction of :func:`analyze`, which is
    what a search that judges thousands of final racks needs.
    """
    return _Passes(graph_for(edition), rack).relaxed_distance()
