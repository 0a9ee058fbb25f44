"""Here: a client's WebSocket whose table another process owns, relayed to that owner.

The client's connection stays open at this process; the conversation runs at the owner, on
a side it opens for it (``dos.cluster.owner_side``). A ``RelayedConnection`` is a small state
machine over that:

* **attaching**: a side is opened at the owner (``OpenSide``), its mailbox opened here first
  (``dos.cluster.mailboxes``); the client's hello, unless refused, is said there again;
* **relaying**: each frame of the client is forwarded to the side, in order
  (``ClientFrame``), and the side's frames sent on to the client (``Text``); a gap in its
  mailbox makes the relay ask a full ``sync`` for its client;
* **moving**: the owner changed — a frame it did not take (``Moved``), its side's close
  with ``MOVED`` or ``RESTARTING``, or the lease's holder (or epoch) changing under its
  process's watch (``dos.cluster.lease_watch``) — so the connection attaches again at the
  table's new owner, once for all who noticed that the side they saw (its *generation*:
  each side opened is a new one) is no longer the owner's, even while a search was under
  way. It says the client's hello there (welcomed, or not answered yet: never one
  refused), then each frame its former owner did not answer (a frame taken by an owner that died is
  not waited for: the wait ends with the move). Every side of the connection has its
  ``lineage``, so that the newer takes the seat from the older at the owner, never the
  other way round (``dos.server.tables.audience``). The client, still connected, gets a
  fresh welcome and state. Past ``REATTACH_SECONDS`` without an owner the client is told
  to come again (1012);
* **ended**: the client left, the side closed for good, or a task of the connection
  failed (1012): every task stops, and the side at the owner is let go (``CloseSide``);
  nothing attaches the connection anywhere again.

An owner is a process *under an epoch*: the same process taking the table again (Redis lost
its lease and it claimed it anew) holds a new table, whose conversations do not include the
old one, so the connection attaches there again too.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocketDisconnect, WebSocketDisconnected

from dos.cluster.frames import FrameError
from dos.cluster.from_owner import Close, Moved, Refused, Reply, Taken, decode_reply, decode_side
from dos.cluster.lease_watch import LeaseWatch
from dos.cluster.mailboxes import Mailboxes
from dos.cluster.node import MOVED, RESTARTING
from dos.cluster.to_owner import ClientFrame, CloseSide, OpenSide
from dos.server.hosting.bus import BusError, Gap, NoOwnerError, Subscription
from dos.server.logs import TABLE
from dos.server.net.sockets import Socket
from dos.server.protocol.refusals import RefusedError

if TYPE_CHECKING:
    from dos.cluster.node import Node

log = logging.getLogger(__name__)

TAKE_SECONDS = 1.0
"""How long a live owner takes to take a forwarded message, at most: past it, it is dead."""
FRAME_SECONDS = 10.0
"""How long a forwarded WebSocket frame may take at its owner."""
REATTACH_SECONDS = 15.0
"""How long a relay looks for a table's new owner before it gives its client up (1012)."""

# REATTACH_SECONDS is on the server's clock (``Node.clock``): the owner a relay looks for
# holds a lease that runs out on that clock. The forwards' timeouts
# (FRAME_SECONDS, TAKE_SECONDS) are the bus's, on real time.

WELCOME = '{"type":"welcome"'
"""How a ``welcome`` begins (``dos.server.protocol.server_messages.server_message`` writes its
type first): the client's hello was taken."""
ERROR = '{"type":"error"'
"""How an ``error`` begins: the first answer to a hello not welcomed, it was refused."""
SYNC = json.dumps({"type": "sync"})
"""What a relay asks for its client when frames of the owner's were lost (a gap)."""

Route = Callable[[str], Awaitable[str | None]]
"""Finds a table's owner: its owner id, ``None`` for this process
(``dos.cluster.routing.Router.route``); ``RefusedError`` when none is found in time."""


@dataclass(frozen=True, slots=True)
class Unsure:
    """A frame's forward failed on the way (the bus did not answer): the owner may have
    handled it, or not."""


class RelayedConnection:
    """A client's connection ``socket`` to table ``code``, relayed to the table's owner
    (``owner`` to begin with): see the module's text. ``who`` is the client's address, which
    the owner counts its limits by; ``page`` the lineage the client named (``None``: the
    connection is a lineage of its own); ``watch`` tells it when its table's lease moved
    (``dos.cluster.lease_watch``)."""

    def __init__(
        self,
        node: Node,
        route: Route,
        socket: Socket,
        code: str,
        *,
        owner: str,
        who: str,
        mailboxes: Mailboxes,
        page: str | None = None,
        watch: LeaseWatch | None = None,
    ) -> None:
        self.node = node
        self.route = route
        self.clock = node.clock
        """The server's clock: the search for a new owner."""
        self.mailboxes = mailboxes
        """Where its sides' frames come: its process's (``dos.cluster.mailboxes``)."""
        self.watch = watch or LeaseWatch(node, node.clock)
        """What tells it that its table's lease moved: its process's, shared by its relayed
        connections (by default one of its own)."""
        self.socket = socket
        self.code = code
        self.owner = owner
        self.who = who
        self.lineage = page or secrets.token_hex(8)
        """The lineage of every side this connection opens (``dos.server.net.connections``)."""
        self.conn = ""
        self.epoch: int | None = None
        """The epoch under which ``owner`` held the table when this connection was opened
        there (``None``: not told)."""
        self.attached = self.clock.monotonic()
        """When it was opened at ``owner`` (``Clock.monotonic``)."""
        self.hello: str | None = None
        """The client's hello its owner welcomed, said again to a new owner."""
        self._hello_said: str | None = None
        """The client's last hello, not yet answered: said again after a move (its welcome,
        if any, left with the former side); forgotten once refused."""
        self._hello_moved: str | None = None
        """The hello the latest side was told when it was opened (``None``: none)."""
        self.subscription: Subscription | None = None
        self.done = asyncio.Event()
        self._pump: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._lock = asyncio.Lock()
        self._generation = 0
        self._left = asyncio.Event()
        """Set once the connection left its current side for another."""
        self.failed = False
        """Whether a task of this connection's failed (its client is told to reconnect)."""

    async def run(self) -> None:
        """Relays the connection until it ends (see the module's text)."""
        TABLE.set(self.code)
        reader: asyncio.Task[None] | None = None
        try:
            if not await self._attach(self.owner):
                await self._reattach(self._generation)
            # The client's frames from now on: the first goes to a side already open.
            reader = self._spawn(self._read())
            await asyncio.wait(
                [reader, asyncio.ensure_future(self.done.wait())],
                return_when=asyncio.FIRST_COMPLETED,
            )
        except FrameError as error:
            self._unreadable(error)
        finally:
            # Ended: no task of this connection may attach it anywhere again (a reattach
            # under way would say the client's hello for a client that is gone, and replace
            # the seat's newer connection).
            self.done.set()
            tasks = [*self._tasks]
            tasks += [task for task in (reader, self._pump) if task is not None]
            for task in tasks:
                if task is not asyncio.current_task():
                    task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            self.watch.discard(self)
            await self._detach()
            with contextlib.suppress(Exception):
                if self.failed:
                    await self.socket.close(RESTARTING, "the table's server process failed")
                else:
                    await self.socket.close(1000, "")

    def _spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """A task of this connection's, cancelled when it ends."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._ended)
        return task

    def _ended(self, task: asyncio.Task[None]) -> None:
        """A task of this connection's ended. One that failed ends the connection, its
        client told to come again (``RESTARTING``): a connection whose frames no longer
        go through, or no longer come back, must not look alive."""
        self._tasks.discard(task)
        if task.cancelled() or (error := task.exception()) is None:
            return
        # A socket gone (its client left, or this connection closed it) is no failure.
        if isinstance(error, WebSocketDisconnect | WebSocketDisconnected):
            pass
        elif isinstance(error, FrameError):
            self._unreadable(error)
        else:
            log.error(
                "table %s: a relayed connection failed; its client reconnects",
                self.code,
                exc_info=error,
            )
            self.failed = True
        self.done.set()

    def _unreadable(self, error: FrameError) -> None:
        """The owner said what this process does not read: the connection fails (its client
        comes again, perhaps to a process that reads it), the reason logged."""
        log.error(
            "table %s: a relayed connection failed on %s; its client reconnects", self.code, error
        )
        self.failed = True

    async def _read(self) -> None:
        """The client's frames, forwarded in order."""
        try:
            while True:
                try:
                    payload = await self.socket.receive()
                except WebSocketDisconnect:
                    break
                if self.hello is None and isinstance(payload, str) and _is_hello(payload):
                    self._hello_said = payload  # said again after a move, unless refused
                await self._send(payload)
        finally:
            self.done.set()

    async def _forward(self, owner: str, conn: str, payload: str | bytes) -> Reply | Unsure:
        """Forwards a frame of the client to ``owner``'s side ``conn``; the owner's reply
        (``Moved``: not taken), or ``Unsure`` when it is not known whether it was taken: the
        bus failed, or the connection left that side before its owner answered (it moved:
        an owner that took the frame and died never answers, and the wait for it ends with
        the move, not after ``FRAME_SECONDS``)."""
        frame = ClientFrame.of(self.code, conn, payload)
        left = self._left
        forward = asyncio.ensure_future(
            self.node.bus.forward(
                owner,
                f"{self.code}#{conn}",
                frame.encode(),
                timeout=FRAME_SECONDS,
                take_timeout=TAKE_SECONDS,
            )
        )
        leaving = asyncio.ensure_future(left.wait())
        try:
            await asyncio.wait([forward, leaving], return_when=asyncio.FIRST_COMPLETED)
        finally:
            leaving.cancel()
            if not forward.done():
                forward.cancel()
        if not forward.done() or forward.cancelled():
            return Unsure()
        try:
            answer = forward.result()
        except NoOwnerError:
            return Moved()  # never handled: said again to the next owner
        except BusError:
            return Unsure()
        return _taken(decode_reply(answer))

    async def _send(self, payload: str | bytes, resend: bool = True) -> None:
        """Forwards a frame of the client; where its owner changed, or the bus failed on the
        way, the connection moves (or opens again), and the frame, if ``resend``, is said
        there once more, after the client's hello: surely not handled (``Moved``), or
        perhaps handled by an owner now gone or unheard (``Unsure``), where an action said
        twice is refused the second time by its version."""
        generation = self._generation
        reply = await self._forward(self.owner, self.conn, payload)
        if isinstance(reply, Moved | Unsure):
            await self._reattach(generation)
            # The hello the move said there (welcomed, or not answered yet) is not said twice.
            if resend and not self.done.is_set() and payload is not self._hello_moved:
                await self._send(payload, resend=False)

    async def _attach(self, owner: str) -> bool:
        """Opens this connection at ``owner`` and says the client's hello there, if it said
        one; whether that took. A connection that ended meanwhile, or whose attach its end
        cancelled, is closed at ``owner`` again and never says hello there."""
        conn = secrets.token_hex(8)
        subscription = await self.mailboxes.open(self.code, conn)
        opening = OpenSide(
            code=self.code, conn=conn, client=self.who, relay=self.node.owner, lineage=self.lineage
        )
        try:
            answer = await self.node.bus.forward(
                owner,
                f"{self.code}#{conn}",
                opening.encode(),
                timeout=FRAME_SECONDS,
                take_timeout=TAKE_SECONDS,
            )
            reply: Reply = _taken(decode_reply(answer))
        except BusError:
            reply = Moved()
        except asyncio.CancelledError:
            self._close_later(owner, conn)
            await subscription.close()
            raise
        if not isinstance(reply, Taken) or self.done.is_set():
            self._close_later(owner, conn)
            await subscription.close()
            return False
        # The former side first: its seat is replaced by this one's hello (4000), which
        # its client must never see.
        await self._detach()
        self.owner, self.conn, self.subscription = owner, conn, subscription
        self.epoch = reply.epoch
        self.attached = self.clock.monotonic()
        self._generation += 1
        self.watch.add(self)
        self._left.set()  # the forwards still waiting on the former side's owner end
        self._left = asyncio.Event()
        self._pump = self._spawn(self._pump_frames(subscription, self._generation))
        hello = self.hello if self.hello is not None else self._hello_said
        self._hello_moved = hello
        if hello is not None:
            # Not through ``_send``: this runs under the reattach's lock.
            return isinstance(await self._forward(owner, conn, hello), Taken)
        return True

    async def _detach(self) -> None:
        """Lets go of the current owner's side (it ends that connection)."""
        subscription, self.subscription = self.subscription, None
        pump, self._pump = self._pump, None
        if pump is not None and pump is not asyncio.current_task():
            pump.cancel()
        if subscription is not None:
            await subscription.close()
            self._close_later(self.owner, self.conn)

    def _close_later(self, owner: str, conn: str) -> None:
        """Closes the connection's side ``conn`` at ``owner``, without waiting: a dead owner
        would hold the move up for nothing."""
        task = asyncio.get_running_loop().create_task(self._close_at(owner, conn))
        _CLOSING.add(task)
        task.add_done_callback(_CLOSING.discard)

    async def _close_at(self, owner: str, conn: str) -> None:
        with contextlib.suppress(Exception):
            await self.node.bus.forward(
                owner,
                f"{self.code}#{conn}",
                CloseSide(code=self.code, conn=conn).encode(),
                timeout=2.0,
                take_timeout=TAKE_SECONDS,
            )

    async def _reattach(self, generation: int) -> None:
        """Finds the table's owner again and opens this connection there, unless it was
        opened anywhere since the side ``generation`` (the one whose change was noticed):
        once for all who noticed it, even those who noticed it while a search was under way;
        gives the client up after ``REATTACH_SECONDS`` (1012: it reconnects)."""
        async with self._lock:
            if generation != self._generation:
                return
            clock = self.clock
            deadline = clock.monotonic() + REATTACH_SECONDS
            while clock.monotonic() < deadline and not self.done.is_set():
                try:
                    owner = await self.route(self.code) or self.node.owner
                except RefusedError:
                    await clock.sleep(0.2)
                    continue
                if await self._attach(owner):
                    log.info("table %s: a relayed connection moved to %s", self.code, owner)
                    return
                await clock.sleep(0.1)
            with contextlib.suppress(Exception):
                await self.socket.close(RESTARTING, "the table's server process changed")
            self.done.set()

    async def _pump_frames(self, subscription: Subscription, generation: int) -> None:
        """The owner's frames for this client from the side ``generation``, sent on in
        order; ``FrameError`` for one it cannot read (the connection fails: its client comes
        again)."""
        async for item in subscription:
            if isinstance(item, Gap):  # frames lost: a full state brings the client back
                await self._send(SYNC, resend=False)
                continue
            frame = decode_side(item.payload)
            if not isinstance(frame, Close):
                if self.hello is None and frame.t.startswith(WELCOME):
                    self.hello = self._hello_said  # welcomed: the hello to say again
                elif self.hello is None and frame.t.startswith(ERROR):
                    self._hello_said = None  # refused: never said again
                await self.socket.send_text(frame.t)
                continue
            code, reason = frame.close
            if code in (MOVED, RESTARTING):
                self._spawn(self._reattach(generation))
            else:
                with contextlib.suppress(Exception):
                    await self.socket.close(code, reason)
                self.done.set()
            return

    @property
    def generation(self) -> int:
        """Its current side (each side opened is a new one)."""
        return self._generation

    def moved(self, generation: int) -> None:
        """The watch found the table's lease no longer held by the owner of the side
        ``generation``, under its epoch: the connection attaches again, unless it did since."""
        if not self.done.is_set():
            self._spawn(self._reattach(generation))


_CLOSING: set[asyncio.Task[None]] = set()
"""The closes under way of owners' sides that relays let go (kept from the collector)."""


def _taken(reply: Reply) -> Reply:
    """The owner's reply; ``FrameError`` when it refused the message as unreadable (this
    process speaks a version it does not: the connection fails, its client comes again)."""
    if isinstance(reply, Refused):
        raise FrameError("the owner refused a message", reply.refused)
    return reply


def _is_hello(text: str) -> bool:
    with contextlib.suppress(ValueError, TypeError, AttributeError):
        return bool(json.loads(text).get("type") == "hello")
    return False
