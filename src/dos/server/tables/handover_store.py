"""Where a table's handover waits for its next owner: ``HandoverStore``.

A table's clocks and its host's choices live in memory (``dos.server.tables.handover``). When
another process takes the table over (a failover, a drain), it goes on from what the former
owner wrote down; the owner notes the handover whenever it may have changed (``note``) and
the next one reads it before the table goes on (``read``). A server of one process has no
next owner (``NoHandovers``: a restart starts the clocks in full); a server of many keeps
them in Redis (``dos.cluster.handovers``).

>>> import asyncio
>>> asyncio.run(NoHandovers().read("ABCDEF")) is None
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from dos.server.tables.handover import Handover
    from dos.server.tables.table import Table


class HandoverStore(Protocol):
    """The handovers of a server's tables (see the module's text)."""

    def note(self, table: Table) -> None:
        """``table``'s handover may have changed: kept for its next owner, if it has one
        (read from the table only then, and written soon, without waiting)."""
        ...

    async def read(self, code: str) -> Handover | None:
        """What ``code``'s former owner handed over (``None``: nothing)."""
        ...


class NoHandovers:
    """One process: nobody takes its tables over, nothing is kept."""

    def note(self, table: Table) -> None:
        """Nothing to keep."""

    async def read(self, code: str) -> Handover | None:
        """Nothing kept."""
        return None
