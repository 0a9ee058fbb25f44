"""The bus between processes (``dos.server.hosting.bus``): the same tests for ``LocalBus`` and
``RedisBus`` (``dos.cluster.bus``, over a real redis-server), and Redis's own cases (a
restart, two processes)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
import pytest_asyncio
from redis.asyncio import Redis

from cluster.support import RedisServer
from dos.cluster.bus import RedisBus, updates_key
from dos.server.hosting.bus import (
    Bus,
    ForwardTimeoutError,
    Gap,
    LocalBus,
    NoOwnerError,
    OwnerFailedError,
    StaleVersionError,
    Subscription,
    Update,
)
from server.support import TIMEOUT

pytestmark = pytest.mark.asyncio

CODE = "ABCDEF"
MakeBus = Callable[..., Bus]


@pytest_asyncio.fixture(params=["local", "redis"])
async def make_bus(request: pytest.FixtureRequest) -> AsyncIterator[MakeBus]:
    """Makes buses of one kind; a Redis bus is one process's view of the shared server."""
    made: list[Bus] = []
    clients: list[Redis] = []
    server: RedisServer | None = None
    if request.param == "redis":
        server = request.getfixturevalue("redis_server")
        first = Redis.from_url(server.url)
        await first.flushdb()
        await first.aclose()
    shared = LocalBus()

    def make(**options: Any) -> Bus:
        bus: Bus
        if server is None:
            bus = LocalBus(**options) if options else shared
        else:
            client = Redis.from_url(server.url)
            clients.append(client)
            bus = RedisBus(client, block_ms=200, **options)
        made.append(bus)
        return bus

    yield make
    for bus in made:
        await bus.close()
    for client in clients:
        await client.aclose()


async def take(subscription: Subscription, count: int) -> list[Update | Gap]:
    """The next ``count`` items of a subscription (failing after ``TIMEOUT``)."""

    async def collect() -> list[Update | Gap]:
        items: list[Update | Gap] = []
        async for item in subscription:
            items.append(item)
            if len(items) == count:
                break
        return items

    return await asyncio.wait_for(collect(), TIMEOUT)


def versions(items: list[Update | Gap]) -> list[int]:
    """The versions of the updates among ``items`` (gaps must not be there)."""
    assert all(isinstance(item, Update) for item in items), items
    return [item.version for item in items if isinstance(item, Update)]


async def test_every_subscriber_gets_every_update_in_order(make_bus: MakeBus) -> None:
    bus = make_bus()
    first, second = await bus.subscribe(CODE), await bus.subscribe(CODE)
    reading = asyncio.gather(take(first, 300), take(second, 300))
    for version in range(1, 301):
        await bus.publish(CODE, version, {"v": version, "seat": version % 4})
    got_first, got_second = await reading
    assert versions(got_first) == versions(got_second) == list(range(1, 301))
    assert got_first[41] == Update(CODE, 42, {"v": 42, "seat": 2})


async def test_a_subscriber_in_another_process_reads_the_same_updates(make_bus: MakeBus) -> None:
    owner, other = make_bus(), make_bus()
    subscription = await other.subscribe(CODE)
    for version in range(1, 21):
        await owner.publish(CODE, version, [version])
    items = await take(subscription, 20)
    assert [item.payload for item in items if isinstance(item, Update)] == [
        [v] for v in range(1, 21)
    ]


async def test_tables_have_updates_of_their_own(make_bus: MakeBus) -> None:
    bus = make_bus()
    mine = await bus.subscribe(CODE)
    await bus.publish("OTHERS", 1, "not mine")
    await bus.publish(CODE, 1, "mine")
    assert await take(mine, 1) == [Update(CODE, 1, "mine")]


async def test_a_late_subscriber_resumes_after_the_version_it_saw(make_bus: MakeBus) -> None:
    bus = make_bus()
    for version in range(1, 11):
        await bus.publish(CODE, version, version)
    assert await bus.last_version(CODE) == 10
    resumed = await bus.subscribe(CODE, after=6)
    assert versions(await take(resumed, 4)) == [7, 8, 9, 10]
    fresh = await bus.subscribe(CODE)  # from the next update only
    await bus.publish(CODE, 11, 11)
    assert versions(await take(resumed, 1)) == [11]
    assert versions(await take(fresh, 1)) == [11]


async def test_a_subscriber_behind_the_kept_updates_is_told_of_the_gap(make_bus: MakeBus) -> None:
    bus = make_bus(max_updates=5)
    for version in range(1, 21):
        await bus.publish(CODE, version, version)
    behind = await bus.subscribe(CODE, after=3)
    items = await take(behind, 6)
    assert items[0] == Gap(CODE, 4, 15)
    assert items[0].missed == 12
    assert versions(items[1:]) == [16, 17, 18, 19, 20]


async def test_a_skipped_version_is_a_gap_and_delivery_goes_on(make_bus: MakeBus) -> None:
    bus = make_bus()
    subscription = await bus.subscribe(CODE)
    await bus.publish(CODE, 1, "a")
    await bus.publish(CODE, 4, "b")
    await bus.publish(CODE, 5, "c")
    assert await take(subscription, 4) == [
        Update(CODE, 1, "a"),
        Gap(CODE, 2, 3),
        Update(CODE, 4, "b"),
        Update(CODE, 5, "c"),
    ]


async def test_a_version_not_after_the_latest_is_refused(make_bus: MakeBus) -> None:
    bus = make_bus()
    subscription = await bus.subscribe(CODE)
    await bus.publish(CODE, 1, "first")
    await bus.publish(CODE, 2, "second")
    for stale in (2, 1):
        with pytest.raises(StaleVersionError) as refused:
            await bus.publish(CODE, stale, "a former owner's")
        assert refused.value.latest == 2
    await bus.publish(CODE, 3, "third")
    assert [i.payload for i in await take(subscription, 3) if isinstance(i, Update)] == [
        "first",
        "second",
        "third",
    ]


async def test_what_json_cannot_hold_is_refused_and_nothing_is_published(
    make_bus: MakeBus,
) -> None:
    bus = make_bus()
    for payload in ({"x": {1, 2}}, float("nan")):
        with pytest.raises(TypeError):
            await bus.publish(CODE, 1, payload)
    with pytest.raises(ValueError, match="versions start at 1"):
        await bus.publish(CODE, 0, "zero")
    assert await bus.last_version(CODE) is None


async def test_a_message_is_forwarded_to_the_owner_and_its_reply_comes_back(
    make_bus: MakeBus,
) -> None:
    owner_bus, other = make_bus(), make_bus()
    seen: list[tuple[str, Any]] = []

    async def handle(table: str, message: Any) -> Any:
        seen.append((table, message))
        return {"ok": True, "echo": message["action"]}

    async with owner_bus.serve("owner-a", handle):
        reply = await other.forward("owner-a", CODE, {"action": "play 3", "seat": 1}, TIMEOUT)
    assert reply == {"ok": True, "echo": "play 3"}
    assert seen == [(CODE, {"action": "play 3", "seat": 1})]


async def test_messages_for_one_table_are_handled_one_at_a_time_in_order(
    make_bus: MakeBus,
) -> None:
    owner_bus, other = make_bus(), make_bus()
    handled: list[int] = []
    busy = 0

    async def handle(table: str, message: Any) -> Any:
        nonlocal busy
        busy += 1
        assert busy == 1, "two messages of one table at once"
        await asyncio.sleep(0)  # lets any other message in, were the table not serialized
        handled.append(message)
        busy -= 1
        return message

    async with owner_bus.serve("owner-a", handle):
        for number in range(10):
            assert await other.forward("owner-a", CODE, number, TIMEOUT) == number
        replies = await asyncio.gather(
            *(other.forward("owner-a", CODE, n, TIMEOUT) for n in range(10, 20))
        )
    assert replies == list(range(10, 20))
    assert handled[:10] == list(range(10))
    assert sorted(handled[10:]) == list(range(10, 20))


async def test_a_message_nobody_serves_fails_cleanly_and_is_never_handled(
    make_bus: MakeBus,
) -> None:
    bus = make_bus()
    with pytest.raises(NoOwnerError, match="owner-gone"):
        await bus.forward("owner-gone", CODE, {"action": "draw"}, timeout=0.2)
    handled: list[Any] = []

    async def handle(table: str, message: Any) -> Any:
        handled.append(message)
        return "late"

    # The owner starting later does not find the withdrawn message.
    async with bus.serve("owner-gone", handle):
        assert await bus.forward("owner-gone", CODE, "now", TIMEOUT) == "late"
    assert handled == ["now"]


async def test_an_owner_that_does_not_reply_in_time_is_a_timeout(make_bus: MakeBus) -> None:
    owner_bus, other = make_bus(), make_bus()
    release = asyncio.Event()
    taken = asyncio.Event()

    async def handle(table: str, message: Any) -> Any:
        taken.set()
        await release.wait()
        return "too late"

    async with owner_bus.serve("owner-a", handle):
        with pytest.raises(ForwardTimeoutError):
            await other.forward("owner-a", CODE, "slow", timeout=0.5)
        assert taken.is_set()
        release.set()


async def test_an_owner_whose_handler_fails_says_so(make_bus: MakeBus) -> None:
    owner_bus, other = make_bus(), make_bus()

    async def handle(table: str, message: Any) -> Any:
        raise RuntimeError("a bug")

    async with owner_bus.serve("owner-a", handle):
        with pytest.raises(OwnerFailedError, match="a bug"):
            await other.forward("owner-a", CODE, "x", TIMEOUT)


async def test_updates_acknowledged_before_a_redis_restart_are_all_delivered(
    persistent_redis: RedisServer,
) -> None:
    persistent_redis.start()
    owner_client, reader_client = (Redis.from_url(persistent_redis.url) for _ in range(2))
    owner, reader = RedisBus(owner_client, block_ms=200), RedisBus(reader_client, block_ms=200)
    try:
        subscription = await reader.subscribe(CODE)
        for version in range(1, 31):
            await owner.publish(CODE, version, version)
        before = await take(subscription, 10)  # the subscriber is mid-stream
        persistent_redis.restart()
        for version in range(31, 61):
            await owner.publish(CODE, version, version)
        after = await take(subscription, 50)
        assert versions(before + after) == list(range(1, 61))
        late = await reader.subscribe(CODE, after=0)
        assert versions(await take(late, 60)) == list(range(1, 61))
    finally:
        await owner.close()
        await reader.close()
        await owner_client.aclose()
        await reader_client.aclose()


async def test_a_subscriber_waits_out_redis_being_away(own_redis: RedisServer) -> None:
    own_redis.start()
    owner_client, reader_client = (Redis.from_url(own_redis.url) for _ in range(2))
    owner, reader = RedisBus(owner_client, block_ms=200), RedisBus(reader_client, block_ms=200)
    try:
        subscription = await reader.subscribe(CODE)
        await owner.publish(CODE, 1, "before")
        assert versions(await take(subscription, 1)) == [1]
        waiting = asyncio.ensure_future(take(subscription, 2))
        own_redis.stop()  # without persistence: the stream is gone with it
        own_redis.start()
        await owner.publish(CODE, 2, "after")
        await owner.publish(CODE, 3, "after")
        assert versions(await waiting) == [2, 3]  # nothing was lost since the subscriber saw 1
        newcomer = await reader.subscribe(CODE, after=0)
        items = await take(newcomer, 3)
        assert items[0] == Gap(CODE, 1, 1)  # version 1 went with Redis's data
        assert versions(items[1:]) == [2, 3]
    finally:
        await owner.close()
        await reader.close()
        await owner_client.aclose()
        await reader_client.aclose()


async def test_the_stream_is_trimmed_to_its_bound(redis: Redis) -> None:
    bus = RedisBus(redis, max_updates=10)
    for version in range(1, 101):
        await bus.publish(CODE, version, version)
    assert await redis.xlen(updates_key(CODE)) == 10
    assert await bus.last_version(CODE) == 100


async def test_a_client_that_decodes_answers_works_alike(redis_server: RedisServer) -> None:
    client = Redis.from_url(redis_server.url, decode_responses=True)
    bus = RedisBus(client, block_ms=200)

    async def handle(table: str, message: Any) -> Any:
        return {"got": message}

    try:
        await client.flushdb()
        subscription = await bus.subscribe(CODE)
        await bus.publish(CODE, 1, {"é": "ü"})
        assert await take(subscription, 1) == [Update(CODE, 1, {"é": "ü"})]
        async with bus.serve("owner-a", handle):
            assert await bus.forward("owner-a", CODE, [1, 2], TIMEOUT) == {"got": [1, 2]}
    finally:
        await bus.close()
        await client.aclose()


async def test_a_reply_slower_than_the_clients_socket_timeout_still_comes_back(
    redis_server: RedisServer,
) -> None:
    # A forwarded long poll waits longer than one read of the Redis client may last (the
    # server's clients read with a timeout): the wait for its reply must outlast it.
    client = Redis.from_url(redis_server.url, socket_timeout=0.3)
    owner = Redis.from_url(redis_server.url, socket_timeout=0.3)
    bus, owner_bus = RedisBus(client, block_ms=100), RedisBus(owner, block_ms=100)

    async def handle(table: str, message: Any) -> Any:
        await asyncio.sleep(1.0)  # the owner's long poll: a wait of its own, not a sync
        return {"waited": message}

    try:
        await client.flushdb()
        async with owner_bus.serve("owner-a", handle):
            reply = await bus.forward("owner-a", CODE, "poll", timeout=10, take_timeout=1)
            assert reply == {"waited": "poll"}
    finally:
        await bus.close()
        await owner_bus.close()
        await client.aclose()
        await owner.aclose()
