"""The vector environment on the compiled fast core (``dos.fast``): self-play in batches.

``FastVectorGames(players, n)`` has the interface of ``VectorGames`` without opponents (the
caller plays every seat): ``reset(seed)`` and ``step(actions)`` return the observation and the
mask of the seat to act in each game, as ``dos.rl.codec`` defines them, bit for bit (a test
compares them with ``VectorGames`` step by step). The games live in a ``dos.fast.Batch``; the
observations, the masks and the choice of each game's action are compiled too (numba), one
call per step for the whole batch. Official rules only (the fast core's).

DOS calls and catches: ``race="agents"`` as in ``dos.rl.race``; ``race="reflex"`` races each
obligation as soon as it opens with sure reflexes (every seat calls and catches, reaction
times lognormal around 1 s with sigma 0.25: the owner's call against the quickest catch), the
default ``Reflex()`` of ``dos.rl.race``, drawn from the game's own generator rather than the
Python referee's ``random.Random`` stream.

Generators: as the engine keeps a game's SplitMix64 state in the game, every game of the batch
keeps two SplitMix64 states of its own (``dos.fast.rng.splitmix_next``), one for its race, one
for ``random_actions``; the normal deviates of the race come from its uniform draws
(Box-Muller). ``reset(seed)`` draws them apart from the deals' seeds, so a seeded batch
repeats exactly whatever other batches do beside it. Nothing process-wide (numba's
``np.random``) is drawn from, and no game seed is returned.

>>> games = FastVectorGames(2, 3)
>>> obs, mask, seats = games.reset(seed=1)
>>> obs.shape[0], bool(mask.any(axis=1).all())
(3, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dos.cards import DECK_COUNTS, N_TYPES
from dos.fast import Batch, core
from dos.fast import state as ly
from dos.fast._jit import njit
from dos.fast.rng import splitmix_next
from dos.rl import official_actions as table
from dos.rl.official_observation import DECK_SIZE, SIZE_SCALE, official_layout

_SLOT_BASE = np.full((N_TYPES, 12), -1, np.int64)
for _t in range(N_TYPES):
    for _k in range(DECK_COUNTS[_t]):
        _SLOT_BASE[_t, _k] = table.SLOT_BASE[_t][_k]
_COMBO = np.full((N_TYPES, N_TYPES, N_TYPES + 1), -1, np.int64)
"""``_COMBO[target, card1, card2 + 1]``: the combination's number among ``COMBOS[target]``."""
for _t in range(N_TYPES):
    for _j, _cards in enumerate(table.COMBOS[_t]):
        _COMBO[_t, _cards[0], (_cards[1] if len(_cards) == 2 else -1) + 1] = _j
_DECK = np.array(DECK_COUNTS, np.float32)
_SLICES = ("hand", "center", "matched", "played", "discard", "unseen", "phase", "bonuses")
_SEAT_SLICES = ("to_act", "hand_sizes", "dos_open", "penalties", "scores", "draw_pile")

_MATCH, _DRAW, _LAY, _END, _PLACE, _CALL, _CATCH = 0, 1, 2, 3, 4, 5, 6
_RACE, _PICK = 0, 1
"""The columns of the generator states: each game's race, each game's ``random_actions``."""
_STREAMS = 0x7ACE
"""Keeps the generators' seeds apart from the deals' for the same ``reset`` seed."""
_UNIT = 2.0**-53
_SIGMA = 0.25
_OFFICIAL = core("official")
_CORE_LEGAL = _OFFICIAL.legal
_CORE_APPLY = _OFFICIAL.apply


@njit
def _index(s: Any, code: int, slot_base: Any, combo: Any) -> int:
    """The action index of a code of the seat to act (``dos.rl.official_actions``)."""
    kind = code & 7
    card1 = ((code >> 8) & 63) - 1
    card2 = ((code >> 14) & 63) - 1
    target = (code >> 20) - 1
    if kind == _MATCH:
        card = s[ly.CENTER + target]
        copy = 0
        for at in range(target):
            if s[ly.CENTER + at] == card:
                copy += 1
        return int(slot_base[card, copy] + combo[card, card1, card2 + 1])
    if kind == _DRAW:
        return table.DRAW_INDEX
    if kind == _END:
        return table.END_INDEX
    if kind == _LAY:
        return table.LAY_BASE + card1
    if kind == _PLACE:
        return table.PLACE_BASE + card1
    if kind == _CALL:
        return table.CALL_INDEX
    players = s[ly.PLAYERS]
    return int(table.CATCH_BASE + (target - s[ly.TURN]) % players - 1)


@njit
def _look(s: Any, obs: Any, mask: Any, codes: Any, tables: Any) -> int:
    """Writes the observation and mask of the seat to act; returns that seat. ``tables``:
    the slice offsets, ``_SLOT_BASE``, ``_COMBO``, ``_DECK``."""
    at, slot_base, combo, deck = tables
    players = s[ly.PLAYERS]
    seat = s[ly.TURN]
    obs[:] = 0.0
    mask[:] = 0
    hand, center, matched, played, discard, unseen = at[0], at[1], at[2], at[3], at[4], at[5]
    for card in range(N_TYPES):
        obs[hand + card] = s[ly.HANDS + seat * N_TYPES + card]
    for index in range(s[ly.N_CENTER]):
        card = s[ly.CENTER + index]
        first = s[ly.MATCH_A + index]
        if first >= 0:
            obs[matched + card] += 1.0
            obs[played + first] += 1.0
            second = s[ly.MATCH_B + index]
            if second >= 0:
                obs[played + second] += 1.0
        else:
            obs[center + card] += 1.0
    for index in range(s[ly.N_DISCARD]):
        obs[discard + s[ly.DISCARD + index]] += 1.0
    for card in range(N_TYPES):
        seen = (
            obs[hand + card]
            + obs[center + card]
            + obs[matched + card]
            + obs[played + card]
            + obs[discard + card]
        )
        obs[unseen + card] = max(deck[card] - seen, 0.0)
    phase = s[ly.PHASE]
    if phase == 1:
        obs[at[6] + 3] = 1.0
    elif phase == 0:
        if s[ly.N_MATCHED]:
            obs[at[6] + 2] = 1.0
        elif s[ly.DREW]:
            obs[at[6] + 1] = 1.0
        else:
            obs[at[6]] = 1.0
    obs[at[7]] = s[ly.SINGLE_BONUSES]
    obs[at[7] + 1] = s[ly.DOUBLE_BONUSES]
    obs[at[7] + 2] = s[ly.PLACEMENTS_LEFT]
    obs[at[8]] = 1.0  # the seat to act is the observer: relative seat 0
    open_bits = s[ly.DOS_OPEN]
    for r in range(players):
        other = (seat + r) % players
        obs[at[9] + r] = s[ly.HAND_SIZE + other] / SIZE_SCALE
        obs[at[10] + r] = (open_bits >> other) & 1
        obs[at[11] + r] = s[ly.PENALTIES + other]
        obs[at[12] + r] = s[ly.SCORES + other] / s[ly.TARGET]
    obs[at[13]] = s[ly.N_DRAW] / DECK_SIZE
    if phase != 2:
        count = _CORE_LEGAL(s, codes, -1)
        for k in range(min(count, codes.size)):
            code = codes[k]
            if ((code >> 3) & 31) == 0:  # the seat to act's own actions (no seat written)
                mask[_index(s, code, slot_base, combo)] = 1
    return int(seat)


@njit
def _uniform(rngs: Any, g: int, stream: int) -> float:
    """A uniform deviate in (0, 1] from SplitMix64 state ``rngs[g, stream]`` (advanced)."""
    state, z = splitmix_next(np.uint64(rngs[g, stream]))
    rngs[g, stream] = np.int64(state)
    return (float(z >> np.uint64(11)) + 1.0) * _UNIT


@njit
def _below(rngs: Any, g: int, stream: int, n: int) -> int:
    """A uniform integer in [0, n) from ``rngs[g, stream]`` (the multiply-shift map of the
    high 32 bits, as ``dos.rng.shuffle``)."""
    state, z = splitmix_next(np.uint64(rngs[g, stream]))
    rngs[g, stream] = np.int64(state)
    return int(((z >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit
def _reaction(rngs: Any, g: int) -> float:
    """A reaction time, lognormal (0, sigma): Box-Muller on two uniform draws of game ``g``'s
    race generator."""
    radius = np.sqrt(-2.0 * np.log(_uniform(rngs, g, _RACE)))
    normal = radius * np.cos(2.0 * np.pi * _uniform(rngs, g, _RACE))
    return float(np.exp(_SIGMA * normal))


@njit
def _race(s: Any, rngs: Any, g: int) -> None:
    """Sure reflexes (see the module): each open obligation, the owner's call against the
    quickest catch, drawn from game ``g``'s race generator."""
    players = s[ly.PLAYERS]
    for owner in range(players):
        if not (s[ly.DOS_OPEN] >> owner) & 1:
            continue
        call = _reaction(rngs, g)
        quickest = np.inf
        catcher = -1
        for step in range(1, players):
            other = (owner + step) % players
            delay = _reaction(rngs, g)
            if delay < quickest:
                quickest = delay
                catcher = other
        turn = s[ly.TURN]
        if call <= quickest:
            written = -1 if owner == turn else owner
            code = _CALL | (written + 1) << 3
        else:
            written = -1 if catcher == turn else catcher
            code = _CATCH | (written + 1) << 3 | (owner + 1) << 20
        _CORE_APPLY(s, code, -1)


@njit
def _sample(mask: Any, out: Any, rngs: Any) -> None:
    """A uniformly random legal index per game, from each game's own generator."""
    for g in range(mask.shape[0]):
        count = 0
        for index in range(mask.shape[1]):
            count += mask[g, index]
        pick = _below(rngs, g, _PICK, count)
        for index in range(mask.shape[1]):
            if mask[g, index]:
                if pick == 0:
                    out[g] = index
                    break
                pick -= 1


@njit
def _step(  # noqa: PLR0917 (compiled: positional arguments)
    states: Any, actions: Any, reflexes: bool, rngs: Any, out: Any, codes: Any, tables: Any
) -> int:
    """Applies each game's chosen index; returns -1, or the first game whose index is not in
    its mask. ``rngs``: each game's generator states. ``out``: observations, masks, seats,
    ended. Ended games are flagged (their observation is left for the caller, who deals them
    anew)."""
    obs, mask, seats, done = out
    slot_base, combo = tables[1], tables[2]
    for g in range(states.shape[0]):
        s = states[g]
        chosen = -1
        count = _CORE_LEGAL(s, codes, -1)
        for k in range(min(count, codes.size)):
            code = codes[k]
            if ((code >> 3) & 31) == 0 and _index(s, code, slot_base, combo) == actions[g]:
                chosen = code
                break
        if chosen < 0:
            return g
        _CORE_APPLY(s, chosen, -1)
        if reflexes:
            _race(s, rngs, g)
        done[g] = s[ly.PHASE] == 2
        if not done[g]:
            seats[g] = _look(s, obs[g], mask[g], codes, tables)
    return -1


class FastVectorGames:
    """``n`` official games on the fast core, every seat played by the caller."""

    def __init__(self, players: int, n: int, *, race: str = "reflex", **options: Any) -> None:
        if race not in ("reflex", "agents"):
            raise ValueError(f"unknown race {race!r} (known: reflex, agents)")
        self.players = players
        self.n = n
        self.reflexes = race == "reflex"
        self.options = {"players": players, **options}
        layout = official_layout(players)
        self.size = table.SIZE
        self.layout = layout
        at = np.array([layout[name].start for name in _SLICES + _SEAT_SLICES], np.int64)
        self.tables = (at, _SLOT_BASE, _COMBO, _DECK)
        self.batch = Batch("official", [0] * n, self.options)
        self.obs = np.zeros((n, layout.size), np.float32)
        self.mask = np.zeros((n, table.SIZE), np.int8)
        self.seats = np.zeros(n, np.int64)
        self.codes = np.zeros(4096, np.int64)
        self._seeds = np.random.default_rng(0)
        self._rngs = self._streams(0)
        """Each game's SplitMix64 states (``_RACE``, ``_PICK``), as ``int64`` bits."""

    def _streams(self, seed: int | None) -> np.ndarray:
        """Fresh generator states for every game, apart from the deals' seeds."""
        streams = np.random.default_rng(None if seed is None else [seed, _STREAMS])
        return streams.integers(
            np.iinfo(np.int64).min, np.iinfo(np.int64).max, (self.n, 2), np.int64, endpoint=True
        )

    def _deal(self, g: int) -> None:
        seed = int(self._seeds.integers(0, 2**63 - 1))
        self.batch.reset(g, seed)
        self.seats[g] = _look(
            self.batch.states[g], self.obs[g], self.mask[g], self.codes, self.tables
        )

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Deals every game anew; returns (observations, masks, seats to act)."""
        self._seeds = np.random.default_rng(seed)
        self._rngs = self._streams(seed)
        for g in range(self.n):
            self._deal(g)
        return self.obs.copy(), self.mask.copy(), self.seats.copy()

    def random_actions(self) -> np.ndarray:
        """A uniformly random legal index per game (for benchmarks and tests), from each
        game's own generator."""
        out = np.zeros(self.n, np.int64)
        _sample(self.mask, out, self._rngs)
        return out

    def step(
        self, actions: np.ndarray | list[int]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One action index per game; returns (observations, masks, seats to act, rewards
        [n, players], ended). A game that ends is dealt anew (its next seed from the batch's
        generator). Raises ``ValueError`` for an index outside the mask (games before it in
        the batch have moved; the batch should be reset)."""
        chosen = np.asarray(actions, np.int64)
        done = np.zeros(self.n, np.bool_)
        out = (self.obs, self.mask, self.seats, done)
        states, rngs = self.batch.states, self._rngs
        wrong = _step(states, chosen, self.reflexes, rngs, out, self.codes, self.tables)
        if wrong >= 0:
            raise ValueError(f"game {wrong}: action {chosen[wrong]} is not in its mask")
        rewards = np.zeros((self.n, self.players), np.float32)
        loss = -1.0 / (self.players - 1)
        for g in np.flatnonzero(done):
            winner = int(self.batch.states[g, ly.WINNER])
            rewards[g] = loss
            rewards[g, winner] = 1.0
            self._deal(int(g))
        return self.obs.copy(), self.mask.copy(), self.seats.copy(), rewards, done
