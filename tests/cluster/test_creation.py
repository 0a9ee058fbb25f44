"""A table created on a server of many processes is its creator's from the moment it exists
(``Node.claim_new``, ``dos.cluster.ownership.take_new_table``): another process's scan for
tables without an owner, run between its storing and its claim, leaves it alone; its host is
seated, not refused ``elsewhere`` for a table that exists (found by bench/cluster_load.py:
a few creations in 200 refused with three processes)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from redis.asyncio import Redis
from sqlalchemy.orm import Session

from cluster.conftest import node_of
from cluster.support import IN_LOOP_TTL, TIMEOUT
from dos.server import service as service_module
from dos.server.clock import ManualClock
from dos.server.protocol.http_bodies import CreateTable
from dos.server.service import Service
from dos.server.storage.table_store import StoredTable, insert_table

pytestmark = pytest.mark.asyncio


async def test_a_scan_right_after_a_table_is_stored_does_not_take_it_from_its_creator(
    make: Callable[[str], Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = ManualClock()  # leases that run out only if the test moves it
    creator: Service = await make("p0", clock)
    other: Service = await make("p1", clock)
    loop = asyncio.get_running_loop()
    adopted: list[list[str]] = []

    def stored_then_scanned(session: Session, stored: StoredTable) -> None:
        insert_table(session, stored)
        session.commit()  # as the storing's own commit: the table is there for every scan
        # The other process scans for free tables now (from the database's thread).
        scan = asyncio.run_coroutine_threadsafe(node_of(other).adopt_free(), loop)
        adopted.append(scan.result(30))

    monkeypatch.setattr(service_module, "insert_table", stored_then_scanned)
    grant = await creator.create(CreateTable(name="Ada", seats=[None, None]), "test")
    code = grant["code"]
    assert adopted == [[]]  # the scan found it held
    node = node_of(creator)
    assert node.owns(code)
    assert code in creator.tables and code not in other.tables
    holder = await node.holder(code)
    assert holder is not None and holder.owner == node.owner


async def _reads(redis: Redis) -> int:
    """The scans' reads of who holds tables Redis ran so far (each scan's, for all its
    tables: one ``MGET`` of the claims, one of their owners' process leases)."""
    stats = await redis.info("commandstats")
    return int(stats.get("cmdstat_mget", {}).get("calls", 0))


async def _held_until(redis: Redis, code: str) -> int:
    """The time (ms, on the clock) the table is held until, its owner's process lease's, read
    with ``GET`` (not counted among the scans' reads)."""
    value = await redis.get(f"dos:table:{{{code}}}:lease")
    assert value is not None, f"the lease of {code} is gone"
    owner = value.decode().split(" ")[1]
    alive = await redis.get(f"dos:owner:{{{owner}}}:alive")
    assert alive is not None, f"the process lease of {owner} is gone"
    return int(alive.split()[-1])


async def _renewed(redis: Redis, code: str, held: int) -> None:
    """Returns once the holder has renewed the lease past ``held``."""
    while await _held_until(redis, code) <= held:
        await asyncio.sleep(0)


async def test_a_scan_reads_a_lease_held_elsewhere_again_only_once_its_time_passed(
    make: Callable[[str], Any], redis: Redis
) -> None:
    """A lease another process holds cannot be free before the time it is held until:
    scans before that time do not read it again; the first after it does (and finds it
    renewed)."""
    clock = ManualClock()
    creator: Service = await make("p0", clock)
    other: Service = await make("p1", clock)
    code = (await creator.create(CreateTable(name="Ada", seats=[None, None]), "test"))["code"]
    scanner = node_of(other)
    before = await _reads(redis)
    for _ in range(3):
        assert await scanner.adopt_free() == []
    assert await _reads(redis) - before == 2
    # The clock moves a TTL on, a renewal period at a time, each renewal done (its round trip
    # to Redis) before the clock moves again: moved at once, the clock would pass the lease's
    # expiry while a renewal was still on its way.
    for _ in range(3):
        held = await _held_until(redis, code)
        await clock.advance(IN_LOOP_TTL / 3)
        await asyncio.wait_for(_renewed(redis, code, held), TIMEOUT)
    assert await scanner.adopt_free() == []
    assert await _reads(redis) - before == 4


async def test_a_table_is_created_at_once_after_redis_forgot_the_process_lease(
    make: Callable[[str], Any], redis: Redis
) -> None:
    """Redis restarted without its data (here: emptied) forgets every lease, the creator's
    own process lease among them; the next creation finds that out as it claims the new
    table and takes a new process lease there and then, instead of refusing the host
    ``busy`` until the lease's next renewal notices (the clock does not move here: no
    renewal comes)."""
    clock = ManualClock()
    creator: Service = await make("p0", clock)
    first = await creator.create(CreateTable(name="Ada", seats=[None, None]), "test")
    node = node_of(creator)
    before = await node.holder(first["code"])
    assert before is not None and before.owner == node.owner
    await redis.flushall()
    second = await creator.create(CreateTable(name="Bea", seats=[None, None]), "test")
    assert node.owns(second["code"])
    holder = await node.holder(second["code"])
    assert holder is not None and holder.owner == node.owner

    # The table held under the forgotten lease was lost with it, and taken again in place
    # under a new epoch (its players see nothing): held here once the database has the new
    # epoch too, a moment after Redis has its claim.
    async def retaken() -> Any:
        while True:
            again = await node.holder(first["code"])
            if again is not None and again.epoch > before.epoch and node.owns(first["code"]):
                return again
            await asyncio.sleep(0.01)

    again = await asyncio.wait_for(retaken(), TIMEOUT)
    assert again.owner == node.owner
