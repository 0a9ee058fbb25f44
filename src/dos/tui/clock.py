"""Time for the real-time parts of a game (bot moves, the DOS race), injectable for tests.

The controller asks a clock for the time and never sleeps; the terminal app uses
``MonotonicClock`` and ticks the controller a few times a second, tests use ``ManualClock``
and move time forward by hand, so no test waits.

>>> clock = ManualClock()
>>> clock.advance(1.5)
>>> clock.now()
1.5
"""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    """Anything that tells the time in seconds."""

    def now(self) -> float:
        """The current time in seconds (only differences matter)."""
        ...


class MonotonicClock:
    """Real time, from ``time.monotonic``."""

    def now(self) -> float:
        """Seconds of the monotonic clock."""
        return time.monotonic()


class ManualClock:
    """Time that moves only when told to (for tests and replays)."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start

    def now(self) -> float:
        """The time set so far."""
        return self._now

    def advance(self, seconds: float) -> None:
        """Moves time forward by ``seconds``."""
        if seconds < 0:
            raise ValueError("time does not go backwards")
        self._now += seconds
