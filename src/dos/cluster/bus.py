"""The bus between the server's processes over Redis: ``RedisBus`` keeps the contract of
``dos.server.hosting.bus.Bus`` (whose docstring has it) between processes and machines, with
redis-py's asyncio client.

``dos.cluster.relay`` forwards clients' HTTP requests and WebSocket frames to a table's
owner over it (the owner's frames for a relayed client come back through the relaying
process's mailboxes, ``dos.cluster.mailboxes``).

**Updates.** Each stream's updates are a Redis stream, ``dos:table:{CODE}:updates`` (the same
hash tag as the table's lease, ``dos.cluster.lease``), each entry's id ``VERSION-0``: ``XADD``
with that id keeps the order and refuses a stale version, ``MAXLEN`` trims it, and a
subscriber reads from the last id it saw — every subscription of a bus in one ``XREAD`` of all
their streams (one connection and one command per batch, however many subscriptions) — so a
subscription outlives a short loss of Redis (it tries again until Redis is back, then goes on
where it stood), and so does ``publish`` (for ``PUBLISH_SECONDS``). An update is
*acknowledged* when ``publish`` returns; whether it survives a restart of Redis is Redis's
persistence (an append-only file with ``appendfsync always`` keeps every acknowledged one).

**Forwarding.** A list per owner, ``dos:owner:{OWNER}:requests`` (``RPUSH``, taken by
``BLPOP``), each message in its envelope (``dos.cluster.to_owner.Forwarded``), and a reply
key per message, ``dos:reply:{ID}``, that expires, holding the owner's answer
(``dos.cluster.from_owner.Answer``). A message nobody takes within the sender's
``take_timeout`` is taken back off the list (``NoOwnerError``). An envelope or an answer that
cannot be read is dropped with a logged reason.

>>> updates_key("ABCDEF"), requests_key("web-1:42:beef")
('dos:table:{ABCDEF}:updates', 'dos:owner:{web-1:42:beef}:requests')
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import secrets
from types import TracebackType
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.typing import KeyT, StreamIdT

from dos.cluster.frames import FrameError
from dos.cluster.from_owner import Answer, decode_answer
from dos.cluster.tasks import stop as stop_task
from dos.cluster.to_owner import Forwarded, decode_forwarded
from dos.server.hosting.bus import (
    DEFAULT_TIMEOUT,
    MAX_UPDATES,
    BusUnavailableError,
    ForwardTimeoutError,
    Handler,
    Inbox,
    NoOwnerError,
    OwnerFailedError,
    Serving,
    StaleVersionError,
    Subscription,
    encode,
)

log = logging.getLogger(__name__)

RETRY_SECONDS = (0.05, 0.1, 0.2, 0.5, 1.0)
"""A subscription's waits between attempts while Redis does not answer (the last repeats)."""
PUBLISH_SECONDS = 5.0
"""How long ``RedisBus.publish`` waits out Redis not answering (a restart) before it gives up
with ``BusUnavailableError``: an update published once Redis is back follows the last one its
subscribers read, so they lose nothing and need no resync."""


def updates_key(code: str, prefix: str = "dos") -> str:
    """The Redis stream of a table's updates."""
    return f"{prefix}:table:{{{code}}}:updates"


def requests_key(owner: str, prefix: str = "dos") -> str:
    """The Redis list of the messages forwarded to an owner."""
    return f"{prefix}:owner:{{{owner}}}:requests"


def reply_key(ident: str, prefix: str = "dos") -> str:
    """The Redis key of one forwarded message's reply."""
    return f"{prefix}:reply:{ident}"


def _version(entry_id: bytes | str) -> int:
    text = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
    return int(text.split("-", 1)[0])


class _RedisSubscription(Inbox):
    def __init__(self, bus: RedisBus, table: str, after: int) -> None:
        super().__init__(table, after)
        self.key = updates_key(table, bus.prefix)
        self._bus = bus
        bus._reader.add(self)

    @property
    def last(self) -> int:
        """The last version read (0: none)."""
        return self.seq.last or 0

    def take_entries(self, entries: list[tuple[bytes | str, dict[Any, Any]]]) -> None:
        """Entries of its stream, read by its bus's reader."""
        for entry_id, fields in entries:
            text = fields[b"u"] if b"u" in fields else fields["u"]  # bytes or decoded
            self.take(_version(entry_id), json.loads(text))

    async def close(self) -> None:
        self.shut()
        self._bus._reader.discard(self)


class _Reader:
    """The one reader of every subscription of a bus: an ``XREAD`` of all their streams at
    once, each from the last version its subscriptions read, so that a process's
    subscriptions hold one connection of Redis's and cost one command for each batch of
    updates (or each ``block_ms`` while idle), however many they are. A new subscription
    rings the reader's *bell* (a stream of its own, read with the others) so that the read
    under way ends and the next includes it. While Redis is away it tries again from where
    it stood. It runs while the bus has subscriptions."""

    def __init__(self, bus: RedisBus) -> None:
        self._bus = bus
        self._by_key: dict[str, set[_RedisSubscription]] = {}
        self._bell = f"{bus.prefix}:bus:{{{secrets.token_hex(8)}}}:bell"
        self._bell_last = "0-0"
        self._ringing = False
        self._task: asyncio.Task[None] | None = None
        self._rings: set[asyncio.Task[None]] = set()

    def add(self, subscription: _RedisSubscription) -> None:
        """Reads ``subscription``'s stream from now on."""
        self._by_key.setdefault(subscription.key, set()).add(subscription)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="bus-reader")
        elif not self._ringing:
            self._ringing = True
            ring = asyncio.get_running_loop().create_task(self._ring())
            self._rings.add(ring)
            ring.add_done_callback(self._rings.discard)

    def discard(self, subscription: _RedisSubscription) -> None:
        """Reads ``subscription``'s stream no more."""
        found = self._by_key.get(subscription.key)
        if found is not None:
            found.discard(subscription)
            if not found:
                del self._by_key[subscription.key]

    async def _ring(self) -> None:
        try:
            async with self._bus.redis.pipeline(transaction=False) as pipe:
                pipe.xadd(self._bell, {"r": "1"}, maxlen=1, approximate=False)
                pipe.expire(self._bell, 3600)
                await pipe.execute()
        except (RedisError, OSError):
            self._ringing = False  # the reader's next read includes the subscription anyway

    async def _run(self) -> None:
        failures = 0
        while self._by_key:
            streams: dict[KeyT, StreamIdT] = {
                key: f"{min(s.last for s in subscriptions)}-0"
                for key, subscriptions in self._by_key.items()
            }
            streams[self._bell] = self._bell_last
            self._ringing = False
            try:
                answer: Any = await self._bus.redis.xread(
                    streams,
                    count=self._bus.batch,
                    block=self._bus.block_ms,
                )
                failures = 0
            except (RedisConnectionError, RedisTimeoutError, OSError) as error:
                # Redis is away (restarting, unreachable): try again from where it stood.
                wait = RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)]
                failures += 1
                if failures == 1:
                    log.warning("updates unreadable (%s); retrying", error)
                await asyncio.sleep(wait)
                continue
            for key, entries in answer or []:
                name = key.decode() if isinstance(key, bytes) else key
                if name == self._bell:
                    last = entries[-1][0]
                    self._bell_last = last.decode() if isinstance(last, bytes) else last
                    continue
                for subscription in list(self._by_key.get(name, ())):
                    subscription.take_entries(entries)

    async def close(self) -> None:
        """Stops reading: every subscription ends."""
        for subscriptions in list(self._by_key.values()):
            for subscription in list(subscriptions):
                await subscription.close()
        for task in [self._task, *self._rings]:
            if task is not None:
                await stop_task(task)


class _RedisServing:
    def __init__(self, bus: RedisBus, owner: str, handler: Handler) -> None:
        self.owner = owner
        self.handler = handler
        self._bus = bus
        self._key = requests_key(owner, bus.prefix)
        self._locks: dict[str, asyncio.Lock] = {}
        self._work: set[asyncio.Task[None]] = set()
        self._loop = asyncio.get_running_loop().create_task(self._take(), name=f"bus-serve-{owner}")
        bus._servings.add(self)

    async def _take(self) -> None:
        failures = 0
        while True:
            try:
                taken = await self._bus.redis.blpop([self._key], self._bus.block_ms / 1000)
                failures = 0
            except (RedisError, OSError) as error:
                wait = RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)]
                failures += 1
                if failures == 1:
                    log.warning("owner %s: requests unreadable (%s); retrying", self.owner, error)
                await asyncio.sleep(wait)
                continue
            if taken is None:
                continue
            try:
                forwarded = decode_forwarded(taken[1])
            except FrameError as error:
                log.warning(
                    "owner %s: an unreadable forwarded message was dropped (%s)", self.owner, error
                )
                continue
            ident, table, message = forwarded.id, forwarded.table, forwarded.message
            # In arrival order: each task queues on its table's lock as it starts.
            task = asyncio.get_running_loop().create_task(self._handle(ident, table, message))
            self._work.add(task)
            task.add_done_callback(self._work.discard)

    async def _handle(self, ident: str, table: str, message: Any) -> None:
        lock = self._locks.setdefault(table, asyncio.Lock())
        async with lock:
            try:
                text = Answer(reply=await self.handler(table, message)).dumps()
            except Exception as error:
                log.exception("table %s: a forwarded message failed", table)
                text = Answer(error=repr(error)).dumps()
        if not lock.locked() and self._locks.get(table) is lock:
            del self._locks[table]  # none waits on it: ordering keys come and go
        key = reply_key(ident, self._bus.prefix)
        try:
            async with self._bus.redis.pipeline(transaction=False) as pipe:  # one round trip
                pipe.rpush(key, text)
                pipe.expire(key, self._bus.reply_ttl)
                await pipe.execute()
        except (RedisError, OSError) as error:
            log.warning("table %s: the reply to a forwarded message was lost (%s)", table, error)

    async def close(self) -> None:
        self._bus._servings.discard(self)
        await stop_task(self._loop)

    async def __aenter__(self) -> _RedisServing:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()


class RedisBus:
    """The bus over Redis (redis-py's asyncio client, which the caller opens and closes);
    the same contract as ``LocalBus``, between processes and machines.

    ``block_ms`` bounds each blocking read (a subscription or an owner notices ``close``
    within it), so the client's ``socket_timeout``, if any, must be longer; ``reply_ttl`` is
    how long an unread reply is kept (seconds). Its subscriptions share one reader (one
    connection of the client's pool, however many they are); each serving owner holds one
    connection while it waits."""

    def __init__(
        self,
        redis: Redis,
        *,
        prefix: str = "dos",
        max_updates: int = MAX_UPDATES,
        block_ms: int = 1000,
        batch: int = 100,
        reply_ttl: int = 60,
    ) -> None:
        if max_updates < 1:
            raise ValueError(f"max_updates is positive: {max_updates}")
        self.redis = redis
        self.prefix = prefix
        self.max_updates = max_updates
        self.block_ms = block_ms
        self.batch = batch
        self.reply_ttl = reply_ttl
        self._reader = _Reader(self)
        self._servings: set[_RedisServing] = set()

    async def publish(self, table: str, version: int, payload: Any) -> None:
        """Publishes a table's update (see ``Bus``): ``XADD`` under id ``VERSION-0``,
        trimmed to ``max_updates``. While Redis does not answer (a restart) it is tried again,
        at once on a new connection and then after ``RETRY_SECONDS``, for ``PUBLISH_SECONDS``
        at most: an attempt stored after all, its answer lost, is found on top by the next
        and counts as done."""
        if version < 1:
            raise ValueError(f"versions start at 1: {version}")
        text = encode(payload)
        key = updates_key(table, self.prefix)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + PUBLISH_SECONDS
        for attempt in itertools.count():
            try:
                await self.redis.xadd(
                    key, {"u": text}, id=f"{version}-0", maxlen=self.max_updates, approximate=False
                )
                return
            except ResponseError as error:
                if "equal or smaller" not in str(error):
                    raise BusUnavailableError(f"table {table}: Redis refused ({error})") from None
                latest = await self.last_version(table) or 0
                if attempt > 0 and latest == version:
                    return  # an earlier attempt was stored, its answer lost
                raise StaleVersionError(table, version, latest) from None
            except (RedisConnectionError, RedisTimeoutError, OSError) as error:
                if loop.time() >= deadline:
                    raise BusUnavailableError(
                        f"table {table}: could not publish, Redis did not answer ({error})"
                    ) from None
                if attempt > 0:  # the first again at once: a connection Redis closed
                    await asyncio.sleep(RETRY_SECONDS[min(attempt - 1, len(RETRY_SECONDS) - 1)])
        raise AssertionError("unreachable")  # pragma: no cover

    async def last_version(self, table: str) -> int | None:
        """The latest version of the table's stream (``None``: empty or gone)."""
        try:
            top: Any = await self.redis.xrevrange(updates_key(table, self.prefix), count=1)
        except (RedisError, OSError) as error:
            raise BusUnavailableError(f"table {table}: Redis did not answer ({error})") from None
        return _version(top[0][0]) if top else None

    async def subscribe(self, table: str, after: int | None = None) -> Subscription:
        """The table's updates after ``after`` (see ``Bus``): ``XREAD`` from the last id.
        Without ``after``, the stream's latest version is read now (``BusUnavailableError``
        if Redis does not answer)."""
        if after is None:
            after = await self.last_version(table) or 0
        return _RedisSubscription(self, table, after)

    def serve(self, owner: str, handler: Handler) -> Serving:
        """Handles the messages forwarded to ``owner`` (see ``Bus``): a task takes them from
        the owner's list."""
        return _RedisServing(self, owner, handler)

    async def forward(
        self,
        owner: str,
        table: str,
        message: Any,
        timeout: float = DEFAULT_TIMEOUT,
        take_timeout: float | None = None,
    ) -> Any:
        """Sends a message to ``owner`` for ``table`` and returns its reply (see ``Bus``).

        The request is pushed on the owner's list, then the reply awaited on its own key.
        When no reply came within ``take_timeout`` (default: ``timeout``) the request is
        taken back off the list: if it was still there, nobody took it (``NoOwnerError``, it
        will never be handled); if not, the owner has it, and the reply is awaited until
        ``timeout`` (then ``ForwardTimeoutError``). A short ``take_timeout`` finds a dead
        owner quickly while a long ``timeout`` lets a live one answer slowly (a long poll)."""
        ident = secrets.token_hex(12)
        request = Forwarded(id=ident, table=table, message=message).dumps()
        queue = requests_key(owner, self.prefix)
        reply = reply_key(ident, self.prefix)
        first = timeout if take_timeout is None else min(take_timeout, timeout)
        try:
            async with self.redis.pipeline(transaction=False) as pipe:  # one round trip
                pipe.rpush(queue, request)
                # A dead owner's list does not outlive its last sender for long.
                pipe.expire(queue, max(1, round(timeout * 2)) + self.reply_ttl)
                await pipe.execute()
            answer = await self._pop(reply, first)
            if answer is None:
                if await self.redis.lrem(queue, 1, request):
                    raise NoOwnerError(
                        f"table {table}: owner {owner} took no message within {first} s"
                    )
                # Taken: the reply is on its way (or, at the end, a last look without waiting).
                answer = await self._pop(reply, timeout - first)
                if answer is None:
                    raise ForwardTimeoutError(
                        f"table {table}: owner {owner} did not reply within {timeout} s"
                    )
        except (RedisError, OSError) as error:
            raise BusUnavailableError(
                f"table {table}: could not forward, Redis did not answer ({error})"
            ) from None
        try:
            answered = decode_answer(answer)
        except FrameError as error:
            log.warning("table %s: an answer of owner %s was dropped: %s", table, owner, error)
            raise OwnerFailedError(f"table {table}: owner {owner} answered {error}") from None
        if answered.error is not None:
            raise OwnerFailedError(f"table {table}: owner {owner} failed: {answered.error}")
        return answered.reply

    async def _pop(self, key: str, seconds: float) -> Any:
        """The first element of the list ``key`` within ``seconds`` (``None``: none came),
        waited for in blocking reads of ``block_ms`` at most: one read may not outlast the
        client's socket timeout, while a reply may (a long poll's, a minute)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + seconds
        while True:
            left = end - loop.time()
            if left <= 0:
                return await self.redis.lpop(key)  # a last look, without waiting
            answer = await self.redis.blpop([key], min(left, self.block_ms / 1000))
            if answer is not None:
                return answer[1]

    async def close(self) -> None:
        """Ends every subscription and owner of this bus (not the Redis client)."""
        await self._reader.close()
        for serving in list(self._servings):
            await serving.close()
