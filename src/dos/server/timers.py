"""One-shot deadlines on the event loop, for turn timers and grace periods."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


class Deadline:
    """A callback due after some seconds; starting it again replaces the previous one."""

    def __init__(self) -> None:
        self._handle: asyncio.TimerHandle | None = None
        self._due = 0.0
        self.until: float | None = None
        """When the pending callback is due on the wall clock (``time.time``), for another
        process to go on from (``dos.server.handover``); ``None`` when none is pending."""

    @property
    def running(self) -> bool:
        """Whether a callback is pending."""
        return self._handle is not None

    def start(self, seconds: float, callback: Callable[[], None]) -> None:
        """Calls ``callback`` after ``seconds`` unless cancelled or started again first."""
        self.cancel()
        loop = asyncio.get_running_loop()
        self._due = loop.time() + seconds
        self.until = time.time() + seconds

        def fire() -> None:
            self._handle = None
            self.until = None
            callback()

        self._handle = loop.call_later(seconds, fire)

    def remaining(self) -> float:
        """Seconds left (0 when none is pending)."""
        if self._handle is None:
            return 0.0
        return max(0.0, self._due - asyncio.get_running_loop().time())

    def cancel(self) -> None:
        """Drops the pending callback, if any."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        self.until = None
