"""The search bots' rollout (``dos.bots.mcts``'s ``_simulate`` with ``dos.bots.playout``'s
policy), compiled over a flat official game: the same actions, so the same search results.

The policy and its weights are ``dos.bots.playout``'s (``Playout``, passed here as an array,
``weights(playout)``): with a match open the match of highest value, or with ``plan`` the first
match of the best plan (walked in the same order, without recursion); with none, ``end`` after
matches, else ``draw``; after a fruitless draw lay, and for a bonus place, the card of highest
rank (the lowest type among equals, as Python's ``max`` over a sorted hand). Every open DOS
obligation is called at once after each action, so nobody is caught in a simulation.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from dos.bots.playout import LAY_RANK, PLAN_LEAVES, PLAN_OPTIONS
from dos.cards import IS_WILD, IS_WILD_NUMBER, N_TYPES, POINTS
from dos.fast import official as fo
from dos.fast import state as ly
from dos.fast._jit import lowest_bit, njit

I64 = npt.NDArray[np.int64]

_POINTS = np.array(POINTS, dtype=np.int64)
_WILD = np.array(
    [-1 if not IS_WILD[c] else 0 if IS_WILD_NUMBER[c] else 1 for c in range(N_TYPES)],
    dtype=np.int64,
)
"""The index of a card's cost in the weights when spent on a match: -1 for none."""
_LAY_RANK = np.array(LAY_RANK, dtype=np.int64)


WILD_NUMBER, WILD_DOS, DOUBLE_BONUS, PLAN = range(4)
"""Indices into a policy's weights."""


def weights(playout: Sequence[int]) -> I64:
    """The weights array of ``playout`` (a ``mcts.Playout``) for ``policy`` and the rollouts."""
    return np.array(playout, dtype=np.int64)


@njit
def _spent(w: I64, card: int) -> int:
    """What spending ``card`` on a match costs (a wild's weight, else nothing)."""
    k = _WILD[card]
    return 0 if k < 0 else int(w[k])


@njit
def _best_card(held: int) -> int:
    """The card of highest rank held (the lowest type among equals)."""
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
def _match_value(s: I64, code: int, w: I64) -> int:
    """``playout.match_value`` of the match ``code``."""
    a = ly.card1(code)
    b = ly.card2(code)
    target = s[ly.CENTER + ly.target(code)]
    if b < 0:
        value = 10 + _POINTS[a] // 4
        if fo._SINGLE_BONUS[target, a]:
            value += 10
        return int(value - _spent(w, a))
    value = 20 + (_POINTS[a] + _POINTS[b]) // 4
    if fo._PAIR_BONUS[target, a, b]:
        value += w[DOUBLE_BONUS]
    return int(value - _spent(w, a) - _spent(w, b))


@njit
def _take(counts: I64, code: int, sign: int) -> bool:
    """Takes the match's cards out of ``counts`` (``sign`` 1) or puts them back (-1);
    whether the counts stay non-negative."""
    a = ly.card1(code)
    b = ly.card2(code)
    counts[a] -= sign
    if b >= 0:
        counts[b] -= sign
    return counts[a] >= 0 and (b < 0 or counts[b] >= 0)


@njit
def plan_first(s: I64, codes: I64, values: I64, n: int) -> int:
    """``playout.plan_first`` over the ``n`` matches ``codes`` (engine order) and their
    ``values``: the index of the best plan's first match, or -1; the same plans walked in
    the same order, without recursion."""
    turn = s[ly.TURN]
    counts = s[ly.HANDS + turn * ly.TYPES : ly.HANDS + (turn + 1) * ly.TYPES].copy()
    starts = np.empty(n + 1, dtype=np.int64)
    rows = 0
    previous = -1
    for i in range(n):
        target = ly.target(codes[i])
        if target != previous:
            starts[rows] = i
            rows += 1
            previous = target
    starts[rows] = n
    options = np.full((rows, PLAN_OPTIONS), -1, dtype=np.int64)
    counted = np.zeros(rows, dtype=np.int64)
    for r in range(rows):
        lo = starts[r]
        hi = starts[r + 1]
        used = np.zeros(hi - lo, dtype=np.bool_)
        for k in range(min(PLAN_OPTIONS, hi - lo)):
            chosen = -1
            for i in range(lo, hi):
                if not used[i - lo] and (chosen < 0 or values[i] > values[chosen]):
                    chosen = i
            used[chosen - lo] = True
            options[r, k] = chosen
            counted[r] = k + 1
    position = np.full(rows + 1, -2, dtype=np.int64)
    best_total = 0
    best_first = -1
    leaves = 0
    total = 0
    row = 0
    while row >= 0:
        if row == rows:
            leaves += 1
            if total > best_total:
                best_total = total
                for j in range(rows):
                    if position[j] >= 0:
                        best_first = options[j, position[j]]
                        break
            row -= 1
            continue
        p = position[row]
        if p >= 0:
            _take(counts, codes[options[row, p]], -1)
            total -= values[options[row, p]]
        p += 1
        while 0 <= p < counted[row]:
            if _take(counts, codes[options[row, p]], 1):
                break
            _take(counts, codes[options[row, p]], -1)
            p += 1
        if p >= counted[row] or leaves >= PLAN_LEAVES:
            if 0 <= p < counted[row]:
                _take(counts, codes[options[row, p]], -1)
            position[row] = -2
            row -= 1
            continue
        position[row] = p
        if p >= 0:
            total += values[options[row, p]]
        row += 1
        position[row] = -2
    return best_first


@njit
def policy(s: I64, buffer: I64, w: I64) -> int:
    """The code of the action the heuristic policy with weights ``w`` takes in ``s``
    (``playout.policy``)."""
    turn = s[ly.TURN]
    held = s[ly.HELD + turn]
    if s[ly.PHASE] == fo.PLACING:
        return ly.encode(ly.PLACE, -1, _best_card(held), -1, -1)
    found = fo.legal(s, buffer, -1)
    n = 0
    for i in range(found):
        # Matches come first in the legal list; the buffer holds its first codes.
        code = buffer[i] if i < buffer.size else fo.legal(s, buffer[:0], i)
        if ly.kind(code) != ly.MATCH:
            break
        n += 1
    if n:
        codes = np.empty(n, dtype=np.int64)
        values = np.empty(n, dtype=np.int64)
        best = 0
        for i in range(n):
            codes[i] = buffer[i] if i < buffer.size else fo.legal(s, buffer[:0], i)
            values[i] = _match_value(s, codes[i], w)
            if values[i] > values[best]:
                best = i
        if w[PLAN]:
            first = plan_first(s, codes, values, n)
            if first >= 0:
                return int(codes[first])
        return int(codes[best])
    if s[ly.N_MATCHED]:
        return ly.encode(ly.END, -1, -1, -1, -1)
    if not s[ly.DREW]:
        return ly.encode(ly.DRAW_KIND, -1, -1, -1, -1)
    return ly.encode(ly.LAY, -1, _best_card(held), -1, -1)


@njit
def call_all(s: I64) -> None:
    """Every open DOS obligation is called (``mcts._call_all``)."""
    bits = s[ly.DOS_OPEN]
    while bits:
        seat = lowest_bit(bits)
        bits &= bits - 1
        fo.apply(s, ly.encode(ly.CALL, seat, -1, -1, -1), -1)


@njit
def rollout(s: I64, start_round: int, max_actions: int, w: I64) -> bool:
    """Plays the policy (weights ``w``) until the round ``start_round`` ends (or the game), or for
    ``max_actions`` actions; returns whether it ended (``mcts.MctsBot._simulate``)."""
    buffer = np.empty(512, dtype=np.int64)
    for _ in range(max_actions):
        fo.apply(s, policy(s, buffer, w), -1)
        if s[ly.DOS_OPEN]:
            call_all(s)
        if s[ly.ROUND] != start_round or s[ly.PHASE] == fo.OVER:
            return True
    return False


@njit
def simulate_action(s: I64, code: int, start_round: int, max_actions: int, w: I64) -> bool:
    """The legal action ``code``, every open DOS obligation called, then the rollout unless
    the game ended (``mcts.MctsBot._flat``'s inner step); whether the round ended."""
    fo.apply(s, code, -1)
    if s[ly.DOS_OPEN]:
        call_all(s)
    if s[ly.PHASE] == fo.OVER:
        return True
    return rollout(s, start_round, max_actions, w)


@njit
def simulate_actions(  # noqa: PLR0917 (compiled: positional arguments)
    s: I64, codes: I64, start_round: int, max_actions: int, w: I64, results: I64
) -> None:
    """``simulate_action`` on a copy of ``s`` for each code: ``results[k]`` is the winner
    and the points of the round that ended, or ``-1, 0`` when the rollout was cut."""
    for k in range(codes.size):
        copy = s.copy()
        if simulate_action(copy, codes[k], start_round, max_actions, w):
            results[k, 0] = copy[ly.LAST_WINNER]
            results[k, 1] = copy[ly.LAST_POINTS]
        else:
            results[k, 0] = -1
            results[k, 1] = 0
