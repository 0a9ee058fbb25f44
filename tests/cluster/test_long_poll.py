"""An agent's long poll across the death of its table's owner: two ``dos serve --redis``
processes on one PostgreSQL and one Redis. The agent waits through the process that does not
own its table (the poll is forwarded to the owner); the owner is killed (SIGKILL) while the
poll waits: the poll is asked again of the next owner and answered, rather than left to time
out (``dos.cluster.forwarding.Forwarder.forward_http``)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

from cluster.support import RedisServer, redis_processes
from server.support import PostgresCluster, ServerProcess, create_table, join_table

pytestmark = pytest.mark.asyncio

SECRET = "long-poll-secret-0123456789-0123456789"


@pytest.fixture
def pair(
    tmp_path: Path, postgres: tuple[PostgresCluster, str], redis_server: RedisServer
) -> Iterator[list[ServerProcess]]:
    pg, url = postgres
    with redis.Redis.from_url(redis_server.url) as client:
        client.flushdb()
    database = pg.new_database(url)
    servers = redis_processes(tmp_path, database, redis_server.url, 2, SECRET)
    for server in servers:
        server.start()
    try:
        yield servers
    finally:
        for server in servers:
            server.stop()


def _owner(redis_url: str, code: str) -> str | None:
    with redis.Redis.from_url(redis_url) as client:
        value = client.get(f"dos:table:{{{code}}}:lease")
    return None if value is None else value.decode().split(" ", 1)[1].split(":", 1)[0]


async def test_a_long_poll_is_answered_by_the_next_owner_when_its_owner_dies(
    pair: list[ServerProcess], redis_server: RedisServer
) -> None:
    first, second = pair
    grant = create_table(first.url, seats=[None, None], name="Ada")
    code = grant["code"]
    assert _owner(redis_server.url, code) == "p0"
    guest = join_table(second.url, code, "Bea")
    auth = {"Authorization": f"Bearer {grant['token']}"}
    started = httpx.post(f"{second.url}/api/agent/seat/start", headers=auth, timeout=30)
    assert started.status_code == 200, started.text
    # The seat that is not to move waits for any change, through the process that does not
    # own the table.
    views = {}
    for token in (grant["token"], guest["token"]):
        answer = httpx.get(
            f"{second.url}/api/agent/seat",
            headers={"Authorization": f"Bearer {token}"},
            timeout=30,
        )
        views[token] = answer.json()
    waiting = next(t for t, v in views.items() if not v["legal"])
    seen: dict[str, Any] = views[waiting]
    answered: list[httpx.Response] = []
    polling = threading.Event()

    def poll() -> None:
        polling.set()
        answered.append(
            httpx.get(
                f"{second.url}/api/agent/seat/wait",
                params={
                    "version": seen["version"],
                    "change": seen["change"],
                    "until": "change",
                    "timeout": 30,
                },
                headers={"Authorization": f"Bearer {waiting}"},
                timeout=120,
            )
        )

    thread = threading.Thread(target=poll)
    thread.start()
    polling.wait(30)
    await _forwarded(first)  # the poll waits at the owner
    first.kill()
    await asyncio.to_thread(thread.join, 120)
    assert answered, "the poll was never answered"
    answer = answered[0]
    assert answer.status_code == 200, answer.text  # not 504 after the forward's timeout
    view = answer.json()
    assert view["code"] == code and view["version"] == seen["version"]
    assert _owner(redis_server.url, code) == "p1"


async def _forwarded(owner: ServerProcess) -> None:
    """Waits until ``owner`` holds a forwarded request: its metrics count an open long poll."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30
    while True:
        metrics = httpx.get(f"{owner.url}/metrics", timeout=30).text
        if _gauge(metrics, "dos_agent_waits") >= 1:
            return
        assert loop.time() < deadline, "the poll never reached the owner"
        await asyncio.sleep(0.05)


def _gauge(metrics: str, name: str) -> float:
    for line in metrics.splitlines():
        if line.startswith(name + " ") or line.startswith(name + "{"):
            return float(line.rsplit(" ", 1)[1])
    raise AssertionError(f"no metric {name}")
