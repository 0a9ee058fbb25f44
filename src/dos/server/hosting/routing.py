"""Where each request about a table is served: ``Routing``.

A table lives in one process, its owner (``dos.server.hosting.ownership``). A server of one process
owns every table, so it serves every request itself: ``LocalRouting``. A server of many
(``dos.cluster``) sends each request about a table — its HTTP endpoints, its WebSocket — to
the table's owner, and serves what the other processes send it; it does so as a middleware
the application puts in front of its routes (``middleware``), running from the application's
start to its stop.

>>> LocalRouting().middleware(print) is print
True
"""

from __future__ import annotations

from typing import Protocol

from starlette.types import ASGIApp


class Routing(Protocol):
    """How this process's requests reach their tables' owners, and others' reach it."""

    def middleware(self, app: ASGIApp) -> ASGIApp:
        """``app`` behind the routing: a request this process does not serve goes to the
        process that does."""
        ...

    def start(self) -> None:
        """Starts serving what the other processes send (the application's start, in its
        event loop)."""
        ...

    async def stop(self) -> None:
        """Stops serving what the other processes send (the application's stop)."""
        ...


class LocalRouting:
    """One process: every request is served here."""

    def middleware(self, app: ASGIApp) -> ASGIApp:
        """``app`` itself."""
        return app

    def start(self) -> None:
        """Nothing to start."""

    async def stop(self) -> None:
        """Nothing to stop."""
