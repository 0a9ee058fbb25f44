"""The Gymnasium vector environment of every rule set: ``gymnasium.make_vec("dos/Official-v0")``
and ``gymnasium.make_vec("dos/Classic-v0")``, one contract for both.

``DosVectorEnv`` steps a batch of games: ``dos.rl.fast_vector.FastVectorGames`` on the
compiled core (the official rules, with numba), else ``dos.rl.vector.VectorGames`` on the
Python engine (the classic rules, and everything without numba). Both return the same
arrays, so the environment is the same whichever batch runs it:

* ``reset(seed=...)`` -> ``(observations, infos)``; ``step(actions)`` -> ``(observations,
  rewards, terminations, truncations, infos)``, every value a NumPy array with a leading
  ``num_envs`` axis;
* ``observations``: ``{"observation": float32 [num_envs, size], "action_mask": int8
  [num_envs, actions]}``: the observation and mask of the seat that decides next in each
  game (against bots the caller's ``seat``, in self-play the seat to act);
* ``rewards[g]``: the reward of the seat that acted in game ``g``; ``infos["rewards"]``:
  every seat's [num_envs, players] (self-play); ``truncations`` are always false;
* ``infos["seat"]``: who decides next; ``infos["legal_actions"]``: each game's legal indices,
  ascending, padded with ``-1`` to the longest list of the batch, ``infos["legal_count"]``
  how many (sample one with ``legal_actions[g, rng.integers(legal_count[g])]``, never from
  the wide mask);
* autoreset ``AutoresetMode.SAME_STEP``: a game that ends is dealt anew within the same
  ``step``; its row is already the new game's, the ended game's last observation is in
  ``infos["final_obs"][g]`` (``None`` for the others, ``infos["_final_obs"]`` marks which) and
  ``infos["final_info"]["seat"][g]`` says whose it was.

The deals come from ``dos.seeds.derive(seed, "deals", key=deal_key)``, not from the
``np_random`` Gymnasium exposes; no game seed is returned.

>>> import gymnasium, dos.rl
>>> games = gymnasium.make_vec("dos/Classic-v0", num_envs=2, opponents=["random"])
>>> obs, infos = games.reset(seed=1)
>>> obs["action_mask"].shape, infos["legal_actions"].shape[0]
((2, 63), 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from dos import ruleset, seeds
from dos.rl.aec import choose_backend, observation_space
from dos.rl.layout import check_layout
from dos.rl.vector import VectorGames


class DosVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of one rule set as a Gymnasium ``VectorEnv`` (see the module)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int = 64,
        rules: str = ruleset.DEFAULT,
        players: int = 2,
        opponents: Sequence[str] | None = ("random",),
        *,
        backend: str = "auto",
        deal_key: bytes | None = None,
        layout: str = "padded",
        **kwargs: Any,
    ) -> None:
        self.num_envs = num_envs
        self.players = players
        self.backend = choose_backend(backend, rules)
        self._deal_key = deal_key
        opponents = list(opponents) if opponents is not None else None
        self.games: Any
        if self.backend == "fast":
            from dos.rl.fast_vector import FastVectorGames

            self.games = FastVectorGames(
                players, num_envs, opponents=opponents, layout=layout, **kwargs
            )
        else:
            self.games = VectorGames(
                rules,
                players,
                num_envs,
                opponents=opponents,
                layout=check_layout(layout),
                **kwargs,
            )
        size = self.games.size
        self.single_observation_space = observation_space(self.games.layout.size, size)
        self.single_action_space = spaces.Discrete(size)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deals every game anew (``options`` is not used)."""
        super().reset(seed=seed)
        if seed is None:
            self.games.reset(None)
        elif self._deal_key is None:
            self.games.reset(seeds.derive(seed, "deals"))
        else:
            self.games.reset(seeds.derive(seed, "deals", key=self._deal_key))
        return self._observations(), self._infos(None)

    def step(
        self, actions: np.ndarray | Sequence[int]
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        games = self.games
        acted = games.seats.copy()
        rewards, done = games._step(actions)
        own = rewards[np.arange(self.num_envs), acted].astype(np.float64)
        ended = bool(done.any())
        infos = self._infos(rewards if ended else None)
        if ended:
            final_obs = np.full(self.num_envs, None, dtype=object)
            for g in np.flatnonzero(done).tolist():
                final_obs[g] = games.final[g]
            infos["final_obs"] = final_obs
            infos["_final_obs"] = done.copy()
            infos["final_info"] = {"seat": games.final_seats.copy(), "_seat": done.copy()}
        return self._observations(), own, done, np.zeros(self.num_envs, np.bool_), infos

    def _observations(self) -> dict[str, np.ndarray]:
        return {"observation": self.games.obs.copy(), "action_mask": self.games.mask.copy()}

    def _infos(self, rewards: np.ndarray | None) -> dict[str, Any]:
        games = self.games
        if rewards is None:
            rewards = np.zeros((self.num_envs, self.players), np.float32)
        return {
            "seat": games.seats.copy(),
            "legal_actions": games.legal_padded(),
            "legal_count": games.counts.copy(),
            "rewards": rewards,
        }

    def random_actions(self) -> np.ndarray:
        """A uniformly random legal index per game, from the batch's own generator."""
        return self.games.random_actions()  # type: ignore[no-any-return]

    def close_extras(self, **kwargs: Any) -> None:
        pass


def vector_env(num_envs: int = 1, **kwargs: Any) -> DosVectorEnv:
    """The vector entry point of every rule set (``gymnasium.make_vec``): the single
    environment's arguments (``opponents=["random"]`` by default, ``None`` for self-play;
    ``backend`` as there: ``"auto"`` runs the compiled batch where it can)."""
    if kwargs.pop("render_mode", None) is not None:
        raise ValueError("the vector environment does not render")
    return DosVectorEnv(num_envs, **kwargs)
