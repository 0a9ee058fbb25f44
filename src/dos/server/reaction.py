"""The server's clock over a reaction test (the classic one, RULES.md §9): the server is the
authority. A rule set's registry entry says whether it has one (``Entry.reaction``).

The classic engine has no clock: a seat answers the reaction test with ``react HITS MSms`` (the
milliseconds from the targets' showing to its last hit) or ``timeout``, and the engine judges
the answer against ``reaction_time_ms``. On the server a client's word about the time is not
enough, so the table runs a ``Referee``:

* it **starts** the test when the state that shows the targets is sent (the first change after
  which the game is in the ``reaction`` phase at a new version; after a server restart, when
  the table is loaded: a test under way then starts again);
* a person's ``react H Tms`` is **recorded with the larger of their time and the server's**:
  ``react H max(T, measured)ms``. A client that claims to be faster than the server measured
  gains nothing; an answer that reaches the server after the deadline fails however fast it
  claims to be. A person's ``timeout`` is taken as it is;
* when the deadline passes with no answer the table applies ``timeout`` itself
  (``Table._reaction_due``), so a test nobody answers never holds the game up;
* bots on the server (bot seats and stand-ins) answer with the time their reflex drew, after
  waiting that long (scaled by ``--bot-delay``); the server trusts its own bots' times.

The clock is injectable (``Settings.clock``; ``FakeClock`` in tests), so the timing rules are
tested without waiting.

>>> from dos import ruleset
>>> from dos.rules.classic import FakeClock
>>> from dos.rules.classic.actions import react
>>> clock = FakeClock()
>>> referee = Referee(clock, ruleset.entry("classic").reaction)
>>> referee.start((1, 7), 3.0)
True
>>> clock.advance(1.25)
>>> str(referee.judge(react(2, 40)))     # claims 40 ms, the server measured 1250 ms
'react 2 1250ms'
>>> str(referee.judge(react(2, 1400)))   # slower than measured: the claim stands
'react 2 1400ms'
>>> clock.advance(2.0); referee.expired()
True
"""

from __future__ import annotations

import time
from typing import Any

from dos.rules.classic.reaction import Clock
from dos.ruleset import Entry, ReactionTest


def reaction_limit(entry: Entry, state: Any) -> float | None:
    """Seconds the running reaction test allows, or ``None`` when no test is running (or the
    rule set has no reaction test: ``Entry.reaction``).

    >>> from dos import ruleset
    >>> from dos.rules.classic import new_game
    >>> reaction_limit(ruleset.entry("classic"), new_game(seed=1)) is None
    True
    """
    if entry.reaction is None or state is None:
        return None
    return entry.reaction.time_limit(state)


class Referee:
    """The running reaction test of one table, timed by the server's ``clock``; ``test`` is
    the rule set's (``None``: it has none, and the referee never judges)."""

    def __init__(self, clock: Clock = time.monotonic, test: ReactionTest | None = None) -> None:
        self.clock = clock
        self.test = test
        self.key: Any = None
        """What identifies the running test (the game and its version), or ``None``."""
        self.started = 0.0
        self.time_limit = 0.0

    def start(self, key: Any, time_limit: float) -> bool:
        """Starts the test ``key`` now, unless it is running already; whether it started."""
        if self.key == key:
            return False
        self.key = key
        self.started = self.clock()
        self.time_limit = time_limit
        return True

    def stop(self) -> None:
        """No test is running."""
        self.key = None

    @property
    def running(self) -> bool:
        return self.key is not None

    def elapsed(self) -> float:
        """Seconds since the test started, by the server's clock."""
        return max(0.0, self.clock() - self.started)

    def remaining(self) -> float:
        """Seconds left before the deadline (never below zero)."""
        return max(0.0, self.time_limit - self.elapsed())

    def expired(self) -> bool:
        """Whether the deadline has passed (an answer exactly at it still counts)."""
        return self.running and self.elapsed() > self.time_limit

    def judge(self, action: Any) -> Any:
        """A person's answer as the server records it: a ``react`` takes the larger of the
        claimed time and the time the server measured; anything else stays as it is."""
        if not self.running or self.test is None:
            return action
        return self.test.at_least(action, round(self.elapsed() * 1000))
