"""The ``mcts`` bot's heuristic rollout (``dos.bots.mcts._simulate`` with its ``_policy``),
compiled over a flat official game: the same actions, so the same search results.

The policy (RULES §3-§4 as a simulated player sees them): the best match by cards shed,
colour bonus and points (a wild spent costs), first best in the engine's order; with none,
``end`` after matches, else ``draw``; after a fruitless draw lay, and for a bonus place, the
card of highest rank (number cards before wilds, high points first; the lowest type among
equals, as Python's ``max`` over a sorted hand). Every open DOS obligation is called at once
after each action, so nobody is caught in a simulation.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from dos.fast import official as fast_official
from dos.fast import official_layout
from dos.fast._jit import lowest_bit, njit
from dos.rules.official.cards import IS_WILD, N_TYPES, POINTS

I64 = npt.NDArray[np.int64]

_POINTS = np.array(POINTS, dtype=np.int64)
_WILD = np.array([int(IS_WILD[c]) for c in range(N_TYPES)], dtype=np.int64)
_LAY_RANK = np.array(
    [(0 if IS_WILD[c] else 100) + POINTS[c] for c in range(N_TYPES)], dtype=np.int64
)


@njit
def _best_card(held: int) -> int:
    best = -1
    best_rank = -1
    bits = held
    while bits:
        card = lowest_bit(bits)
        bits &= bits - 1
        if _LAY_RANK[card] > best_rank:
            best, best_rank = card, _LAY_RANK[card]
    return best


@njit
def policy(s: I64, buffer: I64) -> int:
    """The code of the action the heuristic policy takes in ``s`` (``mcts._policy``)."""
    turn = s[official_layout.TURN]
    held = s[official_layout.HELD + turn]
    if s[official_layout.PHASE] == fast_official.PLACING:
        return official_layout.encode(official_layout.PLACE, -1, _best_card(held), -1, -1)
    found = fast_official.legal(s, buffer, -1)
    n = 0
    best = -1
    best_value = -1000
    for i in range(found):
        # Matches come first in the legal list; the buffer holds its first codes.
        code = buffer[i] if i < buffer.size else fast_official.legal(s, buffer[:0], i)
        if official_layout.kind(code) != official_layout.MATCH:
            break
        n += 1
        a = official_layout.card1(code)
        b = official_layout.card2(code)
        target = s[official_layout.CENTER + official_layout.target(code)]
        if b < 0:
            value = 10 + _POINTS[a] // 4
            if fast_official._SINGLE_BONUS[target, a]:
                value += 10
            value -= 12 * _WILD[a]
        else:
            value = 20 + (_POINTS[a] + _POINTS[b]) // 4
            if fast_official._PAIR_BONUS[target, a, b]:
                value += 16
            value -= 12 * _WILD[a] + 12 * _WILD[b]
        if value > best_value:
            best, best_value = code, value
    if n:
        return best
    if s[official_layout.N_MATCHED]:
        return official_layout.encode(official_layout.END, -1, -1, -1, -1)
    if not s[official_layout.DREW]:
        return official_layout.encode(official_layout.DRAW_KIND, -1, -1, -1, -1)
    return official_layout.encode(official_layout.LAY, -1, _best_card(held), -1, -1)


@njit
def call_all(s: I64) -> None:
    """Every open DOS obligation is called (``mcts._call_all``)."""
    bits = s[official_layout.DOS_OPEN]
    while bits:
        seat = lowest_bit(bits)
        bits &= bits - 1
        fast_official.apply(s, official_layout.encode(official_layout.CALL, seat, -1, -1, -1), -1)


@njit
def rollout(s: I64, start_round: int, max_actions: int) -> bool:
    """Plays the policy until the round ``start_round`` ends (or the game), or for
    ``max_actions`` actions; returns whether it ended (``mcts.MctsBot._simulate``)."""
    buffer = np.empty(512, dtype=np.int64)
    for _ in range(max_actions):
        fast_official.apply(s, policy(s, buffer), -1)
        if s[official_layout.DOS_OPEN]:
            call_all(s)
        if (
            s[official_layout.ROUND] != start_round
            or s[official_layout.PHASE] == fast_official.OVER
        ):
            return True
    return False


@njit
def simulate_action(s: I64, code: int, start_round: int, max_actions: int) -> bool:
    """The legal action ``code``, every open DOS obligation called, then the rollout unless
    the game ended (``mcts.MctsBot._flat``'s inner step); whether the round ended."""
    fast_official.apply(s, code, -1)
    if s[official_layout.DOS_OPEN]:
        call_all(s)
    if s[official_layout.PHASE] == fast_official.OVER:
        return True
    return rollout(s, start_round, max_actions)


@njit
def simulate_actions(s: I64, codes: I64, start_round: int, max_actions: int, results: I64) -> None:
    """``simulate_action`` on a copy of ``s`` for each code: ``results[k]`` is the winner
    and the points of the round that ended, or ``-1, 0`` when the rollout was cut."""
    for k in range(codes.size):
        copy = s.copy()
        if simulate_action(copy, codes[k], start_round, max_actions):
            results[k, 0] = copy[official_layout.LAST_WINNER]
            results[k, 1] = copy[official_layout.LAST_POINTS]
        else:
            results[k, 0] = -1
            results[k, 1] = 0
