"""Who holds each table that a process relays connections to, read once for them all.

Every relayed connection (``dos.cluster.relayed``) watches its table's lease, to notice a new
owner that told it nothing (its close lost with Redis, or the same process under a new
epoch). ``LeaseWatch`` shares those reads: a table's holder read within ``FRESH_SECONDS`` is
the answer for every connection that asks, and one read under way is awaited by all who ask
meanwhile. So the watch of a process costs Redis about one read a table a second, however
many connections (an idle audience of spectators) it relays there.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from dos.cluster.lease import Holder
from dos.server.clock import Clock

if TYPE_CHECKING:
    from dos.cluster.node import Node

FRESH_SECONDS = 1.0
"""How long a holder read stays the answer (on the server's clock): the relays' watch
period (``dos.cluster.relayed.WATCH_SECONDS``)."""


class LeaseWatch:
    """The lease holders of ``node``'s relayed tables, each read at most once per
    ``FRESH_SECONDS`` of ``clock`` (see the module's text)."""

    def __init__(self, node: Node, clock: Clock) -> None:
        self.node = node
        self.clock = clock
        self._read: dict[str, tuple[float, asyncio.Future[Holder | None]]] = {}
        self._pruned = clock.monotonic()

    async def holder(self, code: str) -> Holder | None:
        """Who holds ``code``'s lease (``None``: nobody), as read within ``FRESH_SECONDS``;
        Redis away: ``RefusedError`` (``Node.holder``)."""
        now = self.clock.monotonic()
        self._prune(now)
        found = self._read.get(code)
        if found is None or now - found[0] >= FRESH_SECONDS:
            reading = asyncio.ensure_future(self.node.holder(code))
            reading.add_done_callback(_seen)
            found = self._read[code] = (now, reading)
        return await asyncio.shield(found[1])

    def _prune(self, now: float) -> None:
        """Forgets the reads of tables nobody asked about lately (once a while)."""
        if now - self._pruned < 10 * FRESH_SECONDS:
            return
        self._pruned = now
        for code, (at, _reading) in list(self._read.items()):
            if now - at >= 2 * FRESH_SECONDS:
                del self._read[code]


def _seen(reading: asyncio.Future[Holder | None]) -> None:
    """Takes a read's failure, so that a read nobody awaits any more logs nothing."""
    if not reading.cancelled():
        reading.exception()
