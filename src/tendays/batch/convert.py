"""Between the two engines: batch states from scalar ``State`` values, and one game of a batch as
plain data.

A scalar state and a batch game are the same game when :func:`game_of` of the batch game equals
:func:`game_of_scalar` of the state; the differential tests compare them after every decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from tendays.engine import Phase, State, knowledge_of, view

from .config import Config
from .state import BatchState

__all__ = ["from_scalar", "game_of", "game_of_scalar", "games_of", "known_racks"]


def known_racks(state: State) -> list[list[int]]:
    """Per rack and day, the tile the public history reveals there (-1: not revealed), as
    ``tendays.engine.knowledge_of`` works it out for the other seats. With open hands or once the
    game is over every rack is shown outright, and this is all -1 (observations
    then read the racks themselves)."""
    players, days = state.options.players, state.options.days
    if players == 1 or state.phase is Phase.OVER or state.options.open_hands:
        return [[-1] * days for _ in range(players)]
    return [
        [
            -1 if t is None else t
            for t in knowledge_of(view(state, (seat + 1) % players)).racks[seat]
        ]
        for seat in range(players)
    ]


def from_scalar(
    config: Config,
    states: Sequence[State],
    keys: jax.Array,
    first: Sequence[int] | None = None,
    known: Sequence[Sequence[Sequence[int]]] | None = None,
) -> BatchState:
    """A batch holding the scalar games ``states`` (all with ``config``'s edition and options).

    ``keys`` (one PRNG key per game) draw later reshuffles. ``first`` gives the seat that begins
    after the draft, for states still in the draft (default: ``options.first_seat``, or else seat
    0); ``known`` the publicly known racks (default: :func:`known_racks`, which reads the history,
    so it is slow for long games and needs the history: with open hands or after the game only the
    history tells what others know).
    """
    players, days, box, capacity = config.players, config.days, config.box, config.pile_capacity
    count = len(states)
    racks = np.full((count, players, days), -1, np.int8)
    knowns = np.full((count, players, days), -1, np.int8)
    draw = np.full((count, box), -1, np.int8)
    piles = np.full((count, 3, capacity), -1, np.int8)
    scalars: dict[str, list[int]] = {
        name: []
        for name in (
            "phase",
            "current",
            "first",
            "draw_size",
            "in_hand",
            "taken_from",
            "turn",
            "winner",
            "reshuffles",
        )
    }
    pile_size = np.zeros((count, 3), np.int32)
    for i, state in enumerate(states):
        if state.options != config.options or state.edition is not config.edition:
            raise ValueError("a scalar state of another edition or other options than the batch's")
        for seat, rack in enumerate(state.racks):
            racks[i, seat] = [-1 if t is None else t for t in rack]
        knowns[i] = known[i] if known is not None else known_racks(state)
        draw[i, : len(state.draw_pile)] = state.draw_pile
        for p, pile in enumerate(state.piles):
            piles[i, p, : len(pile)] = pile
            pile_size[i, p] = len(pile)
        seat = (
            state.current
            if state.phase is not Phase.DRAFT
            else (first[i] if first is not None else state.options.first_seat or 0)
        )
        values = {
            "phase": int(state.phase),
            "current": state.current,
            "first": seat,
            "draw_size": len(state.draw_pile),
            "in_hand": -1 if state.in_hand is None else state.in_hand,
            "taken_from": state.taken_from,
            "turn": state.turn,
            "winner": -1 if state.winner is None else state.winner,
            "reshuffles": state.reshuffles,
        }
        for name, value in values.items():
            scalars[name].append(value)
    arrays = {name: jnp.asarray(np.array(values, np.int32)) for name, values in scalars.items()}
    last: dict[str, np.ndarray] = {
        "racks": racks,
        "known": knowns,
        "draw": draw,
        "piles": piles,
        "pile_size": pile_size,
    }
    arrays.update({name: jnp.asarray(np.moveaxis(a, 0, -1)) for name, a in last.items()})
    return BatchState(
        key=keys, ended=jnp.zeros(count, bool), result=jnp.full(count, -1, jnp.int32), **arrays
    )


_FIELDS = (
    "phase",
    "current",
    "racks",
    "draw",
    "draw_size",
    "piles",
    "pile_size",
    "in_hand",
    "taken_from",
    "turn",
    "winner",
    "reshuffles",
)


def game_of(state: BatchState, index: int) -> dict[str, Any]:
    """Game ``index`` of a batch as plain data, in the form of :func:`game_of_scalar`."""
    return games_of(state, [index])[0]


def games_of(state: BatchState, indices: Sequence[int] | None = None) -> list[dict[str, Any]]:
    """Several games of a batch (all by default) as plain data, fetching the arrays once."""
    fields = {name: np.asarray(getattr(state, name)) for name in _FIELDS}
    chosen = range(fields["phase"].shape[0]) if indices is None else indices
    return [_game({name: a[..., i] for name, a in fields.items()}) for i in chosen]


def _game(fields: dict[str, np.ndarray]) -> dict[str, Any]:
    draw = fields["draw"][: int(fields["draw_size"])]
    piles = [
        tuple(int(t) for t in pile[: int(n)])
        for pile, n in zip(fields["piles"], fields["pile_size"], strict=True)
    ]
    return {
        "phase": int(fields["phase"]),
        "current": int(fields["current"]),
        "racks": [tuple(int(t) for t in rack) for rack in fields["racks"]],
        "draw_pile": tuple(int(t) for t in draw),
        "piles": piles,
        "in_hand": int(fields["in_hand"]),
        "taken_from": int(fields["taken_from"]),
        "turn": int(fields["turn"]),
        "winner": int(fields["winner"]),
        "reshuffles": int(fields["reshuffles"]),
    }


def game_of_scalar(state: State) -> dict[str, Any]:
    """A scalar state as plain data (tile indices, -1 for nothing), comparable with
    :func:`game_of`."""
    return {
        "phase": int(state.phase),
        "current": state.current,
        "racks": [tuple(-1 if t is None else t for t in rack) for rack in state.racks],
        "draw_pile": state.draw_pile,
        "piles": [tuple(pile) for pile in state.piles],
        "in_hand": -1 if state.in_hand is None else state.in_hand,
        "taken_from": state.taken_from,
        "turn": state.turn,
        "winner": -1 if state.winner is None else state.winner,
        "reshuffles": state.reshuffles,
    }
