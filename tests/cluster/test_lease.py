"""A table's lease in Redis: one holder at a time, expiry, renewal, release, and epochs that
only grow (``dos.cluster.lease``). Expiry and renewals on a ``ManualClock``, moved instead of
waited for."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis

from cluster.support import RedisServer
from dos.cluster.lease import (
    Holder,
    LeaseHeldError,
    LeaseLostError,
    RedisUnavailableError,
    TableLease,
    clock_ms,
)
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


async def test_only_one_owner_holds_a_table_at_a_time(redis_server: RedisServer) -> None:
    first, second = Redis.from_url(redis_server.url), Redis.from_url(redis_server.url)
    await first.flushdb()
    try:
        a = TableLease(first, CODE, "owner-a")
        b = TableLease(second, CODE, "owner-b")
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


async def test_acquiring_a_lease_already_held_keeps_its_epoch(redis: Redis) -> None:
    lease = TableLease(redis, CODE, "owner-a")
    assert await lease.acquire() == 1
    assert await lease.acquire() == 1
    assert await lease.holder() == Holder("owner-a", 1)


async def test_a_refused_acquisition_does_not_use_up_an_epoch(redis: Redis) -> None:
    a, b = TableLease(redis, CODE, "owner-a"), TableLease(redis, CODE, "owner-b")
    await a.acquire()
    for _ in range(3):
        with pytest.raises(LeaseHeldError):
            await b.acquire()
    await a.release()
    assert await b.acquire() == 2


async def test_tables_have_leases_and_epochs_of_their_own(redis: Redis) -> None:
    assert await TableLease(redis, "AAAAAA", "owner-a").acquire() == 1
    assert await TableLease(redis, "BBBBBB", "owner-b").acquire() == 1


async def test_an_expired_lease_goes_to_the_next_owner_with_a_larger_epoch(
    redis: Redis, clock: ManualClock
) -> None:
    a = TableLease(redis, CODE, "owner-a", ttl=3, clock=clock)
    b = TableLease(redis, CODE, "owner-b", clock=clock)
    assert await a.acquire() == 1
    await clock.advance(2.999)
    with pytest.raises(LeaseHeldError):
        await b.acquire()
    assert a.held
    await clock.advance(0.001)
    assert await b.acquire() == 2
    assert await b.holder() == Holder("owner-b", 2)
    assert not a.held  # its TTL is over, as far as it can tell


async def test_redis_expires_a_lease_at_the_clocks_time_plus_its_ttl(
    redis: Redis, clock: ManualClock
) -> None:
    lease = TableLease(redis, CODE, "owner-a", ttl=3, clock=clock)
    await lease.acquire()
    assert await redis.pexpiretime(lease.key) == clock_ms(clock) + 3000
    await clock.advance(1)
    await lease.renew()
    assert await redis.pexpiretime(lease.key) == clock_ms(clock) + 3000


async def test_on_the_real_clock_redis_removes_an_expired_lease_itself(redis: Redis) -> None:
    lease = TableLease(redis, CODE, "owner-a", ttl=0.05)
    await lease.acquire()
    left_ms = await redis.pttl(lease.key)
    assert 0 < left_ms <= 50 or left_ms == -2  # -2: gone already, on a slow machine
    async with asyncio.timeout(10):  # Redis removes it on its own clock, unasked
        while await redis.exists(lease.key):
            await asyncio.sleep(0.01)


async def test_the_former_holder_cannot_renew_after_a_takeover(redis: Redis) -> None:
    a, b = TableLease(redis, CODE, "owner-a"), TableLease(redis, CODE, "owner-b")
    await a.acquire()
    await redis.pexpire(a.key, 0)  # the lease expires at once
    assert await b.acquire() == 2
    with pytest.raises(LeaseLostError) as lost:
        await a.renew()
    assert lost.value.holder == Holder("owner-b", 2)
    why = "table ABCDEF: the lease of epoch 1 was lost: owner-b holds it (epoch 2)"
    assert str(lost.value) == why
    assert not a.held
    assert await b.holder() == Holder("owner-b", 2)  # untouched by the failed renewal


async def test_renewing_an_expired_lease_reports_it_lost(redis: Redis) -> None:
    lease = TableLease(redis, CODE, "owner-a")
    await lease.acquire()
    await redis.delete(lease.key)
    with pytest.raises(LeaseLostError, match="it expired"):
        await lease.renew()
    with pytest.raises(LeaseLostError, match="it is not held"):
        await lease.renew()


async def test_the_renewal_task_keeps_a_lease_past_its_ttl(
    redis: Redis, clock: ManualClock
) -> None:
    a = TableLease(redis, CODE, "owner-a", ttl=3, clock=clock)
    b = TableLease(redis, CODE, "owner-b", clock=clock)
    await a.acquire()
    async with LeaseRenewal(a) as renewal:
        for _ in range(7):  # 7 renewals, a second apart: two TTLs and more
            await tick(clock, renewal)
        assert clock.monotonic() > 2 * a.ttl
        assert not renewal.lost.is_set()
        assert a.held
        with pytest.raises(LeaseHeldError):
            await b.acquire()
    assert await a.holder() == Holder("owner-a", 1)


async def test_the_renewal_task_reports_a_takeover_once(redis: Redis, clock: ManualClock) -> None:
    a = TableLease(redis, CODE, "owner-a", clock=clock)
    b = TableLease(redis, CODE, "owner-b", clock=clock)
    await a.acquire()
    reported: list[LeaseLostError] = []
    async with LeaseRenewal(a, on_lost=reported.append) as renewal:
        await redis.delete(a.key)
        await b.acquire()
        await until_lost(clock, renewal)
        await clock.advance(10)  # the clock moving on reports nothing more
    assert renewal.reason is not None and renewal.reason.holder == Holder("owner-b", 2)
    assert reported == [renewal.reason]
    assert not a.held


async def test_the_renewal_task_reports_loss_when_redis_is_gone_until_expiry(
    own_redis: RedisServer, clock: ManualClock
) -> None:
    own_redis.start()
    client = Redis.from_url(own_redis.url, socket_timeout=1)
    try:
        lease = TableLease(client, CODE, "owner-a", ttl=3, clock=clock)
        await lease.acquire()
        valid_until = lease.valid_until
        async with LeaseRenewal(lease) as renewal:
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
    lease = TableLease(redis, CODE, "owner-a", clock=clock)
    await lease.acquire()

    def broken(_error: LeaseLostError) -> None:
        raise RuntimeError("broken callback")

    async with LeaseRenewal(lease, on_lost=broken) as renewal:
        await redis.delete(lease.key)
        await until_lost(clock, renewal)
    assert "the lease-lost callback failed" in caplog.text


async def test_only_the_holder_releases_a_lease(redis: Redis) -> None:
    a, b = TableLease(redis, CODE, "owner-a"), TableLease(redis, CODE, "owner-b")
    await a.acquire()
    assert await b.release() is False  # never held it
    assert await a.holder() == Holder("owner-a", 1)
    await redis.pexpire(a.key, 0)
    await b.acquire()
    assert await a.release() is False  # held it once, under an older epoch
    assert await b.holder() == Holder("owner-b", 2)
    assert await b.release() is True
    assert await b.holder() is None
    assert await TableLease(redis, CODE, "owner-c").acquire() == 3


async def test_an_acquisition_whose_answer_was_lost_can_be_retried(redis: Redis) -> None:
    first = TableLease(redis, CODE, "owner-a", ttl=5)
    await first.acquire()
    again = TableLease(redis, CODE, "owner-a", ttl=5)  # the same owner, not knowing it holds it
    assert await again.acquire() == 1
    assert again.held
    with pytest.raises(LeaseHeldError):
        await TableLease(redis, CODE, "owner-b").acquire()


async def test_a_lease_on_an_unreachable_redis_raises_a_clear_error(
    own_redis: RedisServer,
) -> None:
    client = Redis.from_url(own_redis.url)  # never started
    try:
        lease = TableLease(client, CODE, "owner-a")
        with pytest.raises(RedisUnavailableError, match="could not acquire the lease"):
            await lease.acquire()
        with pytest.raises(RedisUnavailableError, match="could not read the lease"):
            await lease.holder()
        assert not lease.held
    finally:
        await client.aclose()


async def test_a_lease_not_held_cannot_be_kept(redis: Redis) -> None:
    lease = TableLease(redis, CODE, "owner-a", ttl=1)
    with pytest.raises(LeaseLostError, match="it is not held"):
        LeaseRenewal(lease).start()
    with pytest.raises(ValueError, match="within the TTL"):
        LeaseRenewal(lease, every=1)


@pytest.mark.parametrize("owner", ["", "has space", "x" * 65])
async def test_an_owner_id_is_short_and_has_no_space(redis: Redis, owner: str) -> None:
    with pytest.raises(ValueError, match="owner id"):
        TableLease(redis, CODE, owner)


async def test_epochs_start_again_after_redis_loses_its_data_unless_given_a_floor(
    own_redis: RedisServer,
) -> None:
    own_redis.start()
    client = Redis.from_url(own_redis.url)
    try:
        lease = TableLease(client, CODE, "owner-a")
        for epoch in (1, 2, 3):
            assert await lease.acquire() == epoch
            await lease.release()
        await lease.acquire()
        own_redis.restart()  # no persistence: the lease and the counter are gone
        assert await lease.holder() is None
        other = TableLease(client, CODE, "owner-b")
        assert await other.acquire(floor=4) == 5  # the floor: the database's epoch
        await other.release()
        assert await other.acquire(floor=2) == 6  # the counter goes on from there
        await other.release()
        own_redis.restart()
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
        lease = TableLease(client, CODE, "owner-a")
        assert await lease.acquire() == 1
        await lease.release()
        persistent_redis.restart()
        assert await lease.acquire() == 2
    finally:
        await client.aclose()
