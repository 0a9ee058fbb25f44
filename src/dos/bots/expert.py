"""``sage``: the ``expert`` level's play, official rules — search that values what wins games.

It is the ``mcts`` bot's flat search (``dos.bots.mcts``: determinized Monte Carlo at the root,
common random numbers, sequential halving, the ``greedy`` bot's choice as the default that
is given up only for a paired advantage), changed where it judged badly:

* **Points, not rounds.** A game is won by reaching the target (RULES.md §7), and a round won
  with few points changes little. With two players a simulated round is scored by the chance
  of winning the *game* from the scores it leaves (``game_values``): a table worked out once
  per target by dynamic programming over rounds, each round won by either player alike, its
  points drawn from the distribution measured in self-play (``ROUND_POINTS``). So the search
  sheds points before an opponent goes out and lets a round go when little is at stake. With
  more players it keeps ``mcts``'s reward.
* **What the history tells.** A player who drew and then laid made no match with the hand
  they held (``dos.bots.inference``); most samples deal that player's kept cards from the
  cards that match nothing on the row they faced (``infer``, default 0.9: players now and
  then lay while they could match).
* **More simulations.** With the compiled rollouts (``dos.fast``, the ``fast`` extra) a
  decision affords several times ``mcts``'s 400 iterations; the default is ``ITERATIONS``.

Its budget is an option like every bot's (``Budget``); limited by iterations only, the same
view and generator give the same action. DOS calls and catches are reflexes
(``dos.bots.reflex``); the ``expert`` level adds quick ones (``dos.bots.registry``).

>>> from dos.rules.official import new_game, view
>>> state = new_game(seed=5)
>>> v = view(state, state.turn)
>>> ExpertBot().choose(v, random.Random(1), Budget(iterations=60)) in v.legal
True
"""

from __future__ import annotations

import functools
import random
from typing import Any, Final

from dos.bots.base import Budget
from dos.bots.determinize import Sampler
from dos.bots.mcts import MctsBot
from dos.rules.official import Action, SeatView

ITERATIONS: Final = 1600
"""Simulations a decision runs when its budget sets no count (``mcts``: 400)."""

ROUND_POINTS: Final = (2, 4, 6, 8, 10, 12, 14, 15, 17, 19, 20, 22, 24, 27, 29, 32, 36, 42, 50, 65)
"""The points a two-player round brings its winner: the 20 ventiles of 4,462 rounds of
``greedy`` self-play (``bench/round_points.py`` measures them again), each taken as equally
likely."""

LARGEST_TABLE: Final = 1000
"""Targets above this are not tabled (the table grows with the square of the target): the
search then keeps ``mcts``'s reward."""


@functools.cache
def game_values(target: int) -> tuple[tuple[float, ...], ...]:
    """``game_values(target)[a][b]``: the chance that a player with ``a`` points beats one with
    ``b`` (both below ``target``) in a two-player game, if every later round is won by either
    player alike and brings one of ``ROUND_POINTS`` alike.

    >>> values = game_values(200)
    >>> round(values[0][0], 6)
    0.5
    >>> values[150][100] > 0.7 > 0.3 > values[100][150]
    True
    """
    if not 1 <= target <= LARGEST_TABLE:
        raise ValueError(f"target: 1 to {LARGEST_TABLE}, not {target}")
    outcomes = ROUND_POINTS
    share = 1.0 / (2 * len(outcomes))
    rows = [[0.0] * target for _ in range(target)]
    # Scores only grow, so each entry needs only entries of higher scores: fill from the top.
    for a in range(target - 1, -1, -1):
        row = rows[a]
        for b in range(target - 1, -1, -1):
            total = 0.0
            for x in outcomes:
                total += 1.0 if a + x >= target else rows[a + x][b]
                if b + x < target:
                    total += row[b + x]
            row[b] = total * share
    return tuple(tuple(row) for row in rows)


class ExpertBot(MctsBot):
    """The ``sage`` bot (see the module docstring). Settings as ``MctsBot``'s, and ``infer``:
    the share of samples that follow what the history tells of hidden hands (0 to 1)."""

    name = "sage"

    def __init__(
        self, *, infer: float = 0.9, iterations: int = ITERATIONS, **settings: Any
    ) -> None:
        if not 0.0 <= infer <= 1.0:
            raise ValueError("infer: between 0 and 1")
        super().__init__(iterations=iterations, **settings)
        self.infer = infer
        self._values: tuple[tuple[float, ...], ...] | None = None

    def choose(self, view: SeatView, rng: random.Random, budget: Budget) -> Action:
        target = view.options.target_score
        two = len(view.hand_sizes) == 2 and target <= LARGEST_TABLE
        self._values = game_values(target) if two else None
        return super().choose(view, rng, budget)

    def _sampler(self, view: SeatView) -> Sampler:
        return Sampler(view, round_only=True, infer=self.infer)

    def _round_rewards(
        self, scores: tuple[int, ...], target: int, winner: int, points: int
    ) -> list[float]:
        values = self._values
        if values is None:
            return super()._round_rewards(scores, target, winner, points)
        after = list(scores)
        after[winner] += points
        if after[winner] >= target:
            rewards = [0.0, 0.0]
            rewards[winner] = 1.0
            return rewards
        first = values[after[0]][after[1]]
        return [first, 1.0 - first]
