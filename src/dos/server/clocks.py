"""A table's clocks: the turn timer and the reaction test's deadline.

Both run on the event loop (``dos.server.timers.Deadline``) and know nothing of the game: the
table tells them what the game is at (whose turn, which version, which test) after every
change, and they call the table back when a time runs out. The third clock of a table, the
pause between rounds, is ``dos.server.pause.RoundPause``.

* ``TurnTimer``: the seat to act has ``turn_seconds``, then a grace
  (``Settings.grace_seconds``), after which the stand-in plays for them. It restarts only when
  something new happened (another seat or version): resending the same turn changes nothing.
* ``ReactionClock``: the classic reaction test (``dos.server.reaction``): its ``Referee``
  measures by the server's clock (``dos.server.clock``), and its deadline wakes the table to apply
  ``timeout`` when nobody answered.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dos.ruleset import ReactionTest
from dos.server.clock import Clock
from dos.server.reaction import Referee
from dos.server.timers import Deadline


class TurnTimer:
    """The turn timer of one table: ``turn``, then ``grace``, then the stand-in.

    ``changed`` is called whenever what clients show of it changes (send ``info()``);
    ``grace_over(seat)`` when the grace has run out.
    """

    def __init__(
        self,
        grace_seconds: float,
        changed: Callable[[], None],
        grace_over: Callable[[int], None],
        clock: Clock,
    ) -> None:
        self.grace_seconds = grace_seconds
        self._changed = changed
        self._grace_over = grace_over
        self.clock = clock
        self.deadline = Deadline(clock)
        self.seat: int | None = None
        self.phase: str | None = None
        self._key: tuple[int, int] | None = None

    def info(self) -> dict[str, Any] | None:
        """The running timer as clients see it (``seat``, ``seconds`` left, ``phase``)."""
        if self.seat is None or not self.deadline.running:
            return None
        return {
            "seat": self.seat,
            "seconds": round(self.deadline.remaining(), 3),
            "phase": self.phase,
        }

    def run(self, seconds: float, seat: int, version: int) -> None:
        """``seat`` is to act at ``version``: its timer starts unless it already runs for
        that (or is in its grace, or ran out: nothing new happened)."""
        key = (seat, version)
        if self._key == key:
            return
        self._key = key
        self.seat = seat
        self.phase = "turn"
        self.deadline.start(seconds, lambda: self._timed_out(seat))
        self._changed()

    def held(self) -> tuple[int, int, str, float] | None:
        """The running timer as another process goes on from it (``dos.server.handover``):
        its seat, version, phase and deadline on the wall clock; ``None``: none runs."""
        until = self.deadline.until
        if self.seat is None or self._key is None or self.phase is None or until is None:
            return None
        return self.seat, self._key[1], self.phase, until

    def resume(self, seat: int, version: int, phase: str, until: float) -> None:
        """Goes on from another process's timer (``held``): ``seat``'s ``phase`` ends at
        ``until`` on the wall clock. A turn already past its end is in its grace by as much;
        a grace past its end ends at once (the stand-in plays)."""
        self._key = (seat, version)
        self.seat = seat
        left = until - self.clock.time()
        if phase == "turn" and left <= 0:
            phase, left = "grace", left + self.grace_seconds
        self.phase = phase
        if phase == "turn":
            self.deadline.start(left, lambda: self._timed_out(seat))
        else:
            self.deadline.start(max(left, 0.0), lambda: self._ended(seat))
        self._changed()

    def _timed_out(self, seat: int) -> None:
        self.phase = "grace"
        self.deadline.start(self.grace_seconds, lambda: self._ended(seat))
        self._changed()

    def _ended(self, seat: int) -> None:
        self._changed()
        self._grace_over(seat)

    def stop(self) -> None:
        """No timer runs (nobody to time, or a bot's turn); clients are told if one ran."""
        if self.seat is not None:
            self.deadline.cancel()
            self.seat = None
            self.phase = None
            self._changed()
        self._key = None

    def renew(self) -> None:
        """The next ``run`` starts afresh even for the same turn (a player came back, or a
        new game was dealt)."""
        self._key = None

    def cancel(self) -> None:
        """Stops it without telling anyone (the table closes)."""
        self.deadline.cancel()


class ReactionClock:
    """The server's clock over the reaction test being taken, and its deadline.

    ``due(key)`` is called when the test ``key``'s time has run out by the referee's clock.
    """

    def __init__(self, clock: Clock, test: ReactionTest | None, due: Callable[[Any], None]) -> None:
        self.clock = clock
        self.referee = Referee(clock.monotonic, test)
        self.deadline = Deadline(clock)
        self._due = due
        self.started_at = 0.0
        """When the running test started, on the wall clock (``dos.server.handover``)."""

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
        the wall clock: the time already gone counts (``dos.server.handover``)."""
        self.referee.start(key, limit)
        gone = max(0.0, self.clock.time() - started_at)
        self.referee.started = self.clock.monotonic() - gone
        self.started_at = started_at

    def run(self, key: Any, limit: float | None) -> None:
        """After a change: watches the test and arms its deadline when it is a new one."""
        before = self.referee.key
        if not self.watch(key, limit):
            self.deadline.cancel()
            return
        if self.referee.key != before or not self.deadline.running:
            self._arm(self.referee.key)

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
