"""One-shot deadlines on the server's clock, for turn timers and grace periods."""

from __future__ import annotations

from collections.abc import Callable

from dos.server.clock import Cancellable, Clock


class Deadline:
    """A callback due after some seconds on ``clock``; starting it again replaces the
    previous one."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._handle: Cancellable | None = None
        self._due = 0.0
        self.until: float | None = None
        """When the pending callback is due on the wall clock (``Clock.time``), for another
        process to go on from (``dos.server.tables.handover``); ``None`` when none is pending."""

    @property
    def running(self) -> bool:
        """Whether a callback is pending."""
        return self._handle is not None

    def start(self, seconds: float, callback: Callable[[], None]) -> None:
        """Calls ``callback`` after ``seconds`` unless cancelled or started again first."""
        self.cancel()
        self._due = self.clock.monotonic() + seconds
        self.until = self.clock.time() + seconds

        def fire() -> None:
            self._handle = None
            self.until = None
            callback()

        self._handle = self.clock.call_later(seconds, fire)

    def remaining(self) -> float:
        """Seconds left (0 when none is pending)."""
        if self._handle is None:
            return 0.0
        return max(0.0, self._due - self.clock.monotonic())

    def cancel(self) -> None:
        """Drops the pending callback, if any."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        self.until = None
