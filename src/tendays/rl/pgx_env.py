"""10 Days as a pgx environment: :func:`make_pgx_env` gives a ``pgx.Env`` over the batched engine's
rules.

Like every pgx env, its ``init``, ``step`` and ``observe`` act on one game; ``jax.vmap`` batches
them::

    env = tendays.rl.make_pgx_env("usa", players=2)
    init, step = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))
    state = init(jax.random.split(jax.random.key(0), 1024))
    state = step(state, actions, jax.random.split(key, 1024))   # actions: int32[1024]

The rules are those of :mod:`tendays.batch` (one game is a batch of one inside), so an action index
means the move of ``tendays.engine.ActionCodec``. Chance (the deal, every reshuffle of the discard
piles) is drawn from the key given to ``step`` when there is one, otherwise from the game's own key.
``state.observation`` is the seat to move's view (:mod:`tendays.batch.observe`; compact ``uint8`` by
default, ``float32`` with ``observation="float32"``, uint8 tile ids with ``observation="indices"``,
:mod:`tendays.batch.indices`). Rewards: +1 to the winner, -1 to the others, 0
to all when the turn limit ends the game (default 100 turns per player). An illegal action ends the
game as pgx's envs do: -1 to the seat that played it, +1 to the other seats (``terminated``). An
action that is not a whole number is refused with ``ValueError``, and so is one outside the action
space whose value ``step`` can see (called outside ``jit`` and ``vmap``); a traced one (its value
unknown until it runs) outside the space counts as an illegal action, never as another action.
Needs the ``pgx`` extra.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Unpack

import jax
import jax.numpy as jnp
import numpy as np
import pgx.core as core
from pgx._src.struct import dataclass

from tendays.batch import OVER_PHASE, BatchEnv, BatchState, chance, forms, rules
from tendays.batch.env import chance_chunk
from tendays.batch.transpose import batch_first
from tendays.engine import Edition, Options

from .common import RuleSettings, checked_action, checked_actions, env_options

__all__ = ["ENV_ID", "TenDaysPgxEnv", "TenDaysPgxState", "make_pgx_env"]

ENV_ID = "tendays"


@dataclass
class TenDaysPgxState(core.State):  # type: ignore[misc]  # pgx has no type information
    """One game in pgx's form; ``_game`` is the batched engine's state
    of that game (a batch of one)."""

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

        racks = jnp.asarray(self._game.racks).reshape(
            self._game.racks.shape[0], self._game.racks.shape[1], -1
        )
        games = racks.shape[-1]
        dark = color_theme == "dark"
        size = 22 * (scale or 1.0)
        drawing = svgwrite.Drawing(
            size=(size * (racks.shape[1] + 2), size * (games * (racks.shape[0] + 1) + 1))
        )
        drawing.add(drawing.rect((0, 0), ("100%", "100%"), fill="black" if dark else "white"))
        for game in range(games):
            for seat in range(racks.shape[0]):
                row = game * (racks.shape[0] + 1) + seat + 1
                text = " ".join(
                    str(int(tile)) if tile >= 0 else "." for tile in racks[seat, :, game]
                )
                drawing.add(
                    drawing.text(
                        f"{seat}: {text}",
                        insert=(size / 2, size * row),
                        font_size=size * 0.6,
                        fill="white" if dark else "black",
                    )
                )
        return str(drawing.tostring())

    def save_svg(
        self, filename: Any, *, color_theme: str | None = None, scale: float | None = None
    ) -> None:
        with open(filename, "w", encoding="utf-8") as out:
            out.write(self.to_svg(color_theme=color_theme, scale=scale))


def _typed(key: jax.Array) -> jax.Array:
    """A typed PRNG key, from either kind (pgx passes raw ``uint32[2]`` keys, the batched engine
    keeps typed ones)."""
    key = jnp.asarray(key)
    return key if jnp.issubdtype(key.dtype, jax.dtypes.prng_key) else jax.random.wrap_key_data(key)


def _one(many: Callable[..., Any]) -> Callable[..., Any]:
    """A one-game function made of ``many``, a function of a batch (batch first
    in every argument and result)."""

    def one(*args: Any) -> Any:
        return jax.tree_util.tree_map(
            lambda x: x[0], many(*jax.tree_util.tree_map(lambda x: x[None], args))
        )

    return one


def _by_batch(many: Callable[..., Any]) -> Callable[..., Any]:
    """:func:`_one`, which ``jax.vmap`` calls whole instead of batching the one-game function: the
    batched rules keep their layout (batch last), their in-place writes and their chunked chance.
    (Not inside a ``lax.cond`` that ``vmap`` batches: there JAX refuses it, so ``init``, which pgx's
    ``auto_reset`` calls in one, uses the plain :func:`_one`.)"""
    batched = jax.custom_batching.custom_vmap(_one(many))

    @batched.def_vmap
    def rule(size: int, in_batched: Any, *args: Any) -> tuple[Any, Any]:
        args = jax.tree_util.tree_map(
            lambda x, b: x if b else jnp.broadcast_to(x, (size, *x.shape)), args, tuple(in_batched)
        )
        out = many(*args)
        return out, jax.tree_util.tree_map(lambda _: True, out)

    return batched


def _last(game: BatchState) -> BatchState:
    """Games with the batch first (as pgx and vmap keep them) with the batch
    last (as the batched rules do)."""
    moved: BatchState = jax.tree_util.tree_map(lambda field: jnp.moveaxis(field, 0, -1), game)
    return moved


def _first(game: BatchState) -> BatchState:
    """:func:`_last` undone; the byte fields (racks, piles, draw pile) four bytes at a time
    (:func:`tendays.batch.transpose.batch_first`)."""

    def move(field: jax.Array) -> jax.Array:
        if field.ndim < 2 or field.dtype.itemsize != 1:
            return jnp.moveaxis(field, -1, 0)
        games = field.shape[-1]
        return batch_first(field.reshape(-1, games)).reshape(games, *field.shape[:-1])

    moved: BatchState = jax.tree_util.tree_map(move, game)
    return moved


class TenDaysPgxEnv(core.Env):  # type: ignore[misc]
    """10 Days with one edition and one set of options, as a pgx environment (see
    :mod:`tendays.rl.pgx_env`)."""

    def __init__(
        self,
        edition: Edition | str = "usa",
        *,
        options: Options | None = None,
        observation: str = "compact",
        **settings: Unpack[RuleSettings],
    ) -> None:
        super().__init__()
        forms.check(observation)
        self.game = BatchEnv(edition, env_options(options, **settings))
        self.config = self.game.config
        self.observation = observation
        config = self.config

        def advance(
            games: BatchState, actions: jax.Array, keys: jax.Array | None = None
        ) -> tuple[BatchState, jax.Array, jax.Array]:
            """The games after their actions, with the mask and the view of the seat to move,
            from one turn of the state to the batched rules' layout and back (each turn moves
            the whole state: XLA's CPU backend transposes slowly). Games that ``init`` started
            are dealt first, from their own keys; then ``keys``, if given, replace the games'."""
            chunk = chance_chunk(actions.shape[0])
            games = chance.deal_pending(config, _last(games), max(1, chunk // 2))
            games = games if keys is None else games.replace(key=keys)
            after, shuffle = rules.apply_actions(config, games, actions.astype(jnp.int32))
            after = chance.resolve(config, after, shuffle, None, chunk)
            seen = forms.observe_as(config, after, after.current, observation)
            return _first(after), rules.legal_mask_out(config, after), seen

        def mask(games: BatchState) -> jax.Array:
            return rules.legal_mask(config, _last(games))

        def view(games: BatchState, seats: jax.Array) -> jax.Array:
            return forms.observe_as(config, _last(games), seats, observation)

        # A game starts undealt (chance.undealt: the tile being drafted, no sort) and is dealt
        # in its first step: pgx's auto_reset starts a game for every game in every step.
        self._deal = _one(lambda keys: _first(chance.undealt(config, keys)))
        self._advance_given = _by_batch(advance)
        self._advance_own = _by_batch(lambda games, actions: advance(games, actions))
        self._first_mask = _one(mask)
        self._view, self._first_view = _by_batch(view), _one(view)

    def init(self, key: jax.Array) -> TenDaysPgxState:
        """pgx's ``Env.init``, on the plain one-game functions (it may run
        inside a batched ``lax.cond``)."""
        return self._init(key)

    def _init(self, key: jax.Array) -> TenDaysPgxState:
        game = self._deal(_typed(key))
        seen = self._first_view(game, game.current)
        return self._state(game, jnp.int32(0), self._first_mask(game), seen)

    def _state(
        self, game: BatchState, steps: jax.Array, mask: jax.Array, observation: jax.Array
    ) -> TenDaysPgxState:
        """pgx's state of one game (no batch axis) of the batched engine."""
        over = game.phase == OVER_PHASE
        seats = jnp.arange(self.config.players)
        winner = game.winner
        rewards = jnp.where(over & (winner >= 0), jnp.where(seats == winner, 1.0, -1.0), 0.0)
        return TenDaysPgxState(
            current_player=game.current,
            observation=observation,
            rewards=rewards.astype(jnp.float32),
            terminated=over,
            truncated=jnp.bool_(False),
            legal_action_mask=mask,
            _step_count=steps,
            _game=game,
        )

    def step(
        self, state: core.State, action: jax.Array, key: jax.Array | None = None
    ) -> TenDaysPgxState:
        """pgx's ``Env.step``, with the game stepped outside ``lax.cond`` and chosen after (the same
        result, as ``vmap`` makes of the cond anyway): the batched rules, called whole by ``vmap``,
        cannot run inside it."""
        action = self._checked(action)
        outside = (action < 0) | (action >= self.num_actions)
        action = jnp.where(outside, 0, action)  # stepped below, but the game is then kept
        over = state.terminated | state.truncated
        stepped = self._step(state.replace(_step_count=state._step_count + 1), action, key)
        kept = state.replace(rewards=jnp.zeros_like(state.rewards))
        chosen = jax.tree_util.tree_map(
            lambda old, new: jnp.where(over | outside, old, new), kept, stepped
        )
        illegal = outside | ~state.legal_action_mask[action]
        chosen = jax.lax.cond(
            illegal,
            lambda: self._step_with_illegal_action(chosen, state.current_player),
            lambda: chosen,
        )
        chosen = jax.lax.cond(
            chosen.terminated,
            lambda: chosen.replace(legal_action_mask=jnp.ones_like(chosen.legal_action_mask)),
            lambda: chosen,
        )
        # The observation is the stepped game's, or the old one where the game was over and kept:
        # the illegal-action and end-of-game changes above leave the game itself as it is.
        return chosen  # type: ignore[no-any-return]

    def _checked(self, action: Any) -> jax.Array:
        """``action`` as an int32 array, refused with ``ValueError`` (naming the range) when it is
        not a whole number, or, when its value is known here (not traced by ``jit`` or ``vmap``),
        outside the action space. A traced action outside it cannot raise: it counts as illegal."""
        if isinstance(action, bool) or not isinstance(action, int | np.integer | jax.Array):
            checked_action(action, self.num_actions)  # refuses it, naming the range
        array = jnp.asarray(action)
        if array.dtype == jnp.bool_ or not jnp.issubdtype(array.dtype, jnp.integer):
            checked_actions(np.zeros(0, array.dtype), self.num_actions)
        if not isinstance(array, jax.core.Tracer):
            checked_actions(np.asarray(array).reshape(-1), self.num_actions)
        return array.astype(jnp.int32)

    def _step(self, state: core.State, action: jax.Array, key: jax.Array | None) -> TenDaysPgxState:
        assert isinstance(state, TenDaysPgxState)
        action = jnp.asarray(action, jnp.int32)
        if key is None:  # chance from the game's own key
            game, mask, seen = self._advance_own(state._game, action)
        else:
            game, mask, seen = self._advance_given(state._game, action, _typed(key))
        return self._state(game, state._step_count, mask, seen)

    def _observe(self, state: core.State, player_id: jax.Array) -> jax.Array:
        assert isinstance(state, TenDaysPgxState)
        seat = jnp.asarray(player_id, jnp.int32)
        return self._view(state._game, seat)  # type: ignore[no-any-return]

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
        return (forms.size(self.config, self.observation),)


def make_pgx_env(edition: Edition | str = "usa", **options: Any) -> TenDaysPgxEnv:
    """A pgx environment of 10 Days; ``options``: ``options`` (an :class:`~tendays.engine.Options`)
    or the rule keywords ``players``, ``days``, ``swap``, ``open_hands``, ``turn_limit``
    (None: 100 turns per player), ``observation`` (``"compact"``, ``"float32"`` or
    ``"indices"``)."""
    return TenDaysPgxEnv(edition, **options)
