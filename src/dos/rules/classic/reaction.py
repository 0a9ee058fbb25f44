"""The reaction test (RULES.md §9): where its targets appear, and how a real-time test is run.

The engine is deterministic and has no clock. When a play brings a hand down to two cards (or
one), ``apply`` enters the ``REACTION`` phase and places two targets (or one) with the game's
own generator (``place_targets``, below). The seat then answers with an action:
``react HITS MSms`` (how many targets it hit, and the milliseconds from the targets' showing
to the last hit) or ``timeout``, and the engine judges it against the ``reaction_time_ms``
option: every target hit within the limit passes; anything else draws ``penalty_cards``.

The wall clock lives here, outside the engine, in ``ReactionTest``: a client or the server
starts one when it shows the targets, feeds it the clicks (positions as fractions of the play
area), and turns it into the action to apply. Its clock is injectable, so tests control
time; the server runs the test with its own clock, which makes it the authority.

Targets are squares ``2 * TARGET_RADIUS`` wide and high (fractions of the play area's width
and height), centred at least ``MARGIN`` from the edges and at least ``3 * TARGET_RADIUS``
apart on one axis, so that they never overlap. They may be hit in any order.

>>> clock = FakeClock()
>>> test = ReactionTest([(0.2, 0.3), (0.7, 0.8)], time_limit=3.0, clock=clock)
>>> clock.advance(0.4); test.click(0.21, 0.31)
True
>>> clock.advance(0.5); test.click(0.7, 0.8)
True
>>> str(test.action())
'react 2 900ms'
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from dos.rng import next_u64
from dos.rules.classic.actions import TIMEOUT, Action, react

TARGET_RADIUS = 60
"""Half the side of a target, in thousandths of the play area's width (or height)."""
MARGIN = 100
"""The least distance of a target's centre from an edge, in thousandths."""
_SPAN = 1000 - 2 * MARGIN + 1

Clock = Callable[[], float]
"""A clock: seconds, increasing (``time.monotonic`` by default)."""


def place_targets(rng: int, count: int) -> tuple[int, tuple[tuple[int, int], ...]]:
    """``count`` non-overlapping targets drawn from the generator state ``rng``, as ``(x, y)``
    in thousandths; returns the new generator state and the targets.

    >>> from dos.rng import seed_state
    >>> _, targets = place_targets(seed_state(1), 2)
    >>> len(targets), all(MARGIN <= v <= 1000 - MARGIN for t in targets for v in t)
    (2, True)
    """
    targets: list[tuple[int, int]] = []
    while len(targets) < count:
        rng, output = next_u64(rng)
        x = MARGIN + (((output & 0xFFFFFFFF) * _SPAN) >> 32)
        y = MARGIN + (((output >> 32) * _SPAN) >> 32)
        if all(max(abs(x - a), abs(y - b)) >= 3 * TARGET_RADIUS for a, b in targets):
            targets.append((x, y))
    return rng, tuple(targets)


def targets_json(targets: Sequence[tuple[int, int]]) -> list[dict[str, float]]:
    """Targets as a client draws them: centres as fractions of the play area.

    >>> targets_json([(250, 800)])
    [{'x': 0.25, 'y': 0.8}]
    """
    return [{"x": x / 1000, "y": y / 1000} for x, y in targets]


class FakeClock:
    """A clock for tests: time stands still until ``advance`` moves it.

    >>> clock = FakeClock(5.0); clock.advance(1.5); clock()
    6.5
    """

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class ReactionTest:
    """One reaction test against a clock.

    ``targets`` are centres as fractions of the play area (``x`` of its width, ``y`` of its
    height), as ``view_json`` gives them; ``time_limit`` is in seconds. The test starts when
    it is made (the moment the targets are shown), or at ``started`` (a reading of the same
    clock, to carry a running test over a reconnection). ``click`` records a click;
    ``action`` gives the action that answers the test, once it is ``done``.
    """

    def __init__(
        self,
        targets: Sequence[tuple[float, float]],
        time_limit: float,
        clock: Clock = time.monotonic,
        radius: float = TARGET_RADIUS / 1000,
        started: float | None = None,
    ) -> None:
        if not targets:
            raise ValueError("a reaction test has at least one target")
        if time_limit <= 0:
            raise ValueError(f"time_limit: must be positive, not {time_limit!r}")
        self.targets = [(float(x), float(y)) for x, y in targets]
        self.time_limit = time_limit
        self.radius = radius
        self.clock = clock
        self.started = clock() if started is None else started
        self.hit: list[bool] = [False] * len(self.targets)
        self.last_hit: float | None = None

    @classmethod
    def from_view(cls, reaction: dict[str, Any], clock: Clock = time.monotonic) -> ReactionTest:
        """The test a view describes (``view_json(state, seat)["reaction"]``).

        >>> view = {"targets": [{"x": 0.5, "y": 0.5}], "time_limit_ms": 3000, "radius": 0.06}
        >>> ReactionTest.from_view(view, FakeClock()).time_limit
        3.0
        """
        targets = [(t["x"], t["y"]) for t in reaction["targets"]]
        return cls(targets, reaction["time_limit_ms"] / 1000, clock, reaction.get("radius", 0.06))

    @property
    def deadline(self) -> float:
        """The clock reading at which the time runs out."""
        return self.started + self.time_limit

    def remaining(self) -> float:
        """Seconds left (never below zero): what a countdown shows."""
        return max(0.0, self.deadline - self.clock())

    def expired(self) -> bool:
        """Whether the time has run out."""
        return self.clock() > self.deadline

    @property
    def hits(self) -> int:
        return sum(self.hit)

    def done(self) -> bool:
        """Every target hit, or the time run out: the test can be answered."""
        return self.hits == len(self.targets) or self.expired()

    def click(self, x: float, y: float) -> bool:
        """A click at ``(x, y)`` (fractions of the play area). Returns whether it hit a
        target not hit before, in time. Clicks after the deadline or beside every target
        count for nothing (a miss costs nothing but time)."""
        now = self.clock()
        if now > self.deadline:
            return False
        for index, (tx, ty) in enumerate(self.targets):
            if not self.hit[index] and abs(x - tx) <= self.radius and abs(y - ty) <= self.radius:
                self.hit[index] = True
                self.last_hit = now
                return True
        return False

    def action(self) -> Action:
        """The action answering the test: ``react N MSms`` when every target was hit in
        time, else ``timeout``. Raises ``ValueError`` while the test is still running."""
        if self.hits == len(self.targets) and self.last_hit is not None:
            return react(self.hits, round((self.last_hit - self.started) * 1000))
        if not self.expired():
            raise ValueError("the reaction test is still running")
        return TIMEOUT
