"""The one interface every bot implements (bot writers import it as ``dos.bots.base``).

A bot is handed a ``SeatView`` (what its seat may know: its own hand, public facts, the public
history, its legal actions), a ``random.Random`` and a ``Budget``, and returns one of the
view's legal turn actions. It never receives the game's ``State``: the runner builds the view
and passes only that, and a ``SeatView`` holds copies (tuples and numbers), no reference to
the state. Its generator is seeded from the game's seed one way (``dos.seeds``), so its state
does not lead back to the seed, which would deal the game again. So a bot that keeps to its
arguments cannot read another hand or the draw pile; one by path in a tournament plays in a
process of its own (``dos.bots.sandbox``), which holds nothing else.

DOS calls and catches are not chosen here: they are reflexes with a reliability and a
reaction time (``dos.play.reflex``), raced by the runner between actions. A classic bot
(``ClassicBot``) answers the reaction test in ``choose`` instead (RULES.md §9).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from dos.rules import classic
from dos.rules.official import Action, Kind, SeatView

OUT_OF_TURN = frozenset((Kind.CALL, Kind.CATCH))


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a bot may think: at most ``iterations`` search iterations and at most
    ``seconds`` of wall time (``None``: no limit of that kind), as ``clock`` counts it
    (seconds, increasing; ``time.monotonic`` unless a test gives a fake one). Bots that do not
    search ignore it.

    >>> ticks = iter(range(100))
    >>> Budget(seconds=2.0, clock=lambda: float(next(ticks))).clock()
    0.0
    """

    iterations: int | None = None
    seconds: float | None = None
    clock: Callable[[], float] = field(default=time.monotonic, compare=False, repr=False)

    def scaled(self, effort: float) -> Budget:
        """The budget times ``effort`` (iterations and seconds; at least one iteration).

        >>> Budget(iterations=800, seconds=1.0).scaled(0.1)
        Budget(iterations=80, seconds=0.1)
        """
        if effort == 1.0:
            return self
        iterations = None if self.iterations is None else max(1, round(self.iterations * effort))
        seconds = None if self.seconds is None else self.seconds * effort
        return Budget(iterations, seconds, self.clock)


class BotError(Exception):
    """A bot returned something that is not one of its legal turn actions."""


def wrong_type(answer: object, view: SeatView | classic.SeatView) -> str | None:
    """Why ``answer`` is no action of the view's rule set (the type of its legal actions), or
    ``None`` if it is one (or the view has no legal action to compare with: a bot is asked
    only when it has one). The runners ask it before they judge legality, so that "not a
    legal action" always means a real action that is not legal here.

    >>> from dos.rules.official import new_game, view
    >>> state = new_game(seed=3)
    >>> seen = view(state, state.turn)
    >>> wrong_type("draw", seen)
    'returned a str, expected an Action'
    >>> wrong_type(seen.legal[0], seen) is None
    True
    """
    if not view.legal or isinstance(answer, type(view.legal[0])):
        return None
    return f"returned a {type(answer).__name__}, expected an Action"


class Bot(Protocol):
    """A player program. ``choose`` is called only when the bot's seat is to act."""

    name: str

    def choose(self, view: SeatView, rng: random.Random, budget: Budget) -> Action:
        """One of ``turn_choices(view)``."""
        ...


class ClassicBot(Protocol):
    """A classic player program. ``choose`` is called only when the bot's seat is to act,
    the reaction test included."""

    name: str

    def choose(self, view: classic.SeatView, rng: random.Random, budget: Budget) -> classic.Action:
        """One of ``view.legal``, or in the reaction test any ``react`` answer."""
        ...


def turn_choices(view: SeatView) -> list[Action]:
    """The legal actions of the view's seat that belong to its turn (no calls or catches)."""
    return [a for a in view.legal if a.kind not in OUT_OF_TURN]
