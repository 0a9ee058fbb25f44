"""The handovers of the tables a process owns, kept in Redis for their next owner.

A table's ``Handover`` (``dos.server.tables.handover``: its clocks and the host's choices held in
memory) is written under ``dos:table:{CODE}:handover`` whenever it changes, and read by the
process that takes the table over, before the table goes on. Writes are batched: a table
notes its handover (``note``, no I/O) and one task writes what changed since its last round
trip, in one pipeline. Each write is fenced by the table's claim (``dos.cluster.lease``): it is
made only while the claim is still the one the writer noted it under (one Lua script, the
claim's key and the handover's in one hash slot). Any other owner, and this one after a
lapse, replaces the claim before it reads or writes the handover, so a former owner that
wakes up late cannot overwrite what the next owner wrote. (Whether the writer's process lease
has run out does not matter here: until another claim replaces its own, the handover it
writes is the newest there is.)

Redis away: the writes wait and are retried; the next owner reads nothing (or an older
handover whose version no longer matches) and starts the clocks in full, as a restart does.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import NoScriptError, RedisError

from dos.cluster.lease import lease_key
from dos.server.tables.handover import Handover

log = logging.getLogger(__name__)

KEPT_SECONDS = 2 * 86400.0
"""How long a handover outlives its last writing (longer than a table may stay idle)."""
RETRY_SECONDS = 0.5
"""The wait before writing again after Redis did not answer."""

# KEYS: claim, handover. ARGV: the writer's claim "EPOCH OWNER INCARNATION", the handover,
# its expiry in ms.
_WRITE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
return 1
"""


def handover_key(code: str, prefix: str = "dos") -> str:
    """The key of a table's handover.

    >>> handover_key("ABCDEF")
    'dos:table:{ABCDEF}:handover'
    """
    return f"{prefix}:table:{{{code}}}:handover"


class Handovers:
    """The handovers of one process's tables (see the module's text)."""

    def __init__(self, redis: Redis, prefix: str = "dos") -> None:
        self.redis = redis
        self.prefix = prefix
        self._sha = redis.register_script(_WRITE).sha
        self._written: dict[str, str] = {}
        self._dirty: dict[str, tuple[str, str]] = {}
        self._wanted = asyncio.Event()
        self._flushing = asyncio.Lock()

    def note(self, code: str, holder: str, handover: Handover) -> None:
        """``code``'s handover now, held under ``holder`` (the table's claim, ``"EPOCH OWNER
        INCARNATION"``):
        written soon if it changed."""
        text = handover.dumps()
        if code not in self._dirty and self._written.get(code) == text:
            return
        self._dirty[code] = (holder, text)
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
            expiry = round(KEPT_SECONDS * 1000)
            try:
                try:
                    done = await self._send(dirty, expiry)
                except NoScriptError:  # Redis restarted and forgot the script: load it again
                    await self.redis.script_load(_WRITE)
                    done = await self._send(dirty, expiry)
            except (RedisError, OSError) as error:
                log.warning("handovers not written (%s): trying again", error)
                self._keep(dirty)
                return False
            except BaseException:
                self._keep(dirty)
                raise
            for (code, (_holder, text)), written in zip(dirty.items(), done, strict=True):
                if written:
                    self._written[code] = text
            return True

    def _keep(self, dirty: dict[str, tuple[str, str]]) -> None:
        """Notes again what could not be written (unless noted anew since)."""
        for code, noted in dirty.items():
            self._dirty.setdefault(code, noted)
        self._wanted.set()

    async def _send(self, dirty: dict[str, tuple[str, str]], expiry: int) -> list[Any]:
        """One pipeline of fenced writes by the script's hash (a pipeline given the script
        itself would ask Redis whether it has it before every send)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for code, (holder, text) in dirty.items():
                keys = [lease_key(code, self.prefix), handover_key(code, self.prefix)]
                pipe.evalsha(self._sha, 2, *keys, holder, text, expiry)
            done: list[Any] = await pipe.execute()
        return done

    async def read(self, code: str) -> Handover | None:
        """What ``code``'s former owner handed over (``None``: nothing, or Redis away)."""
        try:
            text = await self.redis.get(handover_key(code, self.prefix))
        except (RedisError, OSError):
            return None
        return Handover.loads(text)

    def drop(self, code: str) -> None:
        """``code`` left this process (for another owner, or out of memory): nothing more
        is written of it."""
        self._dirty.pop(code, None)
        self._written.pop(code, None)
