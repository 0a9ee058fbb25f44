"""Which tables this process may act on: ``Ownership``.

A table lives in one process at a time, its owner: only the owner holds it in memory, applies
its actions, runs its bots and clocks. A server of one process owns every table
(``SoleOwnership``): it loads every unfinished table at its start and any other when asked.
A server of many (``dos.cluster``) takes a table before it loads it, may lose it to another
process (the table then leaves memory), and adopts the tables a dead process left; every
action it commits carries the *epoch* it owns the table under, which the database checks
(``dos.server.storage.fencing``), so a former owner commits nothing once another took the table.

The service (``dos.server.service``) asks its ownership before it holds a table (``claim``,
``claim_new``), tells it what it let go (``released``) and what the database refused
(``fenced``), and reads the lobby's entries of the tables it does not hold (``lobby``).

>>> import asyncio
>>> async def create() -> Claim | None:
...     async def store() -> bool:
...         return True  # stored: the code was free
...     return await SoleOwnership().claim_new("ABCDEF", store)
>>> asyncio.run(create())
Claim(epoch=None)
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class Claim:
    """This process owns a table: its actions commit under ``epoch`` (``None``: unfenced,
    this process being the only one)."""

    epoch: int | None


class Ownership(Protocol):
    """The tables this process owns (see the module's text)."""

    @property
    def owns_all(self) -> bool:
        """Whether this process owns every table: it loads the unfinished ones at its start,
        and its lobby is the tables it holds. Else they are taken one by one, and the lobby
        is the database's list."""
        ...

    async def start(self) -> None:
        """Starts keeping what this process owns (the server's start, its database open)."""
        ...

    async def stop(self) -> None:
        """Stops keeping it; what it owned is left for the others to adopt once it runs out
        (a crash, for them)."""
        ...

    async def drain(self) -> None:
        """Hands every table back, its clients told, for the others to take at once (the
        process stops; SIGTERM)."""
        ...

    def owns(self, code: str) -> bool:
        """Whether this process owns table ``code`` now."""
        ...

    async def claim(self, code: str) -> Claim:
        """Makes this process the owner of the stored table ``code``, before it loads it.
        Raises ``LookupError`` when no such table is stored, ``RefusedError("elsewhere")``
        when another process owns it, ``RefusedError("busy")`` when ownership cannot be
        known now."""
        ...

    async def claim_new(self, code: str, store: Callable[[], Awaitable[bool]]) -> Claim | None:
        """Makes this process the owner of a table it creates, from the moment ``store``
        stores it (``store`` says whether it did: ``False``, the code is taken). ``None``
        when the code is taken: try another. ``RefusedError("busy")``."""
        ...

    def fenced(self, code: str) -> None:
        """The database refused a commit of ``code`` for its epoch: another process owns it;
        the table leaves this process."""
        ...

    async def released(self, code: str) -> None:
        """The table left memory here (it expired or finished): this process lets it go."""
        ...

    async def lobby(self, codes: list[str]) -> dict[str, dict[str, Any]]:
        """The lobby entries (``TableInfo``) the owners of ``codes`` wrote lately, by code;
        those not known left out."""
        ...


class SoleOwnership:
    """One process owns every table: ``Ownership`` without asking anyone."""

    @property
    def owns_all(self) -> bool:
        """Always."""
        return True

    async def start(self) -> None:
        """Nothing to keep."""

    async def stop(self) -> None:
        """Nothing to let go."""

    async def drain(self) -> None:
        """Nobody to hand the tables to."""

    def owns(self, code: str) -> bool:
        """Every table."""
        return True

    async def claim(self, code: str) -> Claim:
        """Owned already, unfenced."""
        return Claim(None)

    async def claim_new(self, code: str, store: Callable[[], Awaitable[bool]]) -> Claim | None:
        """Stores it; ``None`` if its code is taken."""
        return Claim(None) if await store() else None

    def fenced(self, code: str) -> None:
        """Never: nothing is fenced in one process."""

    async def released(self, code: str) -> None:
        """Nothing to let go."""

    async def lobby(self, codes: list[str]) -> dict[str, dict[str, Any]]:
        """None: every table of the lobby is held here."""
        return {}
