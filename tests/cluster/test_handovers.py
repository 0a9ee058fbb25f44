"""A table's clocks and host's choices across a change of owner (``dos.cluster.handovers``,
``dos.server.tables.handover``): two server processes, played by two ``Service`` with their ``Node``
in one event loop, on one Redis and one database. The owner dies (its leases left to expire,
as after kill -9); the other takes the table over and goes on with the same turn deadline and
the host's allowance of hints, not a fresh turn. A former owner's late write is refused."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import pytest
from fastapi import WebSocket
from redis.asyncio import Redis

from cluster.conftest import node_of
from cluster.support import IN_LOOP_TTL
from dos.cluster.handovers import Handovers, handover_key
from dos.cluster.lease import lease_key
from dos.server.clock import ManualClock
from dos.server.net.connections import Client
from dos.server.net.limits import Counters, Limits
from dos.server.protocol.http_bodies import CreateTable, JoinTable
from dos.server.protocol.refusals import RefusedError
from dos.server.service import Service
from dos.server.tables import seating
from dos.server.tables.handover import Handover
from dos.server.tables.hints import allow

pytestmark = pytest.mark.asyncio

TURN = 40.0


async def test_the_next_owner_goes_on_with_the_turn_deadline_and_the_hosts_word(
    make: Callable[..., Any],
) -> None:
    clock = ManualClock()
    first: Service = await make("p0", clock)
    second: Service = await make("p1", clock)
    request = CreateTable(name="Ada", seats=[None, None], rated=False, turn_seconds=TURN)
    code = (await first.create(request, "test"))["code"]
    await first.join(code, JoinTable(name="Bea"), "test")
    table = await first.table(code)
    assert table is not None
    for seat in (0, 1):
        await seating.attach(
            table, Client(cast(WebSocket, None), "127.0.0.1", Counters(Limits())), seat
        )
    await table.start(0)
    await allow(table, 0, True)
    held = table.turn_timer.held()
    assert held is not None
    node = node_of(first)
    await node.handovers.flush()
    written = Handover.loads(await node.redis.get(handover_key(code)))
    assert written is not None and written.turn is not None and written.hints_allowed
    assert written.turn.until == held[3]
    holder = node.leases[code].claim
    assert holder is not None
    await first.stop()  # as a crash: its lease is left to run out
    with pytest.raises(RefusedError) as held_elsewhere:
        await second.table(code)  # not before the lease ran out
    assert held_elsewhere.value.code == "elsewhere"
    await clock.advance(IN_LOOP_TTL)  # its lease, renewed last at most now, has run out
    taken = await second.table(code)
    assert taken is not None and taken.current.version == table.current.version
    again = taken.turn_timer.held()
    assert again is not None and again[:3] == held[:3]
    assert again[3] == pytest.approx(held[3], abs=0.05)  # not a fresh turn of TURN seconds
    # A fresh turn would end TURN s from now; this one ends earlier by the time since it
    # started, at least the lease's run-out after its last renewal (two thirds of the TTL).
    assert again[3] - clock.time() < TURN - IN_LOOP_TTL / 2
    assert taken.hints_allowed
    # The former owner, awake again, writes its handover under its old lease: refused.
    now = node_of(second)
    await now.handovers.flush()
    before = await now.redis.get(handover_key(code))
    late = Handover(hints_allowed=False)
    now.handovers.note(code, holder, late)
    await now.handovers.flush()
    assert await now.redis.get(handover_key(code)) == before


async def test_a_handover_is_written_only_by_its_holder_and_after_redis_forgot_the_script(
    redis: Redis,
) -> None:
    handovers = Handovers(redis)
    await redis.set(lease_key("ABCDEF"), "7 p0:1:beef 0a1b2c3d")
    handovers.note("ABCDEF", "7 p0:1:beef 0a1b2c3d", Handover(hints_allowed=True))
    assert await handovers.flush()  # the script loaded at its first use
    await redis.script_flush()  # as after a restart of Redis
    handovers.note("ABCDEF", "7 p0:1:beef 0a1b2c3d", Handover(spectators_chat=True))
    assert await handovers.flush()
    assert await handovers.read("ABCDEF") == Handover(spectators_chat=True)
    handovers.note("ABCDEF", "6 p1:2:cafe 0a1b2c3d", Handover())  # not the holder: refused
    assert await handovers.flush()
    assert await handovers.read("ABCDEF") == Handover(spectators_chat=True)
