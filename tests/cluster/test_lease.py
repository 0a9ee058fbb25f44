"""Leases in Redis: a process's lease, renewed once a period whatever the number of its tables,
and its tables' claims under it: one holder at a time, every table lost with a lapse of the
process lease, release, and epochs that only grow (``dos.cluster.process_lease``,
``dos.cluster.lease``, ``dos.cluster.renewal``). Expiry and renewals on a ``ManualClock``, moved
instead of waited for."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis

from cluster.leases import process_lease, table_lease
from cluster.support import RedisServer
from dos.cluster.lease import Holder, LeaseHeldError, TableLease, lease_key
from dos.cluster.lease_errors import LeaseLostError, RedisUnavailableError
from dos.cluster.process_lease import ProcessLease, clock_ms
from dos.cluster.renewal import LeaseRenewal
from dos.server.clock import ManualClock
from server.support import TIMEOUT

pytestmark = pytest.mark.asyncio

CODE = "ABCDEF"


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


async def tick(clock: ManualClock, renewal: LeaseRenewal) -> None:
    """Moves the clock by the renewal's period once the renewal task sleeps on it again
    (after its round trip to Redis), unless it has reported the lease lost by then."""
    sleeping = asyncio.ensure_future(clock.waiting())
    lost = asyncio.ensure_future(renewal.lost.wait())
    done, pending = await asyncio.wait(
        {sleeping, lost}, timeout=TIMEOUT, return_when=asyncio.FIRST_COMPLETED
    )
    for task in pending:
        task.cancel()
    assert done, "the renewal task neither slept again nor reported the lease lost"
    if not renewal.lost.is_set():
        await clock.advance(renewal.every)


async def until_lost(clock: ManualClock, renewal: LeaseRenewal) -> None:
    """Moves the clock by the renewal's period until the renewal reports the lease lost."""
    for _ in range(1000):
        if renewal.lost.is_set():
            return
        await tick(clock, renewal)
    raise AssertionError("the lease was never reported lost")


async def _evalsha_calls(redis: Redis) -> int:
    stats = await redis.info("commandstats")
    return int(stats.get("cmdstat_evalsha", {}).get("calls", 0))


async def test_only_one_owner_holds_a_table_at_a_time(redis_server: RedisServer) -> None:
    first, second = Redis.from_url(redis_server.url), Redis.from_url(redis_server.url)
    await first.flushdb()
    try:
        a = await table_lease(first, CODE, "owner-a")
        b = await table_lease(second, CODE, "owner-b")
        assert await a.acquire() == 1
        with pytest.raises(LeaseHeldError) as refused:
            await b.acquire()
        assert refused.value.holder == Holder("owner-a", 1)
        assert str(refused.value) == "table ABCDEF: the lease is held by owner-a (epoch 1)"
        assert await b.holder() == Holder("owner-a", 1)
        assert a.held and not b.held
    finally:
        await first.aclose()
        await second.aclose()


async def test_acquiring_a_table_already_held_keeps_its_epoch(redis: Redis) -> None:
    lease = await table_lease(redis, CODE, "owner-a")
    assert await lease.acquire() == 1
    assert await lease.acquire() == 1
    assert await lease.holder() == Holder("owner-a", 1)


async def test_a_refused_acquisition_does_not_use_up_an_epoch(redis: Redis) -> None:
    a = await table_lease(redis, CODE, "owner-a")
    b = await table_lease(redis, CODE, "owner-b")
    await a.acquire()
    for _ in range(3):
        with pytest.raises(LeaseHeldError):
            await b.acquire()
    await a.release()
    assert await b.acquire() == 2


async def test_tables_have_leases_and_epochs_of_their_own(redis: Redis) -> None:
    assert await (await table_lease(redis, "AAAAAA", "owner-a")).acquire() == 1
    assert await (await table_lease(redis, "BBBBBB", "owner-b")).acquire() == 1


async def test_a_lapsed_process_lease_frees_every_table_for_the_next_owner(
    redis: Redis, clock: ManualClock
) -> None:
    process = await process_lease(redis, "owner-a", ttl=3, clock=clock)
    mine = [TableLease(process, code) for code in ("AAAAAA", "BBBBBB", "CCCCCC")]
    for lease in mine:
        assert await lease.acquire() == 1
    b = await process_lease(redis, "owner-b", ttl=10, clock=clock)
    await clock.advance(2.999)
    with pytest.raises(LeaseHeldError):
        await TableLease(b, "AAAAAA").acquire()
    assert all(lease.held for lease in mine)
    await clock.advance(0.001)
    assert not any(lease.held for lease in mine)  # its TTL is over, as far as it can tell
    for code in ("AAAAAA", "BBBBBB", "CCCCCC"):
        taken = TableLease(b, code)
        assert await taken.acquire() == 2
        assert await taken.holder() == Holder("owner-b", 2)


async def test_a_process_taking_a_new_incarnation_has_lost_its_former_tables(
    redis: Redis,
) -> None:
    process = await process_lease(redis, "owner-a")
    lease = TableLease(process, CODE)
    assert await lease.acquire() == 1
    await redis.delete(process.key)  # lapsed
    await process.acquire()
    assert not lease.held
    assert await lease.holder() is None  # nobody: the claim names the former incarnation
    again = TableLease(process, CODE)
    assert await again.acquire() == 2  # taken again the normal way, under a larger epoch
    assert again.held


async def test_redis_expires_a_process_lease_at_the_clocks_time_plus_its_ttl(
    redis: Redis, clock: ManualClock
) -> None:
    process = await process_lease(redis, "owner-a", ttl=3, clock=clock)
    lease = TableLease(process, CODE)
    await lease.acquire()
    assert await redis.pexpiretime(process.key) == clock_ms(clock) + 3000
    assert await redis.pexpiretime(lease.key) == -1  # a table's claim has no expiry
    await clock.advance(1)
    await process.renew()
    assert await redis.pexpiretime(process.key) == clock_ms(clock) + 3000


async def test_on_the_real_clock_redis_removes_an_expired_process_lease_itself(
    redis: Redis,
) -> None:
    process = await process_lease(redis, "owner-a", ttl=0.05)
    left_ms = await redis.pttl(process.key)
    assert 0 < left_ms <= 50 or left_ms == -2  # -2: gone already, on a slow machine
    async with asyncio.timeout(10):  # Redis removes it on its own clock, unasked
        while await redis.exists(process.key):
            await asyncio.sleep(0.01)


async def test_renewing_a_lapsed_process_lease_reports_it_lost(redis: Redis) -> None:
    process = await process_lease(redis, "owner-a")
    await redis.delete(process.key)
    with pytest.raises(LeaseLostError, match="it expired") as lost:
        await process.renew()
    assert str(lost.value) == "process owner-a: the lease was lost: it expired"
    with pytest.raises(LeaseLostError, match="it is not held"):
        await process.renew()
    with pytest.raises(LeaseLostError, match="lease is not held"):
        await TableLease(process, CODE).acquire()


async def test_a_table_cannot_be_taken_under_a_lease_that_lapsed_unseen(redis: Redis) -> None:
    process = await process_lease(redis, "owner-a")
    await redis.delete(process.key)  # lapsed, the process not told yet
    with pytest.raises(LeaseLostError, match="this process's lease expired"):
        await TableLease(process, CODE).acquire()
    assert not process.held
    assert await redis.get(lease_key(CODE)) is None


async def test_one_renewal_a_period_keeps_every_table_of_the_process(
    redis: Redis, clock: ManualClock
) -> None:
    process = await process_lease(redis, "owner-a", ttl=3, clock=clock)
    tables = [TableLease(process, f"T{i:05d}") for i in range(50)]
    for lease in tables:
        await lease.acquire()
    other = await process_lease(redis, "owner-b", ttl=100, clock=clock)
    async with LeaseRenewal(process) as renewal:
        before = await _evalsha_calls(redis)
        for _ in range(7):  # 7 renewals, a second apart: two TTLs and more
            await tick(clock, renewal)
        await asyncio.wait_for(clock.waiting(), TIMEOUT)  # the seventh renewal answered
        renewals = await _evalsha_calls(redis) - before
        assert clock.monotonic() > 2 * process.ttl
        assert not renewal.lost.is_set()
        assert all(lease.held for lease in tables)
        assert renewals == 7  # one a period, not one a table
        with pytest.raises(LeaseHeldError):
            await TableLease(other, "T00000").acquire()
    assert await tables[0].holder() == Holder("owner-a", 1)


async def test_the_renewal_task_reports_a_lapse_once(redis: Redis, clock: ManualClock) -> None:
    process = await process_lease(redis, "owner-a", clock=clock)
    lease = TableLease(process, CODE)
    await lease.acquire()
    reported: list[LeaseLostError] = []
    async with LeaseRenewal(process, on_lost=reported.append) as renewal:
        await redis.delete(process.key)
        await until_lost(clock, renewal)
        await clock.advance(10)  # the clock moving on reports nothing more
    assert renewal.reason is not None and "it expired" in str(renewal.reason)
    assert reported == [renewal.reason]
    assert not process.held and not lease.held


async def test_the_renewal_task_reports_loss_when_redis_is_gone_until_expiry(
    own_redis: RedisServer, clock: ManualClock
) -> None:
    own_redis.start()
    client = Redis.from_url(own_redis.url, socket_timeout=1)
    try:
        process = await process_lease(client, "owner-a", ttl=3, clock=clock)
        valid_until = process.valid_until
        async with LeaseRenewal(process) as renewal:
            own_redis.kill()
            await until_lost(clock, renewal)
        assert renewal.reason is not None
        assert "Redis did not confirm it before it expired" in str(renewal.reason)
        assert clock.monotonic() >= valid_until  # not a moment before its TTL was over
    finally:
        await client.aclose()


async def test_a_callback_that_fails_does_not_break_the_renewal_task(
    redis: Redis, caplog: pytest.LogCaptureFixture, clock: ManualClock
) -> None:
    process = await process_lease(redis, "owner-a", clock=clock)

    def broken(_error: LeaseLostError) -> None:
        raise RuntimeError("broken callback")

    async with LeaseRenewal(process, on_lost=broken) as renewal:
        await redis.delete(process.key)
        await until_lost(clock, renewal)
    assert "the lease-lost callback failed" in caplog.text


async def test_only_the_holder_releases_a_table(redis: Redis) -> None:
    a = await table_lease(redis, CODE, "owner-a")
    b = await table_lease(redis, CODE, "owner-b")
    await a.acquire()
    assert await b.release() is False  # never held it
    assert await a.holder() == Holder("owner-a", 1)
    await redis.delete(a.process.key)  # owner-a's process lease lapses
    await b.acquire()
    assert await a.release() is False  # held it once, under an older epoch
    assert await b.holder() == Holder("owner-b", 2)
    assert await b.release() is True
    assert await b.holder() is None
    assert await (await table_lease(redis, CODE, "owner-c")).acquire() == 3


async def test_releasing_a_process_lease_frees_its_tables_at_once(redis: Redis) -> None:
    a = await table_lease(redis, CODE, "owner-a")
    await a.acquire()
    assert await a.process.release() is True
    assert await a.process.release() is False
    assert await a.holder() is None
    assert await (await table_lease(redis, CODE, "owner-b")).acquire() == 2


async def test_an_acquisition_whose_answer_was_lost_can_be_retried(redis: Redis) -> None:
    first = await table_lease(redis, CODE, "owner-a", ttl=5)
    await first.acquire()
    again = TableLease(first.process, CODE)  # the same process, not knowing it holds it
    assert await again.acquire() == 1
    assert again.held
    with pytest.raises(LeaseHeldError):
        await (await table_lease(redis, CODE, "owner-b")).acquire()


async def test_a_lease_on_an_unreachable_redis_raises_a_clear_error(
    own_redis: RedisServer,
) -> None:
    client = Redis.from_url(own_redis.url)  # never started
    try:
        process = ProcessLease(client, "owner-a")
        with pytest.raises(RedisUnavailableError, match="could not acquire the lease"):
            await process.acquire()
        with pytest.raises(RedisUnavailableError, match="could not read the lease"):
            await TableLease(process, CODE).holder()
        assert not process.held
    finally:
        await client.aclose()


async def test_a_lease_not_held_cannot_be_kept(redis: Redis) -> None:
    process = ProcessLease(redis, "owner-a", ttl=1)
    with pytest.raises(LeaseLostError, match="it is not held"):
        LeaseRenewal(process).start()
    with pytest.raises(ValueError, match="within the TTL"):
        LeaseRenewal(process, every=1)


@pytest.mark.parametrize("owner", ["", "has space", "x" * 65])
async def test_an_owner_id_is_short_and_has_no_space(redis: Redis, owner: str) -> None:
    with pytest.raises(ValueError, match="owner id"):
        ProcessLease(redis, owner)


async def test_epochs_start_again_after_redis_loses_its_data_unless_given_a_floor(
    own_redis: RedisServer,
) -> None:
    own_redis.start()
    client = Redis.from_url(own_redis.url)
    try:
        lease = await table_lease(client, CODE, "owner-a")
        for epoch in (1, 2, 3):
            assert await lease.acquire() == epoch
            await lease.release()
        await lease.acquire()
        own_redis.restart()  # no persistence: the leases and the counter are gone
        assert await lease.holder() is None
        other = await table_lease(client, CODE, "owner-b")
        assert await other.acquire(floor=4) == 5  # the floor: the database's epoch
        await other.release()
        assert await other.acquire(floor=2) == 6  # the counter goes on from there
        await other.release()
        own_redis.restart()
        await other.process.acquire()
        assert await other.acquire() == 1  # why the database keeps the high-water mark
        assert await other.acquire() == 1  # still its own: it keeps its epoch
    finally:
        await client.aclose()


async def test_a_persistent_redis_keeps_the_epochs_over_a_restart(
    persistent_redis: RedisServer,
) -> None:
    persistent_redis.start()
    client = Redis.from_url(persistent_redis.url)
    try:
        lease = await table_lease(client, CODE, "owner-a")
        assert await lease.acquire() == 1
        await lease.release()
        persistent_redis.restart()
        assert await lease.acquire() == 2
    finally:
        await client.aclose()
