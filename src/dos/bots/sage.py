"""``sage``: the ``expert`` level's play, official rules — search that values what wins games.

It is the ``mcts`` bot's flat search (``dos.bots.mcts``: determinized Monte Carlo at the root,
common random numbers, sequential halving, the ``greedy`` bot's choice as the default that
is given up only for a paired advantage), changed where it judged badly:

* **Points, not rounds.** A game is won by reaching the target (RULES.md §7), and a round won
  with few points changes little. A simulated round is scored by the chance of winning the
  *game* from the scores it leaves: between two players a table worked out once per target by
  dynamic programming over rounds (``game_values``), each round won by either alike, its
  points drawn from the distribution measured in self-play (``ROUND_POINTS``); with more
  players the pairwise chances combined (``win_chances``). So the search sheds points before
  an opponent goes out and lets a round go when little is at stake.
* **What the history tells** (``dos.bots.replay``, ``dos.bots.inference``). The round is
  replayed from the public history: every Center Row it went through (the discard pile names
  each row card matched, the row now the others), who took which turn, where the round began.
  The engine ends a player's matching as soon as the hand left matches nothing more, so every
  turn of the round that ended so is a *fact* about the cards that player still holds from
  then; every sample deals their hand accordingly. A player who drew, or laid after a
  fruitless draw, most likely held no match either: ``infer`` of the samples (default 0.9)
  follow that reading.
* **What the others chose** (``dos.bots.opponent``). Which matches a player made, which card
  they laid or placed, when they stopped: a hand is kept for the samples only if ``greedy``,
  holding it, would have chosen the same at each of that player's decisions since their last
  card but one. This assumes players who play much as ``greedy`` does (``mcts`` and ``hard``
  start from its choice); ``model`` of the samples (default 1) follow it, and a player whose
  choices no dealt hand explains is dealt without it.
* **Twice the simulations** of ``mcts`` (``ITERATIONS``), affordable with the compiled rollouts
  (``dos.fast``, the ``fast`` extra).

Its budget is an option like every bot's (``Budget``); limited by iterations only, the same
view and generator give the same action. DOS calls and catches are reflexes
(``dos.bots.reflex``); the ``expert`` level adds quick ones (``dos.bots.registry``).

>>> from dos.rules.official import new_game, view
>>> state = new_game(seed=5)
>>> v = view(state, state.turn)
>>> SageBot().choose(v, random.Random(1), Budget(iterations=60)) in v.legal
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

ITERATIONS: Final = 800
"""Simulations a decision runs when its budget sets no count (``mcts``: 400)."""

ROUND_POINTS: Final = {
    2: (2, 4, 6, 8, 10, 12, 14, 15, 17, 19, 20, 22, 24, 27, 29, 32, 36, 42, 50, 65),
    3: (15, 22, 27, 30, 34, 37, 40, 43, 46, 50, 53, 57, 61, 65, 69, 75, 82, 94, 107, 134),
    4: (34, 42, 50, 56, 59, 65, 69, 73, 78, 84, 89, 95, 100, 107, 114, 125, 138, 150, 169, 213),
}
"""The points a round brings its winner, by player count: the 20 ventiles of the rounds of
``greedy`` self-play (2 players: 4,462 rounds, 3: 1,085, 4: 697; ``bench/round_points.py``
measures them again), each taken as equally likely. Larger tables scale the four-player one
by the number of hands the winner scores (``round_points``)."""

LARGEST_TABLE: Final = 1000
"""Targets above this are not tabled (the table grows with the square of the target: about
1.5 s and 30 MB at 1000, and the last eight are kept): the search then keeps ``mcts``'s
reward."""


def round_points(players: int) -> tuple[int, ...]:
    """The ventiles of the points a round brings its winner at a table of ``players``.

    >>> round_points(2)[0], round_points(8)[0]
    (2, 79)
    """
    if players in ROUND_POINTS:
        return ROUND_POINTS[players]
    return tuple(round(x * (players - 1) / 3) for x in ROUND_POINTS[4])


@functools.lru_cache(maxsize=8)
def game_values(target: int, players: int = 2) -> tuple[tuple[float, ...], ...]:
    """``game_values(target, players)[a][b]``: the chance that a player with ``a`` points
    reaches ``target`` before a player with ``b`` (both below it), if every later round that
    one of the two wins is won by either alike and brings one of ``round_points(players)``
    alike (rounds the others win leave the two as they are).

    >>> values = game_values(200)
    >>> round(values[0][0], 6)
    0.5
    >>> values[150][100] > 0.7 > 0.3 > values[100][150]
    True
    """
    if not 1 <= target <= LARGEST_TABLE:
        raise ValueError(f"target: 1 to {LARGEST_TABLE}, not {target}")
    outcomes = round_points(players)
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


class SageBot(MctsBot):
    """The ``sage`` bot (see the module docstring). Settings as ``MctsBot``'s, and ``infer``:
    the share of samples that follow the likely readings of the history (0 to 1), ``model``:
    the share whose hands agree with the opponent model (0 to 1)."""

    name = "sage"

    def __init__(
        self,
        *,
        infer: float = 0.9,
        model: float = 1.0,
        iterations: int = ITERATIONS,
        **settings: Any,
    ) -> None:
        if not 0.0 <= infer <= 1.0 or not 0.0 <= model <= 1.0:
            raise ValueError("infer and model: between 0 and 1")
        super().__init__(iterations=iterations, **settings)
        self.infer = infer
        self.model = model
        self._values: tuple[tuple[float, ...], ...] | None = None

    def choose(self, view: SeatView, rng: random.Random, budget: Budget) -> Action:
        target = view.options.target_score
        tabled = target <= LARGEST_TABLE
        self._values = game_values(target, len(view.hand_sizes)) if tabled else None
        return super().choose(view, rng, budget)

    def _sampler(self, view: SeatView) -> Sampler:
        return Sampler(view, round_only=True, infer=self.infer, model=self.model)

    def _round_rewards(
        self, scores: tuple[int, ...], target: int, winner: int, points: int
    ) -> list[float]:
        values = self._values
        if values is None:
            return super()._round_rewards(scores, target, winner, points)
        after = list(scores)
        after[winner] += points
        rewards = [0.0] * len(after)
        if after[winner] >= target:
            rewards[winner] = 1.0
            return rewards
        return win_chances(values, after)


def win_chances(values: tuple[tuple[float, ...], ...], scores: list[int]) -> list[float]:
    """Each player's chance of winning the game from ``scores`` (all below the target), from
    the two-player chances ``values`` (``game_values``): a player's weight is the product of
    their chances against each other player, the weights normalised. With two players these
    are the table's own chances; at equal scores every player has an equal share.

    >>> values = game_values(200, 4)
    >>> [round(p, 3) for p in win_chances(values, [50, 50, 50, 50])]
    [0.25, 0.25, 0.25, 0.25]
    >>> a, b, c = win_chances(values, [180, 20, 20])
    >>> a > 0.5 and b == c
    True
    """
    weights = []
    for me, mine in enumerate(scores):
        row = values[mine]
        weight = 1.0
        for other, theirs in enumerate(scores):
            if other != me:
                weight *= row[theirs]
        weights.append(weight)
    total = sum(weights)
    return [w / total for w in weights]
