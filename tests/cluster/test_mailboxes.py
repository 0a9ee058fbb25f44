"""The relayed connections' frames (``dos.cluster.mailboxes.RedisMailboxes``) over a real
redis-server: one stream per relaying process, read by one reader however many connections
it relays, each connection's frames in order and once, the frames of one turn to one relay in
one ``XADD``."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from redis.asyncio import Redis

from cluster.support import RedisServer
from dos.cluster.mailboxes import RedisMailboxes, frames_key
from dos.server.hosting.bus import Gap, Subscription, Update
from server.support import TIMEOUT

pytestmark = pytest.mark.asyncio

RELAY = "p1:vm:1:beef"


async def _next(mailbox: Subscription) -> Update | Gap:
    return await asyncio.wait_for(anext(aiter(mailbox)), TIMEOUT)


async def test_each_connection_gets_its_frames_in_order_once_with_a_gap_for_any_missed(
    redis: Redis, redis_server: RedisServer
) -> None:
    relay = RedisMailboxes(Redis.from_url(redis_server.url), RELAY, block_ms=200)
    owner = RedisMailboxes(Redis.from_url(redis_server.url), "p0:vm:2:cafe")
    try:
        first = await relay.open("ABCDEF", "c1")
        second = await relay.open("GHIJKL", "c2")
        await owner.post(RELAY, "ABCDEF", "c1", 1, {"t": "one"})
        await owner.post(RELAY, "GHIJKL", "c2", 1, {"t": "uno"})
        await owner.post(RELAY, "ABCDEF", "c1", 1, {"t": "one"})  # again: its answer lost
        await owner.post(RELAY, "ABCDEF", "c1", 2, {"t": "two"})
        await owner.post(RELAY, "ABCDEF", "c1", 4, {"t": "four"})  # three never came
        got = [await _next(first) for _ in range(4)]
        assert got == [
            Update("ABCDEF:c1", 1, {"t": "one"}),
            Update("ABCDEF:c1", 2, {"t": "two"}),
            Gap("ABCDEF:c1", 3, 3),
            Update("ABCDEF:c1", 4, {"t": "four"}),
        ]
        assert await _next(second) == Update("GHIJKL:c2", 1, {"t": "uno"})
    finally:
        await relay.close()
        await owner.close()
        await relay.redis.aclose()
        await owner.redis.aclose()


async def test_the_frames_of_one_turn_to_one_relay_are_one_command(
    redis: Redis, redis_server: RedisServer
) -> None:
    """An update for ten relayed clients of one table at one relay: one ``XADD``."""
    owner = RedisMailboxes(Redis.from_url(redis_server.url), "p0:vm:2:cafe")
    try:
        await asyncio.gather(
            *(owner.post(RELAY, "ABCDEF", f"c{i}", 1, {"t": "update"}) for i in range(10))
        )
        assert await redis.xlen(frames_key(RELAY)) == 1
    finally:
        await owner.close()
        await owner.redis.aclose()


async def _blocked_reads(redis: Redis) -> int:
    """How many clients of the server wait in a blocking ``XREAD`` now."""
    listed: Any = await redis.client_list()
    return sum(1 for client in listed if client["cmd"] == "xread" and "b" in client["flags"])


async def _xreads(redis: Redis) -> int:
    """How many ``XREAD`` commands the server has run."""
    stats: Any = await redis.info("commandstats")
    return int(stats.get("cmdstat_xread", {}).get("calls", 0))


@pytest.mark.parametrize("relayed", [5, 60])
async def test_a_relays_idle_connections_hold_one_redis_read_however_many(
    redis: Redis, redis_server: RedisServer, relayed: int
) -> None:
    """However many connections a process relays (idle spectators), their frames are read
    with one blocking read: one Redis connection, and a command per wait, for 5 and 60
    alike."""
    relay = RedisMailboxes(Redis.from_url(redis_server.url), RELAY, block_ms=60_000)
    before = await _xreads(redis)
    try:
        for i in range(relayed):
            await relay.open("ABCDEF", f"c{i}")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + TIMEOUT
        while await _blocked_reads(redis) < 1:
            assert loop.time() < deadline, "nothing reads"
            await asyncio.sleep(0.01)
        assert await _blocked_reads(redis) == 1
        assert await _xreads(redis) - before <= 1  # the one read, waiting
    finally:
        await relay.close()
        await relay.redis.aclose()


async def test_a_relays_stream_has_a_time_to_live_as_soon_as_it_exists(
    redis: Redis, redis_server: RedisServer
) -> None:
    """The stream is made by the first frame an owner posts; its relay gives it its time to
    live then, so that it expires once the relay is gone, however soon it dies."""
    relay = RedisMailboxes(Redis.from_url(redis_server.url), RELAY, block_ms=200)
    owner = RedisMailboxes(Redis.from_url(redis_server.url), "p0:vm:2:cafe")
    try:
        mailbox = await relay.open("ABCDEF", "c1")
        await owner.post(RELAY, "ABCDEF", "c1", 1, {"t": "one"})
        assert await _next(mailbox) == Update("ABCDEF:c1", 1, {"t": "one"})
        loop = asyncio.get_running_loop()
        deadline = loop.time() + TIMEOUT
        while await redis.ttl(frames_key(RELAY)) < 0:
            assert loop.time() < deadline, "the stream never expires"
            await asyncio.sleep(0.01)
    finally:
        await relay.close()
        await owner.close()
        await relay.redis.aclose()
        await owner.redis.aclose()
