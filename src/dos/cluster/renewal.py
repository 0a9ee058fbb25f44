"""Keeping a process's lease: ``LeaseRenewal`` renews a
``dos.cluster.process_lease.ProcessLease`` in the background, and says once when it is lost
(and with it every table the process holds).

A holder renews after a third of the TTL (``RENEW_FRACTION``), so two renewals may fail
before the lease expires. The lease counts as lost when a renewal finds it expired, or when
Redis has not confirmed it before it would expire (unreachable, or this process too busy to
renew in time): the process must stop acting as its tables' owner.
Times are on the lease's clock (``ProcessLease.clock``), so a test moves a ``ManualClock``
instead of waiting.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from types import TracebackType

from dos.cluster.lease_errors import LeaseLostError, RedisUnavailableError
from dos.cluster.process_lease import ProcessLease
from dos.cluster.tasks import stop as stop_task

log = logging.getLogger(__name__)

RENEW_FRACTION = 1 / 3
"""A holder renews after this fraction of the TTL, so two renewals may fail before expiry."""


class LeaseRenewal:
    """Keeps a held lease: a task renews it after every ``every`` seconds (a third of the TTL
    unless told), until ``stop`` or until the lease is lost.

    The lease counts as lost, reported once through ``lost`` (an event), ``reason`` and the
    ``on_lost`` callback, when a renewal finds it expired, or when
    Redis has not confirmed it before ``valid_until`` (unreachable, or this process was too
    busy to renew in time). Failures of Redis before then are retried at the next tick.
    Nothing is raised out of the task.

    Use it as ``async with LeaseRenewal(lease, on_lost=...):`` or ``start`` and ``stop``.
    """

    def __init__(
        self,
        lease: ProcessLease,
        on_lost: Callable[[LeaseLostError], None] | None = None,
        every: float | None = None,
    ) -> None:
        self.lease = lease
        self.on_lost = on_lost
        self.every = lease.ttl * RENEW_FRACTION if every is None else every
        if not 0 < self.every < lease.ttl:
            raise ValueError(f"renewals come within the TTL ({lease.ttl}s): {self.every}")
        self.lost = asyncio.Event()
        self.reason: LeaseLostError | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Starts renewing (in the running event loop); raises ``LeaseLostError`` if the
        lease is not held."""
        if not self.lease.held:
            raise LeaseLostError(self.lease.code, None, "it is not held", subject="process")
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(
                self._keep(), name="process-lease-renewal"
            )

    async def stop(self) -> None:
        """Stops renewing (the lease stays held until it expires or is released)."""
        task, self._task = self._task, None
        if task is not None:
            await stop_task(task)

    async def __aenter__(self) -> LeaseRenewal:
        self.start()
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.stop()

    async def _keep(self) -> None:
        lease = self.lease
        failure = ""
        while True:
            # Wakes at the next renewal, or at the expiry if that comes first (after failures).
            clock = lease.clock
            await clock.sleep(min(self.every, max(0.0, lease.valid_until - clock.monotonic())))
            left = lease.valid_until - clock.monotonic()
            if left <= 0:
                why = "it expired before it could be renewed (the process was too busy)"
                if failure:
                    why = f"Redis did not confirm it before it expired ({failure})"
                self._lose(LeaseLostError(lease.code, None, why, subject="process"))
                return
            try:
                await clock.wait_for(lease.renew(), left)
            except LeaseLostError as error:
                self._lose(error)
                return
            except RedisUnavailableError as error:
                failure = str(error)
                log.warning("%s; retrying until the lease expires", error)
            except TimeoutError:
                failure = "no answer in time"
            else:
                failure = ""

    def _lose(self, reason: LeaseLostError) -> None:
        self.lease.forget()
        self.reason = reason
        self.lost.set()
        if self.on_lost is not None:
            try:
                self.on_lost(reason)
            except Exception:
                log.exception("process %s: the lease-lost callback failed", self.lease.code)
