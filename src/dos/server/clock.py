"""Where the server's time comes from: one ``Clock`` object, given to the service when it is
made (``Settings.clock``) and read by every table, timer, lease and background loop of the
server and its cluster, instead of ``time.time``, ``asyncio.sleep`` or ``loop.call_later``.

``SystemClock`` is the real one. ``ManualClock`` stands still until told to move: a test (or a
benchmark) moves it with ``advance`` instead of waiting, and every callback and sleeper due
meanwhile runs, in the order of their due times.

>>> import asyncio
>>> async def one_turn_timer() -> list[str]:
...     clock = ManualClock(start=1000.0)
...     said: list[str] = []
...     clock.call_later(30, lambda: said.append(f"time is up at {clock.time():.0f}"))
...     await clock.advance(29)
...     said.append("not yet")
...     await clock.advance(1)
...     return said
>>> asyncio.run(one_turn_timer())
['not yet', 'time is up at 1030']

What stays on real time even under a ``ManualClock``: the timeouts of sockets and client
libraries (Redis's, the database's, uvicorn's), Redis's own blocking reads, and rate limits
counted by the ``limits`` library (in Redis or in memory, on their own clock).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Protocol, TypeVar

T = TypeVar("T")

SETTLE_TURNS = 20
"""Turns of the event loop a ``ManualClock`` gives the tasks it woke before it moves on:
enough for a chain of awaits that needs no input or output to run to its next sleep."""

START = 2_000_000_000.0
"""Where a ``ManualClock`` starts unless told (2033-05-18, UTC): after the real time, so a
Redis key whose expiry is set on it (``PEXPIREAT``) is not removed by Redis's own clock
first (``dos.cluster.process_lease``)."""


class Cancellable(Protocol):
    """What ``Clock.call_later`` returns: the pending call, to cancel."""

    def cancel(self) -> None:
        """Drops the call if it has not run yet."""


class Clock(Protocol):
    """The server's time: the wall clock, a monotonic one, sleeps and delayed calls."""

    def time(self) -> float:
        """Seconds since the epoch (``time.time``): for rows, and deadlines that other
        processes read."""

    def monotonic(self) -> float:
        """Seconds that only increase (``time.monotonic``): for durations in this process."""

    def now(self) -> datetime:
        """The wall clock's time as an aware ``datetime`` in UTC."""

    async def sleep(self, seconds: float) -> None:
        """Returns after ``seconds`` (at the next turn of the event loop when 0 or less)."""

    def call_later(self, seconds: float, callback: Callable[[], None]) -> Cancellable:
        """Calls ``callback`` after ``seconds``, on the running event loop."""

    async def wait_for(self, awaitable: Awaitable[T], seconds: float) -> T:
        """``await awaitable``, cancelled with ``TimeoutError`` after ``seconds``."""


class SystemClock:
    """The real time: ``time``, ``asyncio``'s sleeps and the running loop's timers.

    >>> clock = SystemClock()
    >>> abs(clock.time() - time.time()) < 1, clock.now().tzinfo is UTC
    (True, True)
    """

    def time(self) -> float:
        return time.time()

    def monotonic(self) -> float:
        return time.monotonic()

    def now(self) -> datetime:
        return datetime.now(UTC)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    def call_later(self, seconds: float, callback: Callable[[], None]) -> Cancellable:
        return asyncio.get_running_loop().call_later(seconds, callback)

    async def wait_for(self, awaitable: Awaitable[T], seconds: float) -> T:
        return await asyncio.wait_for(awaitable, seconds)


@dataclass(order=True)
class _Timer:
    due: float
    order: int
    callback: Callable[[], None] = field(compare=False)
    cancelled: bool = field(default=False, compare=False)
    sleeper: bool = field(default=False, compare=False)
    """A task's ``sleep``, not a delayed call or a timeout (``ManualClock.waiting``)."""

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """A clock that moves only when told (``advance``), for tests and benchmarks.

    Its wall time starts at ``start`` (``START`` unless told) and its monotonic time at 0;
    both move together. Sleepers and delayed calls wait for ``advance`` to reach their due
    time and run in the order of their due times (then of their scheduling): the same test
    runs the same way every time.

    >>> clock = ManualClock(start=50.0)
    >>> clock.time(), clock.monotonic(), clock.now().isoformat()
    (50.0, 0.0, '1970-01-01T00:00:50+00:00')
    """

    def __init__(self, start: float = START) -> None:
        self._start = start
        self._elapsed = 0.0
        self._timers: list[_Timer] = []
        self._order = itertools.count()
        self._changed: asyncio.Event | None = None

    def time(self) -> float:
        return self._start + self._elapsed

    def monotonic(self) -> float:
        return self._elapsed

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.time(), UTC)

    @property
    def pending(self) -> list[float]:
        """The monotonic times at which the calls and sleepers now waiting are due, soonest
        first.

        >>> clock = ManualClock()
        >>> _ = clock.call_later(2, print), clock.call_later(1, print)
        >>> clock.pending
        [1.0, 2.0]
        """
        return sorted(t.due for t in self._timers if not t.cancelled)

    def call_later(self, seconds: float, callback: Callable[[], None]) -> Cancellable:
        return self._schedule(seconds, callback, sleeper=False)

    def _schedule(self, seconds: float, callback: Callable[[], None], sleeper: bool) -> _Timer:
        timer = _Timer(self._elapsed + max(0.0, seconds), next(self._order), callback)
        timer.sleeper = sleeper
        heapq.heappush(self._timers, timer)
        if self._changed is not None:
            self._changed.set()
        return timer

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def wake() -> None:
            if not woken.done():
                woken.set_result(None)

        timer = self._schedule(seconds, wake, sleeper=True)
        try:
            await woken
        finally:
            timer.cancel()

    async def wait_for(self, awaitable: Awaitable[T], seconds: float) -> T:
        task = asyncio.ensure_future(awaitable)
        if task.done():
            return task.result()
        expired = False

        def expire() -> None:
            nonlocal expired
            expired = True
            task.cancel()

        timer = self.call_later(seconds, expire)
        try:
            return await task
        except asyncio.CancelledError:
            if not expired:
                raise  # cancelled from outside, not by the clock
            raise TimeoutError(f"no answer within {seconds} s") from None
        finally:
            timer.cancel()

    async def advance(self, seconds: float) -> None:
        """Moves the clock ``seconds`` forward: each call and sleeper due by then runs at its
        due time, in order, and the tasks it wakes get the loop (``SETTLE_TURNS`` turns)
        before the clock moves on, so that a loop that sleeps again is woken again within
        the same ``advance`` when it is due."""
        if seconds < 0:
            raise ValueError(f"a clock never goes back: {seconds}")
        target = self._elapsed + seconds
        while self._timers and self._timers[0].due <= target:
            timer = heapq.heappop(self._timers)
            if timer.cancelled:
                continue
            self._elapsed = max(self._elapsed, timer.due)
            timer.cancelled = True  # run: cancelling it now does nothing
            timer.callback()
            await settle()
        self._elapsed = target
        await settle()

    async def waiting(self, count: int = 1) -> None:
        """Returns once at least ``count`` tasks sleep on the clock (``sleep``; delayed calls
        and ``wait_for``'s timeouts do not count): a test's way to know that a task went back
        to sleep (after its input or output) before it moves the clock again. Give it a real
        timeout (``asyncio.wait_for``)."""
        while sum(1 for t in self._timers if t.sleeper and not t.cancelled) < count:
            self._changed = self._changed or asyncio.Event()
            self._changed.clear()
            await self._changed.wait()


async def settle(turns: int = SETTLE_TURNS) -> None:
    """Gives the event loop ``turns`` turns: the tasks ready to run go as far as they can
    without waiting for input, output or time."""
    for _ in range(turns):
        await asyncio.sleep(0)


SYSTEM_CLOCK = SystemClock()
"""The real clock (it keeps no state: one serves everyone)."""
