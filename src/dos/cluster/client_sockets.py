"""The WebSockets each client holds open on every process of a server together, in Redis.

A process alone caps a client's open connections (``Limits.client_connections``,
``dos.server.net.guard.Open``); behind a proxy that spreads connections over ``P`` processes
that cap would let one client hold ``P`` times as many (an audience of spectators, each a
relayed connection costing Redis its share), and behind a proxy it is lifted (every
connection comes from the proxy). ``RedisSockets`` counts a client's WebSockets, by the
address the proxy forwards, on every process together, up to ``Limits.client_sockets``:

``dos:sockets:{CLIENT}``
    a sorted set of the client's open WebSockets, one member ``"PROCESS CONN"`` each, its
    score the time (ms, on the server's clock) until which the member counts.

A WebSocket is counted (``take``) by one script that first drops the members whose time is
past, then adds the new one if fewer than the cap are left; it is forgotten when it closes
(``give_back``). Every ``BEAT_SECONDS`` each process moves its own members' time on by
``KEPT_SECONDS``, in one pipeline: the WebSockets of a process that was killed stop counting
``KEPT_SECONDS`` after its last beat at most, and the key itself expires as its members do.

Redis away: a WebSocket is let in (the process's own cap still holds) and not counted there,
said once in the log; the limits loosen by the number of processes, as the rate limits do
(``dos.server.net.limits.Counters``), and no client is refused for Redis's sake.

>>> sockets_key("203.0.113.7")
'dos:sockets:{203.0.113.7}'
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections import defaultdict

from redis.asyncio import Redis
from redis.exceptions import NoScriptError, RedisError

from dos.cluster.process_lease import clock_ms
from dos.cluster.tasks import stop as stop_task
from dos.server.clock import Clock

log = logging.getLogger(__name__)

KEPT_SECONDS = 15.0
"""How long a member counts after its process's last beat (server's clock)."""
BEAT_SECONDS = 5.0
"""How often a process renews its members (server's clock)."""

# KEYS: the client's set. ARGV: now in ms, the member, its time in ms, the cap, the key's
# time to live in ms. Returns 1 when counted, 0 when the client holds the cap already.
_TAKE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
"""


def sockets_key(client: str, prefix: str = "dos") -> str:
    """The key of a client's open WebSockets."""
    return f"{prefix}:sockets:{{{client}}}"


class RedisSockets:
    """A client's WebSockets on every process together, at most ``cap`` (see the module's
    text); this process is ``me`` (its owner id)."""

    def __init__(self, redis: Redis, me: str, cap: int, clock: Clock, prefix: str = "dos") -> None:
        self.redis = redis
        self.me = me
        self.cap = cap
        self.clock = clock
        """The server's clock: the members' times and the beats."""
        self.prefix = prefix
        self._sha = redis.register_script(_TAKE).sha
        self._mine: dict[str, list[str]] = defaultdict(list)
        """The members this process counted, by client."""
        self._ids = itertools.count(1)
        self._beat: asyncio.Task[None] | None = None
        self._failing = False

    async def take(self, client: str) -> bool:
        """Counts a new WebSocket of ``client``; ``False`` (not counted) when it holds the
        cap on all processes together. Redis away: ``True`` (see the module's text)."""
        member = f"{self.me} {next(self._ids)}"
        now = clock_ms(self.clock)
        kept = round(KEPT_SECONDS * 1000)
        args: list[str | int] = [now, member, now + kept, self.cap, kept]
        key = sockets_key(client, self.prefix)
        try:
            try:
                taken = await self.redis.evalsha(self._sha, 1, key, *args)
            except NoScriptError:  # Redis restarted and forgot the script
                await self.redis.script_load(_TAKE)
                taken = await self.redis.evalsha(self._sha, 1, key, *args)
        except (RedisError, OSError) as error:
            self._failed(error)
            return True
        self._recovered()
        if not taken:
            return False
        self._mine[client].append(member)
        if self._beat is None or self._beat.done():
            self._beat = asyncio.get_running_loop().create_task(self._beating(), name="sockets")
        return True

    async def give_back(self, client: str) -> None:
        """Forgets one WebSocket of ``client`` counted here (none: nothing)."""
        members = self._mine.get(client)
        if not members:
            return
        member = members.pop()
        if not members:
            del self._mine[client]
        try:
            await self.redis.zrem(sockets_key(client, self.prefix), member)
        except (RedisError, OSError) as error:
            self._failed(error)  # it stops counting at its time

    async def beat(self) -> None:
        """Moves this process's members' time on by ``KEPT_SECONDS``, in one pipeline."""
        if not self._mine:
            return
        now = clock_ms(self.clock)
        kept = round(KEPT_SECONDS * 1000)
        async with self.redis.pipeline(transaction=False) as pipe:
            for client, members in list(self._mine.items()):
                key = sockets_key(client, self.prefix)
                pipe.zadd(key, dict.fromkeys(members, now + kept), xx=True)
                pipe.pexpire(key, kept)
            await pipe.execute()

    async def _beating(self) -> None:
        while self._mine:
            await self.clock.sleep(BEAT_SECONDS)
            try:
                await self.beat()
            except (RedisError, OSError) as error:
                self._failed(error)

    async def close(self) -> None:
        """Stops the beats (the members stop counting at their time)."""
        if self._beat is not None:
            await stop_task(self._beat)

    def _failed(self, error: BaseException) -> None:
        if not self._failing:
            log.warning("open WebSockets per client: Redis did not answer (%s)", error)
        self._failing = True

    def _recovered(self) -> None:
        if self._failing:
            log.info("open WebSockets per client: counted in Redis again")
        self._failing = False
