"""What every classic bot shares: the bot protocol over the classic view (``ClassicBot``,
defined beside the runner in ``dos.play.bot``), and the reaction test as a reflex (RULES.md §9:
"Bots pass it with a configurable reaction time")."""

from __future__ import annotations

import random
from dataclasses import dataclass

from dos.play.bot import ClassicBot
from dos.rules.classic import Action, Phase, SeatView
from dos.rules.classic.actions import react

__all__ = ["ClassicBot", "ReactionReflex", "reaction_answer"]


@dataclass(frozen=True, slots=True)
class ReactionReflex:
    """How fast a bot hits the reaction test's targets.

    Each target takes a time drawn around ``seconds_per_target`` (lognormal, sigma
    ``spread``); ``miss`` is the chance of missing a target altogether. The bot reports what
    it did (``react HITS MSms``) and the engine judges it against the time limit.

    >>> reflex = ReactionReflex(seconds_per_target=0.5, spread=0.0)
    >>> str(reflex.answer(2, random.Random(1)))
    'react 2 1000ms'
    """

    seconds_per_target: float = 0.9
    spread: float = 0.3
    miss: float = 0.0

    def __post_init__(self) -> None:
        if self.seconds_per_target <= 0 or self.spread < 0 or not 0.0 <= self.miss <= 1.0:
            raise ValueError("seconds_per_target > 0, spread >= 0 and 0 <= miss <= 1")

    def answer(self, targets: int, rng: random.Random) -> Action:
        """The reaction to a test of ``targets`` targets."""
        seconds = 0.0
        hits = 0
        for _ in range(targets):
            seconds += self.seconds_per_target * rng.lognormvariate(0.0, self.spread)
            if rng.random() >= self.miss:
                hits += 1
        return react(hits, round(seconds * 1000))


def reaction_answer(view: SeatView, rng: random.Random, reflex: ReactionReflex) -> Action | None:
    """The reflex's answer when the view is in the reaction test, else ``None``.

    >>> from dos.rules.classic import new_game, view as seat_view
    >>> reaction_answer(seat_view(new_game(seed=1), 0), random.Random(0), ReactionReflex())
    """
    if view.phase != Phase.REACTION:
        return None
    return reflex.answer(len(view.targets), rng)
