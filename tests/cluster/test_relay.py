"""A relayed WebSocket (``dos.cluster.relayed.RelayedConnection``) over the in-process bus, with
owners played by the test: what it says to which owner when its table moves (to another
process, or to the same under a new epoch), and that a connection whose client is gone never
says its hello anywhere again. The owner's side (``RemoteSocket``) never drops a frame Redis
did not take."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect, WebSocketDisconnected

from dos.cluster import relayed as relayed_module
from dos.cluster import remote_socket as remote_module
from dos.cluster.lease import Holder
from dos.cluster.lease_watch import OVERDUE_SECONDS, WATCH_SECONDS, LeaseWatch
from dos.cluster.node import MOVED
from dos.cluster.owner_side import OwnerSide, Side, Sides
from dos.cluster.relayed import RelayedConnection
from dos.cluster.remote_socket import RemoteSocket
from dos.server.clock import ManualClock
from dos.server.hosting.bus import (
    BusUnavailableError,
    LocalBus,
    StaleVersionError,
    Subscription,
    Update,
)
from dos.server.net.connections import Client
from dos.server.net.limits import Counters, Limits
from dos.server.protocol.refusals import RefusedError
from server.support import TIMEOUT

pytestmark = pytest.mark.asyncio

CODE = "ABCD"
HELLO = json.dumps({"type": "hello", "protocol": 1, "token": "seat-token"})
PING = json.dumps({"type": "ping", "id": "p1"})
BAD_HELLO = json.dumps({"type": "hello", "protocol": "one", "token": "seat-token"})
WELCOME = '{"type":"welcome","protocol":1,"seat":0,"player_id":"p"}'
REFUSED = '{"type":"error","code":"bad_message","message":"protocol: not a number"}'


def stream_of(code: str, conn: str) -> str:
    """The in-process bus's stream of one relayed connection's frames (``StreamMailboxes``)."""
    return f"{code}:{conn}"


@dataclass
class StreamMailboxes:
    """``dos.cluster.mailboxes.Mailboxes`` over the in-process bus: one stream a connection,
    its versions the frames' numbers."""

    bus: LocalBus

    async def post(self, relay: str, code: str, conn: str, seq: int, frame: Any) -> None:
        with contextlib.suppress(StaleVersionError):  # posted before, its answer lost
            await self.bus.publish(stream_of(code, conn), seq, frame)

    async def open(self, code: str, conn: str) -> Subscription:
        return await self.bus.subscribe(stream_of(code, conn), after=0)

    async def announce(self, relay: str, owner: str, tables: Mapping[str, int]) -> None:
        self.announced.append((relay, owner, dict(tables)))


@dataclass
class Node:
    """What a relayed connection asks of its process."""

    bus: LocalBus
    owner: str = "relay"
    table_owner: str = "o1"
    """Who holds the table's lease now."""
    clock: ManualClock = field(default_factory=ManualClock)
    """The server's clock, which the test moves: the relay's watches and searches wait on
    it."""
    moved: dict[str, Holder] = field(default_factory=dict)
    """The tables whose lease another than ``table_owner`` holds now."""

    def owner_of(self, code: str) -> str:
        """Who holds ``code``'s lease now."""
        return self.moved[code].owner if code in self.moved else self.table_owner

    async def holder(self, code: str) -> Holder | None:
        """Not known (as with Redis away): a move is noticed by the owner's word only."""
        raise RefusedError("busy", "the lease cannot be read")

    async def holders(self, codes: list[str]) -> list[Holder | None]:
        return [await self.holder(code) for code in codes]


@dataclass
class LeasedNode(Node):
    """A process that reads the table's lease: ``table_owner`` under ``epoch``."""

    epoch: int = 1

    async def holder(self, code: str) -> Holder | None:
        return self.moved.get(code, Holder(self.table_owner, self.epoch))


@dataclass
class Socket:
    """The client's WebSocket, as the relay sees it."""

    inbox: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    sent: list[str] = field(default_factory=list)
    closed: tuple[int, str] | None = None

    async def receive(self) -> str | bytes:
        message = await self.inbox.get()
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message["code"])
        text: str = message["text"]
        return text

    async def send_text(self, text: str) -> None:
        self.sent.append(text)

    async def close(self, code: int, reason: str) -> None:
        self.closed = self.closed or (code, reason)


@dataclass
class Owner:
    """An owner process, played by the test: it records what it is sent; ``gate`` (when
    given) holds each ``ws_open`` until it is set."""

    name: str
    bus: LocalBus
    gate: asyncio.Event | None = None
    epoch: int | None = None
    """The epoch it holds the table under, as it tells a connection it opens."""
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
        if message["kind"] == "ws_frame" and message["frame"] == {"text": HELLO}:
            await tell(self.bus, message["conn"], {"t": WELCOME}, message["code"])  # taken
        if message["kind"] == "ws_frame" and message["frame"] == {"text": BAD_HELLO}:
            await tell(self.bus, message["conn"], {"t": REFUSED}, message["code"])
        return {"ok": True, "epoch": self.epoch}

    def said(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.got if m["kind"] == kind]

    async def until(self, *kinds: str, nth: int = 0) -> dict[str, Any]:
        """The ``nth`` message (from 0) of one of ``kinds`` this owner got, once it came."""
        while len(found := [m for m in self.got if m["kind"] in kinds]) <= nth:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), 10)
        return found[nth]


async def tell(bus: LocalBus, conn: str, frame: dict[str, Any], code: str = CODE) -> None:
    """Publishes an owner's next frame for the relayed connection ``conn`` (to ``code``)."""
    stream = stream_of(code, conn)
    await bus.publish(stream, (await bus.last_version(stream) or 0) + 1, frame)


async def relayed_hello(
    node: Node,
    socket: Socket | None = None,
    watch: LeaseWatch | None = None,
    code: str = CODE,
) -> tuple[Socket, asyncio.Task[None]]:
    """A client's connection (on ``socket``, a new one by default) relayed by ``node`` to
    table ``code``'s owner ``o1``, running, its hello said (``watch``: its process's watch
    of the leases; one of its own by default)."""
    socket = socket or Socket()

    async def route(code: str) -> str:
        return node.owner_of(code)

    relayed = RelayedConnection(
        node,  # type: ignore[arg-type]
        route,
        socket,
        code,
        owner="o1",
        who="127.0.0.1",
        mailboxes=StreamMailboxes(node.bus),
        watch=watch,
    )
    running = asyncio.create_task(relayed.run())
    await socket.inbox.put({"type": "websocket.receive", "text": HELLO})
    return socket, running


async def test_a_table_that_moves_takes_the_connection_and_its_hello_along() -> None:
    bus = LocalBus()
    first, second = Owner("o1", bus), Owner("o2", bus)
    node = Node(bus)
    socket, running = await relayed_hello(node)
    opened = (await first.until("ws_frame"))["conn"]

    node.table_owner = "o2"
    await tell(bus, opened, {"close": [MOVED, "moved"]})
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
    socket, running = await relayed_hello(node)
    opened = (await first.until("ws_frame"))["conn"]

    node.table_owner = "o2"
    await tell(bus, opened, {"close": [MOVED, "moved"]})
    await asyncio.wait_for(second.asked.wait(), 10)  # the move is under way...
    await socket.inbox.put({"type": "websocket.disconnect", "code": 1000})
    await running  # ...when the client leaves
    gate.set()

    opened_there = await second.until("ws_open")
    said = await second.until("ws_close", "ws_frame")
    assert said == {"kind": "ws_close", "code": CODE, "conn": opened_there["conn"]}  # no hello


async def test_an_owner_that_took_its_table_again_gets_the_connection_again() -> None:
    """Redis lost the table's lease and its owner claimed it anew: the same process, under a
    new epoch, holds a new table, and the side opened for the former one went with it, its
    close lost with Redis. The relay opens the connection there again and says its hello
    (the client gets a fresh welcome and state) instead of relaying to nobody."""
    bus = LocalBus()
    owner = Owner("o1", bus, epoch=7)
    node = LeasedNode(bus, epoch=7)
    socket, running = await relayed_hello(node)
    opened = (await owner.until("ws_open"))["conn"]
    assert (await owner.until("ws_frame"))["frame"] == {"text": HELLO}

    owner.epoch = node.epoch = 8  # taken again; no close with MOVED came
    await asyncio.wait_for(node.clock.waiting(), TIMEOUT)  # the relay's watch waits...
    await node.clock.advance(OVERDUE_SECONDS + WATCH_SECONDS)  # ...the owner says nothing:
    # the watch reads the lease
    again = await owner.until("ws_open", nth=1)
    assert again["conn"] != opened
    hello = await owner.until("ws_frame", nth=1)
    assert hello == {
        "kind": "ws_frame",
        "code": CODE,
        "conn": again["conn"],
        "frame": {"text": HELLO},
    }
    assert (await owner.until("ws_close"))["conn"] == opened  # the former side let go
    assert socket.closed is None

    await socket.inbox.put({"type": "websocket.disconnect", "code": 1000})
    await running


class AwayBus(LocalBus):
    """An in-process bus whose ``publish`` fails, as with Redis away, while ``away`` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.away = False
        self.refused = asyncio.Event()

    async def publish(self, table: str, version: int, payload: Any) -> None:
        if self.away:
            self.refused.set()
            raise BusUnavailableError(f"table {table}: could not publish, Redis did not answer")
        await super().publish(table, version, payload)


@contextlib.asynccontextmanager
async def owner_side(
    bus: LocalBus, relaying: str = "relay", conn: str = "c1"
) -> AsyncIterator[tuple[RemoteSocket, Client, Subscription]]:
    """An owner's side of a relayed connection (its socket and its client, started) and the
    relay's subscription to its frames; stopped at the end."""
    remote = RemoteSocket(StreamMailboxes(bus), CODE, conn, relaying)
    subscription = await bus.subscribe(stream_of(CODE, conn), after=0)
    client = Client(remote, "127.0.0.1", Counters(Limits()))
    client.start()
    try:
        yield remote, client, subscription
    finally:
        await client.stop()
        await subscription.close()


async def test_an_owners_frames_wait_for_redis_and_reach_the_relay_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Frames the owner's side could not publish (Redis away past ``PUBLISH_SECONDS``) are
    not dropped, nor do they stop the ones after them: once Redis is back they all reach the
    relay, in order, the close included."""
    monkeypatch.setattr(remote_module, "SEND_RETRY_SECONDS", 0.01)
    bus = AwayBus()
    async with owner_side(bus) as (_remote, client, subscription):
        client.send("before")
        first = await asyncio.wait_for(anext(subscription), TIMEOUT)
        bus.away = True
        client.send("while away")
        client.send("after")
        client.close(4000, "you left")
        await asyncio.wait_for(bus.refused.wait(), TIMEOUT)
        bus.away = False
        rest = [await asyncio.wait_for(anext(subscription), TIMEOUT) for _ in range(3)]
        assert [first, *rest] == [
            Update(stream_of(CODE, "c1"), 1, {"t": "before"}),
            Update(stream_of(CODE, "c1"), 2, {"t": "while away"}),
            Update(stream_of(CODE, "c1"), 3, {"t": "after"}),
            Update(stream_of(CODE, "c1"), 4, {"close": [4000, "you left"]}),
        ]


class LossyBus(LocalBus):
    """An in-process bus that stores the next update published but loses its answer, as
    when Redis takes a command and closes the connection before replying."""

    def __init__(self) -> None:
        super().__init__()
        self.lose_next = False

    async def publish(self, table: str, version: int, payload: Any) -> None:
        await super().publish(table, version, payload)
        if self.lose_next:
            self.lose_next = False
            raise BusUnavailableError(f"table {table}: could not publish, Redis did not answer")


async def test_a_frame_stored_though_its_answer_was_lost_is_sent_once_and_the_next_go_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Redis stored a frame but its answer was lost: the owner's side, trying again, finds
    it stored (a stale version) and goes on with the next frames rather than falling
    silent."""
    monkeypatch.setattr(remote_module, "SEND_RETRY_SECONDS", 0.01)
    bus = LossyBus()
    async with owner_side(bus) as (_remote, client, subscription):
        bus.lose_next = True
        client.send("stored, its answer lost")
        client.send("next")
        got = [await asyncio.wait_for(anext(subscription), TIMEOUT) for _ in range(2)]
        assert got == [
            Update(stream_of(CODE, "c1"), 1, {"t": "stored, its answer lost"}),
            Update(stream_of(CODE, "c1"), 2, {"t": "next"}),
        ]
        assert not client.closed


async def test_a_relayed_connection_given_a_frame_it_cannot_read_tells_its_client_to_come_again(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The owner's side publishes a frame the relay cannot read (a process of another
    version, or a bug): the client's connection is closed with 1012 (it reconnects) instead
    of staying open and deaf, the reason logged in a line, without a traceback."""
    bus = LocalBus()
    owner = Owner("o1", bus)
    node = Node(bus)
    socket, running = await relayed_hello(node)
    opened = (await owner.until("ws_frame"))["conn"]
    await tell(bus, opened, {"neither text": "nor close"})
    await asyncio.wait_for(running, TIMEOUT)
    assert socket.closed is not None and socket.closed[0] == 1012
    assert (await owner.until("ws_close"))["conn"] == opened  # the owner's side let go too
    [said] = [r for r in caplog.records if r.levelname == "ERROR"]
    assert "a relayed connection's frame" in said.getMessage() and said.exc_info is None


@dataclass
class SweepingNode:
    """What an owner's sweep asks of its process: which processes are alive."""

    bus: LocalBus
    owner: str = "o1"
    alive_now: set[str] = field(default_factory=set)
    clock: ManualClock = field(default_factory=ManualClock)

    async def alive(self, owner: str) -> bool:
        return owner in self.alive_now


async def test_a_sweep_ends_only_the_sides_of_relays_missing_twice_and_tells_them() -> None:
    """Redis lost its data: for a moment no process's ``alive`` key is there. A relay
    missing at one sweep keeps its sides; missing at two in a row, each of its sides ends,
    saying so on its stream (1012: a relay alive after all reattaches its client rather
    than relay, deaf, a side that is gone). The owner's own relays are never swept."""
    bus = LocalBus()
    node = SweepingNode(bus)
    sides = Sides()
    owner = OwnerSide(node, None, sides, None, StreamMailboxes(bus))  # type: ignore[arg-type]
    conversation = asyncio.create_task(asyncio.Event().wait())  # the sides' own, played here
    async with contextlib.AsyncExitStack() as stack:
        made = {
            relaying: await stack.enter_async_context(owner_side(bus, relaying, f"c-{relaying}"))
            for relaying in ("p2", "o1")  # another process's relay, and the owner's own
        }
        for remote, client, _stream in made.values():
            sides.add(Side(remote, client, conversation))
        missing = await owner.sweep(set())  # nobody's key is there (Redis restarted)
        assert missing == {"p2"}
        node.alive_now = {"p2"}  # it wrote its key again
        missing = await owner.sweep(missing)
        assert missing == set()
        for remote, client, _stream in made.values():
            assert remote.waiting == 0 and not client.closed  # no side ended
        node.alive_now = set()  # p2 died
        missing = await owner.sweep(await owner.sweep(missing))
        remote, client, stream = made["p2"]
        said = await asyncio.wait_for(anext(stream), TIMEOUT)
        assert isinstance(said, Update) and said.payload["close"][0] == 1012
        with pytest.raises(WebSocketDisconnect):
            await remote.receive()
        own, own_client, _stream = made["o1"]
        assert own.waiting == 0 and not own_client.closed
    conversation.cancel()


class ClosedSocket(Socket):
    """A client's WebSocket already closed: sending on it fails as Starlette's does."""

    async def send_text(self, text: str) -> None:
        raise WebSocketDisconnected('Cannot call "send" once a close message has been sent.')


async def test_a_relayed_connection_whose_client_is_gone_ends_without_an_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Sending to a client socket that is closed ends the connection as its client leaving
    does: no failure logged (a host's error log is for failures)."""
    bus = LocalBus()
    owner = Owner("o1", bus)
    node = Node(bus)
    socket, running = await relayed_hello(node, ClosedSocket())
    opened = (await owner.until("ws_frame"))["conn"]
    await tell(bus, opened, {"t": "for a client gone"})
    await asyncio.wait_for(running, TIMEOUT)
    assert socket.closed is not None and socket.closed[0] == 1000  # not 1012: nothing failed
    assert not [r for r in caplog.records if r.levelname == "ERROR"]


async def test_a_move_noticed_twice_while_under_way_opens_the_connection_once() -> None:
    """The first owner tells the connection its table moved; while the relay's search
    attaches it at the new owner, its watch also notices the lease moved (the first owner
    fell silent). The connection is opened there once and its hello said once: a second
    side would give the client a second welcome, and the hello of one side could replace
    the other's seat (4000) at the owner."""
    bus = LocalBus()
    gate = asyncio.Event()
    first, second = Owner("o1", bus), Owner("o2", bus, gate)
    node = LeasedNode(bus)
    socket, running = await relayed_hello(node)
    opened = (await first.until("ws_frame"))["conn"]
    node.table_owner = "o2"
    await tell(bus, opened, {"close": [MOVED, "moved"]})
    await asyncio.wait_for(second.asked.wait(), TIMEOUT)  # the search attaches at o2...
    await asyncio.wait_for(node.clock.waiting(), TIMEOUT)
    await node.clock.advance(OVERDUE_SECONDS + WATCH_SECONDS)  # ...when the watch reads the
    # lease (o1 silent): o2, not o1
    gate.set()
    assert (await second.until("ws_frame"))["frame"] == {"text": HELLO}
    for _ in range(3):  # the watch looks again, and again: nothing more is opened
        await asyncio.wait_for(node.clock.waiting(), TIMEOUT)
        await node.clock.advance(WATCH_SECONDS)
    assert len(second.said("ws_open")) == 1
    assert len(second.said("ws_frame")) == 1
    assert socket.closed is None

    await socket.inbox.put({"type": "websocket.disconnect", "code": 1000})
    await running


ACTION = json.dumps({"type": "action", "action": "draw", "version": 3, "id": "a1"})


@dataclass
class DyingOwner(Owner):
    """An owner that takes the client's action and dies before it answers: its reply never
    comes."""

    async def handle(self, key: str, message: dict[str, Any]) -> dict[str, Any]:
        if message["kind"] == "ws_frame" and message["frame"] == {"text": ACTION}:
            self.got.append(message)
            self.changed.set()
            await asyncio.Event().wait()  # dead: nothing answers
        return await super().handle(key, message)


async def test_a_frame_its_dying_owner_took_is_said_to_the_next_owner_once_it_is_found(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The owner took the client's action and died unanswering. Once the relay finds the
    table's next owner it opens the connection there (the hello first), and says the action
    there too, at once: it does not wait for the dead owner's answer (``FRAME_SECONDS``,
    made endless here), nor hold the client's next frames behind it."""
    monkeypatch.setattr(relayed_module, "FRAME_SECONDS", 3600.0)
    bus = LocalBus()
    first, second = DyingOwner("o1", bus), Owner("o2", bus)
    node = LeasedNode(bus)
    socket, running = await relayed_hello(node)
    await first.until("ws_frame")
    await socket.inbox.put({"type": "websocket.receive", "text": ACTION})
    await socket.inbox.put({"type": "websocket.receive", "text": PING})
    assert (await first.until("ws_frame", nth=1))["frame"] == {"text": ACTION}

    node.table_owner = "o2"  # o1's lease ran out; o2 holds the table
    await asyncio.wait_for(node.clock.waiting(), TIMEOUT)
    await node.clock.advance(OVERDUE_SECONDS + WATCH_SECONDS)
    said = [(await second.until("ws_frame", nth=n))["frame"]["text"] for n in range(3)]
    assert said == [HELLO, ACTION, PING]
    assert socket.closed is None

    await socket.inbox.put({"type": "websocket.disconnect", "code": 1000})
    await running


@dataclass
class CountingNode(LeasedNode):
    """A process that counts its reads of leases (each a round trip) and the leases read."""

    reads: list[list[str]] = field(default_factory=list)

    async def holders(self, codes: list[str]) -> list[Holder | None]:
        self.reads.append(codes)
        return await super().holders(codes)


async def test_idle_relayed_connections_read_no_lease_while_their_owner_speaks() -> None:
    """Twenty connections relayed to two tables, idle: while their owner announces the
    tables under their epochs, their process reads no lease; once it falls silent, each
    look reads the two tables' leases in one round trip for all twenty, and a table whose
    lease another process took is attached again there, the other left alone."""
    bus = LocalBus()
    owner, second = Owner("o1", bus, epoch=1), Owner("o2", bus, epoch=2)
    node = CountingNode(bus)
    watch = LeaseWatch(node, node.clock)  # type: ignore[arg-type]
    connections = [await relayed_hello(node, watch=watch) for _ in range(10)]
    others = [await relayed_hello(node, watch=watch, code="WXYZ") for _ in range(10)]
    await owner.until("ws_frame", nth=19)  # every hello said
    for _ in range(5):
        watch.heard("o1", {CODE: 1, "WXYZ": 1})
        await asyncio.wait_for(node.clock.waiting(), TIMEOUT)
        await node.clock.advance(WATCH_SECONDS)
    assert node.reads == [] and not second.said("ws_open")

    watch.heard("o1", {CODE: 1})  # WXYZ no longer named: its lease is read...
    node.moved = {"WXYZ": Holder("o2", 2)}  # ...and o2 holds it
    await asyncio.wait_for(node.clock.waiting(), TIMEOUT)
    await node.clock.advance(WATCH_SECONDS)
    assert node.reads == [["WXYZ"]]  # one round trip for the ten
    await second.until("ws_frame", nth=9)  # the ten moved there, their hellos said
    assert len(owner.said("ws_open")) == 20

    node.reads = []  # o1 falls silent: its table's lease is read, once a look at most
    await node.clock.advance(OVERDUE_SECONDS + WATCH_SECONDS)
    assert [CODE] in node.reads and len(node.reads) <= 3
    assert len(owner.said("ws_open")) == 20 and len(second.said("ws_open")) == 10
    for socket, running in [*connections, *others]:
        await socket.inbox.put({"type": "websocket.disconnect", "code": 1000})
        await running


async def test_a_move_says_the_hello_its_owner_welcomed_not_a_refused_one() -> None:
    """The client's first hello was refused (the owner answered an error, no welcome) and
    its second welcomed. When the table moves, the relay says the welcomed hello at the new
    owner, not the refused one (which would leave the client unwelcomed there)."""
    bus = LocalBus()
    first, second = Owner("o1", bus), Owner("o2", bus)
    node = Node(bus)
    socket = Socket()

    async def route(code: str) -> str:
        return node.table_owner

    relayed = RelayedConnection(
        node,  # type: ignore[arg-type]
        route,
        socket,
        CODE,
        owner="o1",
        who="127.0.0.1",
        mailboxes=StreamMailboxes(bus),
    )
    running = asyncio.create_task(relayed.run())
    await socket.inbox.put({"type": "websocket.receive", "text": BAD_HELLO})
    opened = (await first.until("ws_frame"))["conn"]
    await socket.inbox.put({"type": "websocket.receive", "text": HELLO})
    assert (await first.until("ws_frame", nth=1))["frame"] == {"text": HELLO}
    while WELCOME not in socket.sent:
        await asyncio.sleep(0)

    node.table_owner = "o2"
    await tell(bus, opened, {"close": [MOVED, "moved"]})
    assert (await second.until("ws_frame"))["frame"] == {"text": HELLO}

    await socket.inbox.put({"type": "websocket.disconnect", "code": 1000})
    await running


async def test_a_hello_refused_first_is_not_the_one_said_after_a_move() -> None:
    """The client's first hello was refused (no welcome came), then a move: the new owner
    is not told that hello again; the client's next hello goes there as it comes."""
    bus = LocalBus()
    first, second = Owner("o1", bus), Owner("o2", bus)
    node = Node(bus)
    socket = Socket()

    async def route(code: str) -> str:
        return node.table_owner

    relayed = RelayedConnection(
        node,  # type: ignore[arg-type]
        route,
        socket,
        CODE,
        owner="o1",
        who="127.0.0.1",
        mailboxes=StreamMailboxes(bus),
    )
    running = asyncio.create_task(relayed.run())
    await socket.inbox.put({"type": "websocket.receive", "text": BAD_HELLO})
    opened = (await first.until("ws_frame"))["conn"]
    while REFUSED not in socket.sent:
        await asyncio.sleep(0)

    node.table_owner = "o2"
    await tell(bus, opened, {"close": [MOVED, "moved"]})
    await second.until("ws_open")
    await socket.inbox.put({"type": "websocket.receive", "text": HELLO})
    assert (await second.until("ws_frame"))["frame"] == {"text": HELLO}

    await socket.inbox.put({"type": "websocket.disconnect", "code": 1000})
    await running


@dataclass
class UnansweringOwner(Owner):
    """An owner that takes the client's hello and has not answered it yet."""

    async def handle(self, key: str, message: dict[str, Any]) -> dict[str, Any]:
        if message["kind"] == "ws_frame" and message["frame"] == {"text": HELLO}:
            self.got.append(message)
            self.changed.set()
            return {"ok": True, "epoch": self.epoch}
        return await super().handle(key, message)


async def test_a_hello_not_answered_when_the_table_moves_is_said_to_the_next_owner() -> None:
    """The owner took the client's hello and the table moved before its welcome came back:
    the new owner is told the hello (the client gets its welcome there), rather than the
    client's next message finding a side that never heard it (``hello_required``)."""
    bus = LocalBus()
    first, second = UnansweringOwner("o1", bus), Owner("o2", bus)
    node = Node(bus)
    socket, running = await relayed_hello(node)
    opened = (await first.until("ws_frame"))["conn"]

    node.table_owner = "o2"
    await tell(bus, opened, {"close": [MOVED, "moved"]})
    assert (await second.until("ws_frame"))["frame"] == {"text": HELLO}
    while WELCOME not in socket.sent:
        await asyncio.sleep(0)
    await socket.inbox.put({"type": "websocket.receive", "text": PING})
    assert (await second.until("ws_frame", nth=1))["frame"] == {"text": PING}
    assert len(second.said("ws_frame")) == 2  # the hello once

    await socket.inbox.put({"type": "websocket.disconnect", "code": 1000})
    await running
