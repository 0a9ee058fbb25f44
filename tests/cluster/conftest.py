"""Fixtures of the cluster tests: Redis, and the server tests' databases (SQLite, and
PostgreSQL when installed); skipped where Redis or PostgreSQL is missing (a failure under
``CI=true``, tests/conftest.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio
from redis.asyncio import Redis

from cluster.support import RedisServer
from server.conftest import database, postgres  # noqa: F401 (SQLite and PostgreSQL in turn)


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
