"""A process's Redis clients under many relayed connections (``dos.cluster.node.clients``):
hundreds of subscriptions blocked in their reads at once must not leave a lease without a
connection to renew it, nor themselves fail for want of one. The lease runs on a
``ManualClock`` that does not move: only a renewal that cannot get a connection fails it, not a
slow machine."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis

from cluster.support import RedisServer
from dos.cluster.bus import RedisBus
from dos.cluster.lease import TableLease
from dos.cluster.node import clients
from dos.server.clock import ManualClock
from dos.server.hosting.bus import Update

pytestmark = pytest.mark.asyncio

SUBSCRIPTIONS = 300
"""More than a default pool of redis-py (100 connections) holds."""


async def test_a_lease_is_renewed_while_hundreds_of_subscriptions_block_in_their_reads(
    redis: Redis, redis_server: RedisServer
) -> None:
    control, bus_redis = clients(redis_server.url)
    bus = RedisBus(bus_redis, block_ms=500)
    try:
        subscriptions = [await bus.subscribe(f"T{i}") for i in range(SUBSCRIPTIONS)]
        readers = [asyncio.create_task(anext(aiter(s))) for s in subscriptions]
        await asyncio.sleep(0)  # the readers start their blocking reads
        lease = TableLease(control, "ABCDEF", "p0:1:beef", 3.0, clock=ManualClock())
        assert await lease.acquire() == 1
        await lease.renew()
        for i in range(SUBSCRIPTIONS):
            await bus.publish(f"T{i}", 1, {"i": i})
        got = await asyncio.wait_for(asyncio.gather(*readers), 30)
        assert got == [Update(f"T{i}", 1, {"i": i}) for i in range(SUBSCRIPTIONS)]
        for subscription in subscriptions:
            await subscription.close()
    finally:
        await bus.close()
        await control.aclose()
        await bus_redis.aclose()
