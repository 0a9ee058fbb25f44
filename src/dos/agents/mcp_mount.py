"""The MCP endpoint of ``dos serve`` (``/mcp``), loaded at its first request.

The MCP SDK takes seconds of one core to import (pydantic models of the whole protocol), more
than the rest of the server's start together. A server whose agents never use MCP never pays
it; one whose agents do pays it once, at the first request to ``/mcp``, in a worker thread
while the tables go on (``dos.agents.mcp_server`` builds the endpoint). Requests that arrive
meanwhile wait for the same load. Every request counts as an API look-up of its client, and a
client over its limit is refused before anything is loaded: 429 with ``Retry-After``, whose
body is a JSON-RPC error too (``RATE_LIMITED``), so that an MCP client reports the limit and
the wait as the request's error.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from dos.server.net.bodies import JsonErrors
from dos.server.net.errors import SafeJSONResponse
from dos.server.net.limits import Counters, client_address

if TYPE_CHECKING:
    from dos.agents.service import Agents

MCP_PATH = "/mcp"
"""Where ``dos serve`` serves the MCP server (streamable HTTP)."""
MCP_BODY_MAX = 16384
"""The largest request body the MCP server takes (larger: 413)."""
RATE_LIMITED = -32000
"""The JSON-RPC error code of a request refused by a rate limit (a server error of JSON-RPC's
range; ``data.code`` is ``rate_limited``, as the server's error body has it)."""


@dataclass(frozen=True, slots=True)
class Limited:
    """A refusal by a per-client rate limit: the limit's name (``kind``, as ``--limit``
    names it), its rate (``600/minute``) and the whole seconds to wait before trying again."""

    kind: str
    rate: str
    retry_after: int

    @property
    def message(self) -> str:
        """The refusal in one English line, with the limit and the wait.

        >>> Limited("lookup", "600/minute", 12).message
        'too many requests (lookup: 600/minute per client): try again in 12 s'
        """
        return (
            f"too many requests ({self.kind}: {self.rate} per client): "
            f"try again in {self.retry_after} s"
        )

    def data(self) -> dict[str, Any]:
        """The refusal for programs: the JSON-RPC error's ``data``."""
        return {
            "code": "rate_limited",
            "limit": self.kind,
            "rate": self.rate,
            "retry_after": self.retry_after,
        }


def over_limit(counters: Counters, kind: str, who: str) -> Limited | None:
    """Counts one ``kind`` request of the client ``who``; ``None`` if it fits, else the
    refusal (the limit and the wait)."""
    if counters.allow(kind, who):
        return None
    rate = str(getattr(counters.limits, kind))
    return Limited(kind, rate, counters.retry_after(kind, who))


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
        limited = over_limit(self.counters, "lookup", client_address(scope.get("client")))
        if limited is not None:
            request_id = _request_id(await _body(receive))
            await _refusal(limited, request_id)(scope, receive, send)
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


async def _body(receive: Receive) -> bytes:
    """The request's body, read up to ``MCP_BODY_MAX`` bytes (the rest is left unread)."""
    body = b""
    while len(body) <= MCP_BODY_MAX:
        message = await receive()
        if message["type"] != "http.request":
            break
        body += message.get("body", b"")
        if not message.get("more_body", False):
            break
    return body


def _request_id(body: bytes) -> str | int | None:
    """The id of the JSON-RPC request in ``body`` (``None``: not one request with an id)."""
    try:
        request = json.loads(body)
    except ValueError:
        return None
    if not isinstance(request, dict):
        return None
    found = request.get("id")
    if isinstance(found, bool) or not isinstance(found, str | int):
        return None
    return found


def _refusal(limited: Limited, request_id: str | int | None) -> SafeJSONResponse:
    """429 with ``Retry-After``; its body is both the server's error body (``code``,
    ``message``, ``field``) and a JSON-RPC error answering ``request_id``, which an MCP
    client reports as the request's error (``RATE_LIMITED``, the limit and the wait in its
    ``message`` and ``data``)."""
    body = {
        "code": "rate_limited",
        "message": limited.message,
        "field": None,
        "jsonrpc": "2.0",
        "id": request_id,
        "error": {"code": RATE_LIMITED, "message": limited.message, "data": limited.data()},
    }
    headers = {"Retry-After": str(limited.retry_after)}
    return SafeJSONResponse(body, status_code=429, headers=headers)


def install(
    app: FastAPI, agents: Agents, counters: Counters
) -> Callable[[], contextlib.AbstractAsyncContextManager[None]]:
    """Mounts the MCP server on ``app`` at ``/mcp`` (streamable HTTP, one JSON answer per
    request, no sessions kept, so POST only: a GET, which would open an event stream, is
    answered 405); returns what the application's lifespan must run."""
    endpoint = McpEndpoint(agents, counters)
    app.router.routes.append(Route(MCP_PATH, endpoint=JsonErrors(endpoint), methods=["POST"]))
    return endpoint.running
