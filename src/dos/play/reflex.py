"""DOS calls and catches as reflexes (RULES.md §6): a reliability and a reaction time.

When a hand becomes exactly two cards, its owner calls "DOS!" with probability
``call_reliability`` after a reaction time; each other player notices with probability
``catch_reliability`` and tries to catch after theirs. Whoever is first wins the race. In
simulated games (tournaments) the times are simulated seconds and the race is settled at once;
in real-time play (terminal, server) they are real seconds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Reflex:
    """How a player reacts in the DOS race.

    >>> Reflex(call_reliability=0.0).call_delay(random.Random(1)) is None
    True
    """

    call_reliability: float = 1.0
    """Chance of remembering to call when one's own hand becomes two cards."""
    catch_reliability: float = 1.0
    """Chance of noticing that an opponent has not called."""
    reaction: float = 1.0
    """Median reaction time in seconds."""
    spread: float = 0.25
    """Spread of the reaction time (sigma of its logarithm)."""
    own_call: float | None = None
    """Median seconds to call when the player's *own* action made its hand two cards (it saw
    it coming): ``0`` calls with the action itself, as a strong player says "DOS!" while
    laying the card; ``None`` reacts as to any call (``reaction``). Used in real-time play
    (the server); simulated races keep ``call_delay``."""

    def __post_init__(self) -> None:
        for name in ("call_reliability", "catch_reliability"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name}: must be between 0 and 1, not {value!r}")
        if self.reaction <= 0 or self.spread < 0:
            raise ValueError("reaction must be positive and spread not negative")
        if self.own_call is not None and self.own_call < 0:
            raise ValueError(f"own_call: must not be negative, not {self.own_call!r}")

    def _delay(self, rng: random.Random, reliability: float) -> float | None:
        # Both draws happen always, so that the generator advances the same way either way.
        noticed = rng.random() < reliability
        delay = self.reaction * rng.lognormvariate(0.0, self.spread)
        return delay if noticed else None

    def call_delay(self, rng: random.Random) -> float | None:
        """Seconds until this player calls for itself, or ``None`` if it forgets."""
        return self._delay(rng, self.call_reliability)

    def own_call_delay(self, rng: random.Random) -> float | None:
        """Seconds until this player calls after its own action made its hand two cards, or
        ``None`` if it forgets.

        >>> Reflex(own_call=0.0).own_call_delay(random.Random(1))
        0.0
        >>> Reflex().own_call_delay(random.Random(1)) == Reflex().call_delay(random.Random(1))
        True
        """
        if self.own_call is None:
            return self.call_delay(rng)
        noticed = rng.random() < self.call_reliability
        delay = self.own_call * rng.lognormvariate(0.0, self.spread)
        return delay if noticed else None

    def catch_delay(self, rng: random.Random) -> float | None:
        """Seconds until this player catches an opponent, or ``None`` if it does not notice."""
        return self._delay(rng, self.catch_reliability)
