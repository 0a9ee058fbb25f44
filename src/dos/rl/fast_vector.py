"""Batches of official games on the compiled fast core (``dos.fast``): ``FastVectorGames``, the
batch under ``dos.rl.vector_env.DosVectorEnv`` (``gymnasium.make_vec``) when numba is installed.

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
(Box-Muller). ``reset(seed)`` draws them apart from the deals' seeds (from
``dos.seeds.derive(seed, "streams")``), so a seeded batch repeats exactly whatever other
batches do beside it. A bot's generator is ``dos.seeds.generator(game_seed, "seat", s)``, as
in ``VectorGames`` (the compiled ``random`` bot keeps its state as a compiled Mersenne
Twister): it does not lead back to the game seed. Nothing process-wide (numba's
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

import numpy as np

from dos import seeds
from dos.fast import core
from dos.fast import official_layout as fast_layout
from dos.fast.rng import MT_SIZE, mt_seed, seed_key
from dos.play.official import Player
from dos.play.reflex import Reflex
from dos.rl import flat
from dos.rl import official_actions as table
from dos.rl.fast_game import CODES, Record, is_compiled, seat_kinds
from dos.rl.gym_env import Opponents
from dos.rl.layout import check_layout
from dos.rl.official_observation import official_layout
from dos.rules import official

_CORE = core("official")


class FastVectorGames:
    """``n`` official games on the fast core (see the module docstring).

    ``states`` holds the games' full flat states: for the caller that runs the batch, never
    for an agent. After ``step``, ``final[g]`` is the last observation (and all-zero mask) of
    game ``g`` if it just ended, seen by ``final_seats[g]`` (the caller's seat against bots,
    else the seat to act), else ``None``.
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
        self.states = np.zeros((n, _CORE.size), np.int64)
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
        self._options = official.Options.from_json(self.options)
        self.final: list[dict[str, np.ndarray] | None] = [None] * n
        self.final_seats = np.zeros(n, np.int64)

    def _streams(self, seed: int | None) -> np.ndarray:
        """Fresh generator states for every game, apart from the deals' seeds."""
        streams = np.random.default_rng(None if seed is None else seeds.derive(seed, "streams"))
        return streams.integers(
            np.iinfo(np.int64).min, np.iinfo(np.int64).max, (self.n, 2), np.int64, endpoint=True
        )

    def _deal(self, g: int) -> None:
        """Deals game ``g`` anew (its seed from the batch's generator) and seeds its bots."""
        self._new_game(g, int(self._seeds.integers(0, 2**63 - 1)))

    def _new_game(self, g: int, seed: int) -> None:
        """Deals game ``g`` from the game seed ``seed`` (hidden information, never kept)."""
        _CORE.new_game(self.states[g], self.options, seed)
        ext = self.ext[g]
        ext[flat.RACED] = ext[flat.TRAIL_N] = ext[flat.ROUNDS_SEEN] = 0
        if self.bots:
            self.records[g] = Record()
            rngs = self._rngs[g] = {}
            for s, player in self.bots.items():
                if is_compiled(player):  # starts where seeds.generator starts
                    mt_seed(self.mts[g, s], seed_key(seeds.derive(seed, "seat", s)))
                else:
                    rngs[s] = seeds.generator(seed, "seat", s)

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
        """Keeps the last observation of game ``g``, which has just ended (before it is dealt
        anew)."""
        seat = self.observer if self.observer >= 0 else int(self.states[g, fast_layout.TURN])
        obs = np.zeros(self.layout.size, np.float32)
        flat.observe(self.states[g], seat, obs, self.at)
        self.final[g] = {"observation": obs, "action_mask": np.zeros(table.SIZE, np.int8)}
        self.final_seats[g] = seat

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

    def legal_padded(self) -> np.ndarray:
        """Each game's legal indices, ascending, padded with ``-1`` to the longest list."""
        counts = self.counts
        longest = int(counts.max()) if counts.size else 0
        legal = self.legal[:, 0, :longest].copy()
        legal[np.arange(longest)[None, :] >= counts[:, None]] = -1
        return legal

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
        self.final = [None] * self.n
        for g in np.flatnonzero(status != flat.DECIDE).tolist():
            self._go_on(g, int(status[g]), rewards, done)
        self._look()
        return rewards, done
