"""A table's turn timer: the seat to act has ``turn_seconds``, then a grace
(``Settings.grace_seconds``), after which the stand-in plays for them
(``dos.server.tables.stand_ins``).

It runs on the event loop (``dos.server.tables.timers.Deadline``) and knows nothing of the game: the
table tells it whose turn it is at which version after every change, and it calls the table
back when a time runs out. It restarts only when something new happened (another seat or
version): resending the same turn changes nothing. A table's other clocks are the reaction
test's (``dos.server.tables.reaction.ReactionClock``) and the pause between rounds
(``dos.server.tables.pause.RoundPause``).

>>> from dos.server.clock import ManualClock
>>> timer = TurnTimer(10.0, changed=lambda: None, grace_over=print, clock=ManualClock())
>>> timer.run(30.0, seat=1, version=4)
>>> timer.info()
{'seat': 1, 'seconds': 30.0, 'phase': 'turn'}
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dos.server.clock import Clock
from dos.server.protocol.server_messages import server_message
from dos.server.tables.game_at import GameAt
from dos.server.tables.timers import Deadline


class TurnTimer:
    """The turn timer of one table: ``turn``, then ``grace``, then the stand-in.

    ``changed`` is called whenever what clients show of it changes (send ``info()``);
    ``grace_over(seat)`` when the grace has run out.
    """

    def __init__(
        self,
        grace_seconds: float,
        changed: Callable[[], None],
        grace_over: Callable[[int], object],
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

    def message(self) -> str:
        """The ``timer`` message: the running timer's seat, seconds left and phase (all null:
        none runs)."""
        info = self.info() or {"seat": None, "seconds": None, "phase": None}
        return server_message("timer", **info)

    def follow(self, at: GameAt | None) -> None:
        """After a change, the game at ``at``: the seat to act is timed if its turn is
        (``run``), else no timer runs (``stop``)."""
        if at is None or at.turn_seconds is None:
            self.stop()
        else:
            self.run(at.turn_seconds, at.turn, at.version)

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
        """The running timer as another process goes on from it (``dos.server.tables.handover``):
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
