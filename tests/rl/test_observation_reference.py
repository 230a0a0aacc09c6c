"""The fast observation encoder gives exactly the vectors of the plain
reference encoder, on many states."""

import random

import numpy as np
import pytest
from reference_observation import ReferenceEncoder

from tendays.engine import Options, apply, legal_moves, load_edition, new_game, view
from tendays.rl import ObservationEncoder

OPTIONS = [
    Options(players=2, turn_limit=120),
    Options(players=1, days=7, turn_limit=60),
    Options(players=3, days=5, swap=True, turn_limit=90),
    Options(players=4, days=3, open_hands=True, turn_limit=80),
    Options(players=2, days=20, turn_limit=80),
]


@pytest.mark.slow  # over a second of CPU
@pytest.mark.parametrize("edition_id", ["usa", "germany"])
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: f"{o.players}p-{o.days}d")
def test_fast_encoder_equals_reference(edition_id: str, options: Options) -> None:
    edition = load_edition(edition_id)
    if options.players * options.days + 3 > edition.tile_count:
        pytest.skip("not enough tiles")
    fast, reference = ObservationEncoder(edition, options), ReferenceEncoder(edition, options)
    assert fast.size == reference.size
    states = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = new_game(edition, options, seed)
        while True:
            # every seat, so cached racks, rows and piles are reused
            for seat in range(options.players):
                player_view = view(state, seat)
                got, want = fast.encode(player_view), reference.encode(player_view)
                if not np.array_equal(got, want):
                    wrong = [
                        name
                        for name, b in fast.blocks.items()
                        if not np.array_equal(got[b.start : b.stop], want[b.start : b.stop])
                    ]
                    pytest.fail(
                        f"seed {seed}, turn {state.turn}, seat {seat}: blocks {wrong} differ"
                    )
                states += 1
            if state.is_over:
                break
            state = apply(state, rng.choice(legal_moves(state)))
    assert states > 100
