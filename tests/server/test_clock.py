"""The server's clock (``dos.server.clock``): the manual one moves only when told, and runs
what falls due in order; the system one is the real time."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime

import pytest

from dos.server.clock import Clock, ManualClock, SystemClock, settle

pytestmark = pytest.mark.asyncio


async def test_a_manual_clock_stands_still_until_it_is_moved() -> None:
    clock = ManualClock(start=100.0)
    await asyncio.sleep(0.01)
    assert (clock.time(), clock.monotonic()) == (100.0, 0.0)
    await clock.advance(2.5)
    assert (clock.time(), clock.monotonic()) == (102.5, 2.5)
    assert clock.now() == datetime.fromtimestamp(102.5, UTC)


async def test_a_manual_clock_never_goes_back() -> None:
    with pytest.raises(ValueError, match="never goes back"):
        await ManualClock().advance(-1)


async def test_delayed_calls_run_in_the_order_they_fall_due_at_their_own_time() -> None:
    clock = ManualClock(start=0.0)
    seen: list[tuple[str, float]] = []
    clock.call_later(3, lambda: seen.append(("c", clock.time())))
    clock.call_later(1, lambda: seen.append(("a", clock.time())))
    clock.call_later(1, lambda: seen.append(("b", clock.time())))  # same time: in order made
    await clock.advance(2)
    assert seen == [("a", 1.0), ("b", 1.0)]
    await clock.advance(5)
    assert seen == [("a", 1.0), ("b", 1.0), ("c", 3.0)]
    assert clock.time() == 7.0


async def test_a_cancelled_call_never_runs() -> None:
    clock = ManualClock()
    seen: list[str] = []
    handle = clock.call_later(1, lambda: seen.append("ran"))
    handle.cancel()
    await clock.advance(2)
    assert seen == [] and clock.pending == []


async def test_a_sleeper_wakes_when_the_clock_reaches_its_time() -> None:
    clock = ManualClock()
    woke: list[float] = []

    async def nap() -> None:
        await clock.sleep(10)
        woke.append(clock.monotonic())

    task = asyncio.create_task(nap())
    await clock.waiting()
    await clock.advance(9.9)
    assert woke == []
    await clock.advance(0.1)
    assert woke == [10.0] and task.done()


async def test_a_loop_that_sleeps_again_wakes_every_time_within_one_advance() -> None:
    clock = ManualClock()
    ticks: list[float] = []

    async def every_second() -> None:
        while True:
            await clock.sleep(1)
            ticks.append(clock.monotonic())

    task = asyncio.create_task(every_second())
    await clock.waiting()
    await clock.advance(3.5)
    assert ticks == [1.0, 2.0, 3.0]
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert clock.pending == []  # a cancelled sleeper leaves nothing behind


async def test_a_sleep_of_nothing_only_yields() -> None:
    clock = ManualClock()
    await clock.sleep(0)
    assert clock.pending == [] and clock.monotonic() == 0


async def test_waiting_for_an_answer_times_out_on_the_clock() -> None:
    clock = ManualClock()
    never: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    waiter = asyncio.create_task(clock.wait_for(never, 5))
    await settle()
    assert clock.pending == [5.0]
    await clock.advance(4.9)
    assert not waiter.done()
    await clock.advance(0.1)
    with pytest.raises(TimeoutError):
        await waiter
    assert never.cancelled()


async def test_an_answer_in_time_is_returned_and_its_timer_dropped() -> None:
    clock = ManualClock()

    async def answer() -> int:
        await clock.sleep(1)
        return 42

    waiter = asyncio.create_task(clock.wait_for(answer(), 5))
    await clock.waiting()  # the answer's sleep; the timeout is no sleeper
    assert clock.pending == [1.0, 5.0]
    await clock.advance(1)
    assert await waiter == 42
    assert clock.pending == []


async def test_cancelling_the_waiter_is_no_timeout() -> None:
    clock = ManualClock()
    never: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    waiter = asyncio.create_task(clock.wait_for(never, 5))
    await settle()
    waiter.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiter


async def test_the_system_clock_is_the_real_time() -> None:
    clock: Clock = SystemClock()
    assert abs(clock.time() - time.time()) < 1
    assert abs(clock.monotonic() - time.monotonic()) < 1
    assert clock.now().tzinfo is UTC
    fired = asyncio.Event()
    clock.call_later(0, fired.set)
    await clock.sleep(0.001)
    await asyncio.wait_for(fired.wait(), 1)
    with pytest.raises(TimeoutError):
        await clock.wait_for(asyncio.Event().wait(), 0.001)


async def test_both_clocks_are_clocks() -> None:
    clocks: list[Clock] = [SystemClock(), ManualClock()]
    assert len(clocks) == 2  # mypy checks that each fits the protocol
