"""``dos.cluster.tasks.stop``: a background task that swallowed its cancellation (as one of
a process's tasks did, under redis-py, hanging a process's stop and CI's teardown) is
cancelled again until it ends."""

from __future__ import annotations

import asyncio

import pytest

from dos.cluster.tasks import stop

pytestmark = pytest.mark.asyncio


async def test_a_task_that_swallows_its_cancellation_is_stopped_all_the_same(
    caplog: pytest.LogCaptureFixture,
) -> None:
    never = asyncio.Event()
    swallowed = asyncio.Event()

    async def stubborn() -> None:
        while True:
            try:
                await never.wait()
            except asyncio.CancelledError:
                if swallowed.is_set():
                    raise
                swallowed.set()  # once: as a library turning it into something it retries

    task = asyncio.create_task(stubborn())
    await asyncio.sleep(0)  # it waits
    await asyncio.wait_for(stop(task), 10)
    assert swallowed.is_set() and task.cancelled()
    assert "did not end when cancelled" in caplog.text


async def test_a_task_that_failed_is_stopped_quietly() -> None:
    async def failing() -> None:
        raise ValueError("failed")

    task = asyncio.create_task(failing())
    await asyncio.sleep(0)
    await stop(task)
    assert isinstance(task.exception(), ValueError)
