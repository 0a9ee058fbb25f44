"""The HTTP connection guard: a deadline for each request, and a cap on connections per client.

uvicorn reads requests as they come, without a deadline: a client that sends half a request
holds its connection (and a file descriptor) for ever. ``guarded_protocol`` returns uvicorn's
httptools protocol with two additions:

* a request not read whole within ``header_seconds`` of its first byte (or of the
  connection's opening) is answered 408 and the connection closed;
* a client (network address) holding ``client_connections`` connections already gets its new
  one closed at once. WebSockets count too: ``Open`` is shared with the WebSocket endpoint.

The overall cap is uvicorn's own ``limit_concurrency`` (503 past it). ``GuardedWebSockets``
closes a connection whose frame is too big with its close code, not a reset, and answers a
WebSocket refused before it is accepted with "try again later" (1013: Redis away, no owner
for its table, too many connections) 503 with ``Retry-After``, as an HTTP request is
answered, where uvicorn answers every refusal 403 (which says: never come back).
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from typing import Any

from uvicorn._types import ASGISendEvent
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


class Open:
    """Connections open per client: HTTP ones (the protocol) and WebSockets (the endpoint)."""

    def __init__(self, cap: int | None) -> None:
        self.cap = cap
        self._count: Counter[str] = Counter()

    def take(self, client: str) -> bool:
        """Counts a new connection of ``client``; ``False`` (not counted) when over the cap."""
        if self.cap is not None and self._count[client] >= self.cap:
            return False
        self._count[client] += 1
        return True

    def give_back(self, client: str) -> None:
        """Forgets one connection of ``client``."""
        self._count[client] -= 1
        if self._count[client] <= 0:
            del self._count[client]

    def __getitem__(self, client: str) -> int:
        return self._count[client]


_TIMEOUT = b"HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-length: 0\r\n\r\n"


def guarded_protocol(open_: Open, header_seconds: float | None) -> type[HttpToolsProtocol]:
    """uvicorn's httptools protocol with a request deadline and the per-client cap."""

    class Guarded(HttpToolsProtocol):
        _guard_client = ""
        _guard_counted = False
        _guard_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._guard_client = self.client[0] if self.client else ""
            if not open_.take(self._guard_client):
                transport.close()
                return
            self._guard_counted = True
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            self._release()
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            if self._guard_timer is None:
                self._arm()

        def on_message_complete(self) -> None:
            self._disarm()
            super().on_message_complete()

        def handle_websocket_upgrade(self) -> None:
            # The WebSocket endpoint counts the connection from here on.
            self._disarm()
            self._release()
            super().handle_websocket_upgrade()

        def _arm(self) -> None:
            if header_seconds is not None:
                self._guard_timer = self.loop.call_later(header_seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._guard_timer is not None:
                self._guard_timer.cancel()
                self._guard_timer = None

        def _release(self) -> None:
            if self._guard_counted:
                self._guard_counted = False
                open_.give_back(self._guard_client)

        def _too_slow(self) -> None:
            self._guard_timer = None
            if not self.transport.is_closing():
                if self.cycle is None or self.cycle.response_complete:
                    self.transport.write(_TIMEOUT)
                self.transport.close()

    return Guarded


TRY_AGAIN_LATER = 1013
"""The WebSocket close code of a refusal for now (RFC 6455: "Try Again Later")."""


def _refused_for_now(reason: str) -> list[ASGISendEvent]:
    """The HTTP answer to a WebSocket refused for now, before it was accepted: 503 ``busy``,
    the body an error as every route's (``dos.server.net.errors``)."""
    body = json.dumps({"code": "busy", "message": reason, "field": None}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", b"1"),
    ]
    return [
        {"type": "websocket.http.response.start", "status": 503, "headers": headers},
        {"type": "websocket.http.response.body", "body": body, "more_body": False},
    ]


DRAIN_SECONDS = 1.0
"""After refusing a frame, how long the connection waits for more of it before closing."""


class GuardedWebSockets(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (websockets, sans-I/O), closing cleanly on a refused frame.

    A frame over the size limit makes the parser fail and uvicorn send the close frame (1009)
    and close the socket at once, while the rest of the frame is still arriving: the kernel
    then resets the connection and the client never reads the close frame. Here the rest of
    the frame is read and dropped, and the socket closed once the client has stopped sending
    (or closed its side).
    """

    _draining = False
    _drain_timer: asyncio.TimerHandle | None = None

    async def send(self, message: ASGISendEvent) -> None:
        """The application's message; a close before the handshake with 1013 becomes 503."""
        if (
            message["type"] == "websocket.close"
            and not self.handshake_complete
            and self.initial_response is None
            and message.get("code") == TRY_AGAIN_LATER
        ):
            for answer in _refused_for_now(str(message.get("reason") or "try again later")):
                await super().send(answer)
            return
        await super().send(message)

    def handle_parser_exception(self) -> None:
        assert self.conn.close_sent is not None
        self.queue.put_nowait(
            {
                "type": "websocket.disconnect",
                "code": self.conn.close_sent.code,
                "reason": self.conn.close_sent.reason,
            }
        )
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        self._draining = True
        self._rearm()

    def data_received(self, data: bytes) -> None:
        if self._draining:
            self._rearm()  # the rest of the refused frame, or the client's close: dropped
            return
        super().data_received(data)

    def eof_received(self) -> None:
        if self._draining:
            self._close()

    def _rearm(self) -> None:
        if self._drain_timer is not None:
            self._drain_timer.cancel()
        self._drain_timer = self.loop.call_later(DRAIN_SECONDS, self._close)
        self.close_timer = self._drain_timer  # uvicorn leaves the socket to it when the app ends

    def _close(self) -> None:
        if self._drain_timer is not None:
            self._drain_timer.cancel()
            self._drain_timer = None
        self.close_timer = None
        if not self.transport.is_closing():
            self.transport.close()
