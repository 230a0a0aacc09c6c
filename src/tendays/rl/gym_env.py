"""The Gymnasium environment ``tendays/TenDays-v0``: the agent in seat 0 against built-in bots.

Each ``step`` plays the agent's action and then the bots' moves, through the engine's turn loop
(:func:`tendays.engine.play_bots`), until the agent is to move again or the game ends. The
observation is the same vector as the PettingZoo environment's ``"observation"``; the legal actions
are in ``info["action_mask"]`` and from :meth:`TenDaysEnv.action_masks` (the method sb3-contrib's
MaskablePPO calls).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Unpack

import gymnasium
import numpy as np
from gymnasium import spaces

from tendays.bots import Bot, make_bot
from tendays.engine import ActionCodec, Game, IllegalMoveError, Options, State, play_bots, view

from .common import (
    Rewards,
    RuleSettings,
    action_mask,
    checked_action,
    checked_edition,
    env_options,
)
from .observation import ObservationEncoder
from .progress import RackProgress
from .render import render_view

__all__ = ["AGENT_SEAT", "TenDaysEnv"]

AGENT_SEAT = 0


class TenDaysEnv(gymnasium.Env[np.ndarray, np.int64]):
    """10 Days for one learning agent (seat 0) against bots.

    ``opponents`` is one bot name for every other seat, or one name per seat. ``seed`` seeds the
    first ``reset()`` that is not given a seed. The reward is given when the game ends
    (:class:`Rewards`), plus, with ``shaping`` > 0, ``shaping`` times the change of the agent's rack
    progress (satisfied journey conditions / (days + 1)) at each step. An illegal action ends the
    episode with ``rewards.illegal`` and ``info["illegal_move"]`` naming the broken rule. The rules
    are ``options`` (an :class:`~tendays.engine.Options`) or the rule keywords
    (:class:`RuleSettings`: ``players``, ``days``, ``swap``, ``open_hands``, ``turn_limit``), not
    both; a turn limit of None means 100 turns per player.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        edition: str = "usa",
        *,
        options: Options | None = None,
        opponents: str | Sequence[str] = "random",
        seed: int | None = None,
        rewards: Rewards | None = None,
        shaping: float = 0.0,
        render_mode: str | None = None,
        **settings: Unpack[RuleSettings],
    ) -> None:
        self.options = env_options(options, **settings)
        self.edition = checked_edition(
            edition, self.options, render_mode, self.metadata["render_modes"]
        )
        players = self.options.players
        specs = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != players - 1:
            raise ValueError(
                f"a game of {players} players has {players - 1} opponents, but {len(specs)} were "
                f"named"
            )
        self.opponent_specs = tuple(specs)
        self.bots: list[Bot] = [make_bot(spec) for spec in specs]
        self._players: list[Bot | None] = [None, *self.bots]  # the agent's seat waits for step()
        self.rewards = rewards or Rewards()
        self.shaping = shaping
        self.render_mode = render_mode
        self.codec = ActionCodec(self.options.days)
        self.encoder = ObservationEncoder(self.edition, self.options)
        self.progress = RackProgress(self.edition)
        self.observation_space = spaces.Box(-1.0, 1.0, shape=(self.encoder.size,), dtype=np.float32)
        self.action_space = spaces.Discrete(self.codec.size)
        self._first_seed = seed
        self.game: Game | None = None
        self._ended = False

    @property
    def state(self) -> State | None:
        """The full state of the current game (``None`` before the first ``reset``)."""
        return None if self.game is None else self.game.state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal a new game whose seed is drawn from ``self.np_random``; the bots' dice follow from
        it (:func:`tendays.engine.decision_rng`)."""
        if seed is None:
            seed = self._first_seed
        self._first_seed = None  # only the first reset falls back on the constructor's seed
        super().reset(seed=seed)
        self.game = Game(self.edition, self.options, int(self.np_random.integers(2**63 - 1)))
        self._ended = False
        play_bots(self.game, self._players)
        return self._observe()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        game = self._require_game()
        if self._ended:
            raise RuntimeError("the episode has ended; call reset() to start a new game")
        move = self.codec.decode(checked_action(action, self.codec.size))
        before = self._progress(game.state) if self.shaping else 0.0
        try:
            game.play(move, AGENT_SEAT)
        except IllegalMoveError as error:
            self._ended = True
            observation, info = self._observe()
            info["illegal_move"] = f"'{move}': {error}"
            return observation, self.rewards.illegal, True, False, info
        play_bots(game, self._players)
        state = game.state
        reward = self.shaping * (self._progress(state) - before) if self.shaping else 0.0
        terminated = truncated = False
        observation, info = self._observe()
        if state.is_over:
            self._ended = True
            reward += self.rewards.final(state, AGENT_SEAT)
            terminated = state.winner is not None
            truncated = not terminated
            info["winner"] = state.winner
        return observation, float(reward), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans (for sb3-contrib's MaskablePPO)."""
        return action_mask(
            self.codec, view(self._require_game().state, AGENT_SEAT).legal_moves()
        ).astype(bool)

    def render(self) -> str | None:
        """The table as the agent sees it (``render_mode="ansi"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() was called without a render_mode; pass render_mode='ansi'"
            )
            return None
        return render_view(view(self._require_game().state, AGENT_SEAT))

    def close(self) -> None:
        """Close bots that hold resources (external engine programs); safe to call twice."""
        for bot in self.bots:
            close = getattr(bot, "close", None)
            if callable(close):
                close()

    def _progress(self, state: State) -> float:
        rack = view(state, AGENT_SEAT).rack
        assert rack is not None
        return self.progress.score(rack) / (len(rack) + 1)

    def _observe(self) -> tuple[np.ndarray, dict[str, Any]]:
        """The agent's observation and the info holding its action
        mask, both from its view alone."""
        agent_view = view(self._require_game().state, AGENT_SEAT)
        return self.encoder.encode(agent_view), {
            "action_mask": action_mask(self.codec, agent_view.legal_moves())
        }

    def _require_game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game
