"""Any process serves any request: what is not its own table's goes to the table's owner.

In a server of many processes a request about a table — its HTTP endpoints
(``/api/tables/{code}...``, the agents' ``/api/agent/...`` by their seat token, a tool call
that names its table in its body) and its WebSocket (``/ws/{code}``) — may reach any process;
no sticky sessions. ``OwnerRouting`` (an ASGI middleware) finds the table's owner
(``Router.route``): this process if it owns the table or can take it (nobody does), else the
process holding its lease. The request is then served here, or forwarded
(``dos.cluster.forwarding``), or, a WebSocket, relayed (``dos.cluster.relayed``).

A table's WebSocket, served here or relayed, counts among its client's open WebSockets on
every process together (``dos.cluster.client_sockets``, ``Limits.client_sockets``): past the
cap, it is refused as one process refuses a client holding its cap of connections (1013
before it opens, "too many connections from this client": 503 to the client).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING

from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from dos.cluster.client_sockets import RedisSockets
from dos.cluster.forwarding import FORWARDED
from dos.cluster.relayed import REATTACH_SECONDS
from dos.server.net.errors import error_response
from dos.server.net.limits import client_address
from dos.server.people.auth import Signer
from dos.server.protocol.refusals import RefusedError

if TYPE_CHECKING:
    from dos.cluster.node import Node

ROUTED = re.compile(r"^/(?:ws|api/tables)/([A-Za-z0-9]{1,16})(?:/|$)")
"""The paths of one table: its WebSocket and its HTTP endpoints."""
AGENT_PATHS = "/api/agent/"
"""The agents' endpoints: their table is their seat token's."""

Load = Callable[[str], Awaitable[object | None]]
"""Takes and loads a table here (``Service.table``): ``None`` when there is no such table;
``RefusedError("elsewhere")`` when another process owns it."""
ForwardHttp = Callable[[Scope, bytes, Send, str, str], Awaitable[bool]]
"""Forwards an HTTP request to the table's owner (``Forwarder.forward_http``)."""
RelayWebSocket = Callable[[Scope, Receive, Send, str, str], Awaitable[None]]
"""Relays a WebSocket to the table's owner (``Relay.relay_websocket``)."""


class Router:
    """Which table a request is about, and which process owns it. ``calls`` are the paths
    whose requests name their table in a JSON-RPC body (an MCP tool call), each with the
    most bytes read to find it (the endpoint's own limit: past it, it refuses the request
    itself)."""

    def __init__(self, node: Node, signer: Signer, load: Load, calls: Mapping[str, int]) -> None:
        self.node = node
        self.signer = signer
        self.load = load
        self.calls = dict(calls)

    def code_of(self, scope: Scope) -> str | None:
        """The table a request is about, if its path or its seat token says."""
        path: str = scope.get("path", "")
        found = ROUTED.match(path)
        if found is not None:
            return found.group(1).upper()
        if path.startswith(AGENT_PATHS):
            for name, value in scope.get("headers", []):
                if name.lower() == b"authorization":
                    scheme, _, token = value.decode("latin-1").partition(" ")
                    if scheme.lower() != "bearer":
                        return None
                    return self._table_of(token)
        return None

    def code_of_call(self, body: bytes) -> str | None:
        """The table a tool call is about (one JSON-RPC request): its seat token's table, or
        the ``code`` it joins; ``None`` for any other request (listing, creating, the
        protocol's own), which any process serves."""
        try:
            request = json.loads(body)
            arguments = request["params"]["arguments"] if request["method"] == "tools/call" else {}
        except (ValueError, TypeError, KeyError):
            return None
        if not isinstance(arguments, dict):
            return None
        token, code = arguments.get("token"), arguments.get("code")
        if isinstance(token, str):
            return self._table_of(token)
        if isinstance(code, str) and ROUTED.match(f"/ws/{code}"):
            return code.upper()
        return None

    def _table_of(self, token: str) -> str | None:
        try:
            return self.signer.read_seat(token.strip()).code.upper()
        except Exception:  # an unreadable token: the endpoint itself refuses it
            return None

    async def route(self, code: str) -> str | None:
        """The owner to send ``code``'s requests to; ``None`` when this process serves them
        (it owns the table, or took it now, or there is no such table: the endpoint says so).
        Waits for a dead owner's lease to run out. ``RefusedError("busy")`` when no owner is
        found in time."""
        node, clock = self.node, self.node.clock
        deadline = clock.monotonic() + node.ttl + REATTACH_SECONDS / 3
        while True:
            if node.owns(code):
                return None
            holder = await node.holder(code)
            if holder is None or holder.owner == node.owner:
                try:
                    await self.load(code)  # takes and loads it (None: no table)
                    return None
                except RefusedError as error:
                    if error.code != "elsewhere":
                        raise
            elif await node.alive(holder.owner):
                return holder.owner
            if clock.monotonic() > deadline:
                raise RefusedError("busy", f"table {code}: no server process answers for it")
            await clock.sleep(0.1)


TOO_MANY = "too many connections from this client"
"""Why a WebSocket past its client's cap is refused (as one process says it)."""


class OwnerRouting:
    """An ASGI middleware: a table's requests go to its owner (see the module's text).
    ``sockets`` counts each client's WebSockets on every process (``None``: no cap)."""

    def __init__(
        self,
        app: ASGIApp,
        router: Router,
        forward_http: ForwardHttp,
        relay_websocket: RelayWebSocket,
        sockets: RedisSockets | None = None,
    ) -> None:
        self.app = app
        self.router = router
        self.forward_http = forward_http
        self.relay_websocket = relay_websocket
        self.sockets = sockets

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        router = self.router
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        code = router.code_of(scope)
        limit = router.calls.get(scope["path"]) if scope["type"] == "http" else None
        if code is None and limit is not None:
            # A tool call names its table in its body: read (bounded), then replayed.
            head, receive = await _peek(receive, limit)
            if len(head) <= limit:
                code = router.code_of_call(head)
        if code is None:
            await self.app(scope, receive, send)
            return
        if scope.get(FORWARDED):  # sent here as the owner: still it?
            if router.node.owns(code):
                await self.app(scope, receive, send)
            else:
                await error_response(503, "busy", "the table moved: try again")(
                    scope, receive, send
                )
            return
        if scope["type"] == "websocket" and self.sockets is not None:
            who = client_address(scope.get("client"))
            if not await self.sockets.take(who):
                await WebSocket(scope, receive, send).close(1013, TOO_MANY)
                return
            try:
                await self._route(scope, receive, send, code)
            finally:
                await self.sockets.give_back(who)
            return
        await self._route(scope, receive, send, code)

    async def _route(self, scope: Scope, receive: Receive, send: Send, code: str) -> None:
        """Serves a table's request here, or sends it to the table's owner."""
        router = self.router
        try:
            owner = await router.route(code)
        except RefusedError as error:
            if scope["type"] == "websocket":
                await WebSocket(scope, receive, send).close(1013, error.message[:120])
            else:
                await error_response(503, error.code, error.message, **{"Retry-After": "1"})(
                    scope, receive, send
                )
            return
        if owner is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await self.relay_websocket(scope, receive, send, code, owner)
        else:
            body = await _body(receive)
            if not await self.forward_http(scope, body, send, code, owner):
                await self.app(scope, _replay(body), send)


async def _peek(receive: Receive, limit: int) -> tuple[bytes, Receive]:
    """Reads a request's body up to a little past ``limit`` bytes; that, and a ``receive``
    that gives the whole body again (what was read, then the rest)."""
    chunks: list[bytes] = []
    size = 0
    more = True
    while more and size <= limit:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks), _then(message, receive)
        chunks.append(message.get("body", b""))
        size += len(chunks[-1])
        more = bool(message.get("more_body", False))
    head = b"".join(chunks)
    if not more:
        return head, _replay(head)
    return head, _then({"type": "http.request", "body": head, "more_body": True}, receive)


def _then(first: Message, rest: Receive) -> Receive:
    given = False

    async def receive() -> Message:
        nonlocal given
        if given:
            return await rest()
        given = True
        return first

    return receive


async def _body(receive: Receive) -> bytes:
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replay(body: bytes) -> Receive:
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if sent:
            await asyncio.Event().wait()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return receive
