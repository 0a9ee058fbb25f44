"""What Redis runs for a table's actions through a process that does not own it, two
``dos serve --redis`` processes (real ones) on one Redis: the commands Redis counts (``INFO
commandstats``, those of Lua scripts included) over a fixed number of actions at a person's
pace, with idle tables whose spectators are relayed too, stay within what the design costs:

* per action relayed (``PER_ACTION``): its forward to the owner (``RPUSH`` and ``EXPIRE`` of the
  request, the owner's ``BLPOP``, the same three for the reply), the write of the table's
  handover under its owner's epoch (one ``HSET``), the frames to the relaying process
  (an ``XADD`` a turn of the owner's loop, one ``XREAD`` each), a little to spare;
* per second: each process's lease renewed every third of its TTL (``EVALSHA``, ``GET``,
  ``SET``), whatever the number of its tables; blocking reads waking idle, the owner's
  announcement to the relaying process and the latter's scans (two ``MGET`` a lease's time).

What it no longer costs: a lease per table renewed every third of its TTL, and the handover's
write fenced by a script (three commands): the test fails with them (324 commands in 5.1 s
against a bound of 242); the relaying process reading each relayed table's lease every
second, and every scan reading every lease.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
import redis

from cluster.support import RedisServer
from server.support import ServerProcess, WsPlayer, create_table, join_table

pytestmark = pytest.mark.asyncio

SECRET = "one-secret-for-both-processes-0123456789"
IDLE = 6
"""Tables with one relayed spectator each, where nothing happens."""
ACTIONS = 10
PACE = 0.5
"""Seconds between two actions (the people's think time: the scenario, not a wait for
anything)."""
LEASE = 3.0
PER_ACTION = 12
PROCESSES = 2
PER_PROCESS_SECOND = 3 * 3 / LEASE
"""A process's lease renewed every third of its TTL, three commands a renewal."""
PER_SECOND = 18
"""Both processes: their job queues' look at the workers (a script, its ``TIME`` and
``ZREVRANGE``: 3 each), blocking reads woken idle (the owner's requests, the relay's frames
and requests: about 6), the announcement and its read (2), the relay's scans (2), two to
spare."""


def _calls(client: redis.Redis) -> int:
    stats = client.info("commandstats")
    return sum(int(v["calls"]) for k, v in stats.items() if k not in ("cmdstat_info",))


async def _caught_up(player: WsPlayer, version: int) -> None:
    while player.version < version:
        await player.recv()


async def test_actions_through_a_non_owner_cost_redis_what_the_design_says(
    tmp_path: Path, own_redis: RedisServer
) -> None:
    own_redis.start()
    database = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    servers = [
        ServerProcess(
            tmp_path / f"p{i}",
            database,
            *("--redis", own_redis.url, "--name", f"p{i}", "--lease", str(LEASE)),
            env={"DOS_SECRET": SECRET},
        )
        for i in range(PROCESSES)
    ]
    for server in servers:
        server.start()
    owner, relay = servers
    watchers: list[WsPlayer] = []
    people: list[WsPlayer] = []
    try:
        for _ in range(IDLE):  # owned by p0, watched through p1
            code = create_table(owner.url, seats=[None, "easy"])["code"]
            watchers.append(await WsPlayer(relay.ws_url, code, None).connect())
        grant = create_table(owner.url, seats=[None, None])
        code = grant["code"]
        guest = join_table(relay.url, code, "Bea")
        people = [
            await WsPlayer(relay.ws_url, code, token).connect()
            for token in (grant["token"], guest["token"])
        ]
        await people[0].send({"type": "start"})
        for player in people:
            while player.view is None:
                await player.recv()

        rng = random.Random(7)
        client = redis.Redis.from_url(own_redis.url)
        loop = asyncio.get_running_loop()
        before, started = _calls(client), loop.time()
        acted = 0
        while acted < ACTIONS:
            await asyncio.sleep(PACE)
            mover = next((p for p in people if p.choice(rng) is not None), None)
            assert mover is not None, "nobody may act"
            action = mover.choice(rng)
            assert action is not None
            answer = await mover.act(action)
            assert answer["type"] == "update", answer
            for player in people:
                await _caught_up(player, mover.version)
            acted += 1
        spent, seconds = _calls(client) - before, loop.time() - started
        client.close()
        bound = ACTIONS * PER_ACTION + seconds * (PER_SECOND + PROCESSES * PER_PROCESS_SECOND)
        assert spent <= bound, f"{spent} commands in {seconds:.1f} s, at most {bound:.0f}"
    finally:
        for player in [*watchers, *people]:
            await player.close()
        for server in servers:
            server.stop()
