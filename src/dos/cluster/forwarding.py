"""HTTP requests about a table another process owns: forwarded whole to the owner, which runs
them through its own application and sends the response back.

``Forwarder.forward_http`` is the relaying process's side: the request, read whole, goes to
the owner as an ``HttpRequest`` (``dos.cluster.to_owner``), and its ``HttpResponse``
(``dos.cluster.from_owner``) is sent to the client. While it waits it watches that the owner
is alive and still holds the table: an owner that died or lost the table while answering is
noticed within ``WATCH_SECONDS``, and the request asked again of the next owner if it changes
nothing (``SAFE_METHODS``: a look, a long poll), else answered 503 (it may have been done).
``run_http`` is the owner's side.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import secrets
from typing import TYPE_CHECKING

from starlette.types import ASGIApp, Message, Scope, Send

from dos.cluster.frames import FrameError
from dos.cluster.from_owner import HttpReply, HttpResponse, Moved, Refused, decode_http_reply
from dos.cluster.lease_watch import WATCH_SECONDS
from dos.cluster.relayed import TAKE_SECONDS, Route
from dos.cluster.to_owner import HttpRequest
from dos.server.hosting.bus import BusError, ForwardTimeoutError, NoOwnerError
from dos.server.net.errors import error_response
from dos.server.protocol.refusals import RefusedError

if TYPE_CHECKING:
    from dos.cluster.node import Node

HTTP_SECONDS = 70.0
"""How long a forwarded HTTP request may take at its owner (an agent's long poll, 60 s)."""
ATTEMPTS = 3
"""How many owners one request is forwarded to, one after the other, as the table moves."""

SAFE_METHODS = ("GET", "HEAD")
"""Requests asked again of a table's next owner when its owner died answering them (they
change nothing: a look, a long poll)."""

FORWARDED = "dos.forwarded"
"""The key, in the scope of a request the owner runs for another process, that says so."""


class OwnerGoneError(Exception):
    """The owner a request was forwarded to died or lost the table before it replied."""


def http_request(scope: Scope, body: bytes, code: str) -> HttpRequest:
    """The HTTP request of ``scope`` with its ``body``, about table ``code``, as the owner is
    sent it (``Accept-Encoding`` left out: a response is compressed by the process that
    sends it to the client, not twice)."""
    headers = [
        (name.decode("latin-1"), value.decode("latin-1"))
        for name, value in scope.get("headers", [])
        if name.lower() != b"accept-encoding"
    ]
    client = scope.get("client") or ("", 0)
    return HttpRequest(
        code=code,
        method=scope["method"],
        path=scope["path"],
        query=scope.get("query_string", b"").decode("latin-1"),
        headers=headers,
        body=base64.b64encode(body).decode("ascii"),
        client=(client[0], client[1]),
    )


class Forwarder:
    """This process's side of the HTTP requests it forwards (see the module's text)."""

    def __init__(self, node: Node, route: Route) -> None:
        self.node = node
        self.route = route

    async def forward_http(
        self, scope: Scope, body: bytes, send: Send, code: str, owner: str
    ) -> bool:
        """Forwards an HTTP request to ``owner`` and sends its response; ``False`` when this
        process turned out to be the owner (the caller runs the request here)."""
        request = http_request(scope, body, code)
        for _attempt in range(ATTEMPTS):
            try:
                reply = await self._forward_watched(owner, code, request)
            except NoOwnerError:
                reply = Moved()
            except OwnerGoneError:
                if scope["method"] not in SAFE_METHODS:  # it may have been done, or not
                    await _refuse(
                        scope,
                        send,
                        503,
                        "the table's server stopped while answering: look, then try again",
                        retry=True,
                    )
                    return True
                reply = Moved()  # asked again of the next owner (a long poll too)
            except ForwardTimeoutError:
                await _refuse(scope, send, 504, "the table's server did not answer in time")
                return True
            except BusError as error:
                await _refuse(scope, send, 503, f"the servers' Redis did not answer ({error})")
                return True
            except FrameError as error:
                await _refuse(scope, send, 502, f"the table's server answered {error}")
                return True
            if isinstance(reply, Moved):
                found = await self.route(code)
                if found is None:
                    return False
                owner = found
                continue
            if isinstance(reply, Refused):
                await _refuse(scope, send, 502, f"the table's server refused: {reply.refused}")
                return True
            start: Message = {
                "type": "http.response.start",
                "status": reply.status,
                "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in reply.headers],
            }
            await send(start)
            await send({"type": "http.response.body", "body": reply.content})
            return True
        await _refuse(scope, send, 503, "the table moved between server processes: try again")
        return True

    async def _forward_watched(self, owner: str, code: str, request: HttpRequest) -> HttpReply:
        """Forwards ``request`` to ``owner`` and waits for its reply, watching meanwhile
        that ``owner`` is alive and still holds the table: ``OwnerGoneError`` as soon as
        it is not (died after taking it, or lost the table), rather than waiting out
        ``HTTP_SECONDS`` for a reply that will never come."""
        forward = asyncio.ensure_future(
            self.node.bus.forward(
                owner,
                f"{code}#http:{secrets.token_hex(6)}",  # requests need not wait on each other
                request.encode(),
                timeout=HTTP_SECONDS,
                take_timeout=TAKE_SECONDS,
            )
        )
        try:
            while True:
                done, _ = await asyncio.wait({forward}, timeout=WATCH_SECONDS)
                if done:
                    return decode_http_reply(forward.result())
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


async def _refuse(
    scope: Scope, send: Send, status: int, message: str, *, retry: bool = False
) -> None:
    """Answers the request ``status`` with a ``busy`` error (``Retry-After: 1`` if
    ``retry``)."""
    headers = {"Retry-After": "1"} if retry else {}
    await error_response(status, "busy", message, **headers)(scope, no_body, send)


async def no_body() -> Message:
    """A request's end, for a response sent without reading it."""
    return {"type": "http.request", "body": b"", "more_body": False}


async def run_http(app: ASGIApp, request: HttpRequest) -> HttpResponse:
    """Runs a request forwarded here through ``app`` (marked ``FORWARDED`` in its scope);
    its response."""
    scope: Scope = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": request.method,
        "scheme": "http",
        "path": request.path,
        "raw_path": request.path.encode("utf-8"),
        "root_path": "",
        "query_string": request.query.encode("latin-1"),
        "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in request.headers],
        "client": request.client,
        "server": None,
        FORWARDED: True,
    }
    body = request.content
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if sent:
            await asyncio.Event().wait()  # nothing more: the client waits for the answer
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    status = 500
    headers: list[tuple[str, str]] = []
    chunks: list[bytes] = []

    async def send(event: Message) -> None:
        nonlocal status, headers
        if event["type"] == "http.response.start":
            status = event["status"]
            headers = [
                (k.decode("latin-1"), v.decode("latin-1")) for k, v in event.get("headers", [])
            ]
        elif event["type"] == "http.response.body":
            chunks.append(event.get("body", b""))

    await app(scope, receive, send)
    return HttpResponse.of(status, headers, b"".join(chunks))
