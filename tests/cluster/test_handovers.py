"""A table's clocks and host's choices across a change of owner (``dos.cluster.handovers``,
``dos.server.tables.handover``): two server processes, played by two ``Service`` with their ``Node``
in one event loop, on one Redis and one database. The owner dies (its leases left to expire,
as after kill -9); the other takes the table over and goes on with the same turn deadline and
the host's allowance of hints, not a fresh turn. A former owner's late write hides nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import pytest
from fastapi import WebSocket
from redis.asyncio import Redis

from cluster.conftest import node_of
from cluster.support import IN_LOOP_TTL
from dos.cluster.handovers import KEPT_SECONDS, Handovers, handover_key
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
    written = await node.handovers.read(code)
    assert written is not None and written.turn is not None and written.hints_allowed
    assert written.turn.until == held[3]
    epoch = node.epoch_of(code)
    assert epoch is not None
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
    # The former owner, awake again, writes its handover under its old epoch: it hides
    # nothing the new owner wrote.
    now = node_of(second)
    await now.handovers.flush()
    before = await now.handovers.read(code)
    assert before is not None and before.hints_allowed
    late = Handovers(now.redis)
    late.note(code, epoch, Handover(hints_allowed=False))
    await late.flush()
    assert await now.handovers.read(code) == before


async def test_the_newest_owners_handover_is_read_and_a_late_one_hides_nothing(
    redis: Redis,
) -> None:
    former, holder, taker = Handovers(redis), Handovers(redis), Handovers(redis)
    former.note("ABCDEF", 6, Handover(hints_allowed=True))
    assert await former.flush()
    assert await holder.read("ABCDEF") == Handover(hints_allowed=True)  # taken over
    holder.note("ABCDEF", 7, Handover(spectators_chat=True))
    assert await holder.flush()
    assert await redis.hkeys(handover_key("ABCDEF")) == [b"7"]  # what it read, removed
    assert 0 < await redis.ttl(handover_key("ABCDEF")) <= KEPT_SECONDS
    former.note("ABCDEF", 6, Handover())  # the former owner, awake late
    assert await former.flush()
    assert await taker.read("ABCDEF") == Handover(spectators_chat=True)
    holder.note("ABCDEF", 7, Handover(hints_allowed=True, spectators_chat=True))
    assert await holder.flush()
    assert await taker.read("ABCDEF") == Handover(hints_allowed=True, spectators_chat=True)


async def test_a_handover_that_did_not_change_is_not_written_again(redis: Redis) -> None:
    handovers = Handovers(redis)
    handovers.note("ABCDEF", 7, Handover(hints_allowed=True))
    assert await handovers.flush()
    stats = await redis.info("commandstats")
    before = int(stats.get("cmdstat_hset", {}).get("calls", 0))
    handovers.note("ABCDEF", 7, Handover(hints_allowed=True))
    assert await handovers.flush()
    handovers.note("ABCDEF", 8, Handover(hints_allowed=True))  # taken again, a new epoch
    assert await handovers.flush()
    stats = await redis.info("commandstats")
    assert int(stats["cmdstat_hset"]["calls"]) - before == 1
