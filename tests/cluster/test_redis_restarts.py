"""Short losses of Redis (a restart without its data) that the servers wait out, found by the
Redis restart of ``tests/cluster/test_many_processes.py``:

* a server's job runner (``dos.cluster.jobqueue.RedisJobs``) remembers when it last saw a
  worker alive: Redis forgets the workers' notes until each worker's next (within a second),
  and a job asked meanwhile is queued for them, not refused as if no worker ran (which sends
  a bot's decision down to the lowest level);
* ``RedisBus.publish`` waits out Redis being away for a few seconds (``PUBLISH_SECONDS``): a
  relayed client's frames published meanwhile reach it in order once Redis is back."""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from cluster.support import RedisServer
from dos.cluster import bus as bus_module
from dos.cluster import jobqueue
from dos.cluster.bus import RedisBus
from dos.cluster.jobqueue import RedisJobs, queue_key, workers_key
from dos.server.hosting.bus import BusUnavailableError, Update
from dos.server.hosting.jobs import NoWorkersError
from server.support import TIMEOUT

pytestmark = pytest.mark.asyncio

CODE = "RESTARTED"


# --- the workers' notes -------------------------------------------------------------------------


async def _queued(redis: Redis, prefix: str, job: asyncio.Task[object]) -> None:
    """Waits until one job is queued (``job``, which must still wait for its answer)."""
    deadline = time.monotonic() + TIMEOUT
    while await redis.xlen(queue_key(prefix)) != 1:
        if job.done():
            raise AssertionError(f"the job ended at once: {job.exception()!r}")
        assert time.monotonic() < deadline, "never queued"
        await asyncio.sleep(0.01)


async def _cleaned(
    waiting: list[asyncio.Task[object]], jobs: RedisJobs, redis: Redis, prefix: str
) -> None:
    """Cancels the jobs still waiting, stops the runner, empties and closes."""
    for task in waiting:
        task.cancel()
    for task in waiting:
        with contextlib.suppress(asyncio.CancelledError, NoWorkersError):
            await task
    await jobs.close()
    await redis.delete(queue_key(prefix), workers_key(prefix))
    await redis.aclose()


async def test_a_worker_seen_before_redis_lost_its_notes_still_counts(
    redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jobqueue, "CHECK_EVERY", 0.1)  # how often the runner asks Redis
    prefix = "forgotten"
    redis = Redis.from_url(redis_server.url)
    await redis.delete(queue_key(prefix), workers_key(prefix))
    seconds, _ = await redis.time()
    await redis.zadd(workers_key(prefix), {"w-one": seconds})  # seen now (it takes no job)
    jobs = RedisJobs(redis_server.url, prefix=prefix)
    waiting: list[asyncio.Task[object]] = []
    try:
        waiting.append(asyncio.create_task(jobs.run("echo", {"n": 1})))
        await _queued(redis, prefix, waiting[-1])
        # Redis lost its data (a restart without persistence): the worker's note is gone, the
        # worker not (it notes itself again within a second). A job asked now is queued.
        await redis.delete(queue_key(prefix), workers_key(prefix))
        await asyncio.sleep(jobqueue.CHECK_EVERY)  # the runner's last answer out of date
        waiting.append(asyncio.create_task(jobs.run("echo", {"n": 2})))
        await _queued(redis, prefix, waiting[-1])
    finally:
        await _cleaned(waiting, jobs, redis, prefix)


async def test_a_started_runner_that_asked_no_job_remembers_the_workers_too(
    redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process that adopts a table after Redis lost its data asked no job before: its
    runner has read the workers' notes since the server started (``start``)."""
    monkeypatch.setattr(jobqueue, "CHECK_EVERY", 0.1)
    prefix = "adopted"
    redis = Redis.from_url(redis_server.url)
    await redis.delete(queue_key(prefix), workers_key(prefix))
    seconds, _ = await redis.time()
    await redis.zadd(workers_key(prefix), {"w-one": seconds})
    jobs = RedisJobs(redis_server.url, prefix=prefix)
    waiting: list[asyncio.Task[object]] = []
    try:
        jobs.start()
        deadline = time.monotonic() + TIMEOUT
        while jobs._seen_workers == -math.inf:  # its first reading, in its own task
            assert time.monotonic() < deadline, "the runner never read the workers' notes"
            await asyncio.sleep(0.01)
        await redis.delete(workers_key(prefix))  # Redis lost its data
        await asyncio.sleep(jobqueue.CHECK_EVERY)  # the runner's last answer out of date
        waiting.append(asyncio.create_task(jobs.run("echo", {"n": 1})))
        await _queued(redis, prefix, waiting[-1])
    finally:
        await _cleaned(waiting, jobs, redis, prefix)


async def test_a_runner_that_never_saw_a_worker_refuses_at_once(
    redis_server: RedisServer,
) -> None:
    jobs = RedisJobs(redis_server.url, prefix="never-seen")
    try:
        with pytest.raises(NoWorkersError, match="no dos bot-worker is running"):
            await jobs.run("echo", {})
    finally:
        await jobs.close()


# --- updates published while Redis is away ------------------------------------------------------


@contextlib.asynccontextmanager
async def _buses(url: str) -> AsyncIterator[tuple[RedisBus, RedisBus]]:
    """An owner's bus and a reader's, each on a client of its own."""
    clients = [Redis.from_url(url) for _ in range(2)]
    buses = [RedisBus(client, block_ms=200) for client in clients]
    try:
        yield buses[0], buses[1]
    finally:
        for each in buses:
            await each.close()
        for client in clients:
            await client.aclose()


async def test_an_update_published_while_redis_restarts_reaches_its_subscriber(
    own_redis: RedisServer,
) -> None:
    own_redis.start()
    async with _buses(own_redis.url) as (owner, reader):
        subscription = await reader.subscribe(CODE)
        await owner.publish(CODE, 1, "before")
        first = await asyncio.wait_for(anext(subscription), TIMEOUT)
        assert isinstance(first, Update) and first.version == 1
        own_redis.stop()  # without persistence: the stream goes with it
        publishing = asyncio.create_task(owner.publish(CODE, 2, "while away"))
        with pytest.raises(TimeoutError):  # neither refused nor done: it waits for Redis
            await asyncio.wait_for(asyncio.shield(publishing), 0.3)
        await asyncio.to_thread(own_redis.start)
        await asyncio.wait_for(publishing, TIMEOUT)
        await owner.publish(CODE, 3, "after")
        rest = [await asyncio.wait_for(anext(subscription), TIMEOUT) for _ in range(2)]
        assert [(type(i).__name__, getattr(i, "version", None)) for i in rest] == [
            ("Update", 2),
            ("Update", 3),
        ]  # in order, no gap: its clients need no resync


async def test_a_publish_gives_up_when_redis_stays_away(
    own_redis: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bus_module, "PUBLISH_SECONDS", 0.3)
    own_redis.start()
    async with _buses(own_redis.url) as (owner, _reader):
        await owner.publish(CODE, 1, "before")
        own_redis.stop()
        with pytest.raises(BusUnavailableError, match="Redis did not answer"):
            await asyncio.wait_for(owner.publish(CODE, 2, "never"), TIMEOUT)
