"""The PettingZoo AEC environment: every seat is an agent (``player_0`` .. ``player_{n-1}``).

Agents act in the game's own order: during the draft each seat places one tile in turn; afterwards
the player to move acts twice per turn (draw or take, then replace or discard), so the same agent is
often selected twice in a row. Observations are ``{"observation": float32 vector, "action_mask":
int8 vector}`` encoded from that agent's view only; the mask is all zero when it is not the agent's
turn.
"""

from __future__ import annotations

from typing import Any, Unpack

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from tendays.engine import ActionCodec, IllegalMoveError, Options, State, apply, new_game, view

from .common import (
    Rewards,
    RuleSettings,
    action_mask,
    checked_action,
    checked_edition,
    env_options,
)
from .observation import ObservationEncoder
from .render import render_view

__all__ = ["TenDaysAECEnv", "env", "raw_env"]


class TenDaysAECEnv(AECEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]
    """10 Days as a turn-based multi-agent environment (PettingZoo AEC API).

    The rules are ``options`` (an :class:`~tendays.engine.Options`) or the rule keywords
    (:class:`RuleSettings`: ``players``, ``days``, ``swap``, ``open_hands``, ``turn_limit``), not
    both; a turn limit of None means 100 turns per player.
    """

    metadata: dict[str, Any] = {
        "name": "tendays_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,  # turn-based: no parallel version (see the module docstring)
        "render_fps": 1,
    }

    def __init__(
        self,
        edition: str = "usa",
        *,
        options: Options | None = None,
        rewards: Rewards | None = None,
        render_mode: str | None = None,
        **settings: Unpack[RuleSettings],
    ) -> None:
        super().__init__()
        self.options = env_options(options, **settings)
        self.edition = checked_edition(
            edition, self.options, render_mode, self.metadata["render_modes"]
        )
        players = self.options.players
        self.rewards_config = rewards or Rewards()
        self.render_mode = render_mode
        self.codec = ActionCodec(self.options.days)
        self.encoder = ObservationEncoder(self.edition, self.options)
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents: list[str] = []
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-1.0, 1.0, shape=(self.encoder.size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(self.codec.size,), dtype=np.int8),
            }
        )
        action_space = spaces.Discrete(self.codec.size)
        # The same space objects every time, so seeding a space sticks (the
        # PettingZoo API asks for it).
        self.observation_spaces = {agent: observation_space for agent in self.possible_agents}
        self.action_spaces = {agent: action_space for agent in self.possible_agents}
        self._np_random: np.random.Generator | None = None
        self.state: State | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game. The game's secret seed is drawn from a generator seeded by ``seed``."""
        if seed is not None or self._np_random is None:
            self._np_random, _ = gymnasium.utils.seeding.np_random(seed)
        game_seed = int(self._np_random.integers(2**63 - 1))
        self.state = new_game(self.edition, self.options, game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.state.current]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self._require_state()
        player_view = view(state, self._seats[agent])
        return {
            "observation": self.encoder.encode(player_view),
            "action_mask": action_mask(self.codec, player_view.legal_moves()),
        }

    def step(self, action: int | None) -> None:
        """Play ``action`` for the selected agent; ``None`` only for
        an agent whose game has ended."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: None is only for agents whose game has ended")
        state = self._require_state()
        seat = self._seats[agent]
        move = self.codec.decode(checked_action(action, self.codec.size))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        try:
            state = apply(state, move, seat)
        except IllegalMoveError as error:
            self.rewards[agent] = self.rewards_config.illegal
            self.infos[agent] = {"illegal_move": f"'{move}': {error}"}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.state = state
            if state.is_over:
                for other in self.agents:
                    self.rewards[other] = self.rewards_config.final(state, self._seats[other])
                if state.winner is None:
                    self.truncations = dict.fromkeys(self.agents, True)
                else:
                    self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.possible_agents[state.current]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The table as the agent to move sees it (``render_mode="ansi"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() was called without a render_mode; pass render_mode='ansi'"
            )
            return None
        state = self._require_state()
        return render_view(view(state, state.current))

    def close(self) -> None:
        """Nothing to release: the game lives in memory."""

    def _require_state(self) -> State:
        if self.state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.state


raw_env = TenDaysAECEnv


def env(**kwargs: Any) -> AECEnv[str, dict[str, np.ndarray], int]:
    """A PettingZoo AEC environment with PettingZoo's order checks, e.g. ``env(edition="usa",
    players=3)``.

    Keyword arguments are those of :class:`TenDaysAECEnv`.
    """
    return wrappers.OrderEnforcingWrapper(TenDaysAECEnv(**kwargs))
