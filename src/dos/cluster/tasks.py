"""Stopping a background task for sure.

``task.cancel()`` followed by ``await task`` hangs for ever when the task swallows its
cancellation (a library under it catching ``CancelledError``, or turning it into a timeout
it retries) and then waits on something nobody will set: a process's stop, or a test's
teardown, never ends. ``stop`` cancels again until the task is done, and says so in the log
when once was not enough.
"""

from __future__ import annotations

import asyncio
import logging

log = logging.getLogger(__name__)

AGAIN_SECONDS = 0.5
"""How long a cancelled task has to end before it is cancelled again."""


async def stop(task: asyncio.Task[object] | asyncio.Task[None]) -> None:
    """Cancels ``task`` until it is done (its result or error dropped).

    >>> async def main() -> bool:
    ...     task = asyncio.create_task(asyncio.sleep(60))
    ...     await stop(task)
    ...     return task.cancelled()
    >>> asyncio.run(main())
    True
    """
    tries = 0
    while not task.done():
        task.cancel()
        tries += 1
        if tries == 2:
            log.warning("task %s did not end when cancelled: cancelled again", task.get_name())
        await asyncio.wait({task}, timeout=AGAIN_SECONDS)
    if not task.cancelled():
        task.exception()  # retrieved: never "exception was never retrieved"
