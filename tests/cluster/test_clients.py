"""A process's Redis clients under many relayed connections (``dos.cluster.node.clients``):
hundreds of subscriptions waiting for updates at once must not leave a lease without a
connection to renew it, nor themselves fail for want of one, and they share one read. The
lease runs on a ``ManualClock`` that does not move: only a renewal that cannot get a
connection fails it, not a slow machine. (The relayed connections' frames come through the
mailboxes, ``tests/cluster/test_mailboxes.py``.)"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from redis.asyncio import Redis

from cluster.leases import table_lease
from cluster.support import RedisServer
from dos.cluster.bus import RedisBus
from dos.cluster.node import clients
from dos.server.clock import ManualClock
from dos.server.hosting.bus import Update
from server.support import TIMEOUT

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
        lease = await table_lease(control, "ABCDEF", "p0:1:beef", 3.0, clock=ManualClock())
        assert await lease.acquire() == 1
        await lease.process.renew()
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


async def _blocked_reads(redis: Redis) -> int:
    """How many clients of the server wait in a blocking ``XREAD`` now."""
    listed: Any = await redis.client_list()
    return sum(1 for client in listed if client["cmd"] == "xread" and "b" in client["flags"])


async def _xreads(redis: Redis) -> int:
    """How many ``XREAD`` commands the server has run."""
    stats: Any = await redis.info("commandstats")
    return int(stats.get("cmdstat_xread", {}).get("calls", 0))


@pytest.mark.parametrize("subscribed", [5, 60])
async def test_a_bus_reads_its_idle_subscriptions_with_one_redis_read_however_many(
    redis: Redis, redis_server: RedisServer, subscribed: int
) -> None:
    """A process's bus reads the streams of all its subscriptions with one blocking read:
    however many are idle, they hold one Redis connection between them, and each wait for
    updates costs Redis one command (for 5 and for 60 alike), not one a subscription."""
    _control, bus_redis = clients(redis_server.url)
    bus = RedisBus(bus_redis, block_ms=60_000)  # idle: no read ends by its own timeout
    try:
        subscriptions = [await bus.subscribe(f"T:c{i}", after=0) for i in range(subscribed)]
        readers = [asyncio.create_task(anext(aiter(s))) for s in subscriptions]
        loop = asyncio.get_running_loop()
        deadline = loop.time() + TIMEOUT
        while await _blocked_reads(redis) < 1:
            assert loop.time() < deadline, "nothing reads"
            await asyncio.sleep(0.01)
        await asyncio.sleep(0)
        assert await _blocked_reads(redis) == 1
        before = await _xreads(redis)
        await bus.publish("T:c0", 1, {"t": "hi"})
        assert await asyncio.wait_for(readers[0], TIMEOUT) == Update("T:c0", 1, {"t": "hi"})
        while await _blocked_reads(redis) < 1:  # the reader waits again
            assert loop.time() < deadline, "nothing reads again"
            await asyncio.sleep(0.01)
        assert await _xreads(redis) - before <= 2  # the read that woke, the next one
        for subscription in subscriptions:
            await subscription.close()
        await asyncio.gather(*readers[1:], return_exceptions=True)  # ended: nothing came
    finally:
        await bus.close()
        await _control.aclose()
        await bus_redis.aclose()
