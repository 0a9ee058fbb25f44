"""``/api/ready`` says 503 when Redis refuses this process's work, not only when it is down:
at its client limit (``maxclients``: the process's pools cannot open the connections they
need) or refusing writes (out of memory), while the connections already open still answer
a ``PING`` (``dos.server.net.limits.Counters.redis_problem``, ``dos.server.http.health``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis

from cluster.conftest import own_redis  # noqa: F401 (the fixture)
from cluster.support import RedisServer
from dos.server.net.limits import Counters, Limits


@pytest.fixture
def running(own_redis: RedisServer) -> Iterator[RedisServer]:  # noqa: F811
    own_redis.start()
    yield own_redis


def test_a_redis_at_its_client_limit_is_not_ready(running: RedisServer) -> None:
    counters = Counters(Limits(), running.url)
    try:
        assert counters.allow("create", "10.0.0.1")  # its pool holds a connection now
        assert counters.redis_problem() is None
        with redis.Redis(port=running.port) as admin:
            admin.config_set("maxclients", str(len(admin.client_list())))  # no more
            problem = counters.redis_problem()
            admin.config_set("maxclients", "10000")
        assert problem is not None and "max number of clients reached" in problem
        assert counters.redis_problem() is None  # by itself, once it takes them again
    finally:
        counters.close()


def test_a_redis_refusing_writes_is_not_ready(running: RedisServer) -> None:
    counters = Counters(Limits(), running.url)
    try:
        assert counters.redis_problem() is None
        with redis.Redis(port=running.port) as admin:
            admin.config_set("maxmemory-policy", "noeviction")
            admin.config_set("maxmemory", "1")  # below what it holds: every write refused
            problem = counters.redis_problem()
            admin.config_set("maxmemory", "0")
        assert problem is not None and "maxmemory" in problem
        assert counters.redis_problem() is None
    finally:
        counters.close()
