"""The handovers of the tables a process owns, kept in Redis for their next owner.

A table's ``Handover`` (``dos.server.tables.handover``: its clocks and the host's choices held in
memory) is written whenever it changes, and read by the process that takes the table over,
before the table goes on. Writes are batched: a table notes its handover (``note``, no I/O)
and one task writes what changed since its last round trip, in one pipeline.

Each owner writes under its own epoch: ``dos:table:{CODE}:handovers`` is a hash whose field
``EPOCH`` holds what the owner of that epoch wrote last (one ``HSET`` a change), and the
next owner reads the field of the largest epoch. Epochs only grow with each owner
(``dos.cluster.lease``), so a former owner that wakes up late writes only under its own,
older epoch and never hides what a later owner wrote; and what an owner that wrote nothing
left is the newest there is. A new owner's first write removes the fields it read when it
took the table and sets the hash's expiry (``KEPT_SECONDS``, set again once half of it has
passed); every other write is one command.

Redis away: the writes wait and are retried; the next owner reads nothing (or an older
handover whose version no longer matches) and starts the clocks in full, as a restart does.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from dos.server.tables.handover import Handover

log = logging.getLogger(__name__)

KEPT_SECONDS = 2 * 86400.0
"""How long a table's handovers outlive the setting of their expiry (longer than a table may
stay idle)."""
RETRY_SECONDS = 0.5
"""The wait before writing again after Redis did not answer."""


def handover_key(code: str, prefix: str = "dos") -> str:
    """The key of a table's handovers, one field an owner's epoch.

    >>> handover_key("ABCDEF")
    'dos:table:{ABCDEF}:handovers'
    """
    return f"{prefix}:table:{{{code}}}:handovers"


def newest(fields: dict[Any, Any]) -> tuple[int, Any] | None:
    """The field of the largest epoch (its epoch and value) of a table's handovers, read
    with ``HGETALL`` (``None``: none).

    >>> newest({b"7": b"x", b"12": b"y", b"9": b"z"})
    (12, b'y')
    >>> newest({}) is None, newest({b"junk": b"x"}) is None
    (True, True)
    """
    found = [(int(epoch), value) for epoch, value in fields.items() if epoch.isdigit()]
    return max(found, key=lambda item: item[0]) if found else None


class Handovers:
    """The handovers of one process's tables (see the module's text)."""

    def __init__(self, redis: Redis, prefix: str = "dos") -> None:
        self.redis = redis
        self.prefix = prefix
        self._written: dict[str, tuple[int, str]] = {}
        """What was last written of each table, under which epoch."""
        self._kept: dict[str, tuple[int, float]] = {}
        """Each table's epoch whose first write set the hash's expiry, and when (the event
        loop's time)."""
        self._read: dict[str, list[str]] = {}
        """The fields each table's handovers had when this process read them (taking it)."""
        self._dirty: dict[str, tuple[int, str]] = {}
        self._wanted = asyncio.Event()
        self._flushing = asyncio.Lock()

    def note(self, code: str, epoch: int, handover: Handover) -> None:
        """``code``'s handover now, the table held under ``epoch``: written soon if it
        changed."""
        text = handover.dumps()
        if code not in self._dirty and self._written.get(code) == (epoch, text):
            return
        self._dirty[code] = (epoch, text)
        self._wanted.set()

    async def run(self) -> None:
        """Writes what changed, for ever (a task of the process)."""
        while True:
            await self._wanted.wait()
            self._wanted.clear()
            if not await self.flush():
                await asyncio.sleep(RETRY_SECONDS)

    async def flush(self) -> bool:
        """Writes every handover noted since the last writing, after any writing under way;
        whether Redis took them (if not, or if cancelled, they are kept for the next try)."""
        async with self._flushing:
            if not self._dirty:
                return True
            dirty, self._dirty = self._dirty, {}
            try:
                await self._send(dirty)
            except (RedisError, OSError) as error:
                log.warning("handovers not written (%s): trying again", error)
                self._keep(dirty)
                return False
            except BaseException:
                self._keep(dirty)
                raise
            self._written.update(dirty)
            return True

    def _keep(self, dirty: dict[str, tuple[int, str]]) -> None:
        """Notes again what could not be written (unless noted anew since)."""
        for code, noted in dirty.items():
            self._dirty.setdefault(code, noted)
        self._wanted.set()

    async def _send(self, dirty: dict[str, tuple[int, str]]) -> None:
        """One pipeline: an ``HSET`` a table; at an owner's first write (or once half the
        expiry has passed) the fields read at the taking removed and the expiry set."""
        now = asyncio.get_running_loop().time()
        kept: dict[str, tuple[int, float]] = {}
        async with self.redis.pipeline(transaction=False) as pipe:
            for code, (epoch, text) in dirty.items():
                key = handover_key(code, self.prefix)
                pipe.hset(key, str(epoch), text)
                since = self._kept.get(code)
                if since is not None and since[0] == epoch and now - since[1] < KEPT_SECONDS / 2:
                    continue
                older = [f for f in self._read.get(code, []) if f != str(epoch)]
                if older:
                    pipe.hdel(key, *older)
                pipe.expire(key, round(KEPT_SECONDS))
                kept[code] = (epoch, now)
            await pipe.execute()
        self._kept.update(kept)
        for code in kept:
            self._read.pop(code, None)

    async def read(self, code: str) -> Handover | None:
        """What ``code``'s former owner handed over: the newest epoch's (``None``: nothing,
        or Redis away)."""
        try:
            fields: dict[Any, Any] = await self.redis.hgetall(handover_key(code, self.prefix))
        except (RedisError, OSError):
            return None
        self._read[code] = [f.decode() if isinstance(f, bytes) else str(f) for f in fields]
        found = newest(fields)
        return None if found is None else Handover.loads(found[1])

    def drop(self, code: str) -> None:
        """``code`` left this process (for another owner, or out of memory): nothing more
        is written of it."""
        for kept in (self._dirty, self._written, self._kept, self._read):
            kept.pop(code, None)
