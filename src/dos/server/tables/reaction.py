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
  (``ReactionClock``'s ``due``, then ``Table.expire_reaction``), so a test nobody answers never
  holds the game up;
* bots on the server (bot seats and stand-ins) answer with the time their reflex drew, after
  waiting that long (scaled by ``--bot-delay``); the server trusts its own bots' times.

A table holds a ``ReactionClock``: the referee and the deadline that wakes the table, told after
every change which test the game is taking (its game's id and version, and its time limit).
The clock is injectable (``Settings.clock``; ``FakeClock``, ``ManualClock`` in tests), so the
timing rules are tested without waiting.

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
from collections.abc import Callable
from typing import Any

from dos.rules.classic import reaction
from dos.ruleset import Entry, ReactionTest
from dos.server.clock import Clock
from dos.server.tables.game_at import GameAt
from dos.server.tables.timers import Deadline


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

    def __init__(
        self, clock: reaction.Clock = time.monotonic, test: ReactionTest | None = None
    ) -> None:
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


class ReactionClock:
    """The server's clock over the reaction test being taken, and its deadline.

    ``due(key)`` is called when the test ``key``'s time has run out by the referee's clock.

    >>> from dos.server.clock import ManualClock
    >>> clock = ManualClock()
    >>> tests = ReactionClock(clock, None, due=print)
    >>> tests.run((1, 7), 3.0)
    >>> tests.overdue() is None, clock.pending
    (True, [3.0])
    """

    def __init__(self, clock: Clock, test: ReactionTest | None, due: Callable[[Any], None]) -> None:
        self.clock = clock
        self.referee = Referee(clock.monotonic, test)
        self.deadline = Deadline(clock)
        self._due = due
        self.started_at = 0.0
        """When the running test started, on the wall clock (``dos.server.tables.handover``)."""

    def watch(self, key: Any, limit: float | None) -> bool:
        """The game is at ``key`` (its id and version) with a reaction test of ``limit``
        seconds running (``None``: none): the referee's clock starts on a test it has not seen
        yet. Whether a test is running."""
        if limit is None or key is None:
            self.referee.stop()
            return False
        if self.referee.start(key, limit):
            self.started_at = self.clock.time()
        return True

    def resume(self, key: Any, limit: float, started_at: float) -> None:
        """Goes on with the test ``key`` that another process started at ``started_at`` on
        the wall clock: the time already gone counts (``dos.server.tables.handover``)."""
        self.referee.start(key, limit)
        gone = max(0.0, self.clock.time() - started_at)
        self.referee.started = self.clock.monotonic() - gone
        self.started_at = started_at

    def follow(self, at: GameAt | None) -> None:
        """After a change, the game at ``at``: ``run`` on the test it is taking, if any."""
        self.run(*(None, None) if at is None else at.test)

    def watching(self, at: GameAt | None) -> bool:
        """Whether the game at ``at`` is taking a reaction test (the referee's clock starts on
        one it has not seen yet: ``watch``)."""
        return self.watch(*(None, None) if at is None else at.test)

    def run(self, key: Any, limit: float | None) -> None:
        """After a change: watches the test and arms its deadline when it is a new one."""
        before = self.referee.key
        if not self.watch(key, limit):
            self.deadline.cancel()
            return
        if self.referee.key != before or not self.deadline.running:
            self._arm(self.referee.key)

    def overdue(self, key: Any = None) -> Any:
        """The running test (its key) if its time has run out by the server's clock, and it
        is ``key`` when given; else ``None``."""
        if key is not None and self.referee.key != key:
            return None
        return self.referee.key if self.referee.expired() else None

    def _arm(self, key: Any) -> None:
        """The deadline of the test ``key``, on the server's clock; checked by the referee
        when it comes."""
        wait = max(self.referee.remaining(), 0.001)
        self.deadline.start(wait, lambda: self._check(key))

    def _check(self, key: Any) -> None:
        if self.referee.key != key:
            return
        if not self.referee.expired():
            self._arm(key)
            return
        self._due(key)

    def cancel(self) -> None:
        """Stops the deadline (the table closes)."""
        self.deadline.cancel()
