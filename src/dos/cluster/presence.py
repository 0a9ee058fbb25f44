"""What a process of a server of many says of itself in Redis, for the others: that it is up,
and the lobby entries of its tables.

* **Alive**: the process's lease (``dos.cluster.process_lease``, its ``alive`` key, renewed
  every third of its TTL by ``dos.cluster.node``) says it is up: a process that died is
  known so within the TTL (its relays are swept, a forward to it is not waited out). Redis
  away: every process counts as alive (nothing is closed for a blip).
* **The lobby**: every second the process writes the ``TableInfo`` of each public,
  unfinished table it owns (``info_key``, expiring after ``INFO_SECONDS``), and every
  process's lobby reads them for the tables it does not hold (``Presence.infos``). Redis
  away: the entries expire, and the lobby reads the database alone.

The lobby entries stay on real time: Redis expires them by its own clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from dos.cluster.process_lease import alive_key
from dos.server.tables.info import table_info

if TYPE_CHECKING:
    from dos.server.tables.table import Table

INFO_SECONDS = 5.0
"""How long a table's lobby entry in Redis outlives its owner's last writing of it (every
second: ``Presence.publish``)."""


def info_key(code: str, prefix: str = "dos") -> str:
    """The key of a table's lobby entry: its ``TableInfo`` as its owner last wrote it.

    >>> info_key("ABCDEF")
    'dos:table:{ABCDEF}:info'
    """
    return f"{prefix}:table:{{{code}}}:info"


class Presence:
    """Process ``owner``'s presence in Redis (see the module's text): ``held`` lists the
    tables it owns now, whose lobby entries it writes."""

    def __init__(
        self, redis: Redis, owner: str, prefix: str, held: Callable[[], list[Table]]
    ) -> None:
        self.redis = redis
        self.owner = owner
        self.prefix = prefix
        self.held = held

    async def alive(self, owner: str) -> bool:
        """Whether the process ``owner`` is up (its key renewed lately); Redis away: True."""
        try:
            return bool(await self.redis.exists(alive_key(owner, self.prefix)))
        except (RedisError, OSError):
            return True

    async def keep_publishing(self) -> None:
        """Writes the lobby entries every second, for ever (a task)."""
        while True:
            await asyncio.sleep(1.0)
            with contextlib.suppress(RedisError, OSError):
                await self.publish()

    async def publish(self) -> int:
        """Writes the lobby entry (``info_key``) of every public, unfinished table this
        process owns; returns how many."""
        listed = [t for t in self.held() if t.public and t.status.value in ("lobby", "playing")]
        if not listed:
            return 0
        expiry = round(INFO_SECONDS * 1000)
        async with self.redis.pipeline(transaction=False) as pipe:
            for table in listed:
                info = json.dumps(table_info(table), separators=(",", ":"))
                pipe.set(info_key(table.code, self.prefix), info, px=expiry)
            await pipe.execute()
        return len(listed)

    async def infos(self, codes: list[str]) -> dict[str, dict[str, Any]]:
        """The lobby entries the owners of ``codes`` wrote lately, by code; Redis away:
        none."""
        if not codes:
            return {}
        try:
            values = await self.redis.mget([info_key(code, self.prefix) for code in codes])
        except (RedisError, OSError):
            return {}
        return {code: json.loads(v) for code, v in zip(codes, values, strict=True) if v}
