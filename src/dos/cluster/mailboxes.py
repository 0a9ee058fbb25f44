"""The frames a table's owner sends the clients other processes relay: one Redis stream per
relaying process.

An owner's side of a relayed connection (``dos.cluster.remote_socket.RemoteSocket``) *posts*
each frame for its client, numbered from 1 on that connection (``seq``), to the relaying
process's stream, ``dos:relay:{RELAY}:frames``; the relaying process *opens* a mailbox for each
of its relayed connections and reads the frames of them all from that one stream, with one
reader: one connection of Redis's and one blocking ``XREAD`` of one key, however many
connections it relays (an idle audience costs it nothing more). ``Mailboxes`` is the contract
(``RedisMailboxes`` keeps it between processes).

**Batches.** The frames posted within one turn of the event loop to one relaying process go
in one ``XADD`` (an update for every relayed client of a table at one relay is one command).

**Announcements.** An owner also posts, now and then, the tables it holds of those the
process relays connections to, with their epochs (``announce``), for the process's watch
(``dos.cluster.lease_watch``), which ``RedisMailboxes`` hands them to (``heard``).

**Order and loss.** A connection's frames are posted one after the other (its writer waits
for each), and a mailbox delivers them in ``seq`` order, each once (a frame posted again
after an answer lost with Redis is dropped), with a ``Gap`` before any it missed (the stream
trimmed past its reader, or Redis restarted without its data): the relay then asks a full
``sync`` for its client. The stream keeps ``KEPT`` batches and, once its reader is gone (the
process died), expires after ``STREAM_SECONDS``; no owner posts to it for long then (its
sides of a dead relay are swept, ``dos.cluster.owner_side``).

>>> frames_key("p1:vm:42:beef")
'dos:relay:{p1:vm:42:beef}:frames'
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from dos.cluster.tasks import stop as stop_task
from dos.server.hosting.bus import (
    BusUnavailableError,
    Inbox,
    Subscription,
    encode,
)

log = logging.getLogger(__name__)

KEPT = 10_000
"""Batches a relaying process's stream keeps (about: trimmed as Redis finds cheap)."""
STREAM_SECONDS = 300
"""How long a relaying process's stream outlives its reader (set again every minute)."""
RETRY_SECONDS = (0.05, 0.1, 0.2, 0.5, 1.0)
"""The reader's waits between attempts while Redis does not answer (the last repeats)."""


def frames_key(relay: str, prefix: str = "dos") -> str:
    """The stream of the frames for the connections the process ``relay`` relays."""
    return f"{prefix}:relay:{{{relay}}}:frames"


class Mailboxes(Protocol):
    """Where owners post the frames of relayed connections, and relays read them."""

    async def post(self, relay: str, code: str, conn: str, seq: int, frame: Any) -> None:
        """Posts frame number ``seq`` (from 1) of connection ``conn`` to table ``code``,
        relayed by ``relay``; ``BusUnavailableError`` when Redis did not take it (it may have:
        post it again, under the same ``seq``)."""
        ...

    async def open(self, code: str, conn: str) -> Subscription:
        """The frames posted for connection ``conn`` to table ``code`` relayed here, from the
        first: ``Update`` (its ``payload`` the frame) and ``Gap``."""
        ...

    async def announce(self, relay: str, owner: str, tables: Mapping[str, int]) -> None:
        """Tells ``relay`` that ``owner`` holds ``tables`` (codes and epochs) of those it
        relays; ``BusUnavailableError`` when Redis did not take it (the next one will)."""
        ...


class _Mailbox(Inbox):
    """One relayed connection's frames, as its process's reader takes them."""

    def __init__(self, owner: RedisMailboxes, code: str, conn: str) -> None:
        super().__init__(f"{code}:{conn}", 0)
        self.conn = conn
        self._owner = owner

    async def close(self) -> None:
        self.shut()
        self._owner._close(self)


Heard = Callable[[str, Mapping[str, int]], None]
"""Takes an owner's announcement: the owner, and the tables it holds with their epochs."""


class RedisMailboxes:
    """``Mailboxes`` over Redis for the process ``me`` (its owner id): its own stream read,
    the others' written (see the module's text). ``block_ms`` bounds each read, under the
    client's socket timeout; ``heard`` takes the announcements read (none: dropped)."""

    def __init__(
        self,
        redis: Redis,
        me: str,
        prefix: str = "dos",
        *,
        block_ms: int = 500,
        heard: Heard | None = None,
    ) -> None:
        self.redis = redis
        self.heard = heard
        self.me = me
        self.prefix = prefix
        self.block_ms = block_ms
        self._key = frames_key(me, prefix)
        self._open: dict[str, _Mailbox] = {}
        self._reader: asyncio.Task[None] | None = None
        self._last = "0-0"
        """The last entry read of this process's stream (its own from its start: nothing
        before is lost)."""
        self._batches: dict[str, list[tuple[list[Any], asyncio.Future[None]]]] = {}
        self._sending: set[asyncio.Task[None]] = set()

    async def post(self, relay: str, code: str, conn: str, seq: int, frame: Any) -> None:
        """Posts a frame (see ``Mailboxes``), in one ``XADD`` with the others posted to
        ``relay`` in this turn of the loop."""
        loop = asyncio.get_running_loop()
        sent: asyncio.Future[None] = loop.create_future()
        batch = self._batches.setdefault(relay, [])
        batch.append(([conn, seq, frame], sent))
        if len(batch) == 1:
            task = loop.create_task(self._send(relay))
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)
        await sent

    async def _send(self, relay: str) -> None:
        await asyncio.sleep(0)  # the frames posted in this turn join the batch
        batch = self._batches.pop(relay, [])
        if not batch:
            return
        try:
            text = encode([item for item, _sent in batch])
            await self.redis.xadd(
                frames_key(relay, self.prefix), {"f": text}, maxlen=KEPT, approximate=True
            )
        except (RedisError, OSError) as error:
            failed = BusUnavailableError(f"relay {relay}: frames not posted ({error})")
            for _item, sent in batch:
                if not sent.done():
                    sent.set_exception(failed)
            return
        except TypeError as error:  # a frame that is not JSON: a bug, said to each poster
            for _item, sent in batch:
                if not sent.done():
                    sent.set_exception(error)
            return
        for _item, sent in batch:
            if not sent.done():
                sent.set_result(None)

    async def announce(self, relay: str, owner: str, tables: Mapping[str, int]) -> None:
        """Posts an owner's announcement (see ``Mailboxes``): one ``XADD``."""
        try:
            await self.redis.xadd(
                frames_key(relay, self.prefix),
                {"a": encode({"o": owner, "t": dict(tables)})},
                maxlen=KEPT,
                approximate=True,
            )
        except (RedisError, OSError) as error:
            raise BusUnavailableError(f"relay {relay}: not announced ({error})") from None

    async def open(self, code: str, conn: str) -> Subscription:
        """A relayed connection's mailbox (see ``Mailboxes``); the process's reader runs
        while one is open."""
        mailbox = _Mailbox(self, code, conn)
        self._open[conn] = mailbox
        if self._reader is None or self._reader.done():
            self._reader = asyncio.get_running_loop().create_task(self._read(), name="mailboxes")
        return mailbox

    def _close(self, mailbox: _Mailbox) -> None:
        if self._open.get(mailbox.conn) is mailbox:
            del self._open[mailbox.conn]

    async def _read(self) -> None:
        """Reads this process's stream while a mailbox is open, handing each frame to its
        connection's; keeps the stream alive meanwhile."""
        failures = 0
        kept_until = 0.0
        loop = asyncio.get_running_loop()
        while self._open:
            try:
                # Its time to live, as soon as an owner's first frame has made it, then
                # again every minute.
                if loop.time() >= kept_until and await self.redis.expire(self._key, STREAM_SECONDS):
                    kept_until = loop.time() + 60
                answer: Any = await self.redis.xread(
                    {self._key: self._last}, count=500, block=self.block_ms
                )
                failures = 0
            except (RedisConnectionError, RedisTimeoutError, OSError) as error:
                wait = RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)]
                failures += 1
                if failures == 1:
                    log.warning("relayed frames unreadable (%s); retrying", error)
                await asyncio.sleep(wait)
                continue
            for _key, entries in answer or []:
                for entry_id, fields in entries:
                    last = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
                    self._last = last
                    self._take(fields)

    def _take(self, fields: dict[Any, Any]) -> None:
        """One entry of this process's stream: frames for its mailboxes, or an owner's
        announcement."""
        fields = {k.decode() if isinstance(k, bytes) else k: v for k, v in fields.items()}
        if "f" in fields:
            for conn, seq, frame in json.loads(fields["f"]):
                mailbox = self._open.get(conn)
                if mailbox is not None:
                    mailbox.take(seq, frame)
        if "a" in fields and self.heard is not None:
            try:
                said = json.loads(fields["a"])
                tables = {str(code): int(epoch) for code, epoch in said["t"].items()}
                owner = str(said["o"])
            except (ValueError, KeyError, TypeError, AttributeError) as error:
                log.warning("an unreadable announcement was dropped (%r)", error)
                return
            self.heard(owner, tables)

    async def close(self) -> None:
        """Ends every mailbox and the reader."""
        for mailbox in list(self._open.values()):
            await mailbox.close()
        if self._reader is not None:
            await stop_task(self._reader)
        for task in list(self._sending):
            await stop_task(task)
