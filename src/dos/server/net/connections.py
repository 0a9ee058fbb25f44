"""One client's connection (a ``dos.server.net.sockets.Socket``): an outgoing queue with its
writer, and its rate limits (``dos.server.net.limits``: per connection, and per client across all
its connections).

Sending never waits for a slow client: messages go into the connection's queue and a writer
task sends them in order. A client that lets its queue fill up is closed.

A connection may name its **lineage**: the page it belongs to (the browser's ``?page=`` on
``/ws/{code}``, ``lineage_of``), or, relayed from another process, the relayed connection
whose side it is. Connections of one lineage are one client coming back: a newer one takes
its seat from an older one without telling the client it was replaced by somebody else
(``dos.server.tables.audience``).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import re
import time

from dos.server.net.limits import Counters
from dos.server.net.sockets import Socket

_SERIAL = itertools.count()

QUEUE_LIMIT = 2000
"""Messages waiting for one client before it is closed as too slow."""

FLOOD_LIMIT = 60
"""Messages dropped for a rate limit, within ``FLOOD_SECONDS``, that close the connection."""
FLOOD_SECONDS = 2.0

LINEAGE = re.compile(r"[A-Za-z0-9_-]{8,64}")
"""What a lineage looks like: a random id of 8 to 64 URL-safe characters."""


def lineage_of(value: str | None) -> str | None:
    """The lineage a connection names (``?page=``), if it names one that looks like one
    (anything else names none: the connection is a client of its own).

    >>> lineage_of("p-3f9a61c2e07b"), lineage_of("x"), lineage_of(None)
    ('p-3f9a61c2e07b', None, None)
    """
    if value is None or LINEAGE.fullmatch(value) is None:
        return None
    return value


class Client:
    """A connected client: its seat (``None``: spectator) and its outgoing queue."""

    def __init__(
        self, socket: Socket, address: str, counters: Counters, lineage: str | None = None
    ) -> None:
        self.socket = socket
        self.address = address
        """The client's network address: the key of the limits it shares with its other
        connections."""
        self.lineage = lineage
        """The page (or relayed connection) this connection belongs to (``None``: none
        named): see the module's text."""
        self.seat: int | None = None
        self.player_id: str | None = None
        self.greeted = False
        self.counters = counters
        self._key = f"{address}#{next(_SERIAL)}"
        self.dropped = 0
        self.dropped_since = 0.0
        self.closed = False
        self._queue: asyncio.Queue[str | tuple[int, str]] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Starts the writer task."""
        self._writer = asyncio.get_running_loop().create_task(self._write())

    def send(self, text: str) -> None:
        """Queues a message; closes a client whose queue is full."""
        if self.closed:
            return
        if self._queue.qsize() >= QUEUE_LIMIT:
            self.close(1008, "too slow: too many messages waiting")
            return
        self._queue.put_nowait(text)

    def close(self, code: int, reason: str) -> None:
        """Sends what is queued, then closes with ``code`` and ``reason``."""
        if self.closed:
            return
        self.closed = True
        self._queue.put_nowait((code, reason))

    def allow(self) -> bool:
        """Counts one message against this connection's and this client's limits."""
        return self.counters.allow("messages", self._key) and self.counters.allow(
            "client_messages", self.address
        )

    def allow_sync(self) -> bool:
        """Counts one full resync against this connection's limit."""
        return self.counters.allow("syncs", self._key)

    def allow_chat(self) -> bool:
        """Counts one chat message against this connection's limit and this client's (all
        its connections together, so reconnecting renews nothing). A message the
        connection's limit refuses costs the client nothing."""
        return self.counters.allow("chat", self._key) and self.counters.allow(
            "client_chat", self.address
        )

    def flooding(self) -> bool:
        """Counts a dropped message; whether the flood has gone on long enough to close."""
        now = time.monotonic()
        if now - self.dropped_since > FLOOD_SECONDS:
            self.dropped = 0
            self.dropped_since = now
        self.dropped += 1
        return self.dropped > FLOOD_LIMIT

    async def _write(self) -> None:
        try:
            while True:
                item = await self._queue.get()
                if isinstance(item, tuple):
                    with contextlib.suppress(Exception):
                        await self.socket.close(item[0], item[1])
                    return
                await self.socket.send_text(item)
        except Exception:
            self.closed = True

    async def stop(self) -> None:
        """Stops the writer (after the connection has ended)."""
        self.closed = True
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._writer

    async def drain(self, timeout: float = 5.0) -> None:
        """Waits until the writer has sent everything and closed (after ``close``)."""
        if self._writer is not None:
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError, Exception):
                await asyncio.wait_for(asyncio.shield(self._writer), timeout)

    def __repr__(self) -> str:
        return f"Client(seat={self.seat!r})"
