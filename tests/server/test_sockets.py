"""A WebSocket as the server reads and writes it (``dos.server.net.sockets.StarletteSocket``):
sending on a connection the server's protocol already closed (a frame too big, 1009) says the
client is gone (``WebSocketDisconnected``), as sending after the application's own close
does, never a failure of another kind (which a relay logs with its traceback)."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnected

from dos.server.net.sockets import StarletteSocket

pytestmark = pytest.mark.asyncio


class ClosedByTheProtocol:
    """A Starlette WebSocket whose connection uvicorn closed itself (a frame over the size
    limit): it refuses any send as uvicorn does."""

    async def send_text(self, data: str) -> None:
        raise RuntimeError(
            "Unexpected ASGI message 'websocket.send', after sending 'websocket.close'."
        )

    async def receive(self) -> dict[str, Any]:
        return {"type": "websocket.disconnect", "code": 1009}


async def test_sending_on_a_connection_the_protocol_closed_says_the_client_is_gone() -> None:
    socket = StarletteSocket(ClosedByTheProtocol())  # type: ignore[arg-type]
    with pytest.raises(WebSocketDisconnected):
        await socket.send_text('{"type":"pong","id":null}')
