"""At a table's owner: what the other processes forward to it, served.

Each message forwarded to this process (``dos.cluster.to_owner``) is read here, in one
place, and answered (``dos.cluster.from_owner``): an HTTP request is run through the
application if this process still holds its table (``Moved`` if not); ``OpenSide`` opens a
side of a relayed connection — a ``RemoteSocket`` with its ``Client``, holding the same
conversation as a connection of this process's own (``dos.server.http.conversation.hold``);
``ClientFrame`` and ``CloseSide`` go to that side. A message that is none of these is
refused (``Refused``) with its reason logged.

The sides live in ``Sides``: a table that leaves this process ends its sides (``Sides.lost``,
after the table's own closing of its clients has queued their close, ``MOVED``), and every
``SWEEP_SECONDS`` the sides of relaying processes that died are ended (``OwnerSide.sweep``).
Every ``ANNOUNCE_SECONDS`` each relaying process is told which of its sides' tables this
process holds, and under which epoch (``OwnerSide.announce``; ``dos.cluster.lease_watch``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from starlette.types import ASGIApp

from dos.cluster import to_owner
from dos.cluster.forwarding import run_http
from dos.cluster.frames import FrameError
from dos.cluster.from_owner import Moved, Refused, Reply, Taken
from dos.cluster.lease_watch import ANNOUNCE_SECONDS
from dos.cluster.mailboxes import Mailboxes
from dos.cluster.node import RESTARTING
from dos.cluster.remote_socket import RemoteSocket
from dos.cluster.tasks import stop as stop_task
from dos.cluster.to_owner import ClientFrame, CloseSide, HttpRequest, OpenSide
from dos.server.hosting.bus import BusUnavailableError, Serving
from dos.server.http.conversation import hold
from dos.server.logs import TABLE
from dos.server.net.connections import Client

if TYPE_CHECKING:
    from dos.cluster.node import Node
    from dos.server.service import Service

log = logging.getLogger(__name__)

SWEEP_SECONDS = 5.0
"""How often an owner looks for the relayed connections whose relaying process died (on the
server's clock)."""


@dataclass(frozen=True, slots=True)
class Side:
    """The owner's side of one relayed connection: its socket, its client, and the task of
    its conversation."""

    socket: RemoteSocket
    client: Client
    task: asyncio.Task[None]


class Sides:
    """The sides of the connections relayed to this process, by connection id."""

    def __init__(self) -> None:
        self._by_conn: dict[str, Side] = {}

    def add(self, side: Side) -> None:
        """Holds ``side`` until its conversation ends."""
        self._by_conn[side.socket.conn] = side

    def get(self, conn: str) -> Side | None:
        """The side of connection ``conn`` (``None``: none here)."""
        return self._by_conn.get(conn)

    def drop(self, conn: str) -> None:
        """Forgets the side of connection ``conn`` (its conversation ended)."""
        self._by_conn.pop(conn, None)

    def __iter__(self) -> Iterator[Side]:
        return iter(list(self._by_conn.values()))

    def lost(self, code: str) -> None:
        """Table ``code`` left this process: its sides end (their clients' close, queued by
        the table's closing, is sent first)."""
        for side in self:
            if side.socket.code == code:
                side.socket.disconnect()


class OwnerSide:
    """This process as the owner others forward to (see the module's text). ``app`` runs
    the HTTP requests forwarded here: the whole application (late-bound: the application is
    built after its routing); ``mailboxes`` take the frames of its sides for their relays."""

    def __init__(
        self, node: Node, service: Service, sides: Sides, app: ASGIApp, mailboxes: Mailboxes
    ) -> None:
        self.node = node
        self.mailboxes = mailboxes
        """Where its sides post their frames for the relays."""
        self.service = service
        self.sides = sides
        self.app = app
        self.clock = node.clock
        """The server's clock: the sweeps."""
        self._serving: Serving | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._announcer: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Serves what is forwarded to this process, and sweeps (the server's start)."""
        self._serving = self.node.bus.serve(self.node.owner, self.handle)
        loop = asyncio.get_running_loop()
        self._sweeper = loop.create_task(self._sweep(), name="sweep")
        self._announcer = loop.create_task(self._announce(), name="announce")

    async def stop(self) -> None:
        """Stops announcing, sweeping and serving."""
        for task in (self._announcer, self._sweeper):
            if task is not None:
                await stop_task(task)
        if self._serving is not None:
            await self._serving.close()

    async def handle(self, key: str, value: Any) -> Any:
        """A message forwarded to this process (the bus's handler); the reply, as JSON."""
        try:
            message = to_owner.decode(value)
        except FrameError as error:
            log.warning("a message forwarded here was refused: %s", error)
            return Refused(refused=error.reason).encode()
        match message:
            case HttpRequest():
                if not self.node.owns(message.code):
                    return Moved().encode()
                return (await run_http(self.app, message)).encode()
            case OpenSide():
                reply = self._open(message)
            case ClientFrame():
                reply = self._put(message)
            case CloseSide():
                reply = self._close(message)
        return reply.encode()

    def _open(self, message: OpenSide) -> Reply:
        code = message.code
        table = self.service.tables.get(code) if self.node.owns(code) else None
        if table is None:
            return Moved()
        socket = RemoteSocket(self.mailboxes, code, message.conn, message.relay)
        client = Client(socket, message.client, self.service.counters, message.lineage)
        client.start()
        task = asyncio.get_running_loop().create_task(self._converse(socket, client))
        self.sides.add(Side(socket, client, task))
        return Taken(epoch=self.node.epoch_of(code))

    def _put(self, message: ClientFrame) -> Reply:
        side = self.sides.get(message.conn)
        if side is None or side.socket.ended:
            return Moved()
        side.socket.put(message.payload)
        return Taken()

    def _close(self, message: CloseSide) -> Reply:
        side = self.sides.get(message.conn)
        if side is not None:
            side.socket.disconnect()
        return Taken()

    async def _converse(self, socket: RemoteSocket, client: Client) -> None:
        """The conversation of a relayed connection, as ``/ws/{code}`` holds it for a direct
        one."""
        TABLE.set(socket.code)
        table = self.service.tables.get(socket.code)
        try:
            if table is not None:
                await hold(self.service, table, client)
        except Exception:
            log.exception("table %s: a relayed connection failed", socket.code)
        finally:
            if table is None:
                await client.stop()
            socket.ended = True
            self.sides.drop(socket.conn)

    async def _announce(self) -> None:
        """Announces, every ``ANNOUNCE_SECONDS``."""
        while True:
            await self.clock.sleep(ANNOUNCE_SECONDS)
            await self.announce()

    async def announce(self) -> None:
        """Tells each process relaying connections here which of their tables this process
        holds, with its epochs (one post a process; one Redis refused is said next time)."""
        by_relay: dict[str, dict[str, int]] = {}
        for side in self.sides:
            tables = by_relay.setdefault(side.socket.relay, {})
            epoch = self.node.epoch_of(side.socket.code)
            if epoch is not None and self.node.owns(side.socket.code):
                tables[side.socket.code] = epoch
        for relay, tables in by_relay.items():
            try:
                await self.mailboxes.announce(relay, self.node.owner, tables)
            except BusUnavailableError:
                continue

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
        relays = {side.socket.relay for side in self.sides if side.socket.relay != self.node.owner}
        gone = {relay for relay in relays if not await self.node.alive(relay)}
        for side in self.sides:
            if side.socket.relay in gone & missing:
                side.client.close(RESTARTING, "its relaying server process is gone")
                side.socket.disconnect()
        return gone
