"""Fixtures of the cluster tests: Redis, and the server tests' databases (SQLite, and
PostgreSQL when installed); skipped where Redis or PostgreSQL is missing (a failure under
``CI=true``, tests/conftest.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from redis.asyncio import Redis

from cluster.support import IN_LOOP_TTL, RedisServer
from dos.cluster.node import Node
from dos.server.clock import Clock
from dos.server.service import Service
from dos.server.storage import Database
from dos.server.table_settings import Settings
from server.conftest import database, postgres  # noqa: F401 (SQLite and PostgreSQL in turn)
from support import suite_deals


def _redis_server(persistent: bool = False) -> RedisServer:
    try:
        return RedisServer(persistent)
    except FileNotFoundError as error:
        pytest.skip(str(error))


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """A throwaway Redis server shared by the tests (skipped where Redis is not installed).
    Tests that stop or restart a server take their own (``own_redis``)."""
    server = _redis_server()
    server.start()
    yield server
    server.remove()


@pytest.fixture
def own_redis() -> Iterator[RedisServer]:
    """A Redis server of the test's own, without persistence, not yet started."""
    server = _redis_server()
    yield server
    server.remove()


@pytest.fixture
def persistent_redis() -> Iterator[RedisServer]:
    """A Redis server of the test's own that keeps its data over restarts (append-only
    file), not yet started."""
    server = _redis_server(persistent=True)
    yield server
    server.remove()


@pytest_asyncio.fixture
async def redis(redis_server: RedisServer) -> AsyncIterator[Redis]:
    """A client of the shared server, emptied first."""
    client = Redis.from_url(redis_server.url)
    await client.flushdb()
    yield client
    await client.aclose()


async def _no_forwards(key: str, message: Any) -> None:
    return None


@pytest_asyncio.fixture
async def make(
    database: str,  # noqa: F811 (the fixture imported above)
    redis_server: RedisServer,
    tmp_path: Path,
) -> AsyncIterator[Callable[[str], Any]]:
    """Starts server processes of one server, played by ``Service`` with their ``Node`` in
    the test's event loop, on one Redis and one database: ``await make(name)``, or
    ``await make(name, clock)`` on a ``ManualClock`` the test moves. Leases of
    ``IN_LOOP_TTL`` seconds; no scan for free tables unless the test runs one
    (``Node.adopt_free``); forwarded messages ignored. Stopped at the end, unless the test
    stopped them (as a crash: their leases left to run out)."""
    async with Redis.from_url(redis_server.url) as client:
        await client.flushdb()
    started: list[Service] = []

    async def start(name: str, clock: Clock | None = None) -> Service:
        settings = Settings(bot_delay=0, grace_seconds=10, pause_seconds=0, deals=suite_deals())
        folder = tmp_path / name
        folder.mkdir()
        service = Service(
            Database(database),
            folder,
            settings,
            redis_url=redis_server.url,
            secret=b"s" * 32,
            clock=clock,
        )
        node = Node(service, redis_server.url, name, ttl=IN_LOOP_TTL, scan_every=3600)
        node.handler = _no_forwards
        service.node = node
        await service.start()
        started.append(service)
        return service

    yield start
    for service in started:
        if service.node is not None and not service.node.stopped:
            await service.stop()
