"""Observations come from one player's view only, in the documented fixed layout."""

import random
from dataclasses import replace

import numpy as np
import pytest

from tendays.engine import (
    EventKind,
    Move,
    Options,
    Phase,
    State,
    apply,
    available_editions,
    legal_moves,
    load_edition,
    new_game,
    view,
)
from tendays.rl import ObservationEncoder, RackProgress


def _play(state: State, moves: int, seed: int) -> State:
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state = apply(state, rng.choice(legal_moves(state)))
    return state


def _hidden_days(state: State, seat: int) -> list[int]:
    """0-based days of ``seat``'s rack whose tile nobody else can know: drafted
    and never replaced or swapped."""
    touched = set()
    for event in state.events:
        if event.player == seat and event.kind in (EventKind.REPLACE, EventKind.SWAP):
            touched.update(
                {event.day - 1, event.day2 - 1} if event.kind is EventKind.SWAP else {event.day - 1}
            )
    return [
        d
        for d in range(state.options.days)
        if d not in touched and state.racks[seat][d] is not None
    ]


def _reshuffle_secrets(state: State, viewer: int, seed: int) -> State:
    """The same game as ``viewer`` knows it, with every secret dealt differently: the seed, the
    draw-pile order, the tiles of other racks that ``viewer`` cannot know, and a held tile
    ``viewer`` cannot see."""
    rng = random.Random(seed)
    slots = [
        (seat, d)
        for seat in range(state.options.players)
        if seat != viewer
        for d in _hidden_days(state, seat)
    ]
    hidden_hand = state.in_hand is not None and view(state, viewer).in_hand is None
    pool = (
        [state.racks[s][d] for s, d in slots]
        + list(state.draw_pile)
        + ([state.in_hand] if hidden_hand else [])
    )
    rng.shuffle(pool)
    racks = [list(r) for r in state.racks]
    for s, d in slots:
        racks[s][d] = pool.pop()
    in_hand = pool.pop() if hidden_hand else state.in_hand
    return replace(
        state,
        seed=state.seed + 1,
        racks=tuple(tuple(r) for r in racks),
        draw_pile=tuple(pool),
        in_hand=in_hand,
    )


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("moves", [5, 40, 150, 400])
def test_states_differing_only_in_hidden_information_give_identical_observations(
    players: int, moves: int
) -> None:
    edition = load_edition("usa")
    options = Options(players=players, turn_limit=1000)
    for seed in range(3):
        state = _play(new_game(edition, options, seed), moves, seed)
        for viewer in range(players):
            other = _reshuffle_secrets(state, viewer, seed)
            assert other.racks != state.racks or other.draw_pile != state.draw_pile
            encoder = ObservationEncoder(edition, options)
            expected = encoder.encode(view(state, viewer))
            assert np.array_equal(encoder.encode(view(other, viewer)), expected)
            # The change was real: the seat whose rack changed sees a different observation.
            for seat in range(players):
                if seat != viewer and state.racks[seat] != other.racks[seat]:
                    assert not np.array_equal(
                        encoder.encode(view(state, seat)), encoder.encode(view(other, seat))
                    )


@pytest.mark.parametrize(
    ("edition_id", "days", "size"), [("usa", 10, 2745), ("usa", 5, 1610), ("germany", 10, 2169)]
)
def test_layout_is_contiguous_and_fixed(edition_id: str, days: int, size: int) -> None:
    tiles = len(load_edition(edition_id).tiles)
    assert size == 4 * days * tiles + 3 * days + 8 * tiles + 27  # the formula in docs/rl.md
    encoder = ObservationEncoder(load_edition(edition_id), Options(players=2, days=days))
    blocks = list(encoder.blocks.values())
    assert blocks[0].start == 0 and all(
        a.stop == b.start for a, b in zip(blocks, blocks[1:], strict=False)
    )
    assert blocks[-1].stop == encoder.size == size
    # The shape depends on the edition and the days only, not on the number of players.
    assert ObservationEncoder(load_edition(edition_id), Options(players=4, days=days)).size == size


@pytest.mark.parametrize("edition_id", available_editions())
@pytest.mark.parametrize(
    "options",
    [
        Options(players=1, turn_limit=60),
        Options(players=3, swap=True, turn_limit=150),
        Options(players=4, days=5, open_hands=True, turn_limit=150),
    ],
)
def test_values_stay_in_range_and_blocks_mean_what_they_say(
    edition_id: str, options: Options
) -> None:
    edition = load_edition(edition_id)
    encoder = ObservationEncoder(edition, options)
    tiles, days = len(edition.tiles), options.days
    copies = np.array([t.count for t in edition.tiles])
    rng = random.Random(1)
    state = new_game(edition, options, seed=11)
    while True:
        for viewer in range(options.players):
            player_view = view(state, viewer)
            obs = encoder.encode(player_view)
            assert obs.shape == (encoder.size,) and obs.dtype == np.float32
            assert obs.min() >= -1.0 and obs.max() <= 1.0
            parts = encoder.describe(obs)
            assert parts["phase"][int(state.phase)] == 1.0
            assert parts["to_move"][(state.current - viewer) % options.players] == 1.0
            rack = parts["rack"].reshape(days, tiles)
            assert [int(np.argmax(row)) if row.any() else None for row in rack] == list(
                player_view.rack or ()
            )
            assert parts["pile_size"].sum() * edition.tile_count == pytest.approx(
                sum(map(len, state.piles))
            )
            # Every copy of every tile is somewhere: seen by the viewer, or counted as unseen.
            opponents = (
                parts["opponents"].reshape(3, 2 + days * tiles)[:, 2:].reshape(3, days, tiles)
            )
            seen = (
                rack.sum(0)
                + parts["held"]
                + (parts["pile_contents"].reshape(3, tiles) * copies).sum(0)
                + opponents.sum((0, 1))
            )
            assert np.allclose(seen + parts["unseen"] * copies, copies)
            # Unseen tiles are exactly those in the draw pile, in a hand the viewer cannot see, and
            # on days of other racks the viewer does not know.
            others = sum(
                sum(t is not None for t in r)
                for seat, r in enumerate(state.racks)
                if seat != viewer
            )
            hidden_hand = state.in_hand is not None and player_view.in_hand is None
            unseen = round(float((parts["unseen"] * copies).sum()))
            assert unseen == len(state.draw_pile) + hidden_hand + others - int(opponents.sum())
        if state.is_over:
            break
        state = apply(state, rng.choice(legal_moves(state)))


def test_a_tile_taken_from_a_pile_and_placed_is_known_to_the_others() -> None:
    edition = load_edition("usa")
    options = Options(players=3)
    tiles = len(edition.tiles)
    state = _play(new_game(edition, options, seed=5), 30, seed=5)  # the draft: 30 tiles
    assert state.phase is Phase.DRAW
    while state.current != 1:
        state = apply(apply(state, Move.draw()), Move.discard(1))
    taken = state.piles[1][-1]
    state = apply(apply(state, Move.take(2)), Move.replace(4, 2))
    # seat 1 follows seat 0 directly, and seat 2 two seats later
    for viewer, slot in ((0, 0), (2, 1)):
        encoder = ObservationEncoder(edition, options)
        opponents = encoder.describe(encoder.encode(view(state, viewer)))["opponents"].reshape(
            3, -1
        )
        known = opponents[slot, 2:].reshape(10, tiles)
        assert known[3, taken] == 1.0 and known.sum() == 1.0
        assert opponents[slot, :2].tolist() == [1.0, 1.0]  # present, rack full
        assert opponents[2].sum() == 0.0  # no fourth player
    # Seat 1 draws and puts the unknown tile on day 4: what was known there is gone.
    while state.current != 1:
        state = apply(apply(state, Move.draw()), Move.discard(1))
    state = apply(apply(state, Move.draw()), Move.replace(4, 1))
    encoder = ObservationEncoder(edition, options)
    assert (
        encoder.describe(encoder.encode(view(state, 0)))["opponents"].reshape(3, -1)[0, 2:].sum()
        == 0.0
    )


def test_open_hands_show_every_rack() -> None:
    edition = load_edition("usa")
    options = Options(players=2, open_hands=True)
    state = _play(new_game(edition, options, seed=2), 60, seed=2)
    tiles = len(edition.tiles)
    encoder = ObservationEncoder(edition, options)
    known = (
        encoder.describe(encoder.encode(view(state, 0)))["opponents"]
        .reshape(3, -1)[0, 2:]
        .reshape(10, tiles)
    )
    assert [int(np.argmax(row)) for row in known] == list(state.racks[1])


def test_the_drawn_tile_is_shown_and_scored_only_for_its_drawer() -> None:
    edition = load_edition("usa")
    options = Options(players=2, days=5)
    encoder = ObservationEncoder(edition, options)
    state = _play(new_game(edition, options, seed=4), 10, seed=4)
    while state.current != 0:
        state = apply(apply(state, Move.draw()), Move.discard(1))
    state = apply(state, Move.draw())
    mine = encoder.describe(encoder.encode(view(state, 0)))
    assert mine["held"][state.in_hand] == 1.0 and mine["held_source"].tolist() == [
        1.0,
        0.0,
        0.0,
        0.0,
    ]
    rack = list(view(state, 0).rack or ())

    gains = RackProgress(edition).gains(rack, state.in_hand)
    assert mine["held_gain"].tolist() == [g / 4 for g in gains]
    other = encoder.describe(encoder.encode(view(state, 1)))
    assert other["held"].sum() == 0.0 and other["held_gain"].sum() == 0.0


def test_a_spectator_view_is_refused() -> None:
    edition = load_edition("usa")
    encoder = ObservationEncoder(edition, Options())
    with pytest.raises(ValueError, match="player's view, not a spectator's"):
        encoder.encode(view(new_game(edition, Options(), 1), None))
