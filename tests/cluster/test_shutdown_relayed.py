"""Processes stopped (SIGTERM) while many connections are relayed through them, or to them,
write no traceback: the relaying process closes its clients' connections and stops reading
their frames, the owner hands its table over, and neither logs an error on the way.

Two ``dos serve --redis`` processes on one database: ``p0`` owns the table, ``p1`` relays to it
the connections of the seated player and of many spectators."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import redis

from cluster.conftest import redis_server  # noqa: F401 (the fixture)
from cluster.support import RedisServer, redis_processes
from server.support import WsPlayer, create_table

pytestmark = pytest.mark.asyncio

SECRET = "shutdown-secret-0123456789-0123456789-0"
SPECTATORS = 40
"""Spectators relayed through ``p1`` as it stops (the per-client bound of the shipped limits
is lifted here: the test's clients all come from 127.0.0.1)."""


async def test_stopping_processes_with_many_relayed_connections_writes_no_traceback(
    tmp_path: Path,
    redis_server: RedisServer,  # noqa: F811
) -> None:
    with redis.Redis.from_url(redis_server.url) as client:
        client.flushdb()
    database = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    owner, relay = redis_processes(tmp_path, database, redis_server.url, 2, SECRET)
    owner.start()
    relay.start()
    try:
        grant = create_table(owner.url, seats=[None, "easy"])
        code = grant["code"]
        player = await WsPlayer(relay.ws_url, code, grant["token"]).connect()
        watchers = [WsPlayer(relay.ws_url, code, None) for _ in range(SPECTATORS)]
        await asyncio.gather(*(watcher.connect() for watcher in watchers))
        await player.send({"type": "start"})
        await player.expect("state")
        relay.stop()  # SIGTERM with every connection open and relayed
        owner.stop()
        for process in (relay, owner):
            # Ended by the SIGTERM after its graceful stop (uvicorn raises it again once done),
            # not killed for failing to stop in time.
            assert process.process is not None and process.process.returncode in (0, -15)
        for process in (relay, owner):
            log = "".join(process.output)
            assert "Traceback" not in log, log
            assert " ERROR " not in log, log
        for connection in (player, *watchers):
            await connection.close()
    finally:
        relay.stop()
        owner.stop()
