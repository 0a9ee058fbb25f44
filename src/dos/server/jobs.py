"""CPU work the server never does on its event loop: named jobs run by worker processes.

A **job** is a pure function of a JSON-able payload that returns a JSON-able result: the
``sage`` bot's hint for one seat's view (``dos.server.hints``), the review of some decisions
of a finished game (``dos.server.reviews``). ``Jobs`` is the interface the server uses:
``await jobs.run(name, payload)`` gives the result, or raises ``BusyError`` at once when the
runner has no room (the caller refuses with ``busy``), or ``JobError`` when the job failed.
``LocalJobs`` runs them on a ``ProcessPoolExecutor`` of a few workers with a bounded queue;
since a job is named and takes only JSON, a runner that hands them to workers on other
machines (through Redis, a later issue) can take its place without the callers changing.

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
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Final, Protocol

log = logging.getLogger(__name__)

JOBS: Final = {
    "echo": "dos.server.jobs:echo",
    "hint": "dos.server.hints:hint_job",
    "review": "dos.server.reviews:review_job",
}
"""Job name -> ``module:function`` (the function takes the payload, returns the result)."""

WORKERS: Final = 2
"""Worker processes of the local runner (each runs one job at a time)."""
QUEUE: Final = 16
"""Jobs the local runner holds, running and waiting; one more is refused (``BusyError``)."""


@dataclass(frozen=True, slots=True)
class JobSettings:
    """How the server runs its CPU jobs, and how much each costs."""

    workers: int = WORKERS
    """Worker processes."""
    queue: int = QUEUE
    """Jobs held at once, running and waiting."""
    hint_iterations: int = 800
    """The search iterations of a hint (the ``expert`` level's)."""
    review_samples: int = 1000
    """Determinizations per decision and stage of a review (``dos review --iterations``)."""
    review_seed: int = 0
    """The reviews' seed (``dos review --seed``)."""

    @classmethod
    def from_environment(cls) -> JobSettings:
        """The settings, each changed by its variable where set: ``DOS_JOB_WORKERS``,
        ``DOS_JOB_QUEUE``, ``DOS_HINT_ITERATIONS``, ``DOS_REVIEW_SAMPLES``,
        ``DOS_REVIEW_SEED`` (whole numbers; tests make hints and reviews cheap so).

        >>> JobSettings.from_environment().workers >= 1
        True
        """
        values: dict[str, int] = {}
        for name, variable in (
            ("workers", "DOS_JOB_WORKERS"),
            ("queue", "DOS_JOB_QUEUE"),
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
        return cls(**values)


class BusyError(Exception):
    """The runner has no room for another job now: try again later."""


class JobError(Exception):
    """A job failed (a bug, or a payload it cannot read): its message says why."""


class Jobs(Protocol):
    """Runs named CPU jobs off the event loop (``dos.server.jobs``)."""

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


class LocalJobs:
    """``Jobs`` on a ``ProcessPoolExecutor``: ``workers`` processes, at most ``queue`` jobs
    held at once (running and waiting). Workers are started by ``spawn``, so that no copy of
    the server's threads and locks runs in them."""

    def __init__(self, workers: int = WORKERS, queue: int = QUEUE) -> None:
        if workers < 1 or queue < 1:
            raise ValueError("workers and queue: at least 1")
        self.workers = workers
        self.queue = queue
        self._pool: ProcessPoolExecutor | None = None
        self._held = 0

    @property
    def held(self) -> int:
        """Jobs held now, running and waiting."""
        return self._held

    def start(self) -> None:
        """Creates the pool (its processes start with the first job)."""
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            # No process starts before the first job: a server nobody asks for hints or
            # reviews spends nothing on them (a spawned worker takes seconds to import).
            self._pool = ProcessPoolExecutor(self.workers, mp_context=context)

    def stop(self) -> None:
        """Shuts the pool down: waiting jobs are dropped, running ones finished (a job takes
        seconds at most), the processes ended. It blocks: run it on a worker thread."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    async def run(self, name: str, payload: dict[str, Any]) -> Any:
        """See ``Jobs.run``; unknown names raise ``JobError``."""
        if name not in JOBS:
            raise JobError(f"unknown job {name!r}")
        if self._held >= self.queue:
            raise BusyError(f"{self._held} jobs are waiting: try again later")
        if self._pool is None:
            self.start()
        assert self._pool is not None
        text = json.dumps(payload, separators=(",", ":"))
        self._held += 1
        try:
            future = self._pool.submit(run_job, name, text)
            result = await asyncio.wrap_future(future)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): a fresh pool for the next jobs.
            log.exception("job %s: the worker process died", name)
            if self._pool is not None:
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None
            raise JobError(f"job {name}: the worker process died") from None
        except asyncio.CancelledError:
            raise
        except Exception as error:
            log.exception("job %s failed", name)
            raise JobError(f"job {name} failed: {error}") from None
        finally:
            self._held -= 1
        return json.loads(result)
