"""The MCP endpoint of ``dos serve`` (``/mcp``), loaded at its first request.

The MCP SDK takes seconds of one core to import (pydantic models of the whole protocol), more
than the rest of the server's start together. A server whose agents never use MCP never pays
it; one whose agents do pays it once, at the first request to ``/mcp``, in a worker thread
while the tables go on (``dos.agents.mcp_server`` builds the endpoint). Requests that arrive
meanwhile wait for the same load. Every request counts as an API look-up of its client, and a
client over its limit is refused before anything is loaded.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from dos.server.net.bodies import JsonErrors
from dos.server.net.errors import error_response
from dos.server.net.limits import Counters

if TYPE_CHECKING:
    from dos.agents.service import Agents

MCP_PATH = "/mcp"
"""Where ``dos serve`` serves the MCP server (streamable HTTP)."""
MCP_BODY_MAX = 16384
"""The largest request body the MCP server takes (larger: 413)."""


class McpEndpoint:
    """The ASGI endpoint at ``/mcp``: the MCP server, built at the first request."""

    def __init__(self, agents: Agents, counters: Counters) -> None:
        self.agents = agents
        self.counters = counters
        self._endpoint: ASGIApp | None = None
        self._loading: asyncio.Lock | None = None
        self._runner: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        who = str(client[0]) if client else "unknown"
        if not self.counters.allow("lookup", who):
            wait = self.counters.retry_after("lookup", who)
            message = f"too many requests (lookup): try again in {wait} s"
            retry = {"Retry-After": str(wait)}
            await error_response(429, "rate_limited", message, None, **retry)(scope, receive, send)
            return
        endpoint = await self._ready()
        await endpoint(scope, receive, send)

    async def _ready(self) -> ASGIApp:
        if self._endpoint is not None:
            return self._endpoint
        if self._loading is None:
            self._loading = asyncio.Lock()
        async with self._loading:
            if self._endpoint is None:
                endpoint, run = await asyncio.to_thread(self._build)
                started = asyncio.Event()
                self._runner = asyncio.create_task(self._run(run, started), name="mcp")
                waiting = asyncio.create_task(started.wait())
                await asyncio.wait({waiting, self._runner}, return_when=asyncio.FIRST_COMPLETED)
                waiting.cancel()
                if not started.is_set():  # the SDK's session manager did not start
                    await self._runner
                    raise RuntimeError("the MCP session manager stopped at its start")
                self._endpoint = endpoint
        return self._endpoint

    def _build(self) -> tuple[ASGIApp, Callable[[], contextlib.AbstractAsyncContextManager[Any]]]:
        from dos.agents import mcp_server

        return mcp_server.build(self.agents, self.counters)

    async def _run(
        self,
        run: Callable[[], contextlib.AbstractAsyncContextManager[Any]],
        started: asyncio.Event,
    ) -> None:
        # The SDK's session manager runs in a task of its own, from the first request until
        # the server stops: its task group must be entered and left by the same task.
        async with run():
            started.set()
            await self._stop.wait()

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """For the application's lifespan: stops the MCP server, if it was loaded, at the end."""
        try:
            yield
        finally:
            self._stop.set()
            if self._runner is not None:
                with contextlib.suppress(asyncio.CancelledError):
                    await self._runner


def install(
    app: FastAPI, agents: Agents, counters: Counters
) -> Callable[[], contextlib.AbstractAsyncContextManager[None]]:
    """Mounts the MCP server on ``app`` at ``/mcp`` (streamable HTTP, one JSON answer per
    request, no sessions kept, so POST only: a GET, which would open an event stream, is
    answered 405); returns what the application's lifespan must run."""
    endpoint = McpEndpoint(agents, counters)
    app.router.routes.append(Route(MCP_PATH, endpoint=JsonErrors(endpoint), methods=["POST"]))
    return endpoint.running
