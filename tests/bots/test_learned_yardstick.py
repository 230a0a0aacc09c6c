"""The learned bot's yardstick: the greedy bot's judgement of every action, batched, that with its
first multiples chooses as the greedy bot does."""

import random
from functools import partial
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numpy")

import numpy as np  # noqa: E402

from tendays.bots import GreedyBot  # noqa: E402
from tendays.bots.distance import journey_distance  # noqa: E402
from tendays.bots.greedy import TileOdds  # noqa: E402
from tendays.bots.learned import (  # noqa: E402
    LearnedBot,
    PolicySpec,
    encode,
    exact_distances,
    init_params,
    load_policy,
    policy_logits,
)
from tendays.bots.policy_inputs import (  # noqa: E402
    YARDSTICK,
    YARDSTICK_GROUPS,
    greedy_yardstick,
    tile_odds,
)
from tendays.engine import (  # noqa: E402
    ActionCodec,
    Game,
    Move,
    Options,
    knowledge_of,
    load_edition,
    next_decision,
)

OPTIONS = Options(players=2, days=10, turn_limit=300)


def _decisions(seed: int, options: Options = OPTIONS):  # type: ignore[no-untyped-def]
    """The views of every decision with a choice in a greedy game of ``seed``."""
    game, greedy = Game(load_edition("usa"), options, seed), GreedyBot()
    while (decision := next_decision(game)) is not None:
        if len(decision.view.legal_moves()) > 1:
            yield decision.view
        game.play(greedy.choose(decision.view, decision.rng), decision.seat)


def test_tile_odds_are_greedys_weights() -> None:
    spec = PolicySpec.of(load_edition("usa"), OPTIONS)
    views = list(_decisions(4))[::3]
    obs = np.stack([encode(v, spec) for v in views])
    odds = tile_odds(spec, obs, np)
    for row, v in zip(odds, views, strict=True):
        expected = TileOdds.from_knowledge(knowledge_of(v), v.draw_pile_size).weight
        np.testing.assert_allclose(row, expected, atol=1e-5)


@pytest.mark.slow  # the learned bot: about 20 ms a move
def test_the_first_multiples_choose_as_greedy_does() -> None:
    spec = PolicySpec.of(load_edition("usa"), OPTIONS)
    bot = LearnedBot(init_params(spec, 8, seed=0))
    greedy, agree, total = GreedyBot(), 0, 0
    for v in list(_decisions(3))[:50]:
        # greedy breaks ties at random: any of its moves is its choice
        choices = {greedy.choose(v, random.Random(i)) for i in range(4)}
        agree += bot.choose(v, random.Random(0)) in choices
        total += 1
    assert total == 50 and agree >= 48


def test_the_distance_shortened_is_the_exact_one_as_greedys() -> None:
    edition = load_edition("usa")
    spec = PolicySpec.of(edition, OPTIONS)
    # a draft of this deal where the relaxed distance says day 9 shortens the journey, the exact
    # one (respecting how often each tile exists) says it does not
    v = next(v for v in _decisions(7) if v.rack == (28, 11, 13, None, 29, *[None] * 5))
    assert v.rack is not None and v.in_hand == 20
    own = journey_distance(edition, v.rack)
    obs = encode(v, spec)[None]
    relaxed = greedy_yardstick(spec, obs, np, ("held",))[0]
    exact = greedy_yardstick(spec, obs, np, ("held",), partial(exact_distances, edition))[0]
    closer = YARDSTICK.index("closer")
    codec = ActionCodec(10)
    for day in (4, 6, 7, 8, 9, 10):  # the empty days
        index = codec.encode(Move.draft(day))
        rack = v.rack[: day - 1] + (20,) + v.rack[day:]
        assert exact[index, closer] == max(0, own - journey_distance(edition, rack))
    ninth = codec.encode(Move.draft(9))
    assert relaxed[ninth, closer] == 1 and exact[ninth, closer] == 0


def test_a_subset_of_groups_judges_its_actions_alike() -> None:
    spec = PolicySpec.of(load_edition("usa"), Options(players=2, days=10, swap=True))
    codec = ActionCodec(10)
    groups_of = {"draft": "held", "replace": "held", "take": "tops", "swap": "swaps"}
    kinds = [codec.decode(index).kind.value for index in range(codec.size)]
    for v in list(_decisions(6, Options(players=2, days=10, swap=True)))[::9]:
        obs = encode(v, spec)[None]
        full = greedy_yardstick(spec, obs, np)[0]
        for group in YARDSTICK_GROUPS:
            part = greedy_yardstick(spec, obs, np, (group,))[0]
            # the group's own actions, and those that keep the rack (draw, discard)
            judged = [i for i, kind in enumerate(kinds) if groups_of.get(kind, group) == group]
            np.testing.assert_allclose(part[judged], full[judged], rtol=1e-6)


@pytest.mark.slow  # compiles the yardstick (about 12 s)
def test_numpy_and_jax_judge_alike() -> None:
    jax = pytest.importorskip("jax")
    spec = PolicySpec.of(load_edition("usa"), Options(players=2, days=10, swap=True))
    views = list(_decisions(8, Options(players=2, days=10, swap=True)))[::5]
    obs = np.stack([encode(v, spec) for v in views])
    expected = greedy_yardstick(spec, obs, np)
    got = np.asarray(jax.jit(lambda o: greedy_yardstick(spec, o, jax.numpy))(obs))
    assert expected.shape == (len(views), spec.actions, len(YARDSTICK))
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-4)


def test_the_shipped_multiples_and_network_both_count() -> None:
    params = load_policy()[0]
    assert params["yardstick"].shape == (len(YARDSTICK),)
    assert params["yardstick"][YARDSTICK.index("closer")] > 0 and params["net_scale"][0] > 0
    spec = PolicySpec.of(load_edition("usa"), OPTIONS)
    v = next(iter(_decisions(3)))
    mask = np.frombuffer(ActionCodec(10).mask(v.legal_moves()), np.int8).astype(bool)[None]
    logits = policy_logits(spec, params, encode(v, spec)[None], mask)
    assert np.isfinite(logits[mask]).all() and np.isneginf(logits[~mask]).all()


def test_weights_written_before_the_yardstick_play_by_their_network(tmp_path: Path) -> None:
    params, edition, players, days = load_policy()
    earlier = tmp_path / "earlier.npz"
    new_names = ("yardstick", "net_scale")
    arrays: dict[str, Any] = {k: v for k, v in params.items() if k not in new_names}
    np.savez(earlier, edition=np.array(edition), players=players, days=days, **arrays)
    loaded = load_policy(str(earlier))[0]
    assert not loaded["yardstick"].any() and loaded["net_scale"].tolist() == [1.0]
