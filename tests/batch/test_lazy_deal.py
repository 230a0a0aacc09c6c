"""A game started undealt (``chance.undealt``: the drafted tile and the first seat only, as pgx's
``auto_reset`` starts one for every game in every step) is the game ``chance.deal`` deals from the
same key, once ``chance.deal_pending`` has laid out its draw pile; dealt games are left alone."""

from __future__ import annotations

import pytest

jax = pytest.importorskip("jax")
jnp = jax.numpy

from tendays.batch import BatchState, Config, chance  # noqa: E402
from tendays.engine import Options  # noqa: E402

pytestmark = pytest.mark.slow  # imports JAX and compiles the batched engine


def _fields(state: BatchState) -> list[jax.Array]:
    leaves = jax.tree.leaves(state)
    return [
        jax.random.key_data(x) if jnp.issubdtype(x.dtype, jax.dtypes.prng_key) else x
        for x in leaves
    ]


@pytest.mark.parametrize(
    ("edition", "options"),
    [("usa", Options(players=2, days=10)), ("germany", Options(players=3, days=5, first_seat=1))],
    ids=["usa", "germany-fixed-seat"],
)
def test_an_undealt_game_is_the_deal_of_its_key(edition: str, options: Options) -> None:
    config = Config.of(edition, options)
    keys = jax.random.split(jax.random.key(1), 40)
    dealt, started = chance.deal(config, keys), chance.undealt(config, keys)
    for name in ("phase", "current", "first", "in_hand", "draw_size", "racks", "piles"):
        assert (getattr(started, name) == getattr(dealt, name)).all(), name
    assert not (started.draw == dealt.draw).all()  # the pile is not laid out yet
    lay_out = jax.jit(lambda state: chance.deal_pending(config, state, 16))
    for before, after in zip(_fields(dealt), _fields(lay_out(started)), strict=True):
        assert (before == after).all()
    for before, after in zip(_fields(dealt), _fields(lay_out(dealt)), strict=True):
        assert (before == after).all()
