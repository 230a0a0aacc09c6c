"""10 Days as a pgx environment: :func:`make_pgx_env` gives a ``pgx.Env`` over the batched engine's rules.

Like every pgx env, its ``init``, ``step`` and ``observe`` act on one game; ``jax.vmap`` batches them::

    env = tendays.rl.make_pgx_env("usa", players=2)
    init, step = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))
    state = init(jax.random.split(jax.random.key(0), 1024))
    state = step(state, actions, jax.random.split(key, 1024))   # actions: int32[1024]

The rules are those of :mod:`tendays.batch` (one game is a batch of one inside), so an action index means
the move of ``tendays.engine.ActionCodec``. Chance (the deal, every reshuffle of the discard piles) is drawn
from the key given to ``step`` when there is one, otherwise from the game's own key. ``state.observation``
is the seat to move's view (:mod:`tendays.batch.observe`; compact ``uint8`` by default, ``float32`` with
``observation="float32"``). Rewards: +1 to the winner, -1 to the others, 0 to all when the turn limit ends
the game (default 100 turns per player). Needs the ``pgx`` extra.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import pgx.core as core
from pgx._src.struct import dataclass

from tendays.batch import OVER_PHASE, BatchEnv, BatchState, chance, observe, rules
from tendays.batch.env import _chunk
from tendays.engine import Edition

from .common import env_options

__all__ = ["ENV_ID", "TenDaysPgxEnv", "TenDaysPgxState", "make_pgx_env"]

ENV_ID = "tendays"
OBSERVATIONS = ("compact", "float32")


@dataclass
class TenDaysPgxState(core.State):  # type: ignore[misc]  # pgx has no type information
    """One game in pgx's form; ``_game`` is the batched engine's state of that game (a batch of one)."""

    current_player: Any = jnp.int32(0)
    observation: Any = jnp.zeros(0, jnp.uint8)
    rewards: Any = jnp.zeros(2, jnp.float32)
    terminated: Any = jnp.bool_(False)
    truncated: Any = jnp.bool_(False)
    legal_action_mask: Any = jnp.zeros(0, jnp.bool_)
    _step_count: Any = jnp.int32(0)
    _game: Any = None

    @property
    def env_id(self) -> Any:
        return ENV_ID

    def to_svg(self, *, color_theme: str | None = None, scale: float | None = None) -> str:
        """A plain drawing of the racks (pgx's own drawer knows only its own games)."""
        import svgwrite  # pgx's dependency

        racks = jnp.asarray(self._game.racks).reshape(self._game.racks.shape[0], self._game.racks.shape[1], -1)
        games = racks.shape[-1]
        dark = color_theme == "dark"
        size = 22 * (scale or 1.0)
        drawing = svgwrite.Drawing(size=(size * (racks.shape[1] + 2), size * (games * (racks.shape[0] + 1) + 1)))
        drawing.add(drawing.rect((0, 0), ("100%", "100%"), fill="black" if dark else "white"))
        for game in range(games):
            for seat in range(racks.shape[0]):
                row = game * (racks.shape[0] + 1) + seat + 1
                text = " ".join(str(int(tile)) if tile >= 0 else "." for tile in racks[seat, :, game])
                drawing.add(drawing.text(f"{seat}: {text}", insert=(size / 2, size * row), font_size=size * 0.6,
                                         fill="white" if dark else "black"))
        return str(drawing.tostring())

    def save_svg(self, filename: Any, *, color_theme: str | None = None, scale: float | None = None) -> None:
        with open(filename, "w", encoding="utf-8") as out:
            out.write(self.to_svg(color_theme=color_theme, scale=scale))


def _typed(key: jax.Array) -> jax.Array:
    """A typed PRNG key, from either kind (pgx passes raw ``uint32[2]`` keys, the batched engine keeps typed ones)."""
    key = jnp.asarray(key)
    return key if jnp.issubdtype(key.dtype, jax.dtypes.prng_key) else jax.random.wrap_key_data(key)


def _batched(game: BatchState) -> BatchState:
    """One game (no batch axis) as a batch of one."""
    batched: BatchState = jax.tree_util.tree_map(lambda field: field[..., None], game)
    return batched


def _single(game: BatchState) -> BatchState:
    single: BatchState = jax.tree_util.tree_map(lambda field: field[..., 0], game)
    return single


class TenDaysPgxEnv(core.Env):  # type: ignore[misc]
    """10 Days with one edition and one set of options, as a pgx environment (see :mod:`tendays.rl.pgx_env`)."""

    def __init__(self, edition: Edition | str = "usa", players: int = 2, days: int = 10, swap: bool = False,
                 open_hands: bool = False, turn_limit: int | None = None, observation: str = "compact") -> None:
        super().__init__()
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation must be one of {list(OBSERVATIONS)}, not {observation!r}")
        self.game = BatchEnv(edition, env_options(players, days, swap, open_hands, turn_limit))
        self.config = self.game.config
        self.observation = observation

    def _init(self, key: jax.Array) -> TenDaysPgxState:
        game = chance.deal(self.config, _typed(key)[None])
        return self._state(game, jnp.int32(0))

    def _state(self, game: BatchState, steps: jax.Array) -> TenDaysPgxState:
        over = game.phase[0] == OVER_PHASE
        seats = jnp.arange(self.config.players)
        winner = game.winner[0]
        rewards = jnp.where(over & (winner >= 0), jnp.where(seats == winner, 1.0, -1.0), 0.0)
        return TenDaysPgxState(
            current_player=game.current[0],
            observation=jnp.zeros(self.game.observation_size, self._dtype),
            rewards=rewards.astype(jnp.float32),
            terminated=over,
            truncated=jnp.bool_(False),
            legal_action_mask=rules.legal_mask(self.config, game)[0],
            _step_count=steps,
            _game=_single(game),
        )

    @property
    def _dtype(self) -> Any:
        return jnp.uint8 if self.observation == "compact" else jnp.float32

    def _step(self, state: core.State, action: jax.Array, key: jax.Array | None) -> TenDaysPgxState:
        assert isinstance(state, TenDaysPgxState)
        game = _batched(state._game)
        if key is not None:
            game = game.replace(key=_typed(key)[None])
        after, shuffle = rules.apply_actions(self.config, game, jnp.asarray(action, jnp.int32)[None])
        after = chance.resolve(self.config, after, shuffle, None, _chunk(1))
        return self._state(after, state._step_count)

    def _observe(self, state: core.State, player_id: jax.Array) -> jax.Array:
        assert isinstance(state, TenDaysPgxState)
        seats = jnp.asarray(player_id, jnp.int32)[None]
        compact = self.observation == "compact"
        return observe.observe_batch(self.config, _batched(state._game), seats, compact)[0]

    @property
    def id(self) -> Any:
        return ENV_ID

    @property
    def version(self) -> str:
        return "v0"

    @property
    def num_players(self) -> int:
        return self.config.players

    @property
    def num_actions(self) -> int:
        return self.config.actions

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (self.game.observation_size,)


def make_pgx_env(edition: Edition | str = "usa", players: int = 2, **options: Any) -> TenDaysPgxEnv:
    """A pgx environment of 10 Days; ``options``: ``days``, ``swap``, ``open_hands``, ``turn_limit`` (None: 100
    turns per player), ``observation`` (``"compact"`` or ``"float32"``)."""
    return TenDaysPgxEnv(edition, players, **options)
