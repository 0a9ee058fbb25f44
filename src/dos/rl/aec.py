"""The PettingZoo AEC environment: every seat an agent, one decision at a time.

>>> from dos.rl import env
>>> game = env(rules="official", players=2)
>>> game.reset(seed=42)
>>> obs, reward, terminated, truncated, info = game.last()
>>> bool(obs["action_mask"].any()), game.agent_selection in game.agents
(True, True)

Agents are ``player_0`` ... ``player_{N-1}`` (the seats). The agent to act is the engine's
seat to act; its observation is ``{"observation": float32 tensor, "action_mask": int8}``
(``dos.rl.codec``), and the mask of any other agent is all zeros. DOS calls and catches follow
``race`` (``dos.rl.race``). Rewards come at the end: official +1 for the winner and
-1/(N-1) for the others, classic by final place from +1 to -1. ``max_steps`` truncates a game
(``None``: never).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from dos.bots.reflex import Reflex
from dos.rl.codec import make_codec
from dos.rl.race import Race

Observation = dict[str, np.ndarray]


def observation_space(size: int, actions: int) -> spaces.Dict:
    """The observation space: the tensor (values in [-1, 20]) and the legal-action mask."""
    return spaces.Dict(
        {
            "observation": spaces.Box(-1.0, 20.0, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (actions,), np.int8),
        }
    )


class DosAEC(AECEnv):  # type: ignore[misc]
    """DOS as a PettingZoo AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "dos_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: str = "official",
        players: int = 2,
        *,
        race: str = "reflex",
        reflexes: Sequence[Reflex] | None = None,
        max_steps: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.codec = make_codec(rules, players, **options)
        self.race_mode = race
        self.reflexes = reflexes
        Race(rules, players, race, 0, reflexes)  # checks the arguments now
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(players)]
        space = observation_space(self.codec.layout.size, self.codec.size)
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: spaces.Discrete(self.codec.size) for a in self.possible_agents}
        self._seeds, _ = seeding.np_random(None)
        self.state_: Any = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds, _ = seeding.np_random(seed)
        game_seed = int(self._seeds.integers(0, 2**63 - 1))
        self.state_ = self.codec.new_game(game_seed)
        self._race = Race(
            self.codec.rules, self.codec.players, self.race_mode, game_seed, self.reflexes
        )
        self._race.settle(self.state_)
        self.steps = 0
        self._mask_now = np.zeros(self.codec.size, np.int8)
        self._mask_step = -1
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.codec.turn(self.state_)]

    def _mask(self) -> np.ndarray:
        """The mask of the seat to act, worked out once per decision."""
        if self._mask_step != self.steps:
            self.codec.mask(self.state_, self.codec.turn(self.state_), self._mask_now)
            self._mask_step = self.steps
        return self._mask_now

    def observe(self, agent: str) -> Observation:
        seat = self.possible_agents.index(agent)
        state = self.state_
        if not self.codec.is_over(state) and seat == self.codec.turn(state):
            mask = self._mask().copy()
        else:
            mask = np.zeros(self.codec.size, np.int8)
        return {"observation": self.codec.observe(state, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state_
        seat = self.possible_agents.index(agent)
        if action is None or not self._mask()[int(action)]:
            raise ValueError(f"{agent}: action {action} is not legal here (see action_mask)")
        self.codec.apply(state, self.codec.action(state, seat, int(action)))
        self._race.settle(state)
        self.steps += 1
        self._cumulative_rewards[agent] = 0.0
        if self.codec.is_over(state):
            for s, reward in enumerate(self.codec.rewards(state)):
                self.rewards[self.possible_agents[s]] = reward
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_steps is not None and self.steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
        if not self.codec.is_over(state):
            self.agent_selection = self.possible_agents[self.codec.turn(state)]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        seat = self.codec.turn(self.state_)
        view = self.codec.view(self.state_, seat).to_json()
        shown = {k: view[k] for k in ("turn", "phase", "hand", "hand_sizes") if k in view}
        return str(shown)

    def close(self) -> None:
        pass


def env(rules: str = "official", players: int = 2, **kwargs: Any) -> AECEnv:
    """The AEC environment, wrapped as PettingZoo's classic environments are (an illegal
    action raises; the order of calls is checked).

    ``kwargs``: ``race``, ``reflexes``, ``max_steps``, ``render_mode`` and the rule set's
    options (``target_score=100``, ...).
    """
    raw = DosAEC(rules, players, **kwargs)
    wrapped: AECEnv = wrappers.AssertOutOfBoundsWrapper(raw)
    return wrappers.OrderEnforcingWrapper(wrapped)


raw_env = DosAEC
