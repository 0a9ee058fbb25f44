"""A bot of your own, in one file (``docs/bots.md``, "Write your own bot"):

    dos tournament --bots docs/examples/shedder.py:Shedder,greedy

``Shedder`` plays the official rules. On its turn it sheds points: of its legal turn actions
it takes the match that sheds the most points (two cards before one at equal points); with no
match it draws; after a fruitless draw it lays, and for a colour bonus it places, its highest
card that is not a wild. It sees only its seat's view, as every bot does. DOS calls and
catches are not its business: they are reflexes (``reflex`` below), raced by whoever runs
the game.
"""

from __future__ import annotations

import random

from dos.bots.base import Budget, turn_choices
from dos.bots.reflex import Reflex
from dos.rules.official import Action, Kind, SeatView
from dos.rules.official.cards import IS_WILD, POINTS


def _points(cards: tuple[int, ...]) -> int:
    return sum(POINTS[card] for card in cards)


class Shedder:
    """Sheds the most points it can each turn; draws when it cannot match."""

    name = "shedder"  # how reports name it (the command line names it by its path)
    rules = "official"  # or "classic" for a bot of the classic rules
    reflex = Reflex(call_reliability=0.9, catch_reliability=0.8, reaction=1.0)  # optional

    def choose(self, view: SeatView, rng: random.Random, budget: Budget) -> Action:
        choices = turn_choices(view)  # never empty when a bot is asked
        matches = [a for a in choices if a.kind == Kind.MATCH]
        if matches:
            # The most points shed; at equal points, two cards rather than one.
            return max(matches, key=lambda a: (_points(a.cards), len(a.cards)))
        shedding = [a for a in choices if a.kind in (Kind.LAY, Kind.PLACE)]
        if shedding:
            plain = [a for a in shedding if not IS_WILD[a.cards[0]]] or shedding
            return max(plain, key=lambda a: POINTS[a.cards[0]])
        for keyword in (Kind.DRAW, Kind.END):  # draw when nothing matches; end a turn
            for action in choices:
                if action.kind == keyword:
                    return action
        return rng.choice(choices)
