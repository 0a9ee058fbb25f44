"""A batch of games stepped together: the vector environment for training.

``VectorGames(rules, players, n)`` holds ``n`` games. Each step takes one action index per
game and returns, per game, the observation and mask of the seat that decides next, which
seat that is, the rewards of every seat (non-zero when a game just ended) and whether it
ended. A game that ends is dealt anew at once (its next seed drawn from the batch's seeded
generator), so the batch never waits; the returned observation is then the new game's.

With ``opponents`` (bot names, as in ``dos/Official-v0``) the caller plays only ``seat`` in
every game and the bots play the rest between steps; without, the caller plays every seat
(self-play): the seat that decides next is the engine's seat to act. DOS calls and catches
follow ``race`` (``dos.rl.race``).

What ``reset`` and ``step`` return never holds a game seed (it would deal the hidden cards
again); the game seeds come from the batch's own generator, private and seeded by ``reset``.
``states`` and ``finished`` are the engine's full states, for the caller that runs the batch
(a trainer scoring rounds), never for an agent. Each bot's generator and each race's are
seeded one way from their game's seed (``dos.seeds``). ``dos.rl.vector_env.DosVectorEnv`` is
this batch as a Gymnasium ``VectorEnv`` (``gymnasium.make_vec``) for the rule sets the
compiled core does not play, and for every rule set without numba.

>>> games = VectorGames("official", 2, 4, opponents=["random"])
>>> obs, mask, seats = games.reset(seed=1)
>>> obs.shape[0], mask.shape[0], seats.tolist()
(4, 4, [0, 0, 0, 0])
>>> obs, mask, seats, rewards, done = games.step(games.random_actions())
>>> rewards.shape
(4, 2)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from dos import ruleset, seeds
from dos.play.reflex import Reflex
from dos.rl.codec import make_codec
from dos.rl.gym_env import Opponents
from dos.rl.race import Race


class VectorGames:
    """``n`` games stepped together (see the module docstring)."""

    def __init__(
        self,
        rules: str,
        players: int,
        n: int,
        *,
        opponents: Sequence[str] | None = None,
        seat: int = 0,
        race: str = "reflex",
        reflex: Reflex | None = None,
        **options: Any,
    ) -> None:
        self.codec = make_codec(rules, players, **options)
        self.layout = self.codec.layout
        self.size = self.codec.size
        self.n = n
        self.players = players
        self.seat = seat
        self.race_mode = race
        self.reflex = reflex or Reflex()
        self.opponents = (
            [Opponents(rules, players, seat, opponents) for _ in range(n)]
            if opponents is not None
            else None
        )
        self.states: list[Any] = [None] * n
        self.races: list[Race] = []
        self.obs = np.zeros((n, self.codec.layout.size), np.float32)
        self.mask = np.zeros((n, self.codec.size), np.int8)
        self.seats = np.zeros(n, np.int64)
        self.counts = np.zeros(n, np.int64)
        """Each game's legal count (the ones in its mask)."""
        self.finished: list[Any] = [None] * n
        """After ``step``: the final state of each game that just ended (else ``None``)."""
        self.last_points = np.zeros(n, np.int64)
        """After ``step``, official rules: the points its winner scored in the last round of
        each game that just ended (else 0), as in ``FastVectorGames``."""
        self.final: list[dict[str, np.ndarray] | None] = [None] * n
        """After ``step``: the last observation (and all-zero mask) of each game that just
        ended, seen by ``final_seats[g]`` (the caller's seat against bots, else the seat to
        act), else ``None``."""
        self.final_seats = np.zeros(n, np.int64)
        self._seeds = np.random.default_rng(0)
        self._pick = random.Random(0)

    def _deal(self, i: int) -> None:
        game_seed = int(self._seeds.integers(0, 2**63 - 1))
        self.states[i] = self.codec.new_game(game_seed)
        reflexes = None
        if self.opponents is not None:
            self.opponents[i].seed(game_seed)
            if ruleset.entry(self.codec.rules).dos_race:
                reflexes = self.opponents[i].reflexes(self.reflex)
        self.races[i] = Race(self.codec.rules, self.players, self.race_mode, game_seed, reflexes)
        self.races[i].settle(self.states[i])

    def _advance(self, i: int) -> None:
        """Lets the bots play until the caller's seat decides (or the game ends)."""
        codec, state = self.codec, self.states[i]
        if self.opponents is None:
            return
        opponents = self.opponents[i]
        while not codec.is_over(state) and codec.turn(state) != self.seat:
            codec.apply(state, opponents.choose(codec, state))
            self.races[i].settle(state)

    def _look(self, i: int) -> None:
        state = self.states[i]
        seat = self.codec.turn(state)
        self.seats[i] = seat
        self.codec.observe(state, seat, self.obs[i])
        self.codec.mask(state, seat, self.mask[i])
        self.counts[i] = np.count_nonzero(self.mask[i])

    def _ended(self, i: int) -> None:
        state = self.states[i]
        seat = self.seat if self.opponents is not None else self.codec.turn(state)
        obs = self.codec.observe(state, seat)
        self.final[i] = {"observation": obs, "action_mask": np.zeros(self.size, np.int8)}
        self.final_seats[i] = seat

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Deals every game anew; returns (observations, masks, seats deciding)."""
        self._seeds = np.random.default_rng(seed)
        self._pick = random.Random(None if seed is None else seeds.derive(seed, "pick"))
        self.races = [Race(self.codec.rules, self.players, "agents")] * self.n
        for i in range(self.n):
            self._deal(i)
            self._advance(i)
            while self.codec.is_over(self.states[i]):  # the bots finished it alone
                self._deal(i)
                self._advance(i)
            self._look(i)
        return self.obs.copy(), self.mask.copy(), self.seats.copy()

    def step(
        self, actions: Sequence[int] | np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Applies one action index per game; returns (observations, masks, seats deciding,
        rewards [n, players], ended). Raises ``ValueError`` for an index outside the mask."""
        rewards, done = self._step(actions)
        return self.obs.copy(), self.mask.copy(), self.seats.copy(), rewards, done

    def _step(self, actions: Sequence[int] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if len(actions) != self.n:
            raise ValueError(f"{len(actions)} actions for {self.n} games")
        for i, index in enumerate(actions):
            if not 0 <= int(index) < self.size or not self.mask[i, int(index)]:
                raise ValueError(f"game {i}: action {int(index)} is not in its mask")
        rewards = np.zeros((self.n, self.players), np.float32)
        done = np.zeros(self.n, bool)
        codec = self.codec
        self.finished = [None] * self.n
        self.final = [None] * self.n
        self.last_points[:] = 0
        for i, index in enumerate(actions):
            index = int(index)
            state = self.states[i]
            codec.apply(state, codec.action(state, int(self.seats[i]), index))
            self.races[i].settle(state)
            self._advance(i)
            while codec.is_over(self.states[i]):
                if not done[i]:
                    rewards[i] = codec.rewards(self.states[i])
                    self.finished[i] = self.states[i]
                    if ruleset.entry(codec.rules).target_score:
                        self.last_points[i] = self.states[i].round_results[-1].points
                    done[i] = True
                    self._ended(i)
                self._deal(i)
                self._advance(i)
            self._look(i)
        return rewards, done

    def legal_padded(self) -> np.ndarray:
        """Each game's legal indices, ascending, padded with ``-1`` to the longest list."""
        longest = int(self.counts.max()) if self.n else 0
        legal = np.full((self.n, longest), -1, np.int64)
        for i in range(self.n):
            found = np.flatnonzero(self.mask[i])
            legal[i, : found.size] = found
        return legal

    def random_actions(self) -> np.ndarray:
        """A uniformly random legal index per game, from the batch's own generator (seeded
        by ``reset``)."""
        return np.array(random_actions(self.mask, self._pick), np.int64)


def random_actions(mask: np.ndarray, rng: random.Random) -> list[int]:
    """One legal index per game, uniformly (for tests and benchmarks)."""
    return [rng.choice(np.flatnonzero(row).tolist()) for row in mask]
