"""The job queue over Redis (``dos.cluster.jobqueue``, ``dos.cluster.jobworker``): ``dos
bot-worker`` processes serve a server's ``RedisJobs``, a job whose worker is killed mid-job is
run by another, a full queue is busy, a failed job fails, Redis away is a clear error and its
return (even without its data) needs no restart, a worker stops after its running job, and a
``dos serve --redis`` with workers plays a whole game. Workers take over a job idle for a second
(``--claim-after 1``)."""

from __future__ import annotations

import asyncio
import functools
import json
import random
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from redis.asyncio import Redis

from cluster.support import READY, RedisServer, Worker
from dos.cluster.jobqueue import RedisJobs, queue_key, workers_key
from dos.rules.official import new_game, view
from dos.server.hosting.jobs import BusyError, JobError, NoWorkersError, run_job
from dos.server.tables.bot_job import bot_payload, bot_seed
from dos.server.tables.hint_job import hint_job
from server.support import TIMEOUT, ServerProcess, WsPlayer, create_table

pytestmark = pytest.mark.asyncio

SECRET = "5" * 64
"""``DOS_SECRET`` of the server started with ``--redis``."""
EFFORT = 0.05
"""A twentieth of the levels' iterations: strength is not what is tested here."""


@pytest.fixture(scope="module")
def pair(redis_server: RedisServer) -> Iterator[tuple[Worker, Worker]]:
    """Two workers on the shared Redis, ready, for the tests that leave them running."""
    one, two = Worker(redis_server.url, "w-one"), Worker(redis_server.url, "w-two")
    try:
        one.wait_for("ready", timeout=READY)
        two.wait_for("ready", timeout=READY)
        yield one, two
    finally:
        one.kill()
        two.kill()


@pytest.fixture
def workers() -> Iterator[Callable[[str, str], Worker]]:
    """Starts workers of the test's own; kills those left at the end."""
    started: list[Worker] = []

    def start(url: str, name: str) -> Worker:
        started.append(Worker(url, name))
        return started[-1]

    yield start
    for worker in started:
        worker.kill()


async def eventually(condition: Callable[[], Awaitable[bool]], what: str) -> None:
    """Waits until ``condition()`` holds, polling, for at most ``TIMEOUT`` seconds."""
    deadline = time.monotonic() + TIMEOUT
    while not await condition():
        assert time.monotonic() < deadline, f"never: {what}"
        await asyncio.sleep(0.01)


def _answered(*workers: Worker, what: str = "answered") -> int:
    return sum(worker.count(what) for worker in workers)


def _bot_payloads(count: int, level: str = "hard") -> list[dict[str, Any]]:
    state = new_game(seed=9)
    seat = state.turn
    return [
        bot_payload("official", level, view(state, seat), EFFORT, bot_seed(9, seat, n))
        for n in range(count)
    ]


def _answers(payloads: list[dict[str, Any]]) -> list[Any]:
    """What the bot jobs answer when run in this process."""
    return [json.loads(run_job("bot", json.dumps(p))) for p in payloads]


def _long_hint() -> dict[str, Any]:
    """A hint that searches for about a second: long enough to act while it runs."""
    state = new_game(seed=12)
    return {"view": view(state, state.turn).to_json(), "seed": "long", "iterations": 4000}


@functools.cache
def _long_hint_answer() -> Any:
    """What the long hint answers when run in this process."""
    return hint_job(_long_hint())


# --- two workers -------------------------------------------------------------------------------


async def test_two_workers_serve_a_servers_jobs(pair: tuple[Worker, Worker]) -> None:
    one, two = pair
    before = _answered(one, two)
    jobs = RedisJobs(one.url)
    try:
        payloads = _bot_payloads(12, "expert")
        answers = await asyncio.gather(*(jobs.run("bot", p) for p in payloads))
        assert answers == _answers(payloads)  # each the answer it gives in any process
        assert await jobs.run("echo", {"x": [1, "a"]}) == {"x": [1, "a"]}
    finally:
        await jobs.close()

    async def all_logged() -> bool:
        return _answered(one, two) - before == 13

    await eventually(all_logged, "every job logged as answered")
    assert "INFO w-one - dos.cluster.jobworker: ready" in one.log  # lines name their worker


async def test_a_failing_job_fails_and_an_unknown_one_is_refused(
    pair: tuple[Worker, Worker],
) -> None:
    jobs = RedisJobs(pair[0].url)
    try:
        with pytest.raises(JobError, match="not a bot level"):
            await jobs.run("bot", {**_bot_payloads(1)[0], "level": "nobody"})
        with pytest.raises(JobError, match="unknown job"):
            await jobs.run("nothing", {})
        assert await jobs.run("echo", {"after": True}) == {"after": True}  # they go on
    finally:
        await jobs.close()


async def test_an_entry_or_an_answer_that_is_not_one_is_dropped_and_the_queue_goes_on(
    pair: tuple[Worker, Worker], caplog: pytest.LogCaptureFixture
) -> None:
    """A stream entry that is not a job (a process of another version, a hand in Redis) is
    dropped by the worker that reads it, with its reason; an answer that is not one is
    dropped by the runner, with its reason: neither stops the jobs after it."""
    one, two = pair
    jobs = RedisJobs(one.url)
    try:
        await jobs.redis.xadd(queue_key(), {"id": "broken", "name": "echo"})
        await jobs.redis.rpush(jobs.replies, "not an answer")
        assert await jobs.run("echo", {"after": "garbage"}) == {"after": "garbage"}

        async def dropped() -> bool:
            return _answered(one, two, what="dropped job entry") == 1

        await eventually(dropped, "the broken entry dropped")
        assert "no payload, reply" in one.log + two.log
        assert await jobs.redis.xlen(queue_key()) == 0
    finally:
        await jobs.close()
    [said] = [r for r in caplog.records if "not an answer" in r.getMessage()]
    assert said.exc_info is None


async def test_hard_bots_play_a_whole_game_on_a_server_and_its_workers(
    tmp_path: Path, pair: tuple[Worker, Worker]
) -> None:
    before = _answered(*pair, what="(bot): answered")
    server = ServerProcess(
        tmp_path / "data", None, "--redis", pair[0].url, env={"DOS_SECRET": SECRET}
    )
    server.start()
    try:
        host = create_table(server.url, seats=[None, "hard", "hard"], options={"target_score": 20})
        ada = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
        await ada.send({"type": "start"})
        await ada.expect("state")
        assert (await ada.play_to_end(random.Random(7)))["winner"] in range(3)
        await ada.close()
    finally:
        server.stop()
    assert _answered(*pair, what="(bot): answered") > before  # decided by the workers
    assert not any("level decides" in line for line in server.output)  # none fell back


# --- a full queue, and no worker ---------------------------------------------------------------


async def test_a_full_queue_is_busy(redis_server: RedisServer) -> None:
    # A worker seen alive that takes no job (stuck): the jobs stay queued.
    redis = Redis.from_url(redis_server.url)  # not emptied: the pair's workers go on
    seconds, _ = await redis.time()
    await redis.zadd(workers_key("busy"), {"stuck": seconds})
    jobs = RedisJobs(redis_server.url, max_jobs=2, prefix="busy")
    try:
        waiting = [asyncio.create_task(jobs.run("echo", {"n": n})) for n in range(2)]

        async def queued() -> bool:
            return bool(await redis.xlen(queue_key("busy")) == 2)

        await eventually(queued, "two jobs queued")
        with pytest.raises(BusyError, match="2 jobs are queued"):
            await jobs.run("echo", {"n": 3})
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)
        assert await redis.xlen(queue_key("busy")) == 0  # given up on: withdrawn
    finally:
        await jobs.close()
        await redis.aclose()


async def test_without_a_worker_a_job_is_refused_at_once(redis_server: RedisServer) -> None:
    jobs = RedisJobs(redis_server.url, prefix="nobody-here")
    try:
        with pytest.raises(NoWorkersError, match="no dos bot-worker is running"):
            await jobs.run("echo", {})
    finally:
        await jobs.close()


# --- Redis away and back; a worker killed, a worker stopped ------------------------------------


async def test_redis_away_is_a_clear_error_and_back_mid_queue_needs_no_restart(
    own_redis: RedisServer, workers: Callable[[str, str], Worker]
) -> None:
    url = own_redis.start()
    worker = workers(url, "w-one")
    worker.wait_for("ready", timeout=READY)
    jobs = RedisJobs(url)
    client = Redis.from_url(url)
    try:
        assert await jobs.run("echo", {"n": 1}) == {"n": 1}
        own_redis.stop()
        with pytest.raises(JobError, match="Redis did not answer"):
            await jobs.run("echo", {"n": 2})
        own_redis.start()

        # Back, with nothing restarted: the worker makes its group again and says it is
        # alive within a second. A long job holds it (one at a time); three wait in the queue.
        async def back() -> bool:
            seconds, _ = await client.time()
            return bool(await client.zcount(workers_key(), seconds - 5, "+inf"))

        await eventually(back, "the worker back")
        first = asyncio.create_task(jobs.run("hint", _long_hint()))
        await asyncio.to_thread(worker.wait_for, "(hint): running")
        payloads = _bot_payloads(3)
        rest = [asyncio.create_task(jobs.run("bot", p)) for p in payloads]

        async def queued() -> bool:
            return bool(await client.xlen(queue_key()) == 4)

        await eventually(queued, "three jobs waiting")
        own_redis.restart()  # without persistence: the queue is lost
        answers = await asyncio.gather(first, *rest)
        assert answers[0] == _long_hint_answer()
        assert answers[1:] == _answers(payloads)  # queued again by the runner, then run
    finally:
        await jobs.close()
        await client.aclose()


async def test_a_job_whose_worker_is_killed_is_run_by_another_which_stops_after_its_job(
    own_redis: RedisServer, workers: Callable[[str, str], Worker]
) -> None:
    # Two workers of its own, on a Redis of its own: it ends both, whichever tests come after.
    url = own_redis.start()
    one, two = workers(url, "w-three"), workers(url, "w-four")
    one.wait_for("ready", timeout=READY)
    two.wait_for("ready", timeout=READY)
    jobs = RedisJobs(url)
    try:
        task = asyncio.create_task(jobs.run("hint", _long_hint()))

        before = _answered(one, two, what="(hint): running")

        async def started() -> bool:
            return _answered(one, two, what="(hint): running") > before

        await eventually(started, "the job running")
        running, other = (one, two) if one.count("(hint): running") else (two, one)
        runs = other.count("(hint): running")
        running.kill()  # mid-job
        assert await task == _long_hint_answer()  # what it would have answered
        assert other.count("(hint): taken over") == 1

        # SIGTERM mid-job: the worker finishes and answers it, then ends.
        last = asyncio.create_task(jobs.run("hint", _long_hint()))
        await asyncio.to_thread(other.wait_for, "(hint): running", runs + 2)
        assert await asyncio.to_thread(other.stop) == 0
        assert await last == _long_hint_answer()
        assert other.count("finishing 1 job(s)") == 1 and other.count("stopped after") == 1
    finally:
        await jobs.close()
