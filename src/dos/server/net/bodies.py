"""Every HTTP answer about a request's body is the server's JSON error body.

``BodyLimit`` holds each request to ``limit`` bytes of body: a declared ``Content-Length``
past it is answered at once, and a body that grows past it while it is read ends its
request, both with 413 ``too_big`` in the JSON error body (``dos.server.net.errors``) — where
the framework's own limit answers ``Content Too Large`` as plain text.

``JsonErrors`` wraps an endpoint the server does not write itself (the MCP SDK's): an error
answer it gives in another format (its plain-text 400 for a body not declared JSON, say) is
sent as the JSON error body with the same status, its text as the message.
"""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from dos.server.net.errors import ERROR_CODES, error_response


class _TooBigError(Exception):
    """The body grew past the limit while it was read."""


def _too_big(limit: int) -> str:
    return f"the body is over {limit} bytes"


class BodyLimit:
    """An ASGI middleware: request bodies of at most ``limit`` bytes, else 413 ``too_big``."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await error_response(413, "too_big", _too_big(self.limit))(scope, receive, send)
            return
        seen = 0
        started = False

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _TooBigError
            return message

        async def sending(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted, sending)
        except _TooBigError:
            if started:
                raise
            await error_response(413, "too_big", _too_big(self.limit))(scope, receive, send)


class JsonErrors:
    """An ASGI wrapper: the wrapped endpoint's error answers that are not JSON become the JSON
    error body, with the same status."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        start: Message | None = None
        held: list[bytes] = []

        async def sending(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                headers = Headers(raw=message.get("headers", []))
                media = headers.get("content-type", "")
                if message["status"] >= 400 and not media.startswith("application/json"):
                    start = message  # held back: the text becomes a JSON message
                    return
            elif message["type"] == "http.response.body" and start is not None:
                held.append(message.get("body", b""))
                if message.get("more_body", False):
                    return
                status = start["status"]
                text = b"".join(held).decode("utf-8", "replace").strip()[:200] or "refused"
                code = ERROR_CODES.get(status, "bad_request" if status < 500 else "internal")
                await error_response(status, code, text)(scope, receive, send)
                return
            await send(message)

        await self.app(scope, receive, sending)
