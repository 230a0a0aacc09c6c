"""What crosses to a bot's worker process comes out the same: a view with its whole history, its
random stream, and the move chosen (by its place among the legal moves)."""

from __future__ import annotations

import io
import pickle
import random

from tendays.engine import EventLog, Game, Options, load_edition, next_decision
from tendays.server.matches.thinking import _choice_in_worker, _choose_in_worker, _reducers


def _crossed(value: object) -> object:
    """``value`` pickled as the workers' pickler does it, then read back."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _reducers()
    pickler.dump(value)
    return pickle.loads(buffer.getvalue())


def test_a_long_history_and_its_random_stream_cross_unchanged() -> None:
    game = Game(load_edition("usa"), Options(players=3), seed=11, keep_states=False)
    rng = random.Random(5)
    for turn in range(80):
        decision = next_decision(game)
        if decision is None:
            break
        seen = decision.view
        crossed = _crossed((seen, decision.rng))
        assert isinstance(crossed, tuple)
        crossed_view, crossed_rng = crossed
        assert crossed_view == seen and isinstance(crossed_view.events, EventLog)
        assert crossed_rng.getstate() == decision.rng.getstate()
        assert crossed_rng.random() == decision.rng.random()
        if turn % 10 == 0:  # the bot decides the same on either side
            here = _choose_in_worker("normal", seen, decision.rng)
            where = (decision.seed, decision.seat, decision.number)
            choice = _choice_in_worker("normal", crossed_view, *where)
            assert isinstance(choice, int) and seen.legal_moves()[choice] == here
        game.play(rng.choice(seen.legal_moves()), decision.seat)


def test_a_history_branched_off_crosses_as_its_own() -> None:
    game = Game(load_edition("usa"), Options(players=3), seed=3, keep_states=True)
    rng = random.Random(2)
    for _ in range(30):
        game.play(rng.choice(game.state.legal_moves()), game.state.current)
    longer = game.state.events
    assert _crossed(longer) == longer
    for _ in range(5):
        game.undo()
    shorter = game.state.events
    assert _crossed(shorter) == shorter
    game.play(rng.choice(game.state.legal_moves()), game.state.current)  # a branch
    assert _crossed(game.state.events) == game.state.events
    assert _crossed(longer) == longer
