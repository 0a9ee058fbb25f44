"""``random``: uniform over the legal turn actions."""

from __future__ import annotations

import random

from dos.bots.base import Budget, turn_choices
from dos.rules.official import Action, SeatView


class RandomBot:
    """Chooses uniformly among its legal turn actions.

    >>> from dos.rules.official import new_game, view
    >>> bot = RandomBot()
    >>> v = view(new_game(seed=1), new_game(seed=1).turn)
    >>> bot.choose(v, random.Random(0), Budget()) in v.legal
    True
    """

    name = "random"

    def choose(self, view: SeatView, rng: random.Random, budget: Budget) -> Action:
        choices = turn_choices(view)
        return choices[rng.randrange(len(choices))]
