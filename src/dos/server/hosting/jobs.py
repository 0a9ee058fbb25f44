"""CPU work the server never does on its event loop: named jobs run by worker processes.

A **job** is a pure function of a JSON-able payload that returns a JSON-able result: a bot's
decision (``dos.server.tables.bot_job``), the ``sage`` bot's hint for one seat's view
(``dos.server.tables.hint_job``), the review of some decisions of a finished game
(``dos.server.http.review_job``). ``Jobs`` is the interface the server uses:
``await jobs.run(name, payload)`` gives the result, or raises ``BusyError`` at once when the
runner has no room (the caller refuses with ``busy``, or tries again later), or ``JobError``
when the job failed. ``LocalJobs`` runs them on worker processes of this machine with bounded
queues (one process of ``dos serve``); a server of many hands them to ``dos bot-worker``
processes through Redis (``dos.cluster.jobqueue.RedisJobs``). Callers do not change.

Jobs are named in ``JOBS`` (``"module:function"``) and imported in the worker by that name,
so the server process never pickles a function, only the name and the payload.

>>> runner = LocalJobs(workers=1, queue=1)
>>> runner.start()
>>> import asyncio
>>> asyncio.run(runner.run("echo", {"x": 1}))
{'x': 1}
>>> runner.stop()
"""

from __future__ import annotations

import asyncio
import importlib
import json
import logging
import os
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import wait as wait_for_futures
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Final, Protocol

from dos.server.hosting.job_pool import kill_workers, process_pool, start_fork_server, warm_worker

log = logging.getLogger(__name__)

JOBS: Final = {
    "echo": "dos.server.hosting.jobs:echo",
    "bot": "dos.server.tables.bot_job:bot_job",
    "hint": "dos.server.tables.hint_job:hint_job",
    "review": "dos.server.http.review_job:review_job",
}
"""Job name -> ``module:function`` (the function takes the payload, returns the result)."""

WORKERS: Final = 2
"""Worker processes of the local runner (each runs one job at a time)."""
QUEUE: Final = 16
"""Jobs the local runner holds, running and waiting; one more is refused (``BusyError``)."""
BOT_JOBS: Final = frozenset({"bot"})
"""The jobs of the bots' lane of the local runner (``LocalJobs``)."""
BOT_WORKERS: Final = max(1, min(4, os.cpu_count() or 1))
"""Worker processes of the local runner's bots' lane: one per core, up to four."""
BOT_QUEUE: Final = 256
"""Bot decisions the local runner holds, running and waiting (one per table at most)."""
WARM_SECONDS: Final = 120.0
"""How long ``LocalJobs.warm`` waits for the workers at most (a machine's first compilation
of the rollouts takes under a minute); past it, it stops waiting and calls itself done."""


@dataclass(frozen=True, slots=True)
class JobSettings:
    """How the server runs its CPU jobs, and how much each costs."""

    workers: int = WORKERS
    """Worker processes."""
    queue: int = QUEUE
    """Jobs held at once, running and waiting."""
    bot_workers: int = BOT_WORKERS
    """Worker processes of the bots' decisions (one process; with Redis, ``dos bot-worker``)."""
    bot_queue: int = BOT_QUEUE
    """Bot decisions held at once, running and waiting (one process)."""
    hint_iterations: int = 800
    """The search iterations of a hint (the ``expert`` level's)."""
    review_samples: int = 1000
    """Determinizations per decision and stage of a review (``dos review --iterations``)."""
    review_seed: int = 0
    """The reviews' seed (``dos review --seed``)."""
    warm: bool = True
    """Whether ``dos serve`` starts its workers warm as it starts (``LocalJobs.warm``); else
    each lane starts with its first job, its first hint or decision waiting for it."""

    @classmethod
    def from_environment(cls) -> JobSettings:
        """The settings, each changed by its variable where set: ``DOS_JOB_WORKERS``,
        ``DOS_JOB_QUEUE``, ``DOS_BOT_WORKERS``, ``DOS_BOT_QUEUE``, ``DOS_HINT_ITERATIONS``,
        ``DOS_REVIEW_SAMPLES``, ``DOS_REVIEW_SEED`` (whole numbers; tests make hints and
        reviews cheap so), and ``DOS_JOB_WARM`` (``0``: no warm-up at the start).

        >>> JobSettings.from_environment().workers >= 1
        True
        """
        values: dict[str, int] = {}
        for name, variable in (
            ("workers", "DOS_JOB_WORKERS"),
            ("queue", "DOS_JOB_QUEUE"),
            ("bot_workers", "DOS_BOT_WORKERS"),
            ("bot_queue", "DOS_BOT_QUEUE"),
            ("hint_iterations", "DOS_HINT_ITERATIONS"),
            ("review_samples", "DOS_REVIEW_SAMPLES"),
            ("review_seed", "DOS_REVIEW_SEED"),
        ):
            text = os.environ.get(variable)
            if text:
                try:
                    values[name] = int(text)
                except ValueError:
                    raise ValueError(f"{variable}: {text!r} is not a whole number") from None
                if values[name] < (0 if name == "review_seed" else 1):
                    raise ValueError(f"{variable}: too small")
        if values.get("review_samples", 2) < 2:
            raise ValueError("DOS_REVIEW_SAMPLES: at least 2")
        warm = os.environ.get("DOS_JOB_WARM")
        if warm and warm not in ("0", "1"):
            raise ValueError(f"DOS_JOB_WARM: {warm!r} is neither 0 nor 1")
        return cls(**values, warm=warm != "0")


class BusyError(Exception):
    """The runner has no room for another job now: try again later."""


class JobError(Exception):
    """A job failed (a bug, or a payload it cannot read): its message says why."""


class NoWorkersError(JobError):
    """The runner has no worker at all (no ``dos bot-worker`` is running): nobody would run
    the job, so it was not queued."""


class Jobs(Protocol):
    """Runs named CPU jobs off the event loop (``dos.server.hosting.jobs``)."""

    def start(self) -> None:
        """Gets ready to run jobs (the server's start)."""
        ...

    def stop(self) -> None:
        """Stops: waiting jobs are dropped (the server's stop, on a worker thread)."""
        ...

    async def run(self, name: str, payload: dict[str, Any]) -> Any:
        """The result of the job ``name`` on ``payload``; ``BusyError`` when there is no room,
        ``JobError`` when it failed."""
        ...


def echo(payload: dict[str, Any]) -> dict[str, Any]:
    """A job that returns its payload (the runner's own test)."""
    return payload


def run_job(name: str, text: str) -> str:
    """Runs the job ``name`` on the payload ``text`` (JSON) in this process; its result as
    JSON. What a worker, local or remote, executes."""
    module, _, function = JOBS[name].partition(":")
    result = getattr(importlib.import_module(module), function)(json.loads(text))
    return json.dumps(result, separators=(",", ":"))


class _Lane:
    """A process pool and the jobs it holds, running and waiting (at most ``queue``)."""

    def __init__(self, workers: int, queue: int, warm: bool = False) -> None:
        if workers < 1 or queue < 1:
            raise ValueError("workers and queue: at least 1")
        self.workers = workers
        self.queue = queue
        self.warm = warm
        self.pool: ProcessPoolExecutor | None = None
        self.held = 0
        self.warmups: list[Future[None]] = []
        """The ``warm_worker`` jobs that started the warm pool's workers."""
        self.stopped = False
        """The runner stopped: ``warm_up`` starts nothing any more."""
        self._lock = threading.Lock()

    def open(self) -> ProcessPoolExecutor:
        """The pool, started with its first job (a server nobody asks for hints spends
        nothing on them) or warmed before (``warm_up``); its workers stay for the next jobs.
        Blocking while the fork server starts: called off the event loop."""
        with self._lock:
            return self._open()

    def _open(self) -> ProcessPoolExecutor:
        if self.pool is None:
            self.pool = process_pool(self.workers, warm=self.warm)
            if self.warm:
                # Every worker at once (each readies the compiled rollouts before its first
                # job), so that only the first decision waits for that.
                self.warmups = [self.pool.submit(warm_worker) for _ in range(self.workers)]
        return self.pool

    def warm_up(self) -> list[Future[None]]:
        """Starts the pool now, warm (its workers forked, each readying the compiled
        rollouts), if not yet and not stopped; the jobs that start its workers (none if it
        was open already). Blocking while the fork server starts: off the event loop."""
        with self._lock:
            if self.stopped:
                return []
            self.warm = True
            self._open()
            return self.warmups

    def submit(self, name: str, text: str) -> Future[str]:
        """Hands the job to a worker (off the event loop: see ``open``)."""
        return self.open().submit(run_job, name, text)

    def close(self, wait: bool, stop: bool = False) -> None:
        """Shuts the pool down (the next job starts a new one); ``stop``: for good."""
        with self._lock:
            pool, self.pool = self.pool, None
            self.stopped = self.stopped or stop
            readying = any(not job.done() for job in self.warmups)
        if pool is not None:
            if stop and readying and self.held == 0:
                # Workers still readying, and no job of anyone's: a server stopped as it
                # starts does not wait for them.
                kill_workers(pool)
            pool.shutdown(wait=wait, cancel_futures=True)


class LocalJobs:
    """``Jobs`` on worker processes of this machine, in two lanes, each a
    ``ProcessPoolExecutor`` holding a bounded number of jobs (running and waiting): the bots'
    decisions (``BOT_JOBS``: ``bot_workers`` processes, ``bot_queue`` jobs), and the others,
    hints and reviews (``workers``, ``queue``), so that a review never holds a bot's move
    back. Workers are forked by a fork server with the jobs' modules loaded
    (``dos.server.hosting.job_pool``)."""

    def __init__(
        self,
        workers: int = WORKERS,
        queue: int = QUEUE,
        bot_workers: int = BOT_WORKERS,
        bot_queue: int = BOT_QUEUE,
    ) -> None:
        self._lanes = {
            "jobs": _Lane(workers, queue),
            "bots": _Lane(bot_workers, bot_queue, warm=True),
        }
        self.workers = workers
        self.queue = queue
        self._warming: threading.Thread | None = None

    @classmethod
    def of(cls, settings: JobSettings) -> LocalJobs:
        """The runner ``settings`` say (their workers and queues)."""
        return cls(settings.workers, settings.queue, settings.bot_workers, settings.bot_queue)

    @property
    def held(self) -> int:
        """Jobs held now, running and waiting."""
        return sum(lane.held for lane in self._lanes.values())

    def start(self) -> None:
        """Nothing to do: each lane starts with its first job, when ``prepare``d, or with
        ``warm``."""

    def warm(self) -> None:
        """Starts every lane's workers now, in the background (a thread): the fork server up,
        the workers forked, each readying the compiled rollouts before its first job, so that
        no table's first hint or bot decision waits for them (``dos serve`` calls it as it
        starts). ``warming`` says whether it is under way; jobs asked meanwhile wait for
        their lane's pool as they would have. Once: later calls do nothing."""
        if self._warming is None:
            self._warming = threading.Thread(
                target=self._warm_lanes, name="job-workers-warm-up", daemon=True
            )
            self._warming.start()

    @property
    def warming(self) -> bool:
        """Whether the workers' warm-up (``warm``) is under way."""
        return self._warming is not None and self._warming.is_alive()

    def _warm_lanes(self) -> None:
        started = time.perf_counter()
        try:
            start_fork_server()  # first, outside the lanes' locks: a stop need not wait for it
            warmups = [job for lane in self._lanes.values() for job in lane.warm_up()]
            done, waiting = wait_for_futures(warmups, timeout=WARM_SECONDS)
            failed = [job.exception() for job in done if not job.cancelled() and job.exception()]
        except Exception:
            log.exception("the job workers' warm-up failed: they start with their first jobs")
            return
        if any(lane.stopped for lane in self._lanes.values()):
            log.info("the job workers' warm-up ended with the runner's stop")
        elif waiting:
            log.warning("the job workers are not warm after %g s: not waiting longer", WARM_SECONDS)
        elif failed:
            log.error("the job workers' warm-up failed: %s", failed[0])
        else:
            workers = sum(lane.workers for lane in self._lanes.values())
            seconds = time.perf_counter() - started
            log.info("%d job worker(s) warm in %.1f s", workers, seconds)

    async def prepare(self, name: str) -> None:
        """Starts the workers of the job ``name``'s lane now, if not yet (a game with
        searching bots begins: its first decision need not wait for them)."""
        await asyncio.to_thread(self._lanes["bots" if name in BOT_JOBS else "jobs"].open)

    def stop(self) -> None:
        """Shuts the pools down: waiting jobs are dropped, running ones finished (a job takes
        seconds at most), the processes ended. It blocks: run it on a worker thread."""
        for lane in self._lanes.values():
            lane.close(wait=True, stop=True)

    async def run(self, name: str, payload: dict[str, Any]) -> Any:
        """See ``Jobs.run``; unknown names raise ``JobError``."""
        if name not in JOBS:
            raise JobError(f"unknown job {name!r}")
        lane = self._lanes["bots" if name in BOT_JOBS else "jobs"]
        if lane.held >= lane.queue:
            raise BusyError(f"{lane.held} jobs are waiting: try again later")
        text = json.dumps(payload, separators=(",", ":"))
        lane.held += 1
        try:
            # Off the event loop: a worker that starts waits for the fork server.
            future = await asyncio.to_thread(lane.submit, name, text)
            result = await asyncio.wrap_future(future)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): a fresh pool for the next jobs.
            log.exception("job %s: the worker process died", name)
            lane.close(wait=False)
            raise JobError(f"job {name}: the worker process died") from None
        except asyncio.CancelledError:
            raise
        except Exception as error:
            log.exception("job %s failed", name)
            raise JobError(f"job {name} failed: {error}") from None
        finally:
            lane.held -= 1
        return json.loads(result)
