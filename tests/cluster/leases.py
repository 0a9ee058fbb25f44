"""Leases for the cluster tests: a table's lease under a process lease of its own, taken."""

from __future__ import annotations

from redis.asyncio import Redis

from dos.cluster.lease import TableLease
from dos.cluster.process_lease import DEFAULT_TTL, ProcessLease
from dos.server.clock import SYSTEM_CLOCK, Clock


async def process_lease(
    redis: Redis, owner: str, ttl: float = DEFAULT_TTL, clock: Clock = SYSTEM_CLOCK
) -> ProcessLease:
    """Process ``owner``'s lease, acquired."""
    process = ProcessLease(redis, owner, ttl, clock=clock)
    await process.acquire()
    return process


async def table_lease(
    redis: Redis, code: str, owner: str, ttl: float = DEFAULT_TTL, clock: Clock = SYSTEM_CLOCK
) -> TableLease:
    """``code``'s lease for process ``owner``, whose process lease is acquired (the table's
    is not)."""
    return TableLease(await process_lease(redis, owner, ttl, clock), code)
