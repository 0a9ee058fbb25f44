"""The official rule set's compiled core behind ``dos.fast.compiled.Core``."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from dos.errors import DosError
from dos.fast import official as fast_official
from dos.fast import official_layout
from dos.fast._jit import njit, njit_parallel, prange
from dos.fast.compiled import Core
from dos.fast.official_convert import (
    action_of,
    code_of,
    designated_bonus,
    from_python_state,
    last_round,
    to_python_state,
    write_options,
)
from dos.rng import seed_state
from dos.rules.official.actions import Action, Kind
from dos.rules.official.options import Options

I64 = npt.NDArray[np.int64]


def new_game(s: I64, options: dict[str, Any] | None, seed: int) -> None:
    """Deals the game of ``dos.rules.official.new_game(Options.from_json(options), seed)``
    into the flat array ``s``."""
    s[:] = 0
    write_options(s, Options.from_json(options or {}))
    fast_official.new_game(s, np.uint64(seed_state(seed)))


def prepare(s: I64, action: Any) -> tuple[int, int]:
    """``action`` as (code, bonus override) if it is legal in ``s``, else ``(-1, -1)``."""
    if not isinstance(action, Action) or (action.designations and action.kind != Kind.MATCH):
        return -1, -1
    try:
        code = code_of(action, int(s[official_layout.TURN]))
    except (DosError, TypeError):
        return -1, -1
    bonus = -1
    if action.kind == Kind.MATCH and action.designations:
        if not 0 <= action.target < s[official_layout.N_CENTER]:
            return -1, -1
        try:
            decided = designated_bonus(action, int(s[official_layout.CENTER + action.target]))
        except (DosError, IndexError, TypeError):
            return -1, -1
        if decided is None:
            return -1, -1
        bonus = decided
    codes = np.empty(max(64, fast_official.legal_count(s)), dtype=np.int64)
    n = fast_official.legal(s, codes, -1)
    if code not in codes[:n]:
        return -1, -1
    if action.kind == Kind.MATCH and len(action.cards) == 2 and action.cards[0] > action.cards[1]:
        # The engine keeps a match's cards as the action gives them, and discards them in
        # that order (RULES §4.1): so does the flat game.
        first, second = action.cards
        code = (code & ~(63 << 8 | 63 << 14)) | (first + 1) << 8 | (second + 1) << 14
    return code, bonus


@njit
def over(s: I64) -> bool:
    """Whether the game has ended."""
    return bool(s[official_layout.PHASE] == fast_official.OVER)


@njit_parallel
def step_batch(states: I64, indices: I64) -> None:
    """Applies legal action number ``indices[g]`` in each game ``g`` (``-1``: skip)."""
    for g in prange(states.shape[0]):
        k = indices[g]
        s = states[g]
        if k >= 0 and s[official_layout.PHASE] != fast_official.OVER:
            code = fast_official.legal(s, np.empty(0, dtype=np.int64), k)
            if code >= 0:
                fast_official.apply(s, code, -1)


@njit_parallel
def random_games(states: I64, mts: I64, budget: int) -> int:
    """Random play in every game at once, spread over the cores: each game takes actions
    drawn uniformly from every seat's legal actions with its own MT state (``mts[g]``, as
    ``random.Random.randrange``) until it ends or has made ``budget`` decisions in this call
    (``budget < 0``: no limit). Returns the decisions made."""
    total = np.zeros(states.shape[0], dtype=np.int64)
    for g in prange(states.shape[0]):
        s = states[g]
        mt = mts[g]
        buffer = np.empty(fast_official.RANDOM_BUFFER, dtype=np.int64)
        made = 0
        while s[official_layout.PHASE] != fast_official.OVER and made != budget:
            fast_official.random_step(s, mt, buffer)
            made += 1
        total[g] = made
    return int(total.sum())


@njit
def _redeal(s: I64, seed: int) -> None:
    """A new game from ``seed`` with the options already in ``s`` (``dos.rng.seed_state``
    worked out here: ``seed * golden + 0x1234567`` modulo 2**64)."""
    rng = np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(0x1234567)
    fast_official.new_game(s, rng)


@njit_parallel
def random_play(states: I64, mts: I64, budget: int, seeds: I64) -> tuple[int, int, int]:
    """Throughput random play: every game makes exactly ``budget`` random decisions, a game
    that ends being dealt anew at once from ``seeds[g]`` (then ``seeds[g] += len(seeds)``), so
    that no core idles. Returns (decisions, games finished, rounds finished)."""
    size = states.shape[0]
    games = np.zeros(size, dtype=np.int64)
    rounds = np.zeros(size, dtype=np.int64)
    for g in prange(size):
        s = states[g]
        mt = mts[g]
        buffer = np.empty(fast_official.RANDOM_BUFFER, dtype=np.int64)
        before = s[official_layout.ROUNDS]
        for _ in range(budget):
            if s[official_layout.PHASE] == fast_official.OVER:
                games[g] += 1
                rounds[g] += s[official_layout.ROUNDS] - before
                _redeal(s, seeds[g])
                seeds[g] += size
                before = 0
            fast_official.random_step(s, mt, buffer)
        rounds[g] += s[official_layout.ROUNDS] - before
    return budget * size, int(games.sum()), int(rounds.sum())


CORE = Core(
    name="official",
    size=official_layout.SIZE,
    players_slot=official_layout.PLAYERS,
    turn_slot=official_layout.TURN,
    rounds_slot=official_layout.ROUNDS,
    decisions_slot=official_layout.DECISIONS,
    over=over,
    new_game=new_game,
    legal=fast_official.legal,
    apply=fast_official.apply,
    step=fast_official.step,
    step_batch=step_batch,
    random_games=random_games,
    to_python_state=to_python_state,
    from_python_state=from_python_state,
    action_of=action_of,
    prepare=prepare,
    last_round=last_round,
)
