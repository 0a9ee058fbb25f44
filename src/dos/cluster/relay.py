"""The routing of a server of many processes: ``Relay`` keeps ``dos.server.hosting.routing.Routing``
over the bus, so that any process serves any request.

Its parts, each a concept of its own module:

* ``dos.cluster.routing``: which table a request is about and which process owns it, and
  the middleware that serves it here or sends it there (``OwnerRouting``);
* ``dos.cluster.forwarding``: an HTTP request forwarded whole to the owner;
* ``dos.cluster.relayed``: a WebSocket held here and relayed to the owner, following the
  table when it moves;
* ``dos.cluster.owner_side``: what the other processes forward here, served, each relayed
  connection's conversation held over a ``dos.cluster.remote_socket.RemoteSocket``.

What crosses processes is typed, one module per direction: ``dos.cluster.to_owner``,
``dos.cluster.from_owner``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from dos.cluster.client_sockets import RedisSockets
from dos.cluster.forwarding import Forwarder
from dos.cluster.lease_watch import LeaseWatch
from dos.cluster.mailboxes import RedisMailboxes
from dos.cluster.owner_side import OwnerSide, Sides
from dos.cluster.relayed import RelayedConnection
from dos.cluster.routing import OwnerRouting, Router
from dos.server.net.connections import lineage_of
from dos.server.net.guard import Open
from dos.server.net.limits import client_address
from dos.server.net.sockets import StarletteSocket

if TYPE_CHECKING:
    from dos.cluster.node import Node
    from dos.server.service import Service


class Relay:
    """This process's routing among many: finding owners, forwarding, relaying, and (as an
    owner) serving what others forward. ``sides`` are the sides of the connections relayed
    here (the node ends them when their table leaves); ``connections`` counts each client's
    open connections; ``app`` runs the HTTP requests forwarded here (the whole application:
    late-bound, it is built after its routing); ``calls``: the paths whose requests name
    their table in their body, with the most bytes read to find it (``Router``)."""

    def __init__(
        self,
        node: Node,
        service: Service,
        sides: Sides,
        connections: Open,
        *,
        app: ASGIApp,
        calls: Mapping[str, int],
    ) -> None:
        self.node = node
        self.counters = service.counters
        self.connections = connections
        self.router = Router(node, service.signer, service.table, calls)
        self.forwarder = Forwarder(node, self.router.route)
        self.watch = LeaseWatch(node, node.clock)
        """What tells this process's relayed connections that their tables moved."""
        self.mailboxes = RedisMailboxes(
            node.bus.redis, node.owner, node.prefix, heard=self.watch.heard
        )
        """This process's mailboxes: its relayed connections' frames and their owners'
        announcements, and its sides'."""
        self.owner_side = OwnerSide(node, service, sides, app, self.mailboxes)
        cap = service.counters.limits.client_sockets
        self.sockets = (
            None
            if cap is None
            else RedisSockets(node.redis, node.owner, cap, node.clock, node.prefix)
        )
        """Each client's WebSockets on every process together, under its cap
        (``Limits.client_sockets``; ``None``: lifted)."""

    def middleware(self, app: ASGIApp) -> ASGIApp:
        """``app`` behind the owner routing (``OwnerRouting``)."""
        return OwnerRouting(
            app, self.router, self.forwarder.forward_http, self.relay_websocket, self.sockets
        )

    def start(self) -> None:
        """Serves what the other processes forward here."""
        self.owner_side.start()

    async def stop(self) -> None:
        """Stops serving them."""
        await self.owner_side.stop()
        await self.watch.close()
        if self.sockets is not None:
            await self.sockets.close()
        await self.mailboxes.close()

    async def relay_websocket(
        self, scope: Scope, receive: Receive, send: Send, code: str, owner: str
    ) -> None:
        """Holds a client's WebSocket here and relays it to the table's owner, under the
        limits of a connection of this process's own."""
        websocket = WebSocket(scope, receive, send)
        who = client_address(websocket.client)
        if not self.connections.take(who):
            await websocket.close(1013, "too many connections from this client")
            return
        try:
            await websocket.accept()
            if not self.counters.allow("connects", who):
                await websocket.close(4429, "too many new connections: try again later")
                return
            socket = StarletteSocket(websocket)
            page = lineage_of(websocket.query_params.get("page"))
            relayed = RelayedConnection(
                self.node,
                self.router.route,
                socket,
                code,
                owner=owner,
                who=who,
                mailboxes=self.mailboxes,
                page=page,
                watch=self.watch,
            )
            await relayed.run()
        finally:
            self.connections.give_back(who)
