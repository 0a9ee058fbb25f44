"""The bus between the server's processes: a table's updates from its owner to every process
that has clients at the table, and clients' messages from any process to the table's owner.

One ``Bus`` protocol, two implementations that behave alike: ``LocalBus`` (in this process,
asyncio only; tests use it) and ``RedisBus`` (redis-py's asyncio client).
The server uses ``RedisBus`` (``dos.cluster.node``): ``dos.cluster.relay`` forwards clients'
HTTP requests and WebSocket frames to a table's owner, and the owner publishes each relayed
connection's frames as the updates of a "table" named for that connection
(``dos.cluster.relay.stream_of``: ``CODE:CONN``). Payloads are JSON values
(``json.dumps`` must take them; anything else raises ``TypeError`` and sends nothing), and
every subscriber gets its own decoded copy, in both implementations.

**Updates** (``publish``, ``subscribe``). The owner of a table publishes each update under a
*version*: the table's update sequence, integers from 1, one more for each update, never
reset (not the game's version, which starts again at each deal), continued by the next owner
from ``last_version``. The bus keeps the latest ``max_updates`` of each table and refuses a
version not larger than the latest (``StaleVersionError``: a former owner cannot slip an old
update in). A subscription delivers a table's updates in version order, each once; where
versions are missing (trimmed before a slow subscriber read them, lost with Redis's data,
or skipped by the owner) it first delivers a ``Gap`` naming them, then goes on: its clients
resync from the owner's full state. ``subscribe(table, after=N)`` resumes after version
``N`` (what a process, or a client, saw last); without ``after`` it starts with the next
update published after ``subscribe`` returned.

In Redis, each table's updates are a stream, ``dos:table:{CODE}:updates`` (the same hash tag
as the table's lease, ``dos.cluster.lease``), each entry's id ``VERSION-0``: ``XADD`` with that
id keeps the order and refuses a stale version, ``MAXLEN`` trims it, and a subscriber reads
with ``XREAD`` from the last id it saw, so a subscription outlives a short loss of Redis (it
tries again until Redis is back, then goes on where it stood), and so does ``publish``
(for ``PUBLISH_SECONDS``). An update is *acknowledged* when ``publish`` returns; whether it
survives a restart of Redis is Redis's persistence (an append-only file with ``appendfsync
always`` keeps every acknowledged one).

**Forwarding** (``serve``, ``forward``). A process serves the tables it owns under its owner
id (``dos.cluster.lease.new_owner_id``): ``serve(owner, handler)`` calls
``handler(table, message)`` for each message forwarded to it and sends its JSON reply back.
``forward(owner, table, message, timeout)`` returns that reply; messages forwarded to one
owner for one table are handled one at a time, in the order they arrived. When nobody takes
the message within ``timeout`` it raises ``NoOwnerError`` and the message is withdrawn:
it will never be handled (``LocalBus`` knows at once that no owner serves). When the owner
took it but did not reply in time it raises ``ForwardTimeoutError``: it may have been
handled, so the client resyncs. A handler that fails raises ``OwnerFailedError`` at the
sender. In Redis: a list per owner, ``dos:owner:{OWNER}:requests`` (``RPUSH``, taken by
``BLPOP``), and a reply key per message, ``dos:reply:{ID}``, that expires.

>>> updates_key("ABCDEF"), requests_key("web-1:42:beef")
('dos:table:{ABCDEF}:updates', 'dos:owner:{web-1:42:beef}:requests')
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import secrets
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Protocol

from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from dos.cluster.tasks import stop as stop_task

log = logging.getLogger(__name__)

MAX_UPDATES = 1000
"""Updates kept per table: a subscriber further behind than that gets a ``Gap``."""

DEFAULT_TIMEOUT = 5.0
"""Seconds ``forward`` waits for the owner's reply unless told."""

RETRY_SECONDS = (0.05, 0.1, 0.2, 0.5, 1.0)
"""A subscription's waits between attempts while Redis does not answer (the last repeats)."""
PUBLISH_SECONDS = 5.0
"""How long ``RedisBus.publish`` waits out Redis not answering (a restart) before it gives up
with ``BusUnavailableError``: an update published once Redis is back follows the last one its
subscribers read, so they lose nothing and need no resync."""

Handler = Callable[[str, Any], Awaitable[Any]]
"""What an owner does with a forwarded message: ``handler(table, message)`` returns the
reply (JSON)."""


def updates_key(code: str, prefix: str = "dos") -> str:
    """The Redis stream of a table's updates."""
    return f"{prefix}:table:{{{code}}}:updates"


def requests_key(owner: str, prefix: str = "dos") -> str:
    """The Redis list of the messages forwarded to an owner."""
    return f"{prefix}:owner:{{{owner}}}:requests"


def reply_key(ident: str, prefix: str = "dos") -> str:
    """The Redis key of one forwarded message's reply."""
    return f"{prefix}:reply:{ident}"


@dataclass(frozen=True, slots=True)
class Update:
    """One update of a table, as its owner published it."""

    table: str
    version: int
    payload: Any


@dataclass(frozen=True, slots=True)
class Gap:
    """Versions ``first`` to ``last`` of a table were missed: the clients resync.

    >>> Gap("ABCDEF", 3, 7).missed
    5
    """

    table: str
    first: int
    last: int

    @property
    def missed(self) -> int:
        """How many versions were missed."""
        return self.last - self.first + 1


class BusError(Exception):
    """The bus could not do what was asked."""


class BusUnavailableError(BusError):
    """Redis did not answer: nothing was published or forwarded."""


class StaleVersionError(BusError):
    """An update under a version not larger than the table's latest: refused, not published.

    >>> str(StaleVersionError("ABCDEF", 3, 5))
    'table ABCDEF: version 3 is not after the latest, 5'
    """

    def __init__(self, table: str, version: int, latest: int) -> None:
        self.table = table
        self.version = version
        self.latest = latest
        super().__init__(f"table {table}: version {version} is not after the latest, {latest}")


class NoOwnerError(BusError):
    """Nobody took a forwarded message in time; it was withdrawn and will not be handled."""


class ForwardTimeoutError(BusError):
    """The owner took a forwarded message but did not reply in time: it may have been
    handled (resync to know)."""


class OwnerFailedError(BusError):
    """The owner's handler failed on a forwarded message."""


class Subscription(Protocol):
    """A table's updates in version order, with a ``Gap`` before any missed versions:
    ``async for item in subscription``; ``close()`` ends it."""

    table: str

    def __aiter__(self) -> AsyncIterator[Update | Gap]:
        """The subscription itself."""
        ...

    async def __anext__(self) -> Update | Gap:
        """The next update (or gap), waiting for it; ``StopAsyncIteration`` once closed."""
        ...

    async def close(self) -> None:
        """Ends the subscription."""
        ...


class Serving(Protocol):
    """An owner serving forwarded messages; ``close()`` (or leaving ``async with``) stops."""

    owner: str

    async def close(self) -> None:
        """Stops taking messages (those being handled finish)."""
        ...

    async def __aenter__(self) -> Serving:
        """Itself."""
        ...

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """Stops serving."""
        ...


class Bus(Protocol):
    """What the processes of one server say to each other (the module's docstring has the
    contract)."""

    async def publish(self, table: str, version: int, payload: Any) -> None:
        """Publishes a table's update; raises ``StaleVersionError``, ``TypeError`` (not
        JSON), ``BusUnavailableError``."""
        ...

    async def last_version(self, table: str) -> int | None:
        """The latest version published for a table that the bus still has (``None``: none)."""
        ...

    async def subscribe(self, table: str, after: int | None = None) -> Subscription:
        """The table's updates after version ``after`` (``None``: from the next published,
        as of this call)."""
        ...

    def serve(self, owner: str, handler: Handler) -> Serving:
        """Starts handling the messages forwarded to ``owner`` (in the running loop)."""
        ...

    async def forward(
        self,
        owner: str,
        table: str,
        message: Any,
        timeout: float = DEFAULT_TIMEOUT,
        take_timeout: float | None = None,
    ) -> Any:
        """Sends a message to ``owner`` for ``table``; returns its reply (``take_timeout``:
        how long the owner may take to take it, default ``timeout``). Raises
        ``NoOwnerError``, ``ForwardTimeoutError``, ``OwnerFailedError``, ``TypeError`` (not
        JSON), ``BusUnavailableError``."""
        ...

    async def close(self) -> None:
        """Ends every subscription and serving owner of this bus."""
        ...


def _encode(value: Any) -> str:
    """JSON text; ``TypeError`` (not ``ValueError``) for what JSON cannot hold."""
    try:
        return json.dumps(value, separators=(",", ":"), allow_nan=False)
    except ValueError as error:
        raise TypeError(f"not JSON: {error}") from None


class _Sequencer:
    """What a subscription has delivered: turns the versions read into updates and gaps."""

    def __init__(self, table: str, after: int | None) -> None:
        self.table = table
        self.last = after
        self.ready: deque[Update | Gap] = deque()

    def take(self, version: int, payload: Any) -> None:
        if self.last is not None:
            if version <= self.last:
                return  # read twice (a retried read): delivered once
            if version > self.last + 1:
                self.ready.append(Gap(self.table, self.last + 1, version - 1))
        self.ready.append(Update(self.table, version, payload))
        self.last = version


# --- in this process -------------------------------------------------------------------------


@dataclass(slots=True)
class _LocalTable:
    updates: deque[tuple[int, str]]
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)
    latest: int = 0


class _LocalSubscription:
    def __init__(self, bus: LocalBus, table: str, after: int | None) -> None:
        self.table = table
        self._bus = bus
        self._state = bus._table(table)
        start = after
        if start is None:
            start = self._state.latest
        self._seq = _Sequencer(table, start)
        self._closed = False
        bus._subscriptions.add(self)

    def __aiter__(self) -> AsyncIterator[Update | Gap]:
        return self

    async def __anext__(self) -> Update | Gap:
        state = self._state
        while not self._seq.ready:
            if self._closed:
                raise StopAsyncIteration
            last = self._seq.last or 0
            async with state.changed:
                # Checked under the lock that ``publish`` notifies under: no wake-up is lost.
                await state.changed.wait_for(self._readable)
            for version, text in [(v, text) for v, text in state.updates if v > last]:
                self._seq.take(version, json.loads(text))
        return self._seq.ready.popleft()

    def _readable(self) -> bool:
        return self._closed or self._state.latest > (self._seq.last or 0)

    async def close(self) -> None:
        self._closed = True
        self._bus._subscriptions.discard(self)
        async with self._state.changed:
            self._state.changed.notify_all()


class _LocalServing:
    def __init__(self, bus: LocalBus, owner: str, handler: Handler) -> None:
        self.owner = owner
        self.handler = handler
        self._bus = bus
        self._locks: dict[str, asyncio.Lock] = {}

    async def handle(self, table: str, message: Any) -> Any:
        lock = self._locks.setdefault(table, asyncio.Lock())
        async with lock:
            return await self.handler(table, message)

    async def close(self) -> None:
        if self._bus._owners.get(self.owner) is self:
            del self._bus._owners[self.owner]

    async def __aenter__(self) -> _LocalServing:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()


class LocalBus:
    """The bus of a server in one process: the same contract as ``RedisBus``, in memory."""

    def __init__(self, max_updates: int = MAX_UPDATES) -> None:
        if max_updates < 1:
            raise ValueError(f"max_updates is positive: {max_updates}")
        self.max_updates = max_updates
        self._tables: dict[str, _LocalTable] = {}
        self._owners: dict[str, _LocalServing] = {}
        self._subscriptions: set[_LocalSubscription] = set()
        self._tasks: set[asyncio.Task[Any]] = set()

    def _table(self, table: str) -> _LocalTable:
        if table not in self._tables:
            self._tables[table] = _LocalTable(deque(maxlen=self.max_updates))
        return self._tables[table]

    async def publish(self, table: str, version: int, payload: Any) -> None:
        """Publishes a table's update (see ``Bus``)."""
        if version < 1:
            raise ValueError(f"versions start at 1: {version}")
        text = _encode(payload)
        state = self._table(table)
        if version <= state.latest:
            raise StaleVersionError(table, version, state.latest)
        state.updates.append((version, text))
        state.latest = version
        async with state.changed:
            state.changed.notify_all()

    async def last_version(self, table: str) -> int | None:
        """The latest version published for ``table`` (``None``: none)."""
        state = self._tables.get(table)
        return state.latest if state is not None and state.updates else None

    async def subscribe(self, table: str, after: int | None = None) -> Subscription:
        """The table's updates after ``after`` (see ``Bus``)."""
        return _LocalSubscription(self, table, after)

    def serve(self, owner: str, handler: Handler) -> Serving:
        """Handles the messages forwarded to ``owner`` (see ``Bus``); a second ``serve`` of
        one owner replaces the first."""
        serving = _LocalServing(self, owner, handler)
        self._owners[owner] = serving
        return serving

    async def forward(
        self,
        owner: str,
        table: str,
        message: Any,
        timeout: float = DEFAULT_TIMEOUT,
        take_timeout: float | None = None,
    ) -> Any:
        """Sends a message to ``owner`` for ``table`` and returns its reply (see ``Bus``; an
        owner of this process takes a message at once, so ``take_timeout`` changes nothing)."""
        text = _encode(message)
        serving = self._owners.get(owner)
        if serving is None:
            raise NoOwnerError(f"table {table}: no process serves owner {owner}")
        # The owner goes on with a message it took, as over Redis: only the wait ends.
        task = asyncio.get_running_loop().create_task(serving.handle(table, json.loads(text)))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        try:
            reply = await asyncio.wait_for(asyncio.shield(task), timeout)
        except TimeoutError:
            raise ForwardTimeoutError(
                f"table {table}: owner {owner} did not reply within {timeout} s"
            ) from None
        except Exception as error:
            raise OwnerFailedError(f"table {table}: owner {owner} failed: {error!r}") from None
        return json.loads(_encode(reply))

    async def close(self) -> None:
        """Ends every subscription and owner of this bus."""
        for subscription in list(self._subscriptions):
            await subscription.close()
        self._owners.clear()
        for task in list(self._tasks):
            task.cancel()


# --- over Redis ------------------------------------------------------------------------------


def _version(entry_id: bytes | str) -> int:
    text = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
    return int(text.split("-", 1)[0])


class _RedisSubscription:
    def __init__(self, bus: RedisBus, table: str, after: int) -> None:
        self.table = table
        self._bus = bus
        self._key = updates_key(table, bus.prefix)
        self._seq = _Sequencer(table, after)
        self._closed = False
        self._failures = 0
        bus._subscriptions.add(self)

    def __aiter__(self) -> AsyncIterator[Update | Gap]:
        return self

    async def __anext__(self) -> Update | Gap:
        while not self._seq.ready:
            if self._closed:
                raise StopAsyncIteration
            try:
                await self._read()
                self._failures = 0
            except (RedisConnectionError, RedisTimeoutError, OSError) as error:
                # Redis is away (restarting, unreachable): try again from where it stood.
                wait = RETRY_SECONDS[min(self._failures, len(RETRY_SECONDS) - 1)]
                self._failures += 1
                if self._failures == 1:
                    log.warning("table %s: updates unreadable (%s); retrying", self.table, error)
                await asyncio.sleep(wait)
        return self._seq.ready.popleft()

    async def _read(self) -> None:
        last = self._seq.last or 0
        answer: Any = await self._bus.redis.xread(
            {self._key: f"{last}-0"}, count=self._bus.batch, block=self._bus.block_ms
        )
        for _key, entries in answer or []:
            for entry_id, fields in entries:
                text = fields[b"u"] if b"u" in fields else fields["u"]  # bytes or decoded
                self._seq.take(_version(entry_id), json.loads(text))

    async def close(self) -> None:
        self._closed = True
        self._bus._subscriptions.discard(self)


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
                request = json.loads(taken[1])
                ident, table, message = request["id"], request["table"], request["message"]
            except (ValueError, KeyError, TypeError):
                log.warning("owner %s: an unreadable forwarded message was dropped", self.owner)
                continue
            # In arrival order: each task queues on its table's lock as it starts.
            task = asyncio.get_running_loop().create_task(self._handle(ident, table, message))
            self._work.add(task)
            task.add_done_callback(self._work.discard)

    async def _handle(self, ident: str, table: str, message: Any) -> None:
        lock = self._locks.setdefault(table, asyncio.Lock())
        async with lock:
            try:
                reply = {"reply": await self.handler(table, message)}
                text = _encode(reply)
            except Exception as error:
                log.exception("table %s: a forwarded message failed", table)
                text = _encode({"error": repr(error)})
        if not lock.locked() and self._locks.get(table) is lock:
            del self._locks[table]  # none waits on it: ordering keys come and go
        key = reply_key(ident, self._bus.prefix)
        try:
            async with self._bus.redis.pipeline(transaction=True) as pipe:
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
    how long an unread reply is kept (seconds). Each subscription waiting and each serving
    owner holds one connection of the client's pool while it waits."""

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
        self._subscriptions: set[_RedisSubscription] = set()
        self._servings: set[_RedisServing] = set()

    async def publish(self, table: str, version: int, payload: Any) -> None:
        """Publishes a table's update (see ``Bus``): ``XADD`` under id ``VERSION-0``,
        trimmed to ``max_updates``. While Redis does not answer (a restart) it is tried again,
        at once on a new connection and then after ``RETRY_SECONDS``, for ``PUBLISH_SECONDS``
        at most: an attempt stored after all, its answer lost, is found on top by the next
        and counts as done."""
        if version < 1:
            raise ValueError(f"versions start at 1: {version}")
        text = _encode(payload)
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
        request = _encode({"id": ident, "table": table, "message": message})
        queue = requests_key(owner, self.prefix)
        reply = reply_key(ident, self.prefix)
        first = timeout if take_timeout is None else min(take_timeout, timeout)
        try:
            async with self.redis.pipeline(transaction=True) as pipe:
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
        data = json.loads(answer)
        if "error" in data:
            raise OwnerFailedError(f"table {table}: owner {owner} failed: {data['error']}")
        return data["reply"]

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
        for subscription in list(self._subscriptions):
            await subscription.close()
        for serving in list(self._servings):
            await serving.close()
