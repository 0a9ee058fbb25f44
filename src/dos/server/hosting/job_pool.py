"""The worker processes that run jobs (``dos.server.hosting.jobs``), in ``dos serve``
(``LocalJobs``) and in ``dos bot-worker`` (``dos.cluster.jobworker``).

Workers are forked by a **fork server** (``multiprocessing``'s ``forkserver``): a process
started once, that imports the jobs' modules (``PRELOAD``: the bots, the rules, the hints and
reviews, the compiled core's numba, and none of the server's web stack) before it forks any
worker. A worker so starts in
milliseconds with every module loaded, instead of importing them all again, and holds none of
the server's threads and locks. Where there is no fork server (not POSIX), workers are
spawned. A pool's workers stay for the next jobs; ``warm_worker`` readies the compiled
rollouts of one (about a second) before its first search needs them. In a pool made ``warm``
every worker does so as it starts, before it takes its first job (a worker that replaces one
that died too): no job ever runs on a cold worker.

A worker ignores SIGINT and SIGTERM, sent to a whole process group by a terminal's ctrl-c or
a service manager: it finishes its job and ends when its pool shuts down. It also ends as
soon as the process that owns its pool is gone (killed with SIGKILL, say): a pool's worker
would otherwise wait for jobs for ever.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import select
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.context import BaseContext
from typing import Final

log = logging.getLogger(__name__)

PRELOAD: Final = (
    "dos.server.hosting.jobs",
    "dos.server.tables.bot_job",
    "dos.server.tables.hint_job",
    "dos.server.http.review_job",
    "dos.fast.official_rollout",  # numba, where the fast core is installed (else skipped)
    "dos.fast.classic_rollout",
)
"""The modules the fork server imports once, before it forks any worker: the jobs' own
modules (``JOBS``), which import what the jobs need and none of the server's web stack."""


def process_pool(workers: int, warm: bool = False) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes forked by the fork server (see the module); ``warm``:
    each readies the compiled rollouts (``warm_worker``) before its first job. Its first
    ``submit`` waits for the fork server to have loaded ``PRELOAD`` (seconds, once per
    process): make it off the event loop."""
    return ProcessPoolExecutor(
        workers,
        mp_context=_context(),
        initializer=_worker_started,
        initargs=(os.getpid(), warm),
    )


def start_fork_server() -> None:
    """Starts the fork server now, if not yet, and waits until it has loaded ``PRELOAD``
    (seconds, once per process; it forks a process that ends at once), so that the pools'
    workers then fork in milliseconds. Blocking: off the event loop. Nothing to do where
    there is no fork server."""
    if _context().get_start_method() == "forkserver":  # its preload set
        context = multiprocessing.get_context("forkserver")
        process = context.Process(target=os.getpid, name="fork-server-ready")
        process.start()
        process.join()


def kill_workers(pool: ProcessPoolExecutor) -> None:
    """Kills the pool's worker processes (SIGKILL: they ignore SIGTERM), whatever they are
    doing: for a pool whose workers are still readying and run nobody's job."""
    kill = getattr(pool, "kill_workers", None)  # Python 3.14
    if kill is not None:
        kill()
        return
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.kill()


_WARMED: Final = threading.Event()
"""Set once ``warm_worker`` has run in this process."""


def warm_worker() -> None:
    """Readies the searching bots' compiled rollouts in this worker (``warm_up``)."""
    from dos.bots.registry import warm_up

    warm_up()
    _WARMED.set()


def warmed() -> bool:
    """Whether this process has readied the compiled rollouts (``warm_worker`` ran here)."""
    return _WARMED.is_set()


def _context() -> BaseContext:
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(PRELOAD))  # applies when the fork server starts
    return context


def _worker_started(owner: int, warm: bool) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    threading.Thread(target=_end_with, args=(owner,), name="owner-watch", daemon=True).start()
    if warm:
        try:
            warm_worker()
        except Exception:  # an initializer's failure would break the whole pool
            log.exception("a job worker could not ready the compiled rollouts")


def _end_with(owner: int) -> None:
    """Waits until the process ``owner`` ends, then ends this one."""
    try:
        watched = os.pidfd_open(owner)  # Linux: readable once the process has ended
    except (AttributeError, OSError):
        watched = None
    if watched is not None:
        select.select([watched], [], [])
    else:
        while True:
            try:
                os.kill(owner, 0)
            except ProcessLookupError:
                break
            time.sleep(1.0)
    os._exit(0)
