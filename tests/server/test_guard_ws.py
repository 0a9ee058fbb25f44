"""A WebSocket refused before it is accepted (``dos.server.net.guard.GuardedWebSockets``):
"try again later" (close code 1013: Redis away, no owner for the table, too many
connections) is answered 503 with ``Retry-After``, as an HTTP request would be, not uvicorn's
403, which says the client may not come in at all."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
import uvicorn
import websockets
from starlette.types import Receive, Scope, Send

from dos.server.net.guard import GuardedWebSockets


async def _refusing(scope: Scope, receive: Receive, send: Send) -> None:
    """Closes every WebSocket before accepting it: 1013 on ``/busy``, 4404 elsewhere."""
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    assert scope["type"] == "websocket"
    await receive()  # websocket.connect
    code = 1013 if scope["path"] == "/busy" else 4404
    await send({"type": "websocket.close", "code": code, "reason": "Redis did not answer"})


@pytest_asyncio.fixture
async def server() -> AsyncIterator[str]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(_refusing, ws=GuardedWebSockets, log_level="warning", lifespan="on")
    served = uvicorn.Server(config)
    task = asyncio.create_task(served.serve(sockets=[sock]))
    while not served.started:
        await asyncio.sleep(0.01)  # uvicorn says it started by this flag only
    yield f"ws://127.0.0.1:{port}"
    served.should_exit = True
    await task
    sock.close()


@pytest.mark.asyncio
async def test_a_websocket_refused_for_now_is_answered_503(server: str) -> None:
    with pytest.raises(websockets.InvalidStatus) as refused:
        async with websockets.connect(f"{server}/busy"):
            pass
    response = refused.value.response
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "1"
    body = json.loads(response.body)
    assert body == {"code": "busy", "message": "Redis did not answer", "field": None}


@pytest.mark.asyncio
async def test_a_websocket_refused_for_good_stays_403(server: str) -> None:
    with pytest.raises(websockets.InvalidStatus) as refused:
        async with websockets.connect(f"{server}/gone"):
            pass
    assert refused.value.response.status_code == 403
