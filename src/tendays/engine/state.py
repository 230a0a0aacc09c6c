"""The rules of play: the game state as a value, dealing a game, and applying a move (options:
options.py; the legal moves: legal.py; seeds: seeds.py).

``new_game`` deals a seeded game; ``apply`` turns a state and a move into the next state and
raises :class:`IllegalMoveError` naming the broken rule. States are immutable values, so search
can keep as many as it likes and undo is just keeping the previous one.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .chance import GameStream, first_seat, game_stream
from .edition import Edition
from .history import Event, EventKind, EventLog
from .i18n import gettext as _
from .journey import checker_for
from .legal import legal_moves
from .moves import Move, MoveKind
from .options import KNOWN_RULES, MAX_DAYS, MAX_PLAYERS, MIN_DAYS, PILES, RULES_VERSION, Options
from .phase import Phase, Rack
from .seeds import MAX_SEED, MIN_SEED, parse_seed, seed_problem

__all__ = [
    "KNOWN_RULES",
    "MAX_DAYS",
    "MAX_PLAYERS",
    "MAX_SEED",
    "MIN_DAYS",
    "MIN_SEED",
    "PILES",
    "RULES_VERSION",
    "Event",
    "EventLog",
    "IllegalMoveError",
    "Options",
    "OutOfTurnError",
    "Phase",
    "Rack",
    "State",
    "apply",
    "legal_moves",
    "new_game",
    "parse_seed",
    "seed_problem",
]


class IllegalMoveError(ValueError):
    """A well-formed move that the rules do not allow now; the message names the rule."""


class OutOfTurnError(IllegalMoveError):
    """A move sent for a player whose turn it is not."""


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
    events: EventLog

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def forced_pile(self) -> int:
        """The pile the current player's discard must go onto, or 0 when any pile will do.

        Taking the last tile of a discard pile obliges the player to discard onto that pile, so
        there are always three discard piles.
        """
        taken = self.taken_from
        return taken if self.phase is Phase.PLACE and taken > 0 and not self.piles[taken - 1] else 0

    def legal_moves(self) -> tuple[Move, ...]:
        return legal_moves(self)

    def apply(self, move: Move, player: int | None = None) -> State:
        return apply(self, move, player)


def new_game(edition: Edition, options: Options, seed: int) -> State:
    """Shuffle the tiles with ``seed`` and start the draft: seat 0 holds the first drafted tile.

    Raises ``ValueError`` if the options cannot be played with this edition or the seed is out of
    range (:func:`seed_problem`).
    """
    options.validate(edition)
    problem = seed_problem(seed)
    if problem is not None:
        raise ValueError(problem)
    tiles = edition.all_tiles()
    game_stream(seed, GameStream.DEAL).shuffle(tiles)
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
        events=EventLog(),
    )


# -- applying a move -----------------------------------------------------------------------


def _check_day(state: State, day: int) -> None:
    if not 1 <= day <= state.options.days:
        raise IllegalMoveError(
            _("there is no day {day}; the rack has days 1-{days}").format(
                day=day, days=state.options.days
            )
        )


def _check_pile(pile: int) -> None:
    if not 1 <= pile <= PILES:
        raise IllegalMoveError(
            _("there is no discard pile {pile}; the piles are 1-{piles}").format(
                pile=pile, piles=PILES
            )
        )


def apply(state: State, move: Move, player: int | None = None) -> State:
    """The state after ``move``. If ``player`` is given, it must be the player to move."""
    phase = state.phase
    if phase is Phase.OVER:
        raise IllegalMoveError(_("the game is over"))
    # TRANSLATORS: refusals of a move. Text in single quotes ('draw', 'take PILE') is the move
    # notation, which players type as it is: keep it untranslated.
    if player is not None and player != state.current:
        raise OutOfTurnError(
            _("it is player {current}'s turn, not player {player}'s").format(
                current=state.current + 1, player=player + 1
            )
        )
    kind = move.kind
    if phase is Phase.DRAW:
        if kind is MoveKind.DRAW:
            return _draw(state)
        if kind is MoveKind.TAKE:
            return _take(state, move.a)
        if kind is MoveKind.SWAP:
            return _swap(state, move.a, move.b)
        if state.options.swap:
            raise IllegalMoveError(
                _(
                    "first take a tile ('draw' or 'take PILE', or swap); '{move}' comes after "
                    "drawing"
                ).format(move=move)
            )
        raise IllegalMoveError(
            _("first take a tile ('draw' or 'take PILE'); '{move}' comes after drawing").format(
                move=move
            )
        )
    if phase is Phase.PLACE:
        if kind is MoveKind.REPLACE:
            return _place(state, move.a, move.b)
        if kind is MoveKind.DISCARD:
            return _place(state, 0, move.a)
        raise IllegalMoveError(
            _(
                "you already hold a tile: place it ('replace DAY PILE') or discard it "
                "('discard PILE'), not '{move}'"
            ).format(move=move)
        )
    if kind is not MoveKind.DRAFT:
        raise IllegalMoveError(
            _(
                "the racks are still being filled: put the drawn tile on an empty day "
                "('draft DAY'), not '{move}'"
            ).format(move=move)
        )
    return _draft(state, move.a)


def _draft(state: State, day: int) -> State:
    _check_day(state, day)
    rack = state.racks[state.current]
    if rack[day - 1] is not None:
        raise IllegalMoveError(
            _(
                "day {day} already holds a tile; drafted tiles go on empty days and never move"
            ).format(day=day)
        )
    new_rack = rack[: day - 1] + (state.in_hand,) + rack[day:]
    racks = state.racks[: state.current] + (new_rack,) + state.racks[state.current + 1 :]
    drafted = Event(EventKind.DRAFT, state.current, day=day)
    players = state.options.players
    nxt = (state.current + 1) % players
    pile = state.draw_pile
    if None not in racks[nxt]:  # round-robin: the next drafter full means all are full
        # Every rack is full: turn up three discard piles and begin with the first player.
        piles = ((pile[-1],), (pile[-2],), (pile[-3],))
        first = state.options.first_seat
        if first is None:
            first = first_seat(state.seed, players)
        events = state.events.append(
            drafted,
            *(Event(EventKind.REVEAL, pile=p + 1, tile=piles[p][0]) for p in range(PILES)),
            Event(EventKind.START, first),
        )
        return replace(
            state,
            phase=Phase.DRAW,
            current=first,
            racks=racks,
            draw_pile=pile[:-3],
            piles=piles,
            in_hand=None,
            taken_from=-1,
            events=events,
        )
    return replace(
        state,
        current=nxt,
        racks=racks,
        draw_pile=pile[:-1],
        in_hand=pile[-1],
        events=state.events.append(drafted),
    )


def _draw(state: State) -> State:
    pile = state.draw_pile
    if not pile:
        raise IllegalMoveError(_("the draw pile is empty; take the top tile of a discard pile"))
    events = state.events.append(Event(EventKind.DRAW, state.current))
    piles, rest, reshuffles = state.piles, pile[:-1], state.reshuffles
    if not rest and state.options.rules >= 2:
        # Printed: "If the player depletes the draw pile, all tiles in the three discard piles,
        # EXCEPT the top tile on each pile, are shuffled together to form a new draw pile", before
        # the tile is placed.
        piles, rest, reshuffles, events = _reshuffle(state.seed, piles, reshuffles, events)
    return State(
        state.edition,
        state.options,
        state.seed,
        Phase.PLACE,
        state.current,
        state.racks,
        rest,
        piles,
        pile[-1],
        0,
        state.turn,
        None,
        reshuffles,
        events,
    )


def _take(state: State, pile: int) -> State:
    _check_pile(pile)
    chosen = state.piles[pile - 1]
    if not chosen:
        raise IllegalMoveError(_("discard pile {pile} is empty").format(pile=pile))
    tile = chosen[-1]
    piles = tuple(p[:-1] if i == pile - 1 else p for i, p in enumerate(state.piles))
    return State(
        state.edition,
        state.options,
        state.seed,
        Phase.PLACE,
        state.current,
        state.racks,
        state.draw_pile,
        piles,
        tile,
        pile,
        state.turn,
        None,
        state.reshuffles,
        state.events.append(Event(EventKind.TAKE, state.current, pile=pile, tile=tile)),
    )


def _swap(state: State, day: int, other: int) -> State:
    if not state.options.swap:
        raise IllegalMoveError(
            _("tiles in a rack never move: swapping is only allowed with the swap variant")
        )
    _check_day(state, day)
    _check_day(state, other)
    if day == other:
        raise IllegalMoveError(_("a swap needs two different days"))
    rack = list(state.racks[state.current])
    rack[day - 1], rack[other - 1] = rack[other - 1], rack[day - 1]
    racks = state.racks[: state.current] + (tuple(rack),) + state.racks[state.current + 1 :]
    event = Event(EventKind.SWAP, state.current, day=min(day, other), day2=max(day, other))
    return _end_turn(state, racks, state.piles, event)


def _place(state: State, day: int, pile: int) -> State:
    """Put the held tile on ``day`` (0: discard it), sending the discarded tile onto ``pile``."""
    _check_pile(pile)
    forced = state.forced_pile
    if forced and pile != forced:
        raise IllegalMoveError(
            _(
                "you took the last tile of discard pile {pile}, so your discard must go onto pile "
                "{pile}: there are always three discard piles"
            ).format(pile=forced)
        )
    held = state.in_hand
    assert held is not None
    racks = state.racks
    if day:
        _check_day(state, day)
        rack = racks[state.current]
        discarded = rack[day - 1]
        assert discarded is not None
        new_rack = rack[: day - 1] + (held,) + rack[day:]
        racks = racks[: state.current] + (new_rack,) + racks[state.current + 1 :]
        event = Event(EventKind.REPLACE, state.current, day=day, pile=pile, tile=discarded)
    else:
        discarded = held
        event = Event(EventKind.DISCARD, state.current, pile=pile, tile=discarded)
    piles = tuple(p + (discarded,) if i == pile - 1 else p for i, p in enumerate(state.piles))
    return _end_turn(state, racks, piles, event)


def _end_turn(
    state: State, racks: tuple[Rack, ...], piles: tuple[tuple[int, ...], ...], event: Event
) -> State:
    player = state.current
    turn = state.turn + 1
    events = state.events.append(event)
    if checker_for(state.edition).is_complete(racks[player]):
        return _game_over(
            state, racks, piles, turn, player, events.append(Event(EventKind.WIN, player))
        )
    if state.options.turn_limit is not None and turn >= state.options.turn_limit:
        return _game_over(
            state, racks, piles, turn, None, events.append(Event(EventKind.LIMIT, count=turn))
        )
    draw_pile = state.draw_pile
    reshuffles = state.reshuffles
    if not draw_pile:
        # Rules 1 reshuffled here; under rules 2 the draw pile is empty here only when there was
        # nothing to shuffle when it ran out, and the next turn starts with a
        # new draw pile if there is now.
        piles, draw_pile, reshuffles, events = _reshuffle(state.seed, piles, reshuffles, events)
    return State(
        state.edition,
        state.options,
        state.seed,
        Phase.DRAW,
        (player + 1) % state.options.players,
        racks,
        draw_pile,
        piles,
        None,
        -1,
        turn,
        None,
        reshuffles,
        events,
    )


def _game_over(
    state: State,
    racks: tuple[Rack, ...],
    piles: tuple[tuple[int, ...], ...],
    turn: int,
    winner: int | None,
    events: EventLog,
) -> State:
    """The state at the end of ``state.current``'s turn when the game ends there: with a winner, or
    at the turn limit (``winner`` None)."""
    return State(
        state.edition,
        state.options,
        state.seed,
        Phase.OVER,
        state.current,
        racks,
        state.draw_pile,
        piles,
        None,
        -1,
        turn,
        winner,
        state.reshuffles,
        events,
    )


def _reshuffle(
    seed: int, piles: tuple[tuple[int, ...], ...], reshuffles: int, events: EventLog
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], int, EventLog]:
    """Shuffle every discard-pile tile but the tops into a new draw pile (nothing
    happens if none are buried)."""
    rest = [t for p in piles for t in p[:-1]]
    if not rest:
        return piles, (), reshuffles, events
    game_stream(seed, GameStream.RESHUFFLE, reshuffles).shuffle(rest)
    return (
        tuple(p[-1:] for p in piles),
        tuple(rest),
        reshuffles + 1,
        events.append(Event(EventKind.RESHUFFLE, count=len(rest))),
    )
