"""The bus between a server's processes: the contract, and its implementation in one process.

A table lives in one process, its owner (``dos.server.hosting.ownership``). The bus carries what
crosses processes: a stream of updates from the owner to every process with clients there,
and messages from any process to the owner. ``Bus`` says what every implementation
guarantees; ``LocalBus`` keeps that contract in memory, for one process (and for the tests of
what rides on the bus, without Redis); ``dos.cluster`` implements it over Redis. Payloads are
JSON values (``json.dumps`` must take them; anything else raises ``TypeError`` and sends
nothing), and every subscriber gets its own decoded copy.

**Updates** (``publish``, ``subscribe``). The owner of a stream publishes each update under a
*version*: integers from 1, one more for each update, never reset, continued by a next owner
from ``last_version``. The bus keeps the latest ``max_updates`` of each stream and refuses a
version not larger than the latest (``StaleVersionError``: a former owner cannot slip an old
update in). A subscription delivers a stream's updates in version order, each once; where
versions are missing (trimmed before a slow subscriber read them, lost with the bus's data,
or skipped by the owner) it first delivers a ``Gap`` naming them, then goes on: its clients
resync from the owner's full state. ``subscribe(table, after=N)`` resumes after version
``N``; without ``after`` it starts with the next update published after ``subscribe``
returned.

**Forwarding** (``serve``, ``forward``). A process serves the tables it owns under its owner
id: ``serve(owner, handler)`` calls ``handler(table, message)`` for each message forwarded to
it and sends its JSON reply back. ``forward(owner, table, message, timeout)`` returns that
reply; messages forwarded to one owner for one table are handled one at a time, in the order
they arrived. When nobody takes the message within ``timeout`` it raises ``NoOwnerError`` and
the message is withdrawn: it will never be handled. When the owner took it but did not reply
in time it raises ``ForwardTimeoutError``: it may have been handled. A handler that fails
raises ``OwnerFailedError`` at the sender.

**Announcements** (``announce``). A stream that any process publishes on, for every process
(a server-wide news stream, named so that no table's code is its name): ``announce``
publishes a payload as the stream's next version, whoever published the one before it, and
every process subscribed to the stream, the announcer included, gets it once.

>>> import asyncio
>>> async def main() -> list[Update | Gap]:
...     bus = LocalBus()
...     updates = await bus.subscribe("ABCDEF", after=0)
...     await bus.publish("ABCDEF", 1, {"t": "hello"})
...     await bus.publish("ABCDEF", 3, {"t": "after a gap"})
...     return [await anext(updates) for _ in range(3)]
>>> for item in asyncio.run(main()):
...     print(item)
Update(table='ABCDEF', version=1, payload={'t': 'hello'})
Gap(table='ABCDEF', first=2, last=2)
Update(table='ABCDEF', version=3, payload={'t': 'after a gap'})
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Protocol

MAX_UPDATES = 1000
"""Updates kept per stream: a subscriber further behind than that gets a ``Gap``."""

DEFAULT_TIMEOUT = 5.0
"""Seconds ``forward`` waits for the owner's reply unless told."""

Handler = Callable[[str, Any], Awaitable[Any]]
"""What an owner does with a forwarded message: ``handler(table, message)`` returns the
reply (JSON)."""


@dataclass(frozen=True, slots=True)
class Update:
    """One update of a stream, as its owner published it."""

    table: str
    version: int
    payload: Any


@dataclass(frozen=True, slots=True)
class Gap:
    """Versions ``first`` to ``last`` of a stream were missed: the clients resync.

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
    """The bus did not answer (its Redis is away): nothing was published or forwarded."""


class StaleVersionError(BusError):
    """An update under a version not larger than the stream's latest: refused, not published.

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
    """A stream's updates in version order, with a ``Gap`` before any missed versions:
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
        """Publishes a stream's update; raises ``StaleVersionError``, ``TypeError`` (not
        JSON), ``BusUnavailableError``."""
        ...

    async def last_version(self, table: str) -> int | None:
        """The latest version published for a stream that the bus still has (``None``:
        none)."""
        ...

    async def subscribe(self, table: str, after: int | None = None) -> Subscription:
        """The stream's updates after version ``after`` (``None``: from the next published,
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


def encode(value: Any) -> str:
    """JSON text, compact; ``TypeError`` (not ``ValueError``) for what JSON cannot hold.

    >>> encode({"t": "hi"})
    '{"t":"hi"}'
    >>> encode(float("nan"))
    Traceback (most recent call last):
    ...
    TypeError: not JSON: Out of range float values are not JSON compliant
    """
    try:
        return json.dumps(value, separators=(",", ":"), allow_nan=False)
    except ValueError as error:
        raise TypeError(f"not JSON: {error}") from None


class Sequencer:
    """What a subscription has delivered: turns the versions read into updates and gaps,
    each version once (a version read twice, by a retried read, is dropped)."""

    def __init__(self, table: str, after: int | None) -> None:
        self.table = table
        self.last = after
        self.ready: deque[Update | Gap] = deque()

    def take(self, version: int, payload: Any) -> None:
        """Notes the update ``version`` read: ready to deliver, after a gap if versions are
        missing before it."""
        if self.last is not None:
            if version <= self.last:
                return
            if version > self.last + 1:
                self.ready.append(Gap(self.table, self.last + 1, version - 1))
        self.ready.append(Update(self.table, version, payload))
        self.last = version


class Inbox:
    """A subscription whose updates another task reads for it (one reader for many): that
    reader ``take``s each version it read, and the subscription's iterator hands them out in
    order (``Sequencer``), waiting while none is ready, ending once ``shut``."""

    def __init__(self, table: str, after: int | None) -> None:
        self.table = table
        self.seq = Sequencer(table, after)
        self._read = asyncio.Event()
        self._closed = False

    def __aiter__(self) -> AsyncIterator[Update | Gap]:
        return self

    async def __anext__(self) -> Update | Gap:
        while not self.seq.ready:
            if self._closed:
                raise StopAsyncIteration
            self._read.clear()
            await self._read.wait()
        return self.seq.ready.popleft()

    def take(self, version: int, payload: Any) -> None:
        """Version ``version`` read, with its payload."""
        self.seq.take(version, payload)
        if self.seq.ready:
            self._read.set()

    def shut(self) -> None:
        """No more updates: the iterator ends once those ready are handed out."""
        self._closed = True
        self._read.set()


ANNOUNCE_TRIES = 50
"""How many versions ``announce`` tries before it gives up (each lost to another
announcer)."""


async def announce(bus: Bus, stream: str, payload: Any) -> int:
    """Publishes ``payload`` on ``stream`` as its next version, after any other process's
    (a ``StaleVersionError`` is another announcer's version: the next one is tried); returns
    the version published. Raises ``BusUnavailableError``, ``TypeError`` (not JSON), and
    ``BusError`` when ``ANNOUNCE_TRIES`` versions were all taken first.

    >>> async def main() -> list[Update | Gap]:
    ...     bus = LocalBus()
    ...     news = await bus.subscribe("~news")
    ...     await bus.publish("~news", 1, "taken by another process")
    ...     await announce(bus, "~news", "mine")
    ...     return [await anext(news) for _ in range(2)]
    >>> [item.payload for item in asyncio.run(main())]
    ['taken by another process', 'mine']
    """
    version = (await bus.last_version(stream) or 0) + 1
    for _ in range(ANNOUNCE_TRIES):
        try:
            await bus.publish(stream, version, payload)
            return version
        except StaleVersionError as error:
            version = error.latest + 1
    raise BusError(f"stream {stream}: {ANNOUNCE_TRIES} versions taken by other announcers")


# --- in this process -------------------------------------------------------------------------


@dataclass(slots=True)
class _LocalStream:
    updates: deque[tuple[int, str]]
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)
    latest: int = 0


class _LocalSubscription:
    def __init__(self, bus: LocalBus, table: str, after: int | None) -> None:
        self.table = table
        self._bus = bus
        self._state = bus._stream(table)
        start = after
        if start is None:
            start = self._state.latest
        self._seq = Sequencer(table, start)
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
    """The bus in one process: the contract of ``Bus``, in memory. An owner of this process
    takes a forwarded message at once; nobody serving its owner is ``NoOwnerError`` at
    once."""

    def __init__(self, max_updates: int = MAX_UPDATES) -> None:
        if max_updates < 1:
            raise ValueError(f"max_updates is positive: {max_updates}")
        self.max_updates = max_updates
        self._streams: dict[str, _LocalStream] = {}
        self._owners: dict[str, _LocalServing] = {}
        self._subscriptions: set[_LocalSubscription] = set()
        self._tasks: set[asyncio.Task[Any]] = set()

    def _stream(self, table: str) -> _LocalStream:
        if table not in self._streams:
            self._streams[table] = _LocalStream(deque(maxlen=self.max_updates))
        return self._streams[table]

    async def publish(self, table: str, version: int, payload: Any) -> None:
        """Publishes a stream's update (see ``Bus``)."""
        if version < 1:
            raise ValueError(f"versions start at 1: {version}")
        text = encode(payload)
        state = self._stream(table)
        if version <= state.latest:
            raise StaleVersionError(table, version, state.latest)
        state.updates.append((version, text))
        state.latest = version
        async with state.changed:
            state.changed.notify_all()

    async def last_version(self, table: str) -> int | None:
        """The latest version published for ``table`` (``None``: none)."""
        state = self._streams.get(table)
        return state.latest if state is not None and state.updates else None

    async def subscribe(self, table: str, after: int | None = None) -> Subscription:
        """The stream's updates after ``after`` (see ``Bus``)."""
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
        """Sends a message to ``owner`` for ``table`` and returns its reply (see ``Bus``;
        ``take_timeout`` changes nothing: an owner here takes a message at once)."""
        text = encode(message)
        serving = self._owners.get(owner)
        if serving is None:
            raise NoOwnerError(f"table {table}: no process serves owner {owner}")
        # The owner goes on with a message it took, as across processes: only the wait ends.
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
        return json.loads(encode(reply))

    async def close(self) -> None:
        """Ends every subscription and owner of this bus."""
        for subscription in list(self._subscriptions):
            await subscription.close()
        self._owners.clear()
        for task in list(self._tasks):
            task.cancel()
