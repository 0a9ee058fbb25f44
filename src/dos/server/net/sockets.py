"""A client's connection as the server's conversation reads and writes it: ``Socket``.

The conversation (``dos.server.http.conversation``) and a client's writer
(``dos.server.net.connections.Client``) ask three things of a connection: its next frame, to
send a text, to close. ``StarletteSocket`` is a WebSocket of this process's own clients; a
connection relayed from another process (``dos.cluster``) is a socket of its own kind, which
the same conversation holds.

>>> import asyncio
>>> class Scripted:
...     def __init__(self) -> None:
...         self.frames = ['{"type":"ping"}']
...     async def receive(self) -> dict[str, object]:
...         if self.frames:
...             return {"type": "websocket.receive", "text": self.frames.pop()}
...         return {"type": "websocket.disconnect", "code": 1001}
>>> async def read_all(socket: Socket) -> list[str | bytes]:
...     frames = []
...     try:
...         while True:
...             frames.append(await socket.receive())
...     except WebSocketDisconnect as left:
...         frames.append(f"left with {left.code}")
...     return frames
>>> asyncio.run(read_all(StarletteSocket(Scripted())))
['{"type":"ping"}', 'left with 1001']
"""

from __future__ import annotations

from typing import Protocol

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected


class Socket(Protocol):
    """One client's connection."""

    async def receive(self) -> str | bytes:
        """The client's next frame, text or bytes, waiting for it; ``WebSocketDisconnect``
        (with the close code) once the client left."""
        ...

    async def send_text(self, text: str) -> None:
        """Sends the client a text frame."""
        ...

    async def close(self, code: int, reason: str) -> None:
        """Closes the connection with ``code`` and ``reason``."""
        ...


class StarletteSocket:
    """``Socket`` over an accepted Starlette WebSocket."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket

    async def receive(self) -> str | bytes:
        """The next text or binary frame (see ``Socket``)."""
        message = await self.websocket.receive()
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000))
        text: str | None = message.get("text")
        if text is not None:
            return text
        data: bytes = message.get("bytes") or b""
        return data

    async def send_text(self, text: str) -> None:
        """Sends a text frame; ``WebSocketDisconnected`` when the connection is closed, by
        the application or by the server's protocol itself (a frame over the size limit:
        uvicorn refuses any send after its own close with a plain ``RuntimeError``)."""
        try:
            await self.websocket.send_text(text)
        except WebSocketDisconnected:
            raise
        except RuntimeError as error:
            raise WebSocketDisconnected(str(error)) from None

    async def close(self, code: int, reason: str) -> None:
        """Closes with ``code`` and ``reason``."""
        await self.websocket.close(code=code, reason=reason)
