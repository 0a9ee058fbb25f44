"""What the other players chose tells about their hands: an opponent model (official rules).

The history shows what each player did, and most choices depend on the hand: a player who
matched a 7 with one card rather than with a 3 and a 4 most likely held no such pair; a
player who laid a 2 after a fruitless draw most likely held no 9 to shed instead. A sampled
hand is *consistent* with a player's choices if ``greedy`` (``dos.bots.greedy``), holding it,
would have chosen as the player did at each of their turn decisions since they received
their last card but one (``dos.bots.replay`` gives the decisions and the public state before
each): the hand then is the hand now with the cards played since, less the card received
since, which may be any card of the hand now — one of them must fit every such decision.
Further back the hand then is too loosely tied to the hand now to tell much.

This assumes players play much as ``greedy`` does. The ``mcts`` and ``hard`` bots start from
``greedy``'s choice and keep it unless their search finds better; people differ more. A
search bot therefore follows the model in a share of its samples only (``Sampler``'s
``model``), and a hand the model rejects every time is dealt without it.
"""

from __future__ import annotations

import random
from typing import Final

from dos.bots.base import Budget
from dos.bots.greedy import GreedyBot
from dos.bots.replay import Decision
from dos.rules.official import view

_GREEDY: Final = GreedyBot()
_BUDGET: Final = Budget()
_RNG: Final = random.Random(0)
"""``greedy`` uses no randomness; ``choose`` takes a generator all the same."""


class GreedyModel:
    """Checks sampled hands against the other players' decisions (see the module)."""

    __slots__ = ("checks", "decisions")

    def __init__(self, decisions: tuple[Decision, ...]) -> None:
        self.checks = 0
        """How many decisions ``greedy`` has been asked to retake so far (the work spent)."""
        self.decisions: dict[int, list[Decision]] = {}
        for decision in decisions:
            self.decisions.setdefault(decision.seat, []).append(decision)

    def seats(self) -> list[int]:
        """The seats whose decisions tell something."""
        return sorted(self.decisions)

    def agrees(self, seat: int, hand: list[int]) -> bool:
        """Whether ``greedy``, holding ``hand`` (plus the cards played since, less the card
        received since if any: one of ``hand``, the same for every such decision) would have
        taken every decision ``seat`` took since its last card but one."""
        decisions = self.decisions.get(seat, ())
        for decision in decisions:
            if decision.received is not None:
                continue
            self.checks += 1
            if not _chooses(decision, sorted([*hand, *decision.played])):
                return False
        earlier = [d for d in decisions if d.received is not None]
        if not earlier:
            return True
        came = earlier[0].received
        assert came is not None
        for card in set(hand).union(came):
            self.checks += len(earlier)
            if all(_chooses(d, _less(sorted([*hand, *d.played]), card)) for d in earlier):
                return True
        return False


def _less(cards: list[int], card: int) -> list[int]:
    """``cards`` without one ``card`` (as they are when it is not among them)."""
    if card in cards:
        cards.remove(card)
    return cards


def _chooses(decision: Decision, then: list[int]) -> bool:
    """Whether ``greedy`` holding ``then`` takes ``decision``'s action."""
    before = decision.before
    seat = decision.seat
    # ``before`` is this decision's own scratch state: only the deciding hand changes.
    if len(then) != len(before.hands[seat]):
        return False
    before.hands[seat] = then
    chosen = _GREEDY.choose(view(before, seat), _RNG, _BUDGET)
    action = decision.action
    return (chosen.kind, chosen.cards, chosen.target) == (action.kind, action.cards, action.target)
