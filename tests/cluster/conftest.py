"""Fixtures of the cluster tests: Redis, and the server tests' databases (SQLite, and
PostgreSQL when installed); skipped where Redis or PostgreSQL is missing (a failure under
``CI=true``, tests/conftest.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from redis.asyncio import Redis

from cluster.support import IN_LOOP_TTL, RedisServer
from dos.cluster.jobqueue import RedisJobs
from dos.cluster.node import Node
from dos.server.clock import Clock
from dos.server.net.limits import Counters, Limits
from dos.server.service import Service
from dos.server.storage.database import Database
from dos.server.tables.settings import Settings
from dos.server.tables.table import Table
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
    (``Node.adopt_free``); nothing forwarded served (no relay). The node is the service's
    ``ownership``. Stopped at the end, unless the test stopped them (as a crash: their
    leases left to run out)."""
    async with Redis.from_url(redis_server.url) as client:
        await client.flushdb()
    started: list[Service] = []

    async def start(name: str, clock: Clock | None = None) -> Service:
        settings = Settings(bot_delay=0, grace_seconds=10, pause_seconds=0, deals=suite_deals())
        if clock is not None:
            settings = replace(settings, clock=clock)
        folder = tmp_path / name
        folder.mkdir()
        db = Database(database)
        tables: dict[str, Table] = {}

        async def load(code: str) -> Table | None:
            return await service.table(code)

        node = Node(
            redis_server.url,
            name,
            db=db,
            metrics=settings.metrics,
            clock=settings.clock,
            tables=tables,
            load=load,
            on_lost=lambda code: None,
            ttl=IN_LOOP_TTL,
            scan_every=3600,
        )
        service = Service(
            db,
            folder,
            settings,
            ownership=node,
            handovers=node,
            runner=RedisJobs(redis_server.url, clock=settings.clock),
            counters=Counters(Limits(), redis_server.url),
            tables=tables,
            secret=b"s" * 32,
        )
        await service.start()
        started.append(service)
        return service

    yield start
    for service in started:
        if not node_of(service).stopped:
            await service.stop()


def node_of(service: Service) -> Node:
    """The node of a server process the ``make`` fixture started."""
    assert isinstance(service.ownership, Node)
    return service.ownership
