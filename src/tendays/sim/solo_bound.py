"""The clairvoyant bound on a solo game: the fewest turns any play could take, knowing the draws.

An analysis tool, never a player: it reads the complete state (the draw pile's order), which no bot
at a table may see, so it is not a bot and no registry names it. It answers "how fast could this
deal be finished at all?", the limit that a solo bot's turns are read against.

With the draw order known the search is exact and small. Every drafted tile can go straight onto
its day of the final journey ``J`` (the whole draft is known when it starts), so a tile of ``J``
costs nothing if it is drafted, one turn if it is one of the three face-up tiles (take it, put it
on its day) and, if it is the ``k``-th tile of the draw pile, needs ``k`` draws, one turn each (the
drawn tiles ``J`` does not use are thrown away). So the fewest turns for ``J`` are the face-up
tiles it takes plus the deepest draw it needs, and every play ending in ``J`` takes at least that
many. The bound is the least of that over all complete journeys: for ``T = 1, 2, ...`` and each
split of ``T`` into ``F <= 3`` takes and ``T - F`` draws, a depth-first search over the days looks
for a journey built from the drafted tiles, the first ``T - F`` draws and at most ``F`` face-up
tiles. The first ``T`` that has one is the bound, and :func:`solo_plan` writes the moves that
reach it, which replay through the engine (the takes first, so nothing buries a face-up tile).
A reshuffle comes only after the whole draw pile, by which time every tile has been seen; the
bound never needs one.
"""

from __future__ import annotations

from dataclasses import dataclass

from tendays.engine import Move, Phase, State, apply
from tendays.engine.connections import EditionTables

__all__ = ["SoloBound", "after_draft_bound", "replay", "solo_bound", "solo_plan"]

_FACE_UP = 3  # the discard piles turned up after the draft


@dataclass(frozen=True, slots=True)
class SoloBound:
    """The fewest turns to finish a solo deal knowing its draw order, and one journey that takes
    them: ``sources[d]`` says where day ``d + 1``'s tile comes from (``"draft"``, ``"pile P"`` or
    ``"draw K"``, the ``K``-th tile drawn)."""

    turns: int
    journey: tuple[int, ...]
    sources: tuple[str, ...]


def _order(state: State) -> tuple[list[int], list[int], list[int]]:
    """The drafted tiles in drafting order, the face-up tiles of piles 1-3 and the draw order."""
    days = state.options.days
    coming = [state.in_hand, *reversed(state.draw_pile)]
    tiles = [t for t in coming if t is not None]
    return tiles[:days], tiles[days : days + _FACE_UP], tiles[days + _FACE_UP :]


def solo_bound(state: State) -> SoloBound:
    """The clairvoyant bound of the solo game ``state`` (dealt, before the first draft)."""
    if state.options.players != 1:
        raise ValueError("the solo bound is for games of one player")
    if state.phase is not Phase.DRAFT or any(t is not None for t in state.racks[0]):
        raise ValueError("the solo bound starts from a deal, before the first tile is drafted")
    drafted, face_up, draws = _order(state)
    days = state.options.days
    for turns in range(1, len(draws) + _FACE_UP + 1):
        for takes in range(min(_FACE_UP, turns) + 1):
            free = drafted + draws[: turns - takes]
            found = _journey(state.edition.tables, [None] * days, free, face_up, takes)
            if found is not None:
                journey, from_face = found
                sources = _sources(journey, from_face, drafted, face_up, draws)
                return SoloBound(max(1, turns), journey, sources)
    raise AssertionError("every complete journey is in the box")  # pragma: no cover


def after_draft_bound(state: State) -> int:
    """A lower bound on the turns still needed to finish the solo game ``state`` (the draft just
    ended), knowing the draw order: the clairvoyant's speed from this rack.

    A day keeps its tile for free; another tile costs a turn if it is face up or already in the rack
    on another day (taken back from a pile after that day was replaced, which is counted as one
    turn although a rack tile can only be taken back after its day changed: hence a lower bound),
    and the ``k``-th drawn tile needs ``k`` draws.
    """
    if state.options.players != 1 or state.phase is not Phase.DRAW or state.turn:
        raise ValueError("the bound after the draft is for a solo game whose draft just ended")
    rack = [t for t in state.racks[0] if t is not None]
    face_up = [p[-1] for p in state.piles]
    draws = list(reversed(state.draw_pile))
    extra = face_up + rack
    for turns in range(1, len(draws) + len(extra) + 1):
        for takes in range(min(len(extra), turns) + 1):
            kept: list[int | None] = list(rack)
            free = draws[: turns - takes]
            if _journey(state.edition.tables, kept, free, extra, takes) is not None:
                return turns
    raise AssertionError("every complete journey is in the box")  # pragma: no cover


def _journey(
    tables: EditionTables, kept: list[int | None], free: list[int], extra: list[int], takes: int
) -> tuple[tuple[int, ...], tuple[bool, ...]] | None:
    """A complete journey of ``len(kept)`` days from ``free`` tiles and at most ``takes`` of the
    ``extra`` ones, each day saying whether its tile is one of those, or None. Day ``d`` may keep
    the tile ``kept[d]`` (a copy of it among ``extra``) without a take."""
    n = tables.n
    days = len(kept)
    step, hop, is_region = tables.step, tables.hop, tables.is_region
    have = [0] * n
    for t in free:
        have[t] += 1
    spare = [0] * n
    for t in extra:
        spare[t] += 1
    pool = [t for t in range(n) if have[t] or spare[t]]
    regions = [t for t in pool if is_region[t]]
    transports = [t for t in pool if not is_region[t]]
    path: list[int] = []
    taken: list[int] = []  # 0: a free tile, 1: a take, 2: the day's own tile kept
    left = [takes]

    def use(t: int) -> int | None:
        """Take a copy of ``t`` for the next day: how (see ``taken``), or None if none is left."""
        if kept[len(path)] == t and spare[t]:
            spare[t] -= 1
            return 2
        if have[t]:
            have[t] -= 1
            return 0
        if spare[t] and left[0]:
            spare[t] -= 1
            left[0] -= 1
            return 1
        return None

    def give_back(t: int, how: int) -> None:
        if how:
            spare[t] += 1
            left[0] += how == 1
        else:
            have[t] += 1

    def push(t: int) -> bool:
        how = use(t)
        if how is None:
            return False
        path.append(t)
        taken.append(how)
        return True

    def pop() -> None:
        give_back(path.pop(), taken.pop())

    def search() -> bool:
        """Extend the path, which ends in a region, to ``days`` tiles."""
        if len(path) == days:
            return True
        row = path[-1] * n
        for b in regions:
            if step[row + b] and push(b):
                if search():
                    return True
                pop()
        if len(path) + 2 > days:
            return False
        for via in transports:
            base = (row + via) * n
            if not any(hop[base + b] for b in regions) or not push(via):
                continue
            for b in regions:
                if hop[base + b] and push(b):
                    if search():
                        return True
                    pop()
            pop()
        return False

    for first in regions:
        if push(first):
            if search():
                return tuple(path), tuple(how == 1 for how in taken)
            pop()
    return None


def _sources(
    journey: tuple[int, ...],
    from_face: tuple[bool, ...],
    drafted: list[int],
    face_up: list[int],
    draws: list[int],
) -> tuple[str, ...]:
    """Where each day's tile comes from: a drafted copy first, then the earliest drawn one (the
    search used a face-up tile only where no such copy was left)."""
    spare_draft = list(drafted)
    spare_face = list(enumerate(face_up, 1))
    drawn = list(enumerate(draws, 1))
    sources: list[str] = []
    for tile, face in zip(journey, from_face, strict=True):
        if face:
            pile = next(p for p, t in spare_face if t == tile)
            spare_face.remove((pile, tile))
            sources.append(f"pile {pile}")
        elif tile in spare_draft:
            spare_draft.remove(tile)
            sources.append("draft")
        else:
            k = next(k for k, t in drawn if t == tile)
            drawn.remove((k, tile))
            sources.append(f"draw {k}")
    return tuple(sources)


def solo_plan(state: State) -> list[Move]:
    """The moves that finish the solo deal ``state`` in :func:`solo_bound`'s turns."""
    bound = solo_bound(state)
    drafted, _, _ = _order(state)
    days = len(bound.journey)
    draft_day: dict[int, int] = {}  # drafting order -> day
    taken = set()
    for day, (tile, source) in enumerate(zip(bound.journey, bound.sources, strict=True), 1):
        if source == "draft":
            i = next(i for i, t in enumerate(drafted) if t == tile and i not in taken)
            taken.add(i)
            draft_day[i] = day
    fillers = iter(d for d in range(1, days + 1) if d not in draft_day.values())
    moves = [Move.draft(draft_day[i] if i in draft_day else next(fillers)) for i in range(days)]
    for day, source in enumerate(bound.sources, 1):
        if source.startswith("pile"):
            pile = int(source.split()[1])
            moves += [Move.take(pile), Move.replace(day, pile)]
    wanted = {
        int(source.split()[1]): day
        for day, source in enumerate(bound.sources, 1)
        if source.startswith("draw")
    }
    for k in range(1, max(wanted, default=0) + 1):
        moves += [Move.draw(), Move.replace(wanted[k], 1) if k in wanted else Move.discard(1)]
    if not wanted and not any(s.startswith("pile") for s in bound.sources):
        moves += [Move.draw(), Move.discard(1)]  # the draft made a journey: one turn ends it
    return moves


def replay(state: State, moves: list[Move]) -> State:
    """``state`` after ``moves``, each checked by the engine."""
    for move in moves:
        state = apply(state, move)
    return state
