"""The classic ``sage`` bot's simulations (``dos.bots.classic.sage``), compiled over a flat
classic game (``dos.fast.classic``): the same actions as the bot's Python path, so the same
search results, only much sooner.

Every simulated player plays like the classic ``greedy`` bot (``dos.bots.classic.greedy``)
with the weights given (an array, ``weights_array``), and passes every reaction test at once:
the same ``ClassicGreedyBot.score``, computed with the same floating-point operations in the same
order, and the same tie-break (the first best play in the engine's legal order). A
simulation plays on until the searching seat is placed; its reward is the seat's place
scaled to ``[0, 1]`` among the seats that were still playing (``1``: first of them; two
players: 1 for a win, 0 for a loss), or ``CUT_REWARD`` if ``max_actions`` pass first.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from dos.fast import classic as fast_classic
from dos.fast._jit import lowest_bit, njit
from dos.rules.classic.cards import (
    COLOUR,
    IS_DRAW_TWO,
    N_TYPES,
    POINTS,
    RANK,
    REVERSE,
    SKIP,
    WILD,
    WILD_DRAW_FOUR,
)

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]

CUT_REWARD = 0.5
"""The reward of a simulation cut after ``max_actions`` actions (no place decided)."""

# Slots of the weights array (``weights_array``), as ``GreedyWeights`` names them.
KEEP_WILD = 0
KEEP_DRAW_FOUR = 1
COLOUR_FLOW = 2
ATTACK = 3
CALM_HAND = 4
SHED = 5
GO_OUT = 6
N_WEIGHTS = 7

_COLOUR = np.array(COLOUR, dtype=np.int64)
_POINTS = np.array(POINTS, dtype=np.float64)
_ATTACKING = np.array(
    [
        int(IS_DRAW_TWO[t] or t == WILD_DRAW_FOUR or (t < WILD and RANK[t] in (SKIP, REVERSE)))
        for t in range(N_TYPES)
    ],
    dtype=np.int64,
)
"""Cards greedy counts as an attack on the next player: Skip, Reverse, Draw Two, Wild Draw
Four."""
_IS_DRAW_TWO = np.array(IS_DRAW_TWO, dtype=np.int64)


@njit
def greedy(s: fast_classic.I64, w: F64) -> int:
    """The code of the play the classic ``greedy`` bot makes in ``s`` (phase ``PLAY``), or
    ``draw`` when nothing fits (``ClassicGreedyBot.choose``)."""
    turn = s[fast_classic.TURN]
    size = s[fast_classic.HAND_SIZES + turn]
    base = fast_classic.HANDS + turn * fast_classic.TYPES
    c0 = 0
    c1 = 0
    c2 = 0
    c3 = 0
    bits = s[fast_classic.HELD + turn]
    while bits:
        card = lowest_bit(bits)
        bits &= bits - 1
        if card >= WILD:
            break
        n = s[base + card]
        colour = _COLOUR[card]
        if colour == 0:
            c0 += n
        elif colour == 1:
            c1 += n
        elif colour == 2:
            c2 += n
        else:
            c3 += n
    pending = s[fast_classic.PENDING]
    following = fast_classic.next_seat(s, turn, 1)
    danger = max(0, int(w[CALM_HAND]) - s[fast_classic.HAND_SIZES + following])
    best = -1
    best_value = -np.inf
    counts = np.empty(4, dtype=np.int64)
    bits = s[fast_classic.HELD + turn]
    while bits:
        card = lowest_bit(bits)
        bits &= bits - 1
        if not fast_classic.playable(s, card):
            continue
        counts[0] = c0
        counts[1] = c1
        counts[2] = c2
        counts[3] = c3
        wild = card >= WILD
        if not wild:
            counts[_COLOUR[card]] -= 1
        most = max(counts[0], counts[1], counts[2], counts[3])
        for wish in range(4 if wild else 1):
            colour = wish if wild else _COLOUR[card]
            if size == 1:
                value = w[GO_OUT]
            else:
                value = w[COLOUR_FLOW] * counts[colour] + w[SHED] * _POINTS[card]
                if card == WILD:
                    value -= w[KEEP_WILD]
                elif card == WILD_DRAW_FOUR:
                    value -= w[KEEP_DRAW_FOUR]
                if wild and counts[colour] < most:
                    value -= 1.0
                if pending:
                    value = value + (10.0 if _IS_DRAW_TWO[card] else 0.0)
                elif _ATTACKING[card]:
                    value += w[ATTACK] * danger
            if value > best_value:
                best_value = value
                best = fast_classic.encode(fast_classic.PLAY, -1, card, wish if wild else -1, 0, 0)
    if best < 0:
        return int(fast_classic.encode(fast_classic.DRAW_KIND, -1, -1, -1, 0, 0))
    return best


@njit
def policy(s: fast_classic.I64, w: F64) -> int:
    """A simulated player's action: the reaction test passed at once, else ``greedy``."""
    if s[fast_classic.PHASE] == fast_classic.REACTION:
        return int(
            fast_classic.encode(fast_classic.REACT, -1, -1, -1, s[fast_classic.N_TARGETS], 0)
        )
    return greedy(s, w)


@njit
def _place_of(s: fast_classic.I64, seat: int) -> int:
    for i in range(s[fast_classic.N_RANKED]):
        if s[fast_classic.RANKING + i] == seat:
            return i
    return -1


@njit
def rollout(s: fast_classic.I64, w: F64, seat: int, placed: int, max_actions: int) -> float:
    """Plays ``policy`` until ``seat`` is placed (or ``max_actions`` actions); the reward
    of its place among the seats that were playing when ``placed`` seats were placed."""
    active = s[fast_classic.PLAYERS] - placed
    for _ in range(max_actions + 1):
        place = _place_of(s, seat)
        if place >= 0:
            reward: float = (active - 1 - (place - placed)) / (active - 1)
            return reward
        if s[fast_classic.PHASE] == fast_classic.OVER:
            break
        fast_classic.apply(s, policy(s, w), -1)
    return CUT_REWARD


@njit
def deal(s: fast_classic.I64, seat: int, cards: fast_classic.I64, rng: np.uint64) -> None:
    """Puts a determinization into ``s``: the other seats' hands (seat order, each keeping its
    size) then the draw pile (top last) from ``cards``, and the generator state ``rng``."""
    at = 0
    for other in range(s[fast_classic.PLAYERS]):
        if other == seat:
            continue
        size = s[fast_classic.HAND_SIZES + other]
        base = fast_classic.HANDS + other * fast_classic.TYPES
        for t in range(fast_classic.TYPES):
            s[base + t] = 0
        held = 0
        for _ in range(size):
            card = cards[at]
            at += 1
            s[base + card] += 1
            held |= 1 << card
        s[fast_classic.HELD + other] = held
    n = cards.size - at
    for i in range(n):
        s[fast_classic.DRAW + i] = cards[at + i]
    s[fast_classic.N_DRAW] = n
    s[fast_classic.RNG] = np.int64(rng)


@njit
def simulate(  # noqa: PLR0917
    s: fast_classic.I64, codes: fast_classic.I64, w: F64, seat: int, max_actions: int, rewards: F64
) -> None:
    """``rewards[k]``: the reward of ``seat`` after action ``codes[k]`` in a copy of ``s``
    and the rollout that follows."""
    placed = s[fast_classic.N_RANKED]
    for k in range(codes.size):
        copy = s.copy()
        fast_classic.apply(copy, codes[k], -1)
        rewards[k] = rollout(copy, w, seat, placed, max_actions)
