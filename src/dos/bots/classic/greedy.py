"""``greedy`` for the classic rule set: a rule-based player that judges one play at a time.

What a good UNO player does, written down (RULES.md §9 leaves only the choice of card and
wish, since a player who can play must):

* **Pass a pending draw on** whenever possible, with a Draw Two before a Wild Draw Four.
* **Keep the wilds** for when nothing else fits: a Wild or Wild Draw Four in hand always
  plays, so it is worth more kept than spent.
* **Keep the colour flowing**: prefer the play whose colour (or wished colour) the hand holds
  most of afterwards, so that the next turn has a card too; a wild wishes that colour.
* **Attack a player about to go out**: when the next player holds few cards, a Skip, a Draw
  Two, a Wild Draw Four (or a Reverse, where it acts as a Skip or turns play away from them)
  is worth more.
* **Shed the heavy cards** (symbols before numbers, high numbers before low) on equal terms.

It takes the reaction test with its reflex. Apart from the reflex it uses no randomness: the
same view gives the same play.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from dos.bots.base import Budget
from dos.bots.classic.base import ReactionReflex, reaction_answer
from dos.rules.classic import Action, Kind, SeatView
from dos.rules.classic.cards import (
    COLOUR,
    IS_DRAW_TWO,
    IS_WILD,
    POINTS,
    RANK,
    REVERSE,
    SKIP,
    WILD,
    WILD_DRAW_FOUR,
)


@dataclass(frozen=True, slots=True)
class GreedyWeights:
    """The weights of greedy's judgement, in "value of a card kept playable" units."""

    keep_wild: float = 30.0
    """Cost of spending a Wild."""
    keep_draw_four: float = 40.0
    """Cost of spending a Wild Draw Four."""
    colour_flow: float = 4.0
    """Value of each card of the colour to follow left in hand."""
    attack: float = 12.0
    """Value of a Skip or a draw against a next player with few cards, per card below
    ``calm_hand``."""
    calm_hand: int = 4
    shed: float = 0.1
    """Value of each point shed (symbols 20, numbers their face value)."""
    go_out: float = 1000.0


class ClassicGreedyBot:
    """Plays the legal card with the best score (see the module docstring).

    >>> from dos.rules.classic import from_position, view
    >>> state = from_position({"players": 2, "turn": 0, "hands": [["B7", "G5", "G6", "W"],
    ...     ["R1", "R2", "R3"]], "draw_pile": ["G9"], "discard": ["B5"]})
    >>> str(ClassicGreedyBot().choose(view(state, 0), random.Random(0), Budget()))
    'G5'
    """

    name = "greedy"

    def __init__(
        self, *, weights: GreedyWeights | None = None, reaction: ReactionReflex | None = None
    ) -> None:
        self.weights = weights or GreedyWeights()
        self.reaction = reaction or ReactionReflex()

    def choose(self, view: SeatView, rng: random.Random, budget: Budget) -> Action:
        answer = reaction_answer(view, rng, self.reaction)
        if answer is not None:
            return answer
        plays = [a for a in view.legal if a.kind == Kind.PLAY]
        if not plays:
            return view.legal[0]  # draw: nothing fits
        return max(plays, key=lambda action: (self.score(view, action), -action.card))

    def score(self, view: SeatView, action: Action) -> float:
        """How good playing ``action`` is from ``view``."""
        w = self.weights
        card = action.card
        after = list(view.hand)
        after.remove(card)
        if not after:
            return w.go_out
        counts = [0, 0, 0, 0]
        for held in after:
            if not IS_WILD[held]:
                counts[COLOUR[held]] += 1
        colour = action.wish if IS_WILD[card] else COLOUR[card]
        value = w.colour_flow * counts[colour] + w.shed * POINTS[card]
        if card == WILD:
            value -= w.keep_wild
        elif card == WILD_DRAW_FOUR:
            value -= w.keep_draw_four
        if IS_WILD[card] and counts[colour] < max(counts):
            value -= 1.0  # wish the colour held most
        if view.pending:
            return value + (10.0 if IS_DRAW_TWO[card] else 0.0)
        following = _next_seat(view)
        danger = max(0, w.calm_hand - view.hand_sizes[following])
        attacking = IS_DRAW_TWO[card] or card == WILD_DRAW_FOUR or RANK[card] == SKIP
        if RANK[card] == REVERSE and not IS_WILD[card]:
            attacking = True  # play turns away from the next player (or skips them, two left)
        if attacking:
            value += w.attack * danger
        return value


def _next_seat(view: SeatView) -> int:
    """The next seat still playing after the view's seat, in the direction of play."""
    players = len(view.hand_sizes)
    seat = view.seat
    while True:
        seat = (seat + view.direction) % players
        if seat not in view.ranking:
            return seat
