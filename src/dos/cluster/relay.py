"""Any process serves any request: what is not its own table's goes to the table's owner.

In a server of many processes (``dos.cluster.node``) a request about a table — its HTTP
endpoints (``/api/tables/{code}...``, the agents' ``/api/agent/...`` by their seat token) and
its WebSocket (``/ws/{code}``) — may reach any process; no sticky sessions. ``OwnerRouting``
(an ASGI middleware) finds the table's owner (``Relay.route``): this process if it owns the
table or can take it (nobody does), else the process holding its lease.

* **HTTP** is forwarded whole over the bus (``RedisBus.forward``): the owner runs it through
  its own application and sends the response back.
* **A WebSocket** stays open here and is *relayed*: each frame of the client is forwarded to
  the owner, in order; the owner runs the very same conversation as for its own clients
  (``dos.server.conversation``) over a ``RemoteSocket``, whose frames are published on a
  stream of that connection (``Bus.publish``) that this process reads and sends on. A gap in
  that stream makes the relay ask a full ``sync`` for its client.
* **When the owner changes** (it died, stopped, was cut off, or handed its tables back) the
  relay notices — a forward nobody takes, the owner's close with ``MOVED``, or the lease's
  holder changing under its watch — and reattaches the connection to the new owner, saying
  the client's ``hello`` again: the client, still connected, gets a fresh welcome and state.
  An owner is a process *under an epoch*: the same process taking the table again (Redis
  lost its lease and it claimed it anew) holds a new table, whose conversations do not
  include the old one, so the relay reattaches there too.
* **An owner's frames are never dropped**: while Redis does not answer, a ``RemoteSocket``
  keeps trying to publish its frame (the conversation's writer waits, its queue bounded as
  for a slow client), so the frames reach the relay in order once Redis is back, the close
  that says the table moved included.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import re
import secrets
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected

from dos.agents.mcp_mount import MCP_BODY_MAX, MCP_PATH
from dos.cluster.bus import (
    BusError,
    BusUnavailableError,
    ForwardTimeoutError,
    Gap,
    NoOwnerError,
    StaleVersionError,
    Subscription,
    updates_key,
)
from dos.cluster.node import MOVED, RESTARTING, Node
from dos.server.connections import Client
from dos.server.conversation import converse
from dos.server.errors import error_response
from dos.server.http import Open
from dos.server.limits import client_address
from dos.server.logs import TABLE
from dos.server.refusals import RefusedError

if TYPE_CHECKING:
    from dos.server.service import Service

log = logging.getLogger(__name__)

ROUTED = re.compile(r"^/(?:ws|api/tables)/([A-Za-z0-9]{1,16})(?:/|$)")
"""The paths of one table: its WebSocket and its HTTP endpoints."""
AGENT_PATHS = "/api/agent/"
"""The agents' endpoints: their table is their seat token's."""

HTTP_SECONDS = 70.0
"""How long a forwarded HTTP request may take at its owner (an agent's long poll, 60 s)."""
TAKE_SECONDS = 1.0
"""How long a live owner takes to take a forwarded message, at most: past it, it is dead."""
FRAME_SECONDS = 10.0
"""How long a forwarded WebSocket frame may take at its owner."""
REATTACH_SECONDS = 15.0
"""How long a relay looks for a table's new owner before it gives its client up (1012)."""
WATCH_SECONDS = 1.0
"""How often a relay checks that its table's owner is still the one it relays to."""
SWEEP_SECONDS = 5.0
"""How often an owner looks for the relayed connections whose relaying process died."""
SEND_RETRY_SECONDS = 0.5
"""How long an owner's side waits before it tries a frame again that Redis did not take
(real time: it waits for Redis to come back)."""

# The times above, but for SEND_RETRY_SECONDS, are on the server's clock (``Node.clock``):
# the owner a relay looks for holds a lease that runs out on that clock, and the searches,
# watches and sweeps that wait for it wait on it too. What the bus and Redis time stays on
# real time: the forwards' timeouts (FRAME_SECONDS, TAKE_SECONDS, HTTP_SECONDS), the
# processes' ``alive`` keys the sweep reads (Redis expires them), and the expiry of a
# connection's stream once it ended.


SAFE_METHODS = ("GET", "HEAD")
"""Requests asked again of a table's next owner when its owner died answering them (they
change nothing: a look, a long poll)."""


class OwnerGoneError(Exception):
    """The owner a request was forwarded to died or lost the table before it replied."""


def stream_of(code: str, conn: str) -> str:
    """The bus's name for the frames of one relayed connection (its stream:
    ``dos.cluster.bus.updates_key``)."""
    return f"{code}:{conn}"


class Relay:
    """This process's side of the routing: finding owners, forwarding, relaying, and (as an
    owner) serving what others forward."""

    def __init__(self, node: Node, service: Service, connections: Open) -> None:
        self.node = node
        self.service = service
        self.connections = connections
        self.app: ASGIApp | None = None
        """The whole application, which runs the HTTP requests forwarded here."""
        self.remote: dict[str, RemoteSocket] = {}
        """The connections relayed to this process (as the owner), by connection id."""
        self.clock = node.clock
        """The server's clock (``Node.clock``): the searches for a table's owner, and the
        sweeps."""
        node.handler = self.handle
        node.on_lost.append(self._lost)
        self._sweeper: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Starts closing the relayed connections whose relaying process died."""
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper

    # --- which process ------------------------------------------------------------------------

    def code_of(self, scope: Scope) -> str | None:
        """The table a request is about, if any."""
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
                    try:
                        return self.service.signer.read_seat(token.strip()).code.upper()
                    except Exception:  # an unreadable token: the endpoint itself refuses it
                        return None
        return None

    def code_of_call(self, body: bytes) -> str | None:
        """The table an MCP tool call is about (``/mcp``, one JSON-RPC request): its seat
        token's table, or the ``code`` it joins; ``None`` for any other request (listing,
        creating, the protocol's own), which any process serves."""
        try:
            request = json.loads(body)
            arguments = request["params"]["arguments"] if request["method"] == "tools/call" else {}
        except (ValueError, TypeError, KeyError):
            return None
        if not isinstance(arguments, dict):
            return None
        token, code = arguments.get("token"), arguments.get("code")
        if isinstance(token, str):
            try:
                return self.service.signer.read_seat(token.strip()).code.upper()
            except Exception:  # an unreadable token: the tool itself refuses it
                return None
        if isinstance(code, str) and ROUTED.match(f"/ws/{code}"):
            return code.upper()
        return None

    async def route(self, code: str) -> str | None:
        """The owner to send ``code``'s requests to; ``None`` when this process serves them
        (it owns the table, or took it now, or there is no such table: the endpoint says so).
        Waits for a dead owner's lease to run out. ``RefusedError("busy")`` when no owner is
        found in time."""
        node, clock = self.node, self.clock
        deadline = clock.monotonic() + node.ttl + REATTACH_SECONDS / 3
        while True:
            if node.owns(code):
                return None
            holder = await node.holder(code)
            if holder is None or holder.owner == node.owner:
                try:
                    await self.service.table(code)  # takes and loads it (None: no table)
                    return None
                except RefusedError as error:
                    if error.code != "elsewhere":
                        raise
            elif await node.alive(holder.owner):
                return holder.owner
            if clock.monotonic() > deadline:
                raise RefusedError("busy", f"table {code}: no server process answers for it")
            await clock.sleep(0.1)

    # --- HTTP ---------------------------------------------------------------------------------

    async def forward_http(
        self, scope: Scope, body: bytes, send: Send, code: str, owner: str
    ) -> bool:
        """Forwards an HTTP request to ``owner`` and sends its response; ``False`` when this
        process turned out to be the owner (the caller runs the request here)."""
        headers = [
            [name.decode("latin-1"), value.decode("latin-1")]
            for name, value in scope.get("headers", [])
            if name.lower() != b"accept-encoding"  # compressed here, not twice
        ]
        client = scope.get("client") or ("", 0)
        message = {
            "kind": "http",
            "code": code,
            "method": scope["method"],
            "path": scope["path"],
            "query": scope.get("query_string", b"").decode("latin-1"),
            "headers": headers,
            "body": base64.b64encode(body).decode("ascii"),
            "client": [client[0], client[1]],
        }
        for _attempt in range(3):
            try:
                reply = await self._forward_watched(owner, code, message)
            except NoOwnerError:
                reply = {"moved": True}
            except OwnerGoneError:
                if scope["method"] not in SAFE_METHODS:  # it may have been done, or not
                    await error_response(
                        503,
                        "busy",
                        "the table's server stopped while answering: look, then try again",
                        **{"Retry-After": "1"},
                    )(scope, _no_body, send)
                    return True
                reply = {"moved": True}  # asked again of the next owner (a long poll too)
            except ForwardTimeoutError:
                await error_response(504, "busy", "the table's server did not answer in time")(
                    scope, _no_body, send
                )
                return True
            except BusError as error:
                await error_response(503, "busy", f"the servers' Redis did not answer ({error})")(
                    scope, _no_body, send
                )
                return True
            if reply.get("moved"):
                found = await self.route(code)
                if found is None:
                    return False
                owner = found
                continue
            await send(
                {
                    "type": "http.response.start",
                    "status": reply["status"],
                    "headers": [
                        (k.encode("latin-1"), v.encode("latin-1")) for k, v in reply["headers"]
                    ],
                }
            )
            await send({"type": "http.response.body", "body": base64.b64decode(reply["body"])})
            return True
        await error_response(503, "busy", "the table moved between server processes: try again")(
            scope, _no_body, send
        )
        return True

    async def _forward_watched(self, owner: str, code: str, message: Any) -> dict[str, Any]:
        """Forwards ``message`` to ``owner`` and waits for its reply, watching meanwhile
        that ``owner`` is alive and still holds the table: ``OwnerGoneError`` as soon as
        it is not (died after taking it, or lost the table), rather than waiting out
        ``HTTP_SECONDS`` for a reply that will never come."""
        forward = asyncio.ensure_future(
            self.node.bus.forward(
                owner,
                f"{code}#http:{secrets.token_hex(6)}",  # requests need not wait on each other
                message,
                timeout=HTTP_SECONDS,
                take_timeout=TAKE_SECONDS,
            )
        )
        try:
            while True:
                done, _ = await asyncio.wait({forward}, timeout=WATCH_SECONDS)
                if done:
                    reply: dict[str, Any] = forward.result()
                    return reply
                if not await self._still_owner(code, owner):
                    raise OwnerGoneError(f"table {code}: owner {owner} is gone")
        finally:
            if not forward.done():
                forward.cancel()
                with contextlib.suppress(asyncio.CancelledError, BusError):
                    await forward

    async def _still_owner(self, code: str, owner: str) -> bool:
        """Whether ``owner`` is up and no other process holds ``code``'s lease (a lease
        nobody holds may be one its owner is taking again in place; Redis away: assumed
        so)."""
        try:
            holder = await self.node.holder(code)
        except RefusedError:
            return True
        if holder is not None and holder.owner != owner:
            return False
        return await self.node.alive(owner)

    async def _run_http(self, message: dict[str, Any]) -> dict[str, Any]:
        """Runs a forwarded HTTP request here; its response as JSON."""
        assert self.app is not None
        scope: Scope = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.3"},
            "http_version": "1.1",
            "method": message["method"],
            "scheme": "http",
            "path": message["path"],
            "raw_path": message["path"].encode("utf-8"),
            "root_path": "",
            "query_string": message["query"].encode("latin-1"),
            "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in message["headers"]],
            "client": tuple(message["client"]),
            "server": None,
            "dos.forwarded": True,
        }
        body = base64.b64decode(message["body"])
        sent = False

        async def receive() -> Message:
            nonlocal sent
            if sent:
                await asyncio.Event().wait()  # nothing more: the client waits for the answer
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        status = 500
        headers: list[list[str]] = []
        chunks: list[bytes] = []

        async def send(event: Message) -> None:
            nonlocal status, headers
            if event["type"] == "http.response.start":
                status = event["status"]
                headers = [
                    [k.decode("latin-1"), v.decode("latin-1")] for k, v in event.get("headers", [])
                ]
            elif event["type"] == "http.response.body":
                chunks.append(event.get("body", b""))

        await self.app(scope, receive, send)
        return {
            "status": status,
            "headers": headers,
            "body": base64.b64encode(b"".join(chunks)).decode("ascii"),
        }

    # --- what others forward here --------------------------------------------------------------

    async def handle(self, key: str, message: Any) -> Any:
        """A message forwarded to this process (``Node.handler``)."""
        kind = message.get("kind")
        code = message.get("code", "")
        if kind == "http":
            if not self.node.owns(code):
                return {"moved": True}
            return await self._run_http(message)
        if kind == "ws_open":
            return await self._open(message)
        remote = self.remote.get(message.get("conn", ""))
        if kind == "ws_frame":
            if remote is None or remote.ended:
                return {"moved": True}
            remote.put(message["frame"])
            return {"ok": True}
        if kind == "ws_close":
            if remote is not None:
                remote.disconnect()
            return {"ok": True}
        raise ValueError(f"unknown forwarded message {kind!r}")

    async def _open(self, message: dict[str, Any]) -> dict[str, Any]:
        code, conn = message["code"], message["conn"]
        table = self.service.tables.get(code) if self.node.owns(code) else None
        if table is None:
            return {"moved": True}
        remote = RemoteSocket(self.node, code, conn, message["relay"])
        client = Client(remote, message["client"], self.service.counters)  # type: ignore[arg-type]
        remote.peer = client
        self.remote[conn] = remote
        client.start()
        remote.task = asyncio.get_running_loop().create_task(self._converse(remote, client))
        held = self.node.leases.get(code)
        return {"ok": True, "epoch": None if held is None else held[0].epoch}

    async def _converse(self, remote: RemoteSocket, client: Client) -> None:
        """The conversation of a relayed connection, as ``/ws/{code}`` holds it for a direct
        one."""
        TABLE.set(remote.code)
        table = self.service.tables.get(remote.code)
        metrics = self.service.metrics
        metrics.connections.inc()
        try:
            if table is not None:
                await converse(self.service, table, client)
        except WebSocketDisconnect:
            pass
        except Exception:
            log.exception("table %s: a relayed connection failed", remote.code)
        finally:
            metrics.connections.dec()
            if table is not None:
                table.detach(client)
            if client.closed:
                await client.drain(1.0)  # its close reaches the relay
            await client.stop()
            remote.ended = True
            self.remote.pop(remote.conn, None)
            with contextlib.suppress(Exception):
                await self.node.redis.expire(updates_key(stream_of(remote.code, remote.conn)), 60)

    def _lost(self, code: str) -> None:
        """The table left this process: its relayed connections end (after their ``MOVED``
        close, sent by the table's own closing of its clients)."""
        for remote in list(self.remote.values()):
            if remote.code == code:
                remote.disconnect()

    async def _sweep(self) -> None:
        """Ends the relayed connections whose relaying process is gone, every
        ``SWEEP_SECONDS``."""
        missing: set[str] = set()
        while True:
            await self.clock.sleep(SWEEP_SECONDS)
            missing = await self.sweep(missing)

    async def sweep(self, missing: set[str]) -> set[str]:
        """One sweep: ends the relayed connections of the processes not alive now nor at the
        sweep before (``missing``); returns those not alive now. One look is not enough: a
        moment after Redis lost its data no process's ``alive`` key is there, until each
        writes it again. Each side ended says so on its stream first (``RESTARTING``): a
        relay alive after all reattaches its client rather than relay a side that is gone.
        This process's own relays are alive."""
        relays = {r.relay for r in self.remote.values() if r.relay != self.node.owner}
        gone = {relay for relay in relays if not await self.node.alive(relay)}
        for remote in list(self.remote.values()):
            if remote.relay in gone & missing:
                remote.end(RESTARTING, "its relaying server process is gone")
        return gone

    # --- relaying a client here ---------------------------------------------------------------

    async def relay_websocket(
        self, scope: Scope, receive: Receive, send: Send, code: str, owner: str
    ) -> None:
        """Holds a client's WebSocket here and relays it to the table's owner."""
        websocket = WebSocket(scope, receive, send)
        who = client_address(websocket.client)
        if not self.connections.take(who):
            await websocket.close(1013, "too many connections from this client")
            return
        try:
            await websocket.accept()
            if not self.service.counters.allow("connects", who):
                await websocket.close(4429, "too many new connections: try again later")
                return
            await RelayedConnection(self, websocket, code, owner, who).run()
        finally:
            self.connections.give_back(who)


async def _no_body() -> Message:
    return {"type": "http.request", "body": b"", "more_body": False}


class RemoteSocket:
    """At the owner: the WebSocket of a client relayed by another process, as the
    conversation sees it (``receive``, ``send_text``, ``close``)."""

    def __init__(self, node: Node, code: str, conn: str, relay: str) -> None:
        self.node = node
        self.code = code
        self.conn = conn
        self.relay = relay
        """The relaying process's owner id."""
        self.client = None
        """What a WebSocket says of its client's address (the owner knows none)."""
        self.peer: Client | None = None
        """The owner's client of this connection (its conversation's)."""
        self.ended = False
        self.task: asyncio.Task[None] | None = None
        self._inbox: asyncio.Queue[Message] = asyncio.Queue()
        self._sent = 0

    def put(self, frame: dict[str, Any]) -> None:
        if "bytes" in frame:
            data = base64.b64decode(frame["bytes"])
            self._inbox.put_nowait({"type": "websocket.receive", "bytes": data})
        else:
            self._inbox.put_nowait({"type": "websocket.receive", "text": frame.get("text", "")})

    def disconnect(self) -> None:
        """Ends the conversation as a client that left (the relay let go of this side)."""
        self._inbox.put_nowait({"type": "websocket.disconnect", "code": 1001})

    def end(self, code: int, reason: str) -> None:
        """Ends the conversation from the owner's end, its close (``code``) sent after
        what is queued: its relay, if alive, learns of it (never a side gone silently)."""
        if self.peer is not None:
            self.peer.close(code, reason)
        self.disconnect()

    async def receive(self) -> Message:
        return await self._inbox.get()

    async def send_text(self, text: str) -> None:
        await self._publish({"t": text})

    async def close(self, code: int = 1000, reason: str = "") -> None:
        await self._publish({"close": [code, reason]})

    async def _publish(self, payload: dict[str, Any]) -> None:
        """Publishes the next frame for the relay, trying again while Redis does not take
        it, until it does or the conversation ends (the writer is cancelled then): a frame
        given up would leave the relay's client silent, its stream without a gap to show it
        (nothing after it either), and its owner unchanged."""
        self._sent += 1
        failures = 0
        while True:
            try:
                await self.node.bus.publish(stream_of(self.code, self.conn), self._sent, payload)
            except BusUnavailableError as error:
                if failures == 0:
                    log.warning("table %s: a relayed frame waits for Redis (%s)", self.code, error)
                failures += 1
                await asyncio.sleep(SEND_RETRY_SECONDS)
                continue
            except StaleVersionError:
                # An earlier try was stored after all, its answer lost with Redis: sent.
                if failures == 0:
                    raise
                log.info("table %s: a relayed frame was stored by an earlier try", self.code)
                return
            if failures:
                log.info("table %s: a relayed frame went out after %d tries", self.code, failures)
            return


class RelayedConnection:
    """Here: a client's WebSocket whose table another process owns, relayed to it."""

    def __init__(self, relay: Relay, websocket: WebSocket, code: str, owner: str, who: str):
        self.relay = relay
        self.node = relay.node
        self.clock = relay.node.clock
        """The server's clock: the search for a new owner, and the watch of the lease."""
        self.websocket = websocket
        self.code = code
        self.owner = owner
        self.who = who
        self.conn = ""
        self.epoch: int | None = None
        """The epoch under which ``owner`` held the table when this connection was opened
        there (``None``: not told)."""
        self.hello: dict[str, Any] | None = None
        """The client's hello, said again to a new owner."""
        self.subscription: Subscription | None = None
        self.done = asyncio.Event()
        self._pump: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._lock = asyncio.Lock()
        self._generation = 0
        self.failed = False
        """Whether a task of this connection's failed (its client is told to reconnect)."""

    async def run(self) -> None:
        TABLE.set(self.code)
        watch = self._spawn(self._watch())
        reader: asyncio.Task[None] | None = None
        try:
            if not await self._attach(self.owner):
                await self._reattach(self._generation)
            # The client's frames from now on: the first goes to a side already open.
            reader = self._spawn(self._read())
            await asyncio.wait(
                [reader, asyncio.ensure_future(self.done.wait())],
                return_when=asyncio.FIRST_COMPLETED,
            )
        finally:
            # Ended: no task of this connection may attach it anywhere again (a reattach
            # under way would say the client's hello for a client that is gone, and replace
            # the seat's newer connection).
            self.done.set()
            tasks = [*self._tasks, watch]
            tasks += [task for task in (reader, self._pump) if task is not None]
            for task in tasks:
                if task is not asyncio.current_task():
                    task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await self._detach()
            with contextlib.suppress(Exception):
                if self.failed:
                    await self.websocket.close(RESTARTING, "the table's server process failed")
                else:
                    await self.websocket.close(1000)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """A task of this connection's, cancelled when it ends."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._ended)
        return task

    def _ended(self, task: asyncio.Task[None]) -> None:
        """A task of this connection's ended. One that failed ends the connection, its
        client told to come again (``RESTARTING``): a connection whose frames no longer
        go through, or no longer come back, must not look alive."""
        self._tasks.discard(task)
        if task.cancelled() or (error := task.exception()) is None:
            return
        # A socket gone (its client left, or this connection closed it) is no failure.
        if not isinstance(error, WebSocketDisconnect | WebSocketDisconnected):
            log.error(
                "table %s: a relayed connection failed; its client reconnects",
                self.code,
                exc_info=error,
            )
            self.failed = True
        self.done.set()

    async def _read(self) -> None:
        """The client's frames, forwarded in order."""
        try:
            while True:
                message = await self.websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if message.get("text") is not None:
                    frame: dict[str, Any] = {"text": message["text"]}
                    if self.hello is None and _is_hello(message["text"]):
                        self.hello = frame
                else:
                    data = message.get("bytes") or b""
                    frame = {"bytes": base64.b64encode(data).decode("ascii")}
                await self._send(frame)
        finally:
            self.done.set()

    async def _forward(self, owner: str, conn: str, frame: dict[str, Any]) -> dict[str, Any]:
        """Forwards a frame of the client to ``owner``'s side ``conn``; the owner's reply
        (``moved``: not taken; ``handled: maybe``: perhaps taken, but no answer came)."""
        try:
            reply: dict[str, Any] = await self.node.bus.forward(
                owner,
                f"{self.code}#{conn}",
                {"kind": "ws_frame", "code": self.code, "conn": conn, "frame": frame},
                timeout=FRAME_SECONDS,
                take_timeout=TAKE_SECONDS,
            )
        except NoOwnerError:
            reply = {"moved": True}  # never handled: said again to the next owner
        except BusError:
            reply = {"moved": True, "handled": "maybe"}
        return reply

    async def _send(self, frame: dict[str, Any], resend: bool = True) -> None:
        generation = self._generation
        reply = await self._forward(self.owner, self.conn, frame)
        if reply.get("moved"):
            await self._reattach(generation)
            if resend and "handled" not in reply and frame is not self.hello:
                await self._send(frame, resend=False)

    async def _attach(self, owner: str) -> bool:
        """Opens this connection at ``owner`` and says the client's hello there, if it said
        one; whether that took. A connection that ended meanwhile, or whose attach its end
        cancelled, is closed at ``owner`` again and never says hello there."""
        conn = secrets.token_hex(8)
        subscription = await self.node.bus.subscribe(stream_of(self.code, conn), after=0)
        try:
            reply = await self.node.bus.forward(
                owner,
                f"{self.code}#{conn}",
                {
                    "kind": "ws_open",
                    "code": self.code,
                    "conn": conn,
                    "client": self.who,
                    "relay": self.node.owner,
                },
                timeout=FRAME_SECONDS,
                take_timeout=TAKE_SECONDS,
            )
        except BusError:
            reply = {"moved": True}
        except asyncio.CancelledError:
            self._close_later(owner, conn)
            await subscription.close()
            raise
        if reply.get("moved") or self.done.is_set():
            self._close_later(owner, conn)
            await subscription.close()
            return False
        # The former side first: its seat is replaced by this one's hello (4000), which
        # its client must never see.
        await self._detach()
        self.owner, self.conn, self.subscription = owner, conn, subscription
        self.epoch = reply.get("epoch")
        self._pump = self._spawn(self._pump_frames(subscription))
        if self.hello is not None:
            # Not through ``_send``: this runs under the reattach's lock.
            return not (await self._forward(owner, conn, self.hello)).get("moved")
        return True

    async def _detach(self) -> None:
        """Lets go of the current owner's side (it ends that connection)."""
        subscription, self.subscription = self.subscription, None
        pump, self._pump = self._pump, None
        if pump is not None and pump is not asyncio.current_task():
            pump.cancel()
        if subscription is not None:
            await subscription.close()
            self._close_later(self.owner, self.conn)

    def _close_later(self, owner: str, conn: str) -> None:
        """Closes the connection's side ``conn`` at ``owner``, without waiting: a dead owner
        would hold the move up for nothing."""
        task = asyncio.get_running_loop().create_task(self._close_at(owner, conn))
        _CLOSING.add(task)
        task.add_done_callback(_CLOSING.discard)

    async def _close_at(self, owner: str, conn: str) -> None:
        with contextlib.suppress(Exception):
            await self.node.bus.forward(
                owner,
                f"{self.code}#{conn}",
                {"kind": "ws_close", "code": self.code, "conn": conn},
                timeout=2.0,
                take_timeout=TAKE_SECONDS,
            )

    async def _reattach(self, generation: int) -> None:
        """Finds the table's owner again and opens this connection there (once for all
        who noticed the change: ``generation``); gives the client up after
        ``REATTACH_SECONDS`` (1012: it reconnects)."""
        async with self._lock:
            if generation != self._generation:
                return
            self._generation += 1
            clock = self.clock
            deadline = clock.monotonic() + REATTACH_SECONDS
            while clock.monotonic() < deadline and not self.done.is_set():
                try:
                    owner = await self.relay.route(self.code) or self.node.owner
                except RefusedError:
                    await clock.sleep(0.2)
                    continue
                if await self._attach(owner):
                    log.info("table %s: a relayed connection moved to %s", self.code, owner)
                    return
                await clock.sleep(0.1)
            with contextlib.suppress(Exception):
                await self.websocket.close(RESTARTING, "the table's server process changed")
            self.done.set()

    async def _pump_frames(self, subscription: Subscription) -> None:
        """The owner's frames for this client, sent on in order."""
        async for item in subscription:
            if isinstance(item, Gap):  # frames lost: a full state brings the client back
                await self._send({"text": json.dumps({"type": "sync"})}, resend=False)
                continue
            payload = item.payload
            if "t" in payload:
                await self.websocket.send_text(payload["t"])
                continue
            code, reason = payload["close"]
            if code in (MOVED, RESTARTING):
                self._spawn(self._reattach(self._generation))
            else:
                with contextlib.suppress(Exception):
                    await self.websocket.close(code, reason)
                self.done.set()
            return

    async def _watch(self) -> None:
        """Reattaches when the table's lease is no longer held by the owner relayed to."""
        while not self.done.is_set():
            await self.clock.sleep(WATCH_SECONDS)
            try:
                holder = await self.node.holder(self.code)
            except RefusedError:
                continue
            if holder is None or holder.owner != self.owner or self._other_epoch(holder.epoch):
                await self._reattach(self._generation)

    def _other_epoch(self, epoch: int) -> bool:
        """Whether the owner holds the table under another epoch than when this connection
        was opened there: it took the table again, and the side opened for the former table
        is gone with it (its close perhaps lost with Redis)."""
        return self.epoch is not None and epoch != self.epoch


_CLOSING: set[asyncio.Task[None]] = set()
"""The closes under way of owners' sides that relays let go (kept from the collector)."""


def _is_hello(text: str) -> bool:
    with contextlib.suppress(ValueError, TypeError, AttributeError):
        return bool(json.loads(text).get("type") == "hello")
    return False


class OwnerRouting:
    """An ASGI middleware: a table's requests go to its owner (see the module's text)."""

    def __init__(self, app: ASGIApp, relay: Relay | None) -> None:
        self.app = app
        self.relay = relay

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        relay = self.relay
        if relay is None or scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        code = relay.code_of(scope)
        if code is None and scope["type"] == "http" and scope["path"] == MCP_PATH:
            # An MCP tool call names its table in its body: read (bounded), then replayed.
            head, receive = await _peek(receive, MCP_BODY_MAX)
            if len(head) <= MCP_BODY_MAX:
                code = relay.code_of_call(head)
        if code is None:
            await self.app(scope, receive, send)
            return
        if scope.get("dos.forwarded"):  # sent here as the owner: still it?
            if relay.node.owns(code):
                await self.app(scope, receive, send)
            else:
                await error_response(503, "busy", "the table moved: try again")(
                    scope, receive, send
                )
            return
        try:
            owner = await relay.route(code)
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
            await relay.relay_websocket(scope, receive, send, code, owner)
        else:
            body = await _body(receive)
            if not await relay.forward_http(scope, body, send, code, owner):
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
