"""The rules of play: options, the game state as a value, legal moves, and applying a move.

``new_game`` deals a seeded game; ``apply`` turns a state and a move into the next state and
raises :class:`IllegalMoveError` naming the broken rule. States are immutable values, so search
can keep as many as it likes and undo is just keeping the previous one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from enum import IntEnum
from typing import Any

from .edition import Edition
from .journey import checker_for
from .moves import Move, MoveKind

__all__ = [
    "MAX_PLAYERS",
    "PILES",
    "Event",
    "IllegalMoveError",
    "Options",
    "OutOfTurnError",
    "Phase",
    "State",
    "apply",
    "legal_moves",
    "new_game",
]

PILES = 3
MAX_PLAYERS = 4


class IllegalMoveError(ValueError):
    """A well-formed move that the rules do not allow now; the message names the rule."""


class OutOfTurnError(IllegalMoveError):
    """A move sent for a player whose turn it is not."""


class Phase(IntEnum):
    DRAFT = 0  # filling the racks, one tile at a time, round-robin
    DRAW = 1  # the current player draws (or swaps, in the swap variant)
    PLACE = 2  # the current player places or discards the drawn tile
    OVER = 3


@dataclass(frozen=True, slots=True)
class Options:
    """Rule options of one game (see RULES.md); fixed for the whole game."""

    players: int = 2
    days: int = 10
    swap: bool = False
    open_hands: bool = False
    turn_limit: int | None = None

    def validate(self, edition: Edition) -> None:
        """Raise ``ValueError`` if these options cannot be played with ``edition``."""
        if not 1 <= self.players <= MAX_PLAYERS:
            raise ValueError(f"a game has 1 to {MAX_PLAYERS} players, not {self.players}")
        if not 2 <= self.days <= 20:
            raise ValueError(f"a rack has 2 to 20 days, not {self.days}")
        if self.players * self.days + PILES > edition.tile_count:
            raise ValueError(
                f"{edition.name} has {edition.tile_count} tiles: not enough for {self.players} racks of "
                f"{self.days} days and {PILES} discard piles"
            )
        if self.turn_limit is not None and self.turn_limit < 1:
            raise ValueError(f"the turn limit must be at least 1, not {self.turn_limit}")

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "days": self.days,
            "swap": self.swap,
            "open_hands": self.open_hands,
            "turn_limit": self.turn_limit,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Options:
        unknown = set(data) - {"players", "days", "swap", "open_hands", "turn_limit"}
        if unknown:
            raise ValueError(f"unknown options {sorted(unknown)}")
        for key in ("players", "days", "turn_limit"):
            value = data.get(key)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise ValueError(f"option {key!r} must be a whole number, not {value!r}")
        for key in ("swap", "open_hands"):
            if key in data and not isinstance(data[key], bool):
                raise ValueError(f"option {key!r} must be true or false, not {data[key]!r}")
        if data.get("players", 2) is None or data.get("days", 10) is None:
            raise ValueError("options 'players' and 'days' cannot be null")
        return cls(**data)


@dataclass(frozen=True, slots=True)
class Event:
    """One public happening, as every player at the table sees it.

    Only public facts go in: a draw from the draw pile carries no tile; a taken or discarded
    tile is face up and so is named.
    """

    kind: str  # draft, reveal, start, draw, take, swap, replace, discard, reshuffle, win, limit
    player: int | None = None
    day: int = 0
    day2: int = 0
    pile: int = 0
    tile: int | None = None
    count: int = 0


Rack = tuple[int | None, ...]


@dataclass(frozen=True, slots=True)
class State:
    """The complete, secret state of a game. Players only ever see ``view(state, player)``."""

    edition: Edition
    options: Options
    seed: int  # secret: it decides the draw order and every reshuffle
    phase: Phase
    current: int
    racks: tuple[Rack, ...]
    draw_pile: tuple[int, ...]  # the top tile is the last element
    piles: tuple[tuple[int, ...], ...]  # three discard piles, top tile last
    in_hand: int | None  # the tile being placed (drafted or drawn)
    taken_from: int  # 0: draw pile, 1..3: that discard pile; -1: nothing taken this turn
    turn: int  # turns completed since the first player began
    winner: int | None
    reshuffles: int
    events: tuple[Event, ...]

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def legal_moves(self) -> tuple[Move, ...]:
        return legal_moves(self)

    def apply(self, move: Move, player: int | None = None) -> State:
        return apply(self, move, player)


def _rng(seed: int, purpose: str) -> random.Random:
    # Each use of chance gets its own stream derived from the seed, so replays never depend
    # on how many random numbers an earlier step happened to draw.
    return random.Random(f"tendays/{seed}/{purpose}")


def new_game(edition: Edition, options: Options, seed: int) -> State:
    """Shuffle the tiles with ``seed`` and start the draft: seat 0 holds the first drafted tile."""
    options.validate(edition)
    tiles = edition.all_tiles()
    _rng(seed, "deal").shuffle(tiles)
    empty: Rack = (None,) * options.days
    return State(
        edition=edition,
        options=options,
        seed=seed,
        phase=Phase.DRAFT,
        current=0,
        racks=(empty,) * options.players,
        draw_pile=tuple(tiles[:-1]),
        piles=((), (), ()),
        in_hand=tiles[-1],
        taken_from=0,
        turn=0,
        winner=None,
        reshuffles=0,
        events=(),
    )


# -- legal moves ---------------------------------------------------------------------------

_DRAFT = [Move.draft(d) for d in range(21)]
_DRAW = Move.draw()
_TAKE = [Move.take(p) for p in range(PILES + 1)]
_DISCARD = [Move.discard(p) for p in range(PILES + 1)]
_MOVE_CACHE: dict[tuple[Any, ...], tuple[Move, ...]] = {}


def _cached(key: tuple[Any, ...], build: Any) -> tuple[Move, ...]:
    moves = _MOVE_CACHE.get(key)
    if moves is None:
        moves = _MOVE_CACHE[key] = tuple(build())
    return moves


def legal_moves(state: State) -> tuple[Move, ...]:
    """Every move the current player may make now (empty when the game is over)."""
    phase = state.phase
    days = state.options.days
    if phase is Phase.DRAW:
        can_draw = bool(state.draw_pile)
        takeable = tuple(p + 1 for p in range(PILES) if state.piles[p])
        swap = state.options.swap
        return _cached(("draw", can_draw, takeable, swap, days), lambda: (
            ([_DRAW] if can_draw else [])
            + [_TAKE[p] for p in takeable]
            + ([Move.swap(d, e) for d in range(1, days + 1) for e in range(d + 1, days + 1)] if swap else [])
        ))
    if phase is Phase.PLACE:
        taken = state.taken_from
        forced = taken if taken > 0 and not state.piles[taken - 1] else 0
        piles = (forced,) if forced else tuple(range(1, PILES + 1))
        return _cached(("place", piles, days), lambda: (
            [Move.replace(d, p) for d in range(1, days + 1) for p in piles] + [_DISCARD[p] for p in piles]
        ))
    if phase is Phase.DRAFT:
        rack = state.racks[state.current]
        return tuple(_DRAFT[d + 1] for d in range(days) if rack[d] is None)
    return ()


# -- applying a move -----------------------------------------------------------------------

def _name(player: int) -> str:
    return f"player {player + 1}"


def _check_day(state: State, day: int) -> None:
    if not 1 <= day <= state.options.days:
        raise IllegalMoveError(f"there is no day {day}; the rack has days 1-{state.options.days}")


def _check_pile(pile: int) -> None:
    if not 1 <= pile <= PILES:
        raise IllegalMoveError(f"there is no discard pile {pile}; the piles are 1-{PILES}")


def apply(state: State, move: Move, player: int | None = None) -> State:
    """The state after ``move``. If ``player`` is given, it must be the player to move."""
    phase = state.phase
    if phase is Phase.OVER:
        raise IllegalMoveError("the game is over")
    if player is not None and player != state.current:
        raise OutOfTurnError(f"it is {_name(state.current)}'s turn, not {_name(player)}'s")
    kind = move.kind
    if phase is Phase.DRAW:
        if kind is MoveKind.DRAW:
            return _draw(state)
        if kind is MoveKind.TAKE:
            return _take(state, move.a)
        if kind is MoveKind.SWAP:
            return _swap(state, move.a, move.b)
        raise IllegalMoveError(f"first take a tile ('draw' or 'take PILE'{', or swap' if state.options.swap else ''}); "
                               f"'{move}' comes after drawing")
    if phase is Phase.PLACE:
        if kind is MoveKind.REPLACE:
            return _place(state, move.a, move.b)
        if kind is MoveKind.DISCARD:
            return _place(state, 0, move.a)
        raise IllegalMoveError(f"you already hold a tile: place it ('replace DAY PILE') or discard it "
                               f"('discard PILE'), not '{move}'")
    if kind is not MoveKind.DRAFT:
        raise IllegalMoveError(f"the racks are still being filled: put the drawn tile on an empty day ('draft DAY'), "
                               f"not '{move}'")
    return _draft(state, move.a)


def _draft(state: State, day: int) -> State:
    _check_day(state, day)
    rack = state.racks[state.current]
    if rack[day - 1] is not None:
        raise IllegalMoveError(f"day {day} already holds a tile; drafted tiles go on empty days and never move")
    new_rack = rack[: day - 1] + (state.in_hand,) + rack[day:]
    racks = state.racks[: state.current] + (new_rack,) + state.racks[state.current + 1:]
    events = state.events + (Event("draft", state.current, day=day),)
    players = state.options.players
    nxt = (state.current + 1) % players
    pile = state.draw_pile
    if None not in racks[nxt]:  # round-robin: the next drafter full means all are full
        # Every rack is full: turn up three discard piles and pick the first player.
        piles = ((pile[-1],), (pile[-2],), (pile[-3],))
        first = _rng(state.seed, "first").randrange(players)
        events += tuple(Event("reveal", pile=p + 1, tile=piles[p][0]) for p in range(PILES))
        events += (Event("start", first),)
        return replace(state, phase=Phase.DRAW, current=first, racks=racks, draw_pile=pile[:-3], piles=piles,
                       in_hand=None, taken_from=-1, events=events)
    return replace(state, current=nxt, racks=racks, draw_pile=pile[:-1], in_hand=pile[-1], events=events)


def _draw(state: State) -> State:
    pile = state.draw_pile
    if not pile:
        raise IllegalMoveError("the draw pile is empty; take the top tile of a discard pile")
    return State(state.edition, state.options, state.seed, Phase.PLACE, state.current, state.racks, pile[:-1],
                 state.piles, pile[-1], 0, state.turn, None, state.reshuffles,
                 state.events + (Event("draw", state.current),))


def _take(state: State, pile: int) -> State:
    _check_pile(pile)
    chosen = state.piles[pile - 1]
    if not chosen:
        raise IllegalMoveError(f"discard pile {pile} is empty")
    tile = chosen[-1]
    piles = tuple(p[:-1] if i == pile - 1 else p for i, p in enumerate(state.piles))
    return State(state.edition, state.options, state.seed, Phase.PLACE, state.current, state.racks, state.draw_pile,
                 piles, tile, pile, state.turn, None, state.reshuffles,
                 state.events + (Event("take", state.current, pile=pile, tile=tile),))


def _swap(state: State, day: int, other: int) -> State:
    if not state.options.swap:
        raise IllegalMoveError("tiles in a rack never move: swapping is only allowed with the swap variant")
    _check_day(state, day)
    _check_day(state, other)
    if day == other:
        raise IllegalMoveError("a swap needs two different days")
    rack = list(state.racks[state.current])
    rack[day - 1], rack[other - 1] = rack[other - 1], rack[day - 1]
    racks = state.racks[: state.current] + (tuple(rack),) + state.racks[state.current + 1:]
    event = Event("swap", state.current, day=min(day, other), day2=max(day, other))
    return _end_turn(state, racks, state.piles, event)


def _place(state: State, day: int, pile: int) -> State:
    """Put the held tile on ``day`` (0: discard it), sending the discarded tile onto ``pile``."""
    _check_pile(pile)
    taken = state.taken_from
    if taken > 0 and pile != taken and not state.piles[taken - 1]:
        raise IllegalMoveError(f"you took the last tile of discard pile {taken}, so your discard must go onto "
                               f"pile {taken}: there are always three discard piles")
    held = state.in_hand
    assert held is not None
    racks = state.racks
    if day:
        _check_day(state, day)
        rack = racks[state.current]
        discarded = rack[day - 1]
        assert discarded is not None
        new_rack = rack[: day - 1] + (held,) + rack[day:]
        racks = racks[: state.current] + (new_rack,) + racks[state.current + 1:]
        event = Event("replace", state.current, day=day, pile=pile, tile=discarded)
    else:
        discarded = held
        event = Event("discard", state.current, pile=pile, tile=discarded)
    piles = tuple(p + (discarded,) if i == pile - 1 else p for i, p in enumerate(state.piles))
    return _end_turn(state, racks, piles, event)


def _end_turn(state: State, racks: tuple[Rack, ...], piles: tuple[tuple[int, ...], ...], event: Event) -> State:
    player = state.current
    turn = state.turn + 1
    events = state.events + (event,)
    if checker_for(state.edition).is_complete(racks[player]):
        return State(state.edition, state.options, state.seed, Phase.OVER, player, racks, state.draw_pile, piles,
                     None, -1, turn, player, state.reshuffles, events + (Event("win", player),))
    if state.options.turn_limit is not None and turn >= state.options.turn_limit:
        return State(state.edition, state.options, state.seed, Phase.OVER, player, racks, state.draw_pile, piles,
                     None, -1, turn, None, state.reshuffles, events + (Event("limit", count=turn),))
    draw_pile = state.draw_pile
    reshuffles = state.reshuffles
    if not draw_pile:
        rest = [t for p in piles for t in p[:-1]]
        if rest:
            _rng(state.seed, f"reshuffle/{reshuffles}").shuffle(rest)
            draw_pile = tuple(rest)
            piles = tuple(p[-1:] for p in piles)
            reshuffles += 1
            events += (Event("reshuffle", count=len(rest)),)
    return State(state.edition, state.options, state.seed, Phase.DRAW, (player + 1) % state.options.players, racks,
                 draw_pile, piles, None, -1, turn, None, reshuffles, events)
