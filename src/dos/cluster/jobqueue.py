"""The job runner of a server of many processes: ``Jobs`` (``dos.server.hosting.jobs``) over Redis,
the jobs run by ``dos bot-worker`` processes (``dos.cluster.jobworker``), as many as wanted.

**The queue is a Redis stream read by a consumer group**, ``dos:{jobs}``, group
``workers``: the well-known reliable-queue pattern of Redis itself. ``XADD`` queues a job; a
worker takes the next with ``XREADGROUP``, which also records it as *pending* under that
worker (the stream's pending entries list, kept by Redis, so no job is lost between taking and
finishing); while it runs, the worker touches it every third of ``CLAIM_AFTER`` (``XCLAIM
... JUSTID``, which resets the entry's idle time); when done, one transaction pushes the
answer, acknowledges (``XACK``) and deletes (``XDEL``) the entry. A worker that dies mid-job
stops touching it: once idle for ``CLAIM_AFTER`` seconds, another worker takes it over
(``XAUTOCLAIM``) and runs it again; a job is a pure function of its payload, so running it
twice gives the same answer twice. A job whose workers died ``MAX_DELIVERIES`` times (it kills
them) fails. Lists moved with ``LMOVE`` into a list per worker would need a reaper of our own
to find the lists of dead workers; the stream keeps that bookkeeping in Redis, and a worker's
heartbeat is one command.

**Bounded**: a script queues a job only while the stream holds fewer than ``max_jobs``
(queued and running: done ones are deleted), else ``BusyError``.

**Answers** go to a list per runner, ``dos:{jobs}:replies:RUNNER`` (``RPUSH``, with an expiry
renewed at each push), read by one task of the runner (``BLPOP``) that hands each answer to
the job waiting for it; an answer nobody waits for any more (the job gave up) is dropped.
Answers wait in the list while the server is briefly cut off from Redis.

**Workers alive**: each worker notes the time in a sorted set, ``dos:{jobs}:workers``, every
second (Redis's clock, so the machines' clocks need not agree); with no worker seen for
``ALIVE_SECONDS`` a job is refused at once (``NoWorkersError``), so that a table's bots play
the lowest level (``dos.server.tables.bot_decisions``) rather than wait for nobody. A server's
runner reads the latest note every ``CHECK_EVERY`` s and remembers it: Redis restarted without its
data forgets the notes until the workers' next, and a job asked meanwhile, by any server, is
queued for them, not refused.

**Redis away**: a job that cannot be queued fails at once (``JobsUnavailableError``, a
``JobError`` that says so); the reader and the workers try again until Redis is back. A job
whose entry vanished (Redis restarted without its data) is queued again; one that gets no
answer within its timeout (``TIMEOUTS``) fails with ``JobError`` and is withdrawn.

>>> queue_key(), replies_key("web-1:42:beef")
('dos:{jobs}', 'dos:{jobs}:replies:web-1:42:beef')
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

from dos.cluster.frames import FrameError
from dos.cluster.lease import new_owner_id
from dos.server.clock import SYSTEM_CLOCK, Clock
from dos.server.hosting.jobs import JOBS, BusyError, JobError, NoWorkersError

log = logging.getLogger(__name__)

T = TypeVar("T")

GROUP: Final = "workers"
"""The consumer group of the workers."""
MAX_JOBS: Final = 1024
"""Jobs the queue holds, queued and running, before ``BusyError``."""
CLAIM_AFTER: Final = 5.0
"""Seconds a running job may go untouched before another worker takes it over."""
MAX_DELIVERIES: Final = 3
"""Times a job is handed to a worker; taken over once more, it fails (it kills its workers)."""
TIMEOUTS: Final = {"bot": 15.0, "hint": 60.0}
"""Seconds a job waits for its answer, by name (``DEFAULT_TIMEOUT`` for the others)."""
DEFAULT_TIMEOUT: Final = 300.0
"""Seconds a job without its own ``TIMEOUTS`` entry waits (a review's chunk)."""
CHECK_EVERY: Final = 1.0
"""Seconds between the checks of a waiting job that its entry is still queued."""
REPLY_TTL_MS: Final = 60_000
"""How long an answer list outlives its last push (its server gone)."""
ALIVE_SECONDS: Final = 10
"""A worker not seen for so long is taken for gone (it notes itself every second)."""
RETRY_SECONDS: Final = (0.05, 0.1, 0.2, 0.5, 1.0)
"""Waits between attempts while Redis does not answer (the last repeats)."""

# KEYS: the stream. ARGV: max jobs, the job's id, name, payload, reply list.
# Returns the entry's id, or false when the stream is full.
_QUEUE = """
if redis.call('XLEN', KEYS[1]) >= tonumber(ARGV[1]) then
    return false
end
return redis.call('XADD', KEYS[1], '*', 'id', ARGV[2], 'name', ARGV[3], 'payload', ARGV[4],
                  'reply', ARGV[5])
"""


# KEYS: the workers' set. ARGV: a worker's name. Notes it as seen now; forgets the long gone.
BEAT = """
local now = tonumber(redis.call('TIME')[1])
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - 3600)
return now
"""

# KEYS: the workers' set. Returns how many seconds ago the latest worker noted itself, or -1
# when none did (or Redis forgot them).
_ALIVE = """
local now = tonumber(redis.call('TIME')[1])
local latest = redis.call('ZREVRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if #latest == 0 then
    return -1
end
return math.max(0, now - tonumber(latest[2]))
"""


def queue_key(prefix: str = "dos") -> str:
    """The stream of queued and running jobs. The queue's keys share the hash tag
    ``{jobs}``: a worker's answer and its acknowledgement are one transaction, which a Redis
    Cluster allows on one node only."""
    return f"{prefix}:{{jobs}}"


def workers_key(prefix: str = "dos") -> str:
    """The sorted set of the workers, each with the time it was last seen."""
    return f"{prefix}:{{jobs}}:workers"


def replies_key(runner: str, prefix: str = "dos") -> str:
    """The list of the answers to one runner's jobs."""
    return f"{prefix}:{{jobs}}:replies:{runner}"


def connect(url: str) -> Redis:
    """A client for the queue: it gives up on an unanswered command after a few seconds
    (longer than the one-second blocking reads)."""
    return Redis.from_url(url, socket_connect_timeout=2.0, socket_timeout=5.0)


def text(value: bytes | str) -> str:
    """A Redis value as text."""
    return value.decode() if isinstance(value, bytes) else value


@dataclass(frozen=True, slots=True)
class JobAnswer:
    """A worker's answer to job ``id``, as its runner's list holds it: the job's result
    (JSON text) when ``ok``, else why it failed (``error``).

    >>> answer = JobAnswer("9f", ok=True, result='{"x":1}')
    >>> JobAnswer.loads(answer.dumps()) == answer
    True
    >>> JobAnswer.loads('{"ok": true}')
    Traceback (most recent call last):
    ...
    dos.cluster.frames.FrameError: a job's answer: no job id
    """

    id: str
    ok: bool
    result: str | None = None
    error: str | None = None

    def dumps(self) -> str:
        """As the runner's list holds it (JSON text)."""
        fields: dict[str, Any] = {"id": self.id, "ok": self.ok}
        if self.ok:
            fields["result"] = self.result
        else:
            fields["error"] = self.error
        return json.dumps(fields, separators=(",", ":"))

    @classmethod
    def loads(cls, value: bytes | str) -> JobAnswer:
        """Read back from ``dumps``; ``FrameError`` for anything else."""
        try:
            data = json.loads(value)
        except ValueError as error:
            raise FrameError("a job's answer", f"not JSON ({error})") from None
        if not isinstance(data, dict) or not isinstance(data.get("id"), str):
            raise FrameError("a job's answer", "no job id")
        ok = data.get("ok") is True
        result, why = data.get("result"), data.get("error")
        if ok and not isinstance(result, str):
            raise FrameError("a job's answer", "no result")
        return cls(data["id"], ok, result if ok else None, None if ok else str(why))


class JobsUnavailableError(JobError):
    """Redis did not answer: the job was not queued, or its answer could not be awaited."""


async def retrying(what: str, call: Callable[[], Awaitable[T]], stop: asyncio.Event) -> T | None:
    """``await call()`` until Redis answers (``None`` once ``stop`` is set), waiting
    ``RETRY_SECONDS`` between attempts and logging once per outage."""
    failures = 0
    while not stop.is_set():
        try:
            result = await call()
        except RedisError as error:
            if failures == 0:
                log.warning("%s: Redis did not answer (%s); trying again", what, error)
            wait = RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)]
            failures += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), wait)
            continue
        if failures:
            log.info("%s: Redis answers again", what)
        return result
    return None


@dataclass(slots=True)
class _Job:
    """A job waiting for its answer."""

    id: str
    name: str
    body: str
    entry: str | None = None
    """Its stream entry's id, once queued (another when queued again)."""
    answer: asyncio.Future[JobAnswer] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class RedisJobs:
    """``Jobs`` through Redis: ``run`` queues the job and waits for a worker's answer (the
    module's docstring has the protocol). Used from one event loop."""

    def __init__(
        self,
        redis: str | Redis,
        *,
        prefix: str = "dos",
        max_jobs: int = MAX_JOBS,
        timeouts: Mapping[str, float] | None = None,
        runner: str | None = None,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        if max_jobs < 1:
            raise ValueError("max_jobs: at least 1")
        self.redis = connect(redis) if isinstance(redis, str) else redis
        self._own_client = isinstance(redis, str)
        self.stream = queue_key(prefix)
        self.workers = workers_key(prefix)
        self.runner = runner or new_owner_id()
        self.replies = replies_key(self.runner, prefix)
        self.max_jobs = max_jobs
        self.timeouts = dict(TIMEOUTS if timeouts is None else timeouts)
        self.clock = clock
        """The server's clock (``Service.clock``): a job's timeout (``TIMEOUTS``) is counted
        on it, as the table's time the job decides for. Whether workers are alive stays on
        real time: their notes are stamped by Redis's clock (``BEAT``); so do the checks
        every ``CHECK_EVERY`` that a waiting job's entry is still there (a guard against
        Redis losing it), and the waits while Redis is away."""
        self._queue = self.redis.register_script(_QUEUE)
        self._alive = self.redis.register_script(_ALIVE)
        self._checked_workers = -math.inf
        """``time.monotonic()`` when the workers were last checked (once a second at most):
        real time, as the workers' notes on Redis's clock."""
        self._seen_workers = -math.inf
        """``time.monotonic()`` of the latest note of a worker this runner read: kept over a
        restart of Redis that lost the notes."""
        self._waiting: dict[str, asyncio.Future[JobAnswer]] = {}
        self._reader: asyncio.Task[None] | None = None
        self._watcher: asyncio.Task[None] | None = None
        self._stopping = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        """Starts reading, every ``CHECK_EVERY`` s, when a worker last noted itself (the
        server's start, on its event loop), so that the runner remembers the workers over a
        restart of Redis that lost their notes even if it asked no job before; the answers'
        reader starts with the first job."""
        with contextlib.suppress(RuntimeError):  # no event loop: the jobs check for themselves
            self._loop = asyncio.get_running_loop()
            self._watcher = self._loop.create_task(self._watch_workers(), name="job-workers")

    async def _watch_workers(self) -> None:
        while not self._stopping.is_set():
            with contextlib.suppress(RedisError, OSError, NoWorkersError):
                await self._check_workers()
            await asyncio.sleep(CHECK_EVERY)

    def stop(self) -> None:
        """Stops reading answers and closes the connections; jobs waiting fail. Called from
        the event loop's thread or from another (the server's stop), it waits for that."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        if _running(loop):
            loop.create_task(self.close())
            return
        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(self.close(), loop).result(10.0)

    async def close(self) -> None:
        """Stops reading answers, fails the jobs waiting, closes the connections."""
        self._stopping.set()
        for task in (self._reader, self._watcher):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._reader = self._watcher = None
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(JobsUnavailableError("the job runner stopped"))
        if self._own_client:
            await self.redis.aclose()

    async def run(self, name: str, payload: dict[str, Any]) -> Any:
        """See ``Jobs.run``."""
        if name not in JOBS:
            raise JobError(f"unknown job {name!r}")
        if self._stopping.is_set():
            raise JobsUnavailableError("the job runner stopped")
        self._loop = asyncio.get_running_loop()
        if self._reader is None or self._reader.done():
            self._reader = self._loop.create_task(self._read_answers(), name="job-answers")
        job = _Job(secrets.token_hex(8), name, json.dumps(payload, separators=(",", ":")))
        self._waiting[job.id] = job.answer
        try:
            job.entry = await self._put(job)
            answer = await self._wait(job)
        finally:
            self._waiting.pop(job.id, None)
            if job.entry is not None and not job.answer.done():
                # Cancelled, or out of time: withdrawn, so that no worker runs it for nobody.
                job.answer.cancel()
                with contextlib.suppress(RedisError):
                    await self.redis.xdel(self.stream, job.entry)
        if not answer.ok or answer.result is None:
            raise JobError(f"job {name} failed: {answer.error}")
        return json.loads(answer.result)

    async def _check_workers(self) -> None:
        """``NoWorkersError`` unless a worker was seen within ``ALIVE_SECONDS`` (by Redis's
        notes, or by this runner before Redis lost them)."""
        now = time.monotonic()
        if now - self._checked_workers < CHECK_EVERY:
            return
        age = int(await self._alive(keys=[self.workers]))
        if age >= 0:
            self._seen_workers = max(self._seen_workers, now - age)
        if now - self._seen_workers > ALIVE_SECONDS:
            raise NoWorkersError("no dos bot-worker is running")
        self._checked_workers = now

    async def _put(self, job: _Job) -> str:
        """Queues ``job``; returns its entry's id."""
        for attempt in (1, 2):
            try:
                await self._check_workers()
                entry = await self._queue(
                    keys=[self.stream],
                    args=[self.max_jobs, job.id, job.name, job.body, self.replies],
                )
            except RedisConnectionError as error:
                if attempt == 1:
                    continue  # a connection Redis closed (it restarted): once more, anew
                why = f"job {job.name}: Redis did not answer ({error})"
                raise JobsUnavailableError(why) from None
            except RedisError as error:
                why = f"job {job.name}: Redis did not answer ({error})"
                raise JobsUnavailableError(why) from None
            if entry is None:
                raise BusyError(f"{self.max_jobs} jobs are queued: try again later")
            return text(entry)
        raise AssertionError("unreachable")

    async def _wait(self, job: _Job) -> JobAnswer:
        """The answer, checking every ``CHECK_EVERY`` s (real time) that the job is still
        queued (and queuing it again if Redis lost it); ``JobError`` after the job's timeout
        (on the server's clock)."""
        clock = self.clock
        deadline = clock.monotonic() + self.timeouts.get(job.name, DEFAULT_TIMEOUT)
        missing = False
        while True:
            left = deadline - clock.monotonic()
            if left <= 0:
                raise JobError(f"job {job.name}: no worker answered in time")
            answer = asyncio.wait_for(asyncio.shield(job.answer), CHECK_EVERY)
            try:
                return await clock.wait_for(answer, left)
            except TimeoutError:
                pass
            assert job.entry is not None
            try:
                if await self.redis.xrange(self.stream, job.entry, job.entry, count=1):
                    missing = False
                elif not missing:
                    missing = True  # done, its answer on its way to the reader; or lost
                else:
                    log.warning("job %s %s: lost by Redis, queued again", job.name, job.id)
                    job.entry = await self._put(job)
                    missing = False
            except (RedisError, BusyError, JobError):
                continue  # Redis away, full, or its workers not back yet: the timeout decides

    async def _read_answers(self) -> None:
        """Hands each answer in this runner's list to the job waiting for it."""
        while not self._stopping.is_set():
            popped = await retrying(
                "job answers", lambda: self.redis.blpop([self.replies], timeout=1), self._stopping
            )
            if popped is None:
                continue
            try:
                answer = JobAnswer.loads(popped[1])
            except FrameError as error:
                log.error("job answers: not an answer (%s): %r", error.reason, popped[1][:200])
                continue
            future = self._waiting.get(answer.id)
            if future is not None and not future.done():
                future.set_result(answer)


def _running(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False
