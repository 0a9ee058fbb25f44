"""``random`` for the classic rule set: uniform over the legal actions."""

from __future__ import annotations

import random

from dos.bots.base import Budget
from dos.bots.classic.base import ReactionReflex, reaction_answer
from dos.rules.classic import Action, SeatView


class ClassicRandomBot:
    """Chooses uniformly among its legal plays (or draws); reacts with its reflex.

    >>> from dos.rules.classic import new_game, view
    >>> state = new_game(seed=1)
    >>> v = view(state, state.turn)
    >>> ClassicRandomBot().choose(v, random.Random(0), Budget()) in v.legal
    True
    """

    name = "random"

    def __init__(self, *, reaction: ReactionReflex | None = None) -> None:
        self.reaction = reaction or ReactionReflex()

    def choose(self, view: SeatView, rng: random.Random, budget: Budget) -> Action:
        answer = reaction_answer(view, rng, self.reaction)
        if answer is not None:
            return answer
        return view.legal[rng.randrange(len(view.legal))]
