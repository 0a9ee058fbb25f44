"""Whether the owners a process relays connections to still hold their tables: told by the
owners, checked in Redis only when their word is missing or disagrees.

Every relayed connection (``dos.cluster.relayed``) must notice a new owner that told it
nothing (its close lost with Redis, the owner killed, or the same process under a new epoch).
Instead of reading each table's lease on a timer, a relaying process listens to the owners:

* **Announcements.** Every ``ANNOUNCE_SECONDS`` each owner tells each process that relays
  connections to it which of those tables it holds, and under which epoch (one entry on
  that process's stream, ``dos.cluster.mailboxes``; ``OwnerSide`` sends them). The cost is
  one entry a second for each pair of processes, however many tables and connections.
* **Checks.** Every ``WATCH_SECONDS`` the process's ``LeaseWatch`` looks at its connections,
  without Redis: a connection is *in doubt* when its owner said nothing for
  ``OVERDUE_SECONDS`` (since the connection attached there, at least: it died, or Redis is
  away), or when the owner's latest word, heard after the connection attached, does not name
  the table under the connection's epoch. Only the leases of the tables in doubt are read,
  all in one round trip; a connection whose lease is held by another owner, or by its owner
  under another epoch, or by nobody, is told (``Watched.moved``) and attaches again.

A frame that its owner never answers is the connection's own business: its forward fails and
it attaches again at once (``dos.cluster.relayed``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from dos.cluster.lease import Holder
from dos.cluster.tasks import stop as stop_task
from dos.server.clock import Clock
from dos.server.protocol.refusals import RefusedError

if TYPE_CHECKING:
    from dos.cluster.node import Node

log = logging.getLogger(__name__)

ANNOUNCE_SECONDS = 1.0
"""How often an owner tells each relaying process the tables it holds (server's clock)."""
WATCH_SECONDS = 1.0
"""How often a relaying process looks at its connections' owners' word (server's clock)."""
OVERDUE_SECONDS = 2.5
"""How long an owner may say nothing before its connections' leases are read (server's
clock): more than two announcements."""


class Watched(Protocol):
    """A relayed connection, as its process's watch sees it."""

    code: str
    owner: str
    """The owner it is attached to."""
    epoch: int | None
    """The epoch its owner held the table under when it attached (``None``: not told)."""
    attached: float
    """When it attached there (``Clock.monotonic``)."""

    def moved(self, generation: int) -> None:
        """Its table's lease is no longer its owner's under its epoch: it attaches again,
        unless it did since the attach ``generation``."""

    @property
    def generation(self) -> int:
        """Its current attach (each attach a new one)."""
        ...


@dataclass(frozen=True, slots=True)
class Word:
    """An owner's latest announcement: when it was heard, and the tables it holds with
    their epochs."""

    at: float
    tables: Mapping[str, int]


class LeaseWatch:
    """The watch of ``node``'s relayed connections on ``clock`` (see the module's text)."""

    def __init__(self, node: Node, clock: Clock) -> None:
        self.node = node
        self.clock = clock
        self._watched: set[Watched] = set()
        self._word: dict[str, Word] = {}
        self._task: asyncio.Task[None] | None = None

    def heard(self, owner: str, tables: Mapping[str, int]) -> None:
        """``owner`` announced the tables it holds of those relayed here (with epochs)."""
        self._word[owner] = Word(self.clock.monotonic(), dict(tables))

    def add(self, connection: Watched) -> None:
        """Watches ``connection`` until ``discard``."""
        self._watched.add(connection)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="lease-watch")

    def discard(self, connection: Watched) -> None:
        """Watches ``connection`` no more."""
        self._watched.discard(connection)

    async def close(self) -> None:
        """Stops watching."""
        self._watched.clear()
        if self._task is not None:
            await stop_task(self._task)

    async def _run(self) -> None:
        while self._watched:
            await self.clock.sleep(WATCH_SECONDS)
            try:
                await self.check()
            except RefusedError:
                continue  # Redis away: looked at again next time
            except Exception:
                log.exception("the relayed connections' watch failed a check")

    def in_doubt(self) -> list[Watched]:
        """The connections whose owners' word is missing or disagrees (no I/O)."""
        now = self.clock.monotonic()
        doubts = []
        for connection in list(self._watched):
            word = self._word.get(connection.owner)
            heard = word is not None and word.at >= connection.attached
            last = word.at if word is not None and heard else connection.attached
            if now - last >= OVERDUE_SECONDS:
                doubts.append(connection)
            elif word is not None and heard:
                announced = word.tables.get(connection.code)
                if announced is None or connection.epoch not in (None, announced):
                    doubts.append(connection)
        return doubts

    async def check(self) -> None:
        """One look: the leases of the connections in doubt read, in one round trip, and
        those whose owner changed told; ``RefusedError`` when Redis did not answer."""
        doubts = [(c, c.generation) for c in self.in_doubt()]
        if not doubts:
            return
        codes = sorted({connection.code for connection, _ in doubts})
        holders = dict(zip(codes, await self.node.holders(codes), strict=True))
        for connection, generation in doubts:
            if self._moved(connection, holders[connection.code]):
                connection.moved(generation)

    @staticmethod
    def _moved(connection: Watched, holder: Holder | None) -> bool:
        if holder is None or holder.owner != connection.owner:
            return True
        return connection.epoch is not None and holder.epoch != connection.epoch
