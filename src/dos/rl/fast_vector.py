"""Batches of official games on the compiled fast core (``dos.fast``): ``FastVectorGames``, and
``FastVectorEnv``, the same as a ``gymnasium.vector.VectorEnv``.

``FastVectorGames(players, n, opponents=None, seat=0, ...)`` has the interface of
``dos.rl.vector.VectorGames``: without ``opponents`` the caller plays every seat (self-play);
with them (bot names of the registry, one for all or one per other seat) the caller plays
``seat`` and the bots the others. ``reset(seed)`` and ``step(actions)`` return the observation
and the mask of the seat that decides in each game, as ``dos.rl.codec`` defines them, bit for
bit (a test compares them with ``VectorGames`` step by step, in self-play and against bots).
The games, the observations, the masks, the DOS race and the registry's ``random`` bot are
compiled (``dos.rl.flat``): one call a batch step, and Python only for what needs it (another
bot's decision, a deal). Official rules only (the fast core's).

DOS calls and catches: ``race="agents"`` as in ``dos.rl.race``; ``race="reflex"`` races each
obligation when it opens, as the runner's referee does, with each seat's reflexes (the
caller's ``reflex``, a bot's own; ``Reflex()`` by default: sure, reaction times lognormal
around 1 s with sigma 0.25), drawn from the game's own generator rather than the referee's
``random.Random`` stream.

Generators: as the engine keeps a game's SplitMix64 state in the game, every game of the batch
keeps two SplitMix64 states of its own (``dos.fast.rng.splitmix_next``), one for its race, one
for ``random_actions``; the normal deviates of the race come from its uniform draws
(Box-Muller). ``reset(seed)`` draws them apart from the deals' seeds, so a seeded batch
repeats exactly whatever other batches do beside it. A bot's generator is a
``random.Random`` seeded from its game's seed, as in ``VectorGames`` (the compiled ``random``
bot keeps its state as a compiled Mersenne Twister). Nothing process-wide (numba's
``np.random``) is drawn from, and no game seed is returned.

>>> games = FastVectorGames(2, 3)
>>> obs, mask, seats = games.reset(seed=1)
>>> obs.shape[0], bool(mask.any(axis=1).all())
(3, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from dos import ruleset
from dos.fast import Batch
from dos.fast import official_layout as fast_layout
from dos.fast.rng import MT_SIZE
from dos.play.official import Player
from dos.play.reflex import Reflex
from dos.rl import flat
from dos.rl import official_actions as table
from dos.rl.aec import observation_space
from dos.rl.fast_game import CODES, Record, is_compiled, mt_state, seat_kinds
from dos.rl.gym_env import Opponents
from dos.rl.layout import check_layout
from dos.rl.official_observation import official_layout

_STREAMS = 0x7ACE
"""Keeps the generators' seeds apart from the deals' for the same ``reset`` seed."""
_DEALS = 0xDEA15
"""``FastVectorEnv``: keeps its deals apart from the ``np_random`` that Gymnasium exposes."""


class FastVectorGames:
    """``n`` official games on the fast core (see the module docstring).

    ``batch`` (``dos.fast.Batch``) holds the games' full states: for the caller that runs
    the batch, never for an agent.
    """

    def __init__(
        self,
        players: int,
        n: int,
        *,
        opponents: Sequence[str] | None = None,
        seat: int = 0,
        race: str = "reflex",
        reflex: Reflex | None = None,
        reflexes: Sequence[Reflex] | None = None,
        layout: str = "padded",
        **options: Any,
    ) -> None:
        if race not in ("reflex", "agents"):
            raise ValueError(f"unknown race {race!r} (known: reflex, agents)")
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not one of the {players} seats")
        self.players = players
        self.n = n
        self.seat = seat
        self.options = {"players": players, **options}
        self.layout = official_layout(players, check_layout(layout))
        self.size = table.SIZE
        self.at = flat.offsets(self.layout)
        self.opponents = (
            [Opponents("official", players, seat, opponents) for _ in range(n)]
            if opponents is not None
            else None
        )
        self.bots: dict[int, Player] = {} if self.opponents is None else self.opponents[0].players
        kinds = seat_kinds(players, self.bots)
        self.python_bots = flat.BOT in kinds
        mode = flat.RACE_COMPILED if race == "reflex" else flat.RACE_NONE
        self.cfg = flat.new_cfg(kinds, mode, record=self.python_bots)
        if self.opponents is not None:
            every = self.opponents[0].reflexes(reflex or Reflex())
        else:
            every = list(reflexes) if reflexes is not None else [reflex or Reflex()] * players
            if len(every) != players:
                raise ValueError(f"{len(every)} reflexes for {players} seats")
        self.reflex = flat.reflex_table(every)
        self.observer = -1 if self.opponents is None else seat
        self.batch = Batch("official", [0] * n, self.options)
        self.states = self.batch.states
        self.ext = np.zeros((n, flat.EXT), np.int64)
        self.mts = np.zeros((n, players + 1, MT_SIZE), np.int64)
        self.obs = np.zeros((n, self.layout.size), np.float32)
        self.mask = np.zeros((n, table.SIZE), np.int8)
        self.legal = np.zeros((n, 2, table.SIZE), np.int64)
        """``legal[g, 0, :counts[g]]``: game ``g``'s legal indices, ascending (``[g, 1]``:
        their codes)."""
        self.counts = np.zeros(n, np.int64)
        self.last_points = np.zeros(n, np.int64)
        """After ``step``: the points its winner scored in the last round of each game that
        just ended (else 0), as in ``VectorGames``."""
        self.seats = np.zeros(n, np.int64)
        self.codes = np.zeros(CODES, np.int64)
        self.records = [Record() for _ in range(n)]
        self._status = np.zeros(n, np.int64)
        self._seeds = np.random.default_rng(0)
        self._rngs: list[dict[int, random.Random]] = [{} for _ in range(n)]
        self._options = self.batch.to_python_state(0).options

    def _streams(self, seed: int | None) -> np.ndarray:
        """Fresh generator states for every game, apart from the deals' seeds."""
        streams = np.random.default_rng(None if seed is None else [seed, _STREAMS])
        return streams.integers(
            np.iinfo(np.int64).min, np.iinfo(np.int64).max, (self.n, 2), np.int64, endpoint=True
        )

    def _deal(self, g: int) -> None:
        """Deals game ``g`` anew (its seed from the batch's generator) and seeds its bots."""
        seed = int(self._seeds.integers(0, 2**63 - 1))
        self.batch.reset(g, seed)
        ext = self.ext[g]
        ext[flat.RACED] = ext[flat.TRAIL_N] = ext[flat.ROUNDS_SEEN] = 0
        if self.bots:
            self.records[g] = Record()
            rngs = self._rngs[g] = {s: random.Random(f"{seed}/seat{s}") for s in self.bots}
            for s, player in self.bots.items():
                if is_compiled(player):
                    self.mts[g, s] = mt_state(rngs[s])

    def _go_on(self, g: int, status: int, rewards: np.ndarray, done: np.ndarray) -> None:
        """Does what game ``g`` stopped for, dealing it anew when it ends (its rewards kept
        if it is the first end of this step), until a caller decides."""
        s, ext = self.states[g], self.ext[g]
        while status != flat.DECIDE:
            settled = False
            if status == flat.OVER:
                if not done[g]:
                    winner = int(s[fast_layout.WINNER])
                    rewards[g] = -1.0 / (self.players - 1)
                    rewards[g, winner] = 1.0
                    done[g] = True
                    self.last_points[g] = s[fast_layout.LAST_POINTS]
                    self._ended(g)
                self._deal(g)
            elif status == flat.FLUSH:
                self.records[g].flush(ext)
                settled = True
            elif status == flat.ROUND:
                self.records[g].round_ended(s, ext)
            else:  # a bot in Python
                seat = int(s[fast_layout.TURN])
                player = self.opponents[g].players[seat]  # type: ignore[index]
                self.records[g].bot_move(
                    s,
                    ext,
                    options=self._options,
                    player=player,
                    rng=self._rngs[g][seat],
                    codes=self.codes,
                )
            status = flat.advance(s, ext, self.mts[g], self.cfg, self.reflex, self.codes, settled)

    def _ended(self, g: int) -> None:
        """Game ``g`` has just ended (before it is dealt anew): for subclasses."""

    def _look(self) -> None:
        flat.look_batch(
            self.states,
            self.ext,
            self.observer,
            self.obs,
            self.mask,
            self.legal,
            self.codes,
            self.at,
            self.seats,
            self.counts,
        )

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Deals every game anew; returns (observations, masks, seats to act)."""
        self._seeds = np.random.default_rng(seed)
        streams = self._streams(seed)
        self.ext[:, flat.RNG_RACE] = streams[:, 0]
        self.ext[:, flat.RNG_PICK] = streams[:, 1]
        ignored = np.zeros((self.n, self.players), np.float32)
        ended = np.ones(self.n, np.bool_)  # a game the bots end alone is dealt again
        for g in range(self.n):
            self._deal(g)
            status = flat.advance(
                self.states[g], self.ext[g], self.mts[g], self.cfg, self.reflex, self.codes, False
            )
            self._go_on(g, status, ignored, ended)
        self._look()
        return self.obs.copy(), self.mask.copy(), self.seats.copy()

    def random_actions(self) -> np.ndarray:
        """A uniformly random legal index per game (for benchmarks and tests), from each
        game's own generator."""
        out = np.zeros(self.n, np.int64)
        flat.sample(self.ext, self.legal, self.counts, out)
        return out

    def step(
        self, actions: np.ndarray | Sequence[int]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One action index per game; returns (observations, masks, seats to act, rewards
        [n, players], ended). A game that ends is dealt anew (its next seed from the batch's
        generator), its bots playing until the caller decides. Raises ``ValueError`` for an
        index outside the mask, before any game moves."""
        rewards, done = self._step(actions)
        return self.obs.copy(), self.mask.copy(), self.seats.copy(), rewards, done

    def _step(self, actions: np.ndarray | Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        chosen = np.asarray(actions, np.int64)
        if chosen.shape != (self.n,):
            raise ValueError(f"{chosen.shape} actions for {self.n} games")
        inside = (chosen >= 0) & (chosen < table.SIZE)
        legal = inside & (self.mask[np.arange(self.n), np.where(inside, chosen, 0)] != 0)
        if not legal.all():
            wrong = int(np.flatnonzero(~legal)[0])
            raise ValueError(f"game {wrong}: action {chosen[wrong]} is not in its mask")
        status = self._status
        flat.step_batch(
            self.states,
            chosen,
            self.ext,
            self.mts,
            self.cfg,
            self.reflex,
            self.codes,
            self.legal,
            status,
        )
        rewards = np.zeros((self.n, self.players), np.float32)
        done = np.zeros(self.n, np.bool_)
        self.last_points[:] = 0
        for g in np.flatnonzero(status != flat.DECIDE).tolist():
            self._go_on(g, int(status[g]), rewards, done)
        self._look()
        return rewards, done


class FastVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` official games on the fast core as a Gymnasium ``VectorEnv``.

    ``gymnasium.make_vec("dos/Official-v0", num_envs=64, opponents=["greedy"])`` makes one
    (``dos.rl.gym_env.register``); ``opponents=None`` is self-play, where the caller plays
    every seat. Spaces: each game's ``single_observation_space`` is the single environment's
    (``{"observation", "action_mask"}``), ``single_action_space`` is ``Discrete(13326)``;
    the batched spaces add the leading ``num_envs`` axis (``action_space`` is a
    ``MultiDiscrete``).

    ``step(actions)`` returns ``(observations, rewards, terminations, truncations, infos)``:

    * the observation and mask of the seat that decides next in each game: against bots the
      caller's ``seat``, in self-play the seat to act (``infos["seat"]``);
    * ``rewards[g]``: the reward of the seat that acted in game ``g`` (the caller's seat
      against bots; in self-play the winner's +1 when its action ends the game, so use
      ``infos["rewards"]``, every seat's rewards [num_envs, players]);
    * ``terminations[g]``: game ``g`` ended; ``truncations`` are always false;
    * ``infos["legal_actions"]``: each game's legal indices, ascending, padded with ``-1`` to
      the longest list of the batch (``infos["legal_count"]`` says how many), besides the
      dense mask.

    Autoreset: ``AutoresetMode.SAME_STEP``. A game that ends is dealt anew within the same
    ``step``: its row of the observations is already the new game's, the last observation of
    the ended game is in ``infos["final_obs"][g]`` (``None`` for the others;
    ``infos["_final_obs"]`` marks which), and ``infos["final_info"]`` holds the ``seat``
    whose observation that was (as Gymnasium's own vector environments report them).
    ``reset(seed=...)`` seeds the deals, each game's race and ``random_actions``; the deals
    are not drawn from ``np_random``, which Gymnasium exposes.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int = 64,
        players: int = 2,
        opponents: Sequence[str] | None = None,
        *,
        seat: int = 0,
        race: str = "reflex",
        reflex: Reflex | None = None,
        layout: str = "padded",
        **options: Any,
    ) -> None:
        self.num_envs = num_envs
        self.games = _Games(
            players,
            num_envs,
            opponents=opponents,
            seat=seat,
            race=race,
            reflex=reflex,
            layout=layout,
            **options,
        )
        self.players = players
        self.single_observation_space = observation_space(self.games.layout.size, table.SIZE)
        self.single_action_space = spaces.Discrete(table.SIZE)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    -1.0, 20.0, (num_envs, self.games.layout.size), np.float32
                ),
                "action_mask": spaces.Box(0, 1, (num_envs, table.SIZE), np.int8),
            }
        )
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, table.SIZE))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deals every game anew (``options`` is not used)."""
        super().reset(seed=seed)
        deals = None if seed is None else int(np.random.default_rng([seed, _DEALS]).integers(2**62))
        self.games.reset(deals)
        return self._observations(), self._infos(None)

    def step(
        self, actions: np.ndarray | Sequence[int]
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        games = self.games
        acted = games.seats.copy()
        rewards, done = games._step(actions)
        own = rewards[np.arange(self.num_envs), acted].astype(np.float64)
        infos = self._infos(rewards if done.any() else None)
        if done.any():
            final_obs = np.full(self.num_envs, None, dtype=object)
            for g in np.flatnonzero(done).tolist():
                final_obs[g] = games.final[g]
            infos["final_obs"] = final_obs
            infos["_final_obs"] = done.copy()
            infos["final_info"] = {"seat": games.final_seats.copy(), "_seat": done.copy()}
        return (
            self._observations(),
            own,
            done,
            np.zeros(self.num_envs, np.bool_),
            infos,
        )

    def _observations(self) -> dict[str, np.ndarray]:
        return {"observation": self.games.obs.copy(), "action_mask": self.games.mask.copy()}

    def _infos(self, rewards: np.ndarray | None) -> dict[str, Any]:
        games = self.games
        counts = games.counts.copy()
        longest = int(counts.max()) if counts.size else 0
        legal = games.legal[:, 0, :longest].copy()
        legal[np.arange(longest)[None, :] >= counts[:, None]] = -1
        if rewards is None:
            rewards = np.zeros((self.num_envs, self.players), np.float32)
        return {
            "seat": games.seats.copy(),
            "legal_actions": legal,
            "legal_count": counts,
            "rewards": rewards,
        }

    def random_actions(self) -> np.ndarray:
        """A uniformly random legal index per game, from each game's own generator."""
        return self.games.random_actions()

    def close_extras(self, **kwargs: Any) -> None:
        pass


class _Games(FastVectorGames):
    """``FastVectorGames`` keeping the last observation of each game that ends."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.final: list[dict[str, np.ndarray] | None] = [None] * self.n
        self.final_seats = np.zeros(self.n, np.int64)

    def _ended(self, g: int) -> None:
        seat = self.observer if self.observer >= 0 else int(self.states[g, fast_layout.TURN])
        obs = np.zeros(self.layout.size, np.float32)
        flat.observe(self.states[g], seat, obs, self.at)
        self.final[g] = {"observation": obs, "action_mask": np.zeros(table.SIZE, np.int8)}
        self.final_seats[g] = seat


def vector_env(
    num_envs: int = 1,
    rules: str = ruleset.DEFAULT,
    players: int = 2,
    opponents: Sequence[str] | None = ("random",),
    **kwargs: Any,
) -> FastVectorEnv:
    """The vector entry point of ``dos/Official-v0`` (``gymnasium.make_vec``): the single
    environment's arguments (``opponents=["random"]`` by default, ``None`` for self-play)."""
    if not ruleset.entry(rules).fast_rl:
        fast = " or ".join(e.name for e in ruleset.entries() if e.fast_rl)
        raise ValueError(f"the fast vector environment plays the {fast} rules, not {rules!r}")
    if kwargs.pop("render_mode", None) is not None:
        raise ValueError("the fast vector environment does not render")
    return FastVectorEnv(num_envs, players, opponents, **kwargs)
