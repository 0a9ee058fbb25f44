"""The job workers are warm before the first table needs them (``dos.server.hosting.jobs``,
``LocalJobs.warm``): ``dos serve`` starts them as it starts, in the background, the fork server
up, the workers forked and each with its compiled rollouts ready before it takes a job, and
``/api/ready`` says 503 until then. No timing is asserted: what is checked is what exists and
what ran before the first job."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from dos.server.app import ServerConfig, create_app
from dos.server.hosting.job_pool import process_pool, warmed
from dos.server.hosting.jobs import LocalJobs
from dos.server.net.limits import Limits
from dos.server.people.relying_party import RelyingParty
from dos.server.tables.settings import Settings
from server.support import HTTP, TIMEOUT, ServerProcess


async def _until(condition: Any, what: str) -> None:
    deadline = time.monotonic() + 120  # a machine's first compilation takes under a minute
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        await asyncio.sleep(0.05)


def _ask(pool: Any, function: Any) -> Any:
    return pool.submit(function).result(timeout=TIMEOUT)


@pytest.mark.asyncio
async def test_warm_starts_every_lanes_workers_ready_before_any_job() -> None:
    runner = LocalJobs(workers=1, queue=2, bot_workers=1, bot_queue=2)
    runner.start()
    lanes = list(runner._lanes.values())
    before = {child.pid for child in multiprocessing.active_children()}
    try:
        assert all(lane.pool is None for lane in lanes)  # nothing starts unasked
        runner.warm()
        runner.warm()  # once only
        await _until(lambda: not runner.warming, "the warm-up ended")
        # Every lane's workers exist, forked before any job was handed to the runner...
        assert runner.held == 0
        workers = {child.pid for child in multiprocessing.active_children()} - before
        assert len(workers) == sum(lane.workers for lane in lanes) == 2
        for lane in lanes:
            assert lane.pool is not None
            assert lane.warmups and all(job.done() and not job.exception() for job in lane.warmups)
            # ...and the first job each takes finds the compiled rollouts ready, on a worker
            # that was there already (none forked for it).
            assert await asyncio.to_thread(_ask, lane.pool, warmed)
            assert await asyncio.to_thread(_ask, lane.pool, os.getpid) in workers
        assert await runner.run("echo", {"n": 1}) == {"n": 1}
        assert {child.pid for child in multiprocessing.active_children()} - before == workers
    finally:
        await asyncio.to_thread(runner.stop)


@pytest.mark.asyncio
async def test_a_stopped_runner_warms_nothing() -> None:
    runner = LocalJobs(workers=1, queue=2, bot_workers=1, bot_queue=2)
    runner.stop()
    runner.warm()
    await _until(lambda: not runner.warming, "the warm-up ended")
    assert all(lane.pool is None for lane in runner._lanes.values())


def test_a_warm_pool_readies_each_worker_before_its_first_job() -> None:
    """Not only the workers the warm-up started: any worker of a warm pool (one that replaces
    a dead one too) readies the compiled rollouts before its first job; a cold pool's does
    not."""
    for warm in (True, False):
        pool = process_pool(1, warm=warm)
        try:
            assert _ask(pool, warmed) is warm
        finally:
            pool.shutdown(wait=True)


def test_not_ready_while_the_job_workers_warm_up(tmp_path: Path) -> None:
    """``/api/ready`` says 503 while the workers warm up: a host sends the process players
    once their first hints and bot moves will not wait for the workers."""

    class Alive:
        def __init__(self, alive: bool) -> None:
            self.alive = alive

        def is_alive(self) -> bool:
            return self.alive

    config = ServerConfig(
        data=tmp_path,
        settings=Settings(bot_delay=0, pause_seconds=0),
        limits=Limits().with_changes(["off"]),
        relying_party=RelyingParty("localhost"),
    )
    app = create_app(config)
    jobs = app.state.service.jobs
    assert isinstance(jobs, LocalJobs)
    with TestClient(app) as client:
        assert client.get("/api/ready").status_code == 200  # not warmed in-process: ready
        jobs._warming = Alive(True)  # type: ignore[assignment]
        warming = client.get("/api/ready")
        assert warming.status_code == 503
        assert warming.json() == {"ready": False, "reason": "the job workers are warming up"}
        assert client.get("/api/live").status_code == 200
        jobs._warming = Alive(False)  # type: ignore[assignment]
        assert client.get("/api/ready").status_code == 200


def test_dos_serve_is_ready_once_its_workers_are_warm(tmp_path: Path) -> None:
    """``dos serve`` warms its workers as it starts (it said so in its log) by the time it
    is ready: before any table or job was asked of it."""
    server = ServerProcess(
        tmp_path, None, env={"DOS_JOB_WORKERS": "1", "DOS_BOT_WORKERS": "1", "DOS_JOB_WARM": "1"}
    )
    server.start()
    try:
        deadline = time.monotonic() + 120
        while HTTP.get(f"{server.url}/api/ready").status_code != 200:
            assert time.monotonic() < deadline, "never ready"
            time.sleep(0.05)
        # The server logged it before it became ready; the log is read here as it comes.
        while not any("job worker(s) warm in" in line for line in server.output):
            assert time.monotonic() < deadline, "".join(server.output)
            time.sleep(0.05)
    finally:
        server.stop()


def test_dos_job_warm_0_leaves_the_workers_cold(monkeypatch: pytest.MonkeyPatch) -> None:
    from dos.server.hosting.jobs import JobSettings

    monkeypatch.delenv("DOS_JOB_WARM", raising=False)
    assert JobSettings.from_environment().warm is True
    monkeypatch.setenv("DOS_JOB_WARM", "0")
    assert JobSettings.from_environment().warm is False
    monkeypatch.setenv("DOS_JOB_WARM", "no")
    with pytest.raises(ValueError, match="DOS_JOB_WARM"):
        JobSettings.from_environment()


def test_the_fork_server_loads_the_jobs_and_not_the_web_server() -> None:
    """The fork server imports the jobs' own modules (``PRELOAD``): every job's function, and
    none of the server's web stack, which would cost each server's first job a second of CPU
    for nothing."""
    script = (
        "import importlib, json, sys\n"
        "from dos.server.hosting.job_pool import PRELOAD\n"
        "from dos.server.hosting.jobs import JOBS\n"
        "for name in PRELOAD: importlib.import_module(name)\n"
        "loaded = {n: m.partition(':')[0] in sys.modules for n, m in JOBS.items()}\n"
        "web = [m for m in ('fastapi', 'starlette', 'sqlalchemy', 'uvicorn') if m in sys.modules]\n"
        "print(json.dumps({'loaded': loaded, 'web': web}))\n"
    )
    found = json.loads(
        subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, check=True
        ).stdout
    )
    assert all(found["loaded"].values()), found
    assert found["web"] == [], found
