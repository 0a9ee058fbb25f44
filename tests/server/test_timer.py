"""The turn timer: a player who runs out of time, or leaves, is played by a stand-in bot after
the grace period, and takes the seat back.

The server runs in this process on a ``ManualClock``: the tests move it past the turn and the
grace instead of waiting for them. Its connections are ``Client``s on a socket that keeps what
it is sent; what a WebSocket would say (``start``, ``back``, a closed connection) is said to
the table as the conversation says it (``dos.server.conversation``)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, cast

import pytest
import pytest_asyncio
from starlette.websockets import WebSocket

from dos.server.clock import ManualClock
from dos.server.connections import Client
from dos.server.limits import Counters, Limits
from dos.server.messages import CreateTable
from dos.server.service import Service
from dos.server.storage import Database
from dos.server.tables import Settings, Table
from server.support import TIMEOUT

pytestmark = pytest.mark.asyncio

TURN = 0.2
GRACE = 0.2
"""Stand-ins play this long after their player's time ran out, or their player left."""


class Socket:
    """A client's WebSocket as the server sees it: it keeps the messages sent to it."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.table: dict[str, Any] | None = None
        """The table as last told (``state`` or ``table``)."""
        self.view: dict[str, Any] | None = None
        self._read = 0
        self._came = asyncio.Event()

    async def send_text(self, text: str) -> None:
        message = json.loads(text)
        if message["type"] in ("state", "table"):
            self.table = message["table"]
        if message["type"] in ("state", "update"):
            self.view = message["view"]
        self.messages.append(message)
        self._came.set()

    async def close(self, code: int = 1000, reason: str = "") -> None:
        pass

    async def expect(self, kind: str, **fields: Any) -> dict[str, Any]:
        """The next message of ``kind`` with these ``fields`` (the ones before it read)."""
        while True:
            while self._read < len(self.messages):
                message = self.messages[self._read]
                self._read += 1
                if message["type"] == kind and all(message.get(k) == v for k, v in fields.items()):
                    return message
            self._came.clear()
            await asyncio.wait_for(self._came.wait(), TIMEOUT)

    def away(self, seat: int) -> bool:
        assert self.table is not None
        return bool(self.table["seats"][seat]["away"])


@pytest_asyncio.fixture
async def server(tmp_path: Path) -> AsyncIterator[tuple[Service, ManualClock]]:
    """A server in this process whose stand-ins play ``GRACE`` after their player left."""
    clock = ManualClock()
    settings = Settings(bot_delay=0, grace_seconds=GRACE)
    db = Database(f"sqlite:///{tmp_path / 'dos.sqlite3'}", "OFF")
    service = Service(db, tmp_path, settings, clock=clock)
    await service.start()
    yield service, clock
    await service.stop()


async def _table(service: Service, turn_seconds: float | None = None) -> Table:
    """Ada's table against an easy bot, to 500 points."""
    request = CreateTable(
        name="Ada", seats=[None, "easy"], options={"target_score": 500}, turn_seconds=turn_seconds
    )
    table = await service.table((await service.create(request, "test"))["code"])
    assert table is not None
    return table


async def _connect(service: Service, table: Table, seat: int | None) -> tuple[Socket, Client]:
    """A connection of ``seat`` (``None``: a spectator), told the table's state."""
    socket = Socket()
    client = Client(cast(WebSocket, socket), "127.0.0.1", Counters(Limits()))
    client.start()
    await table.attach(client, seat)
    await socket.expect("state")
    return socket, client


async def test_a_player_out_of_time_is_played_by_a_bot_and_comes_back(
    server: tuple[Service, ManualClock],
) -> None:
    service, clock = server
    table = await _table(service, turn_seconds=TURN)
    ada, _ = await _connect(service, table, 0)
    watcher, _ = await _connect(service, table, None)
    await table.start(0)
    await ada.expect("timer", phase="turn", seat=0)  # the first turn that is Ada's
    await clock.advance(TURN)
    await ada.expect("timer", phase="grace", seat=0)
    await clock.advance(GRACE)
    while not ada.away(0):
        await ada.expect("table")
    stand_in = await ada.expect("update", seat=0, by_bot=True)
    assert stand_in["view"]["seat"] == 0
    table.back(0)  # Ada says ``back``
    while ada.away(0):
        await ada.expect("table")
    await ada.expect("timer", phase="turn", seat=0)
    assert watcher.messages


async def test_a_player_who_leaves_a_timed_game_is_stood_in_for(
    server: tuple[Service, ManualClock],
) -> None:
    service, clock = server
    table = await _table(service, turn_seconds=60)
    ada, ada_client = await _connect(service, table, 0)
    watcher, _ = await _connect(service, table, None)
    await table.start(0)
    await ada.expect("state")
    ada_client.closed = True
    table.detach(ada_client)  # Ada's connection closed
    await clock.advance(GRACE)
    while watcher.table is None or not watcher.away(0):
        await watcher.expect("table")
    assert watcher.table["seats"][0]["connected"] is False
    await watcher.expect("update", seat=0, by_bot=True)
    ada, _ = await _connect(service, table, 0)  # reconnecting takes the seat back
    assert not ada.away(0)
    assert ada.view is not None and ada.view["seat"] == 0


async def test_without_a_timer_the_game_waits(server: tuple[Service, ManualClock]) -> None:
    service, clock = server
    table = await _table(service)
    ada, _ = await _connect(service, table, 0)
    await table.start(0)
    await ada.expect("state")
    await clock.advance(3600)
    assert not any(m["type"] == "timer" for m in ada.messages)
