"""Invariants over random games (Hypothesis): tiles conserved, three piles,
replays, no leaks, honest ends."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tendays.engine import (
    GameRecord,
    Options,
    Phase,
    State,
    apply,
    checker_for,
    legal_moves,
    load_edition,
    new_game,
    view,
)

games = st.fixed_dictionaries(
    {
        "edition": st.sampled_from(["usa", "germany"]),
        "players": st.integers(1, 4),
        "days": st.sampled_from([5, 10]),
        "swap": st.booleans(),
        "turn_limit": st.integers(1, 120),
        "seed": st.integers(0, 2**32),
        "choices": st.integers(0, 2**32),
        "first_seat": st.one_of(st.none(), st.integers(0, 3)),
        "rules": st.sampled_from([1, 2]),
    }
)


def play(params: dict) -> tuple[list[State], list]:
    edition = load_edition(params["edition"])
    first_seat = params["first_seat"]
    options = Options(
        players=params["players"],
        days=params["days"],
        swap=params["swap"],
        turn_limit=params["turn_limit"],
        rules=params["rules"],
        first_seat=None if first_seat is None else first_seat % params["players"],
    )
    state = new_game(edition, options, params["seed"])
    chooser = random.Random(params["choices"])
    states, moves = [state], []
    while not state.is_over:
        move = chooser.choice(legal_moves(state))
        state = apply(state, move)
        states.append(state)
        moves.append(move)
    return states, moves


def place_of_every_tile(state: State) -> Counter:
    tiles = Counter(t for rack in state.racks for t in rack if t is not None)
    tiles.update(state.draw_pile)
    for pile in state.piles:
        tiles.update(pile)
    if state.in_hand is not None:
        tiles[state.in_hand] += 1
    return tiles


@pytest.mark.slow  # Hypothesis over whole games
@given(games)
def test_every_tile_is_in_exactly_one_place(params: dict) -> None:
    states, _ = play(params)
    box = Counter(states[0].edition.all_tiles())
    for state in states:
        assert place_of_every_tile(state) == box


@given(games)
def test_three_discard_piles_after_every_turn(params: dict) -> None:
    states, _ = play(params)
    for state in states:
        if state.phase is Phase.DRAW or (state.phase is Phase.OVER and state.turn):
            assert len(state.piles) == 3 and all(state.piles)


@pytest.mark.slow  # Hypothesis over whole games
@given(games)
def test_the_draw_pile_is_never_empty_while_buried_tiles_could_refill_it(params: dict) -> None:
    # Printed rule: the reshuffle happens the moment the last tile is drawn (rules version 2).
    # Four full racks leave a short draw pile, so most of these games run it out more than once.
    params = {**params, "players": 4, "days": 10, "turn_limit": 150, "rules": 2}
    states, _ = play(params)
    for state in states:
        if not state.is_over and not state.draw_pile and state.phase is not Phase.DRAFT:
            assert all(len(pile) <= 1 for pile in state.piles)


@given(games)
def test_the_forced_pile_is_the_only_pile_legal_moves_use(params: dict) -> None:
    states, _ = play(params)
    for state in states:
        forced = state.forced_pile
        seen = view(state, state.current)
        assert seen.forced_pile == forced
        if state.phase is Phase.PLACE:
            piles = {move.pile for move in legal_moves(state)}
            assert piles == ({forced} if forced else {1, 2, 3})
            assert forced == (
                state.taken_from
                if state.taken_from > 0 and not state.piles[state.taken_from - 1]
                else 0
            )
        else:
            assert forced == 0


@pytest.mark.slow  # Hypothesis over whole games
@given(games)
def test_a_record_replays_identically(params: dict) -> None:
    states, moves = play(params)
    first = states[0]
    record = GameRecord(first.edition.id, first.options, first.seed, tuple(moves))
    assert GameRecord.loads(record.dumps()).replay() == states[-1]
    assert record.replay(len(moves) // 2) == states[len(moves) // 2]


@given(games)
def test_the_game_ends_only_with_a_complete_journey_or_the_turn_limit(params: dict) -> None:
    states, _ = play(params)
    final = states[-1]
    checker = checker_for(final.edition)
    if final.winner is not None:
        assert checker.is_complete(final.racks[final.winner])
        assert checker.check(final.racks[final.winner]).valid
    else:
        assert final.turn == final.options.turn_limit
    for state in states[:-1]:
        assert not state.is_over


def hide_differently(state: State, player: int, rng: random.Random) -> State:
    """The same state as ``player`` knows it, with everything hidden from them dealt differently."""
    hidden = list(state.draw_pile)
    slots: list[tuple[int, int]] = []
    for other, rack in enumerate(state.racks):
        if other != player:
            slots += [(other, day) for day, t in enumerate(rack) if t is not None]
            hidden += [t for t in rack if t is not None]
    held_secretly = (
        state.in_hand is not None
        and state.current != player
        and not (state.phase is Phase.PLACE and state.taken_from > 0)
    )
    if held_secretly:
        hidden.append(state.in_hand)
    rng.shuffle(hidden)
    racks = [list(r) for r in state.racks]
    for other, day in slots:
        racks[other][day] = hidden.pop()
    in_hand = hidden.pop() if held_secretly else state.in_hand
    return replace(
        state,
        racks=tuple(tuple(r) for r in racks),
        draw_pile=tuple(hidden),
        in_hand=in_hand,
        seed=rng.randrange(2**32),
    )


@pytest.mark.slow  # Hypothesis over whole games
@given(games, st.integers(0, 3), st.integers(0, 2**32))
def test_a_view_never_shows_other_racks_or_the_draw_order(
    params: dict, seat: int, shuffle_seed: int
) -> None:
    states, _ = play(params)
    seat %= params["players"]
    rng = random.Random(shuffle_seed)
    for state in states[:: max(1, len(states) // 15)]:
        if state.is_over:
            continue  # at the end every rack is revealed
        assert view(state, seat) == view(hide_differently(state, seat, rng), seat)
        assert view(state, None) == view(hide_differently(state, seat, rng), None)
        mine = view(state, seat)
        assert mine.racks is None and mine.rack == state.racks[seat]
        assert view(state, None).rack is None
