"""A worker of the Redis job queue (``dos.cluster.jobqueue``): what ``dos bot-worker`` runs.

It takes jobs from the stream as a consumer of the ``workers`` group, ``concurrency`` at a
time, runs each in a process of its pool (``dos.server.hosting.job_pool.process_pool``, forked warm:
the jobs' modules loaded and the compiled rollouts ready in every process before its first
job, a process that replaces one that died too), touches each running job every
``claim_after / 3`` seconds, and answers it, acknowledging and deleting it in the same
transaction. When it has room it first takes over a job whose worker stopped
touching it for ``claim_after`` seconds (it died mid-job), then waits for new ones (at most a
second at a time, so that ``stop`` is seen). Redis away: it logs once and tries again until
Redis is back (the group is made again if Redis lost it). ``stop`` (SIGTERM): it takes no
new job, finishes and answers the running ones, then returns.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError, ResponseError

from dos.bots.registry import warm_up
from dos.cluster.frames import FrameError
from dos.cluster.jobqueue import (
    BEAT,
    CLAIM_AFTER,
    GROUP,
    MAX_DELIVERIES,
    REPLY_TTL_MS,
    JobAnswer,
    connect,
    queue_key,
    replies_key,
    retrying,
    text,
    workers_key,
)
from dos.server.clock import SYSTEM_CLOCK, Clock
from dos.server.hosting.job_pool import process_pool
from dos.server.hosting.jobs import run_job

log = logging.getLogger(__name__)

ANSWER_SECONDS = 30.0
"""How long a worker tries to deliver an answer while Redis is away (then the job is left
to be taken over and run again)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """A job as the stream holds it."""

    entry: str
    """The stream entry's id."""
    job: str
    """The job's id, as its runner waits for it."""
    name: str
    payload: str
    reply: str

    @classmethod
    def read(cls, entry: bytes | str, fields: dict[Any, Any]) -> Entry:
        """The entry ``entry`` with its fields (as redis-py gives them); ``FrameError`` when
        one is missing."""
        values = {text(key): text(value) for key, value in fields.items()}
        missing = [name for name in ("id", "name", "payload", "reply") if name not in values]
        if missing:
            raise FrameError(f"job entry {text(entry)}", f"no {', '.join(missing)}")
        return cls(text(entry), values["id"], values["name"], values["payload"], values["reply"])


class JobWorker:
    """Takes jobs from Redis and runs them (the module's docstring)."""

    def __init__(
        self,
        redis: str | Redis,
        name: str,
        concurrency: int = 1,
        *,
        prefix: str = "dos",
        claim_after: float = CLAIM_AFTER,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        if concurrency < 1:
            raise ValueError("concurrency: at least 1")
        if claim_after <= 0:
            raise ValueError("claim_after: more than 0")
        self.redis = connect(redis) if isinstance(redis, str) else redis
        self._own_client = isinstance(redis, str)
        self.name = name
        self.concurrency = concurrency
        self.claim_after = claim_after
        self.clock = clock
        """This process's clock (the real one unless given): when to look again for jobs to
        take over. What Redis times stays on real time: the touches of running jobs (Redis
        counts an entry's idle time, ``claim_after``, itself) and the notes that this worker
        is alive (stamped by Redis's clock); so do the waits while Redis is away and the
        time a job took (a figure for the log)."""
        self.stream = queue_key(prefix)
        self.workers = workers_key(prefix)
        self._replies = replies_key("", prefix)
        self._beat_script = self.redis.register_script(BEAT)
        self._stopping = asyncio.Event()
        self._next_claim = 0.0
        self._pool: ProcessPoolExecutor | None = None
        self._running: set[asyncio.Task[None]] = set()
        self.done = 0
        """Jobs answered."""

    def stop(self) -> None:
        """Takes no new job; ``serve`` returns once the running ones are answered."""
        if not self._stopping.is_set():
            log.info("stopping: finishing %d job(s)", len(self._running))
        self._stopping.set()

    async def serve(self) -> None:
        """Takes and runs jobs until ``stop``."""
        self._pool = process_pool(self.concurrency, warm=True)
        try:
            await retrying("the job queue", self._make_group, self._stopping)
            await self._warm()
            await retrying(
                "the job queue",
                lambda: self._beat_script(keys=[self.workers], args=[self.name]),
                self._stopping,
            )
            alive = asyncio.get_running_loop().create_task(self._say_alive())
            log.info("ready: %d job(s) at a time", self.concurrency)
            try:
                await self._take_jobs()
            finally:
                alive.cancel()
            await self._leave()
        finally:
            self._pool.shutdown(wait=True, cancel_futures=True)
            if self._own_client:
                await self.redis.aclose()
        log.info("stopped after %d job(s)", self.done)

    async def _say_alive(self) -> None:
        """Notes this worker as alive every second (``dos.cluster.jobqueue``)."""
        while True:
            await asyncio.sleep(1.0)
            with contextlib.suppress(RedisError):
                await self._beat_script(keys=[self.workers], args=[self.name])

    async def _warm(self) -> None:
        """Starts every process of the pool, its compiled rollouts loaded (each readies them
        as it starts: ``process_pool``'s ``warm``), before the worker says it is alive."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(
            *(loop.run_in_executor(self._pool, warm_up) for _ in range(self.concurrency))
        )

    async def _take_jobs(self) -> None:
        slots = asyncio.Semaphore(self.concurrency)
        running = self._running
        while not self._stopping.is_set():
            await slots.acquire()
            if self._stopping.is_set():
                slots.release()
                break
            entry = await self._next()
            if entry is None:
                slots.release()
                continue
            task = asyncio.get_running_loop().create_task(self._run(entry))
            running.add(task)
            task.add_done_callback(running.discard)
            task.add_done_callback(lambda _: slots.release())
        if running:
            await asyncio.gather(*running)

    async def _next(self) -> Entry | None:
        """A job taken over from a dead worker, else the next queued one (waiting at most a
        second), else ``None``."""
        try:
            now = self.clock.monotonic()
            if now >= self._next_claim:
                self._next_claim = now + self.claim_after / 2
                taken = await self._take_over()
                if taken is not None:
                    return taken
            block = max(1, min(1000, round(self.claim_after * 500)))
            found: Any = await self.redis.xreadgroup(
                GROUP, self.name, {self.stream: ">"}, count=1, block=block
            )
        except ResponseError as error:
            if "NOGROUP" not in str(error):
                raise
            await retrying("the job queue", self._make_group, self._stopping)
            return None
        except RedisError as error:
            log.warning("the job queue: Redis did not answer (%s); trying again", error)
            await self._pause()
            return None
        if not found:
            return None
        _, entries = found[0]
        entry_id, fields = entries[0]
        return await self._read(entry_id, fields)

    async def _read(self, entry_id: bytes | str, fields: dict[Any, Any]) -> Entry | None:
        """The job of a stream entry; ``None`` for an entry that is not one, which is
        dropped (acknowledged and deleted) with its reason logged: no worker takes it
        again."""
        try:
            return Entry.read(entry_id, fields)
        except FrameError as error:
            log.error("the job queue: dropped %s", error)
        with contextlib.suppress(RedisError):
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.xack(self.stream, GROUP, entry_id)
                pipe.xdel(self.stream, entry_id)
                await pipe.execute()
        return None

    async def _take_over(self) -> Entry | None:
        """A job idle for ``claim_after`` seconds (its worker died), now this worker's."""
        idle = round(self.claim_after * 1000)
        _, entries, *_ = await self.redis.xautoclaim(
            self.stream, GROUP, self.name, idle, start_id="0-0", count=1
        )
        for entry_id, fields in entries:
            entry = await self._read(entry_id, fields)
            if entry is None:
                continue
            pending = await self.redis.xpending_range(
                self.stream, GROUP, entry.entry, entry.entry, 1
            )
            deliveries = int(pending[0]["times_delivered"]) if pending else 1
            if deliveries > MAX_DELIVERIES:
                error = f"its workers died {deliveries - 1} times running it"
                log.error("job %s (%s): %s; it fails", entry.job, entry.name, error)
                await self._answer(entry, JobAnswer(entry.job, ok=False, error=error))
                continue
            log.info("job %s (%s): taken over, its worker stopped answering", entry.job, entry.name)
            return entry
        return None

    async def _make_group(self) -> None:
        try:
            await self.redis.xgroup_create(self.stream, GROUP, id="0", mkstream=True)
        except ResponseError as error:
            if "BUSYGROUP" not in str(error):
                raise
        else:
            log.info("made the workers' group of %s", self.stream)

    async def _pause(self) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stopping.wait(), 0.5)

    async def _run(self, entry: Entry) -> None:
        log.info("job %s (%s): running", entry.job, entry.name)
        started = time.perf_counter()
        beat = asyncio.get_running_loop().create_task(self._beat(entry))
        try:
            answer = await self._execute(entry)
        finally:
            beat.cancel()
        if answer is None:
            return  # left pending: taken over and run again
        await self._answer(entry, answer)
        self.done += 1
        seconds = time.perf_counter() - started
        log.info("job %s (%s): answered in %.3f s", entry.job, entry.name, seconds)

    async def _execute(self, entry: Entry) -> JobAnswer | None:
        loop = asyncio.get_running_loop()
        try:
            result = await loop.run_in_executor(self._pool, run_job, entry.name, entry.payload)
        except BrokenProcessPool:
            log.error("job %s (%s): its process died; a fresh pool", entry.job, entry.name)
            if self._pool is not None:
                self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = process_pool(self.concurrency, warm=True)
            return None
        except Exception as error:
            log.warning("job %s (%s) failed: %s", entry.job, entry.name, error)
            return JobAnswer(entry.job, ok=False, error=f"{type(error).__name__}: {error}")
        return JobAnswer(entry.job, ok=True, result=result)

    async def _beat(self, entry: Entry) -> None:
        """Touches the running job, so that no other worker takes it over."""
        while True:
            await asyncio.sleep(self.claim_after / 3)
            with contextlib.suppress(RedisError):
                await self.redis.xclaim(
                    self.stream, GROUP, self.name, 0, [entry.entry], justid=True
                )

    async def _answer(self, entry: Entry, answer: JobAnswer) -> None:
        """Sends the answer, acknowledges and deletes the job, in one transaction."""
        to = entry.reply
        if not to.startswith(self._replies):
            log.error("job %s: answers go to %r, not a runner's list", entry.job, to)
            to = ""  # nobody to answer: only acknowledged and deleted
        body = answer.dumps()

        async def send() -> None:
            async with self.redis.pipeline(transaction=True) as pipe:
                if to:
                    pipe.rpush(entry.reply, body)
                    pipe.pexpire(entry.reply, REPLY_TTL_MS)
                pipe.xack(self.stream, GROUP, entry.entry)
                pipe.xdel(self.stream, entry.entry)
                await pipe.execute()

        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(retrying("an answer", send, asyncio.Event()), ANSWER_SECONDS)

    async def _leave(self) -> None:
        """Leaves the group if it holds no job (else they stay to be taken over), and the
        workers alive."""
        with contextlib.suppress(RedisError):
            await self.redis.zrem(self.workers, self.name)
            mine = await self.redis.xpending_range(
                self.stream, GROUP, "-", "+", 1, consumername=self.name
            )
            if not mine:
                await self.redis.xgroup_delconsumer(self.stream, GROUP, self.name)
