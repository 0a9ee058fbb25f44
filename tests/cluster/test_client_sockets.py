"""A client's WebSockets on every process together (``dos.cluster.client_sockets``) over a
real redis-server: the cap holds across processes, a closed one frees its slot, and the
ones of a process that died stop counting once their time passes, while a live process's
beats keep its own counted."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis

from dos.cluster.client_sockets import BEAT_SECONDS, KEPT_SECONDS, RedisSockets
from dos.server.clock import ManualClock

pytestmark = pytest.mark.asyncio

CLIENT = "203.0.113.7"


async def test_the_cap_holds_on_all_processes_together_and_a_dead_ones_count_runs_out(
    redis: Redis,
) -> None:
    clock = ManualClock()
    live, dying, third = (RedisSockets(redis, f"p{i}", 3, clock) for i in range(3))
    try:
        assert [await live.take(CLIENT), await dying.take(CLIENT)] == [True, True]
        assert await third.take(CLIENT)
        assert not await live.take(CLIENT)  # three open, on three processes
        assert not await third.take(CLIENT)
        assert await third.take("198.51.100.1")  # another client counts apart

        await third.give_back(CLIENT)  # closed: its slot is free
        assert await live.take(CLIENT)
        assert not await third.take(CLIENT)

        await dying.close()  # killed: its beats stop, its WebSocket still counted...
        await clock.advance(KEPT_SECONDS - BEAT_SECONDS / 2)
        await live.beat()  # ...while the live process's are kept
        assert not await third.take(CLIENT)
        await clock.advance(BEAT_SECONDS)  # ...until its time passed
        assert await third.take(CLIENT)
        assert not await third.take(CLIENT)  # the live one's two and this one
    finally:
        for sockets in (live, dying, third):
            await sockets.close()
