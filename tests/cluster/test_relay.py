"""A relayed WebSocket (``dos.cluster.relay.RelayedConnection``) over the in-process bus, with
owners played by the test: what it says to which owner when its table moves, and that a
connection whose client is gone never says its hello anywhere again."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

import pytest

from dos.cluster.bus import LocalBus
from dos.cluster.node import MOVED
from dos.cluster.relay import RelayedConnection, stream_of
from dos.server.refusals import RefusedError

pytestmark = pytest.mark.asyncio

CODE = "ABCD"
HELLO = json.dumps({"type": "hello", "protocol": 1, "token": "seat-token"})


@dataclass
class Node:
    """What a relayed connection asks of its process."""

    bus: LocalBus
    owner: str = "relay"
    table_owner: str = "o1"
    """Who holds the table's lease now."""

    async def holder(self, code: str) -> None:
        """Not known (as with Redis away): a move is noticed by the owner's word only."""
        raise RefusedError("busy", "the lease cannot be read")


@dataclass
class Relay:
    node: Node

    async def route(self, code: str) -> str:
        return self.node.table_owner


@dataclass
class Socket:
    """The client's WebSocket, as the relay sees it."""

    inbox: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    sent: list[str] = field(default_factory=list)
    closed: tuple[int, str] | None = None

    async def receive(self) -> dict[str, Any]:
        return await self.inbox.get()

    async def send_text(self, text: str) -> None:
        self.sent.append(text)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed = self.closed or (code, reason)


@dataclass
class Owner:
    """An owner process, played by the test: it records what it is sent; ``gate`` (when
    given) holds each ``ws_open`` until it is set."""

    name: str
    bus: LocalBus
    gate: asyncio.Event | None = None
    got: list[dict[str, Any]] = field(default_factory=list)
    asked: asyncio.Event = field(default_factory=asyncio.Event)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    def __post_init__(self) -> None:
        self.bus.serve(self.name, self.handle)

    async def handle(self, key: str, message: dict[str, Any]) -> dict[str, Any]:
        if message["kind"] == "ws_open":
            self.asked.set()
            if self.gate is not None:
                await self.gate.wait()
        elif message["conn"] not in [m["conn"] for m in self.said("ws_open")]:
            return {"moved": True}  # a side never opened here (as ``Relay.handle``)
        self.got.append(message)
        self.changed.set()
        return {"ok": True}

    def said(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.got if m["kind"] == kind]

    async def until(self, *kinds: str) -> dict[str, Any]:
        """The first message of one of ``kinds`` this owner got, once it came."""
        while not (found := [m for m in self.got if m["kind"] in kinds]):
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), 10)
        return found[0]


async def test_a_table_that_moves_takes_the_connection_and_its_hello_along() -> None:
    bus = LocalBus()
    first, second = Owner("o1", bus), Owner("o2", bus)
    node = Node(bus)
    socket = Socket()
    relayed = RelayedConnection(Relay(node), socket, CODE, "o1", "127.0.0.1")  # type: ignore[arg-type]
    running = asyncio.create_task(relayed.run())
    await socket.inbox.put({"type": "websocket.receive", "text": HELLO})
    opened = (await first.until("ws_frame"))["conn"]

    node.table_owner = "o2"
    await bus.publish(stream_of(CODE, opened), 1, {"close": [MOVED, "moved"]})
    hello = await second.until("ws_frame")
    assert hello["frame"] == {"text": HELLO} and hello["conn"] != opened
    assert (await first.until("ws_close"))["conn"] == opened  # the former side let go
    assert socket.closed is None  # the client saw nothing of it

    await socket.inbox.put({"type": "websocket.disconnect", "code": 1000})
    await running
    assert (await second.until("ws_close"))["conn"] == hello["conn"]


async def test_a_connection_that_ended_while_moving_never_says_hello_again() -> None:
    """The client leaves while its relay is attaching it to the table's new owner: that
    owner's side is closed, and never said the client's hello (which would replace the
    seat's newer connection, made by the client elsewhere, with 4000)."""
    bus = LocalBus()
    gate = asyncio.Event()
    first, second = Owner("o1", bus), Owner("o2", bus, gate)
    node = Node(bus)
    socket = Socket()
    relayed = RelayedConnection(Relay(node), socket, CODE, "o1", "127.0.0.1")  # type: ignore[arg-type]
    running = asyncio.create_task(relayed.run())
    await socket.inbox.put({"type": "websocket.receive", "text": HELLO})
    opened = (await first.until("ws_frame"))["conn"]

    node.table_owner = "o2"
    await bus.publish(stream_of(CODE, opened), 1, {"close": [MOVED, "moved"]})
    await asyncio.wait_for(second.asked.wait(), 10)  # the move is under way...
    await socket.inbox.put({"type": "websocket.disconnect", "code": 1000})
    await running  # ...when the client leaves
    gate.set()

    opened_there = await second.until("ws_open")
    said = await second.until("ws_close", "ws_frame")
    assert said == {"kind": "ws_close", "code": CODE, "conn": opened_there["conn"]}  # no hello
