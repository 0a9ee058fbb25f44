"""At a table's owner: the socket of a client relayed by another process.

A client connected to another process reaches the table's owner as a ``RemoteSocket``: a
``dos.server.net.sockets.Socket`` whose incoming frames are those the relay forwarded
(``dos.cluster.to_owner.ClientFrame``, put here in order), and whose outgoing frames are
posted, numbered, to the relaying process's mailbox for that connection
(``dos.cluster.mailboxes``; ``dos.cluster.from_owner``: ``Text``, then ``Close`` last), for
the relay to read and send on. The owner holds the very same conversation over it as over its
own clients' WebSockets (``dos.server.http.conversation.hold``).

**An owner's frames are never dropped**: while Redis does not take a frame, it is posted again
under its number (the conversation's writer waits, its queue bounded as for a slow client), so
the frames reach the relay in order, each once, once Redis is back, the close that says the
table moved included.
"""

from __future__ import annotations

import asyncio
import logging

from starlette.websockets import WebSocketDisconnect

from dos.cluster.from_owner import Close, SideFrame, Text
from dos.cluster.mailboxes import Mailboxes
from dos.server.hosting.bus import BusUnavailableError

log = logging.getLogger(__name__)

SEND_RETRY_SECONDS = 0.5
"""How long an owner's side waits before it tries a frame again that Redis did not take
(real time: it waits for Redis to come back)."""


class RemoteSocket:
    """The socket of connection ``conn`` to table ``code``, relayed by the process ``relay``
    (its owner id): see the module's text."""

    def __init__(self, mailboxes: Mailboxes, code: str, conn: str, relay: str) -> None:
        self.mailboxes = mailboxes
        self.code = code
        self.conn = conn
        self.relay = relay
        """The relaying process's owner id."""
        self.ended = False
        """Whether its conversation ended (frames forwarded after it are refused)."""
        self._inbox: asyncio.Queue[str | bytes | None] = asyncio.Queue()
        self._sent = 0

    def put(self, payload: str | bytes) -> None:
        """The client's next frame, as its relay forwarded it."""
        self._inbox.put_nowait(payload)

    def disconnect(self) -> None:
        """Ends the conversation as a client that left (the relay let go of this side, or the
        table left this process)."""
        self._inbox.put_nowait(None)

    @property
    def waiting(self) -> int:
        """How many of the client's frames (and the disconnect) wait to be read."""
        return self._inbox.qsize()

    async def receive(self) -> str | bytes:
        """The client's next frame; ``WebSocketDisconnect`` once it is gone."""
        payload = await self._inbox.get()
        if payload is None:
            raise WebSocketDisconnect(1001)
        return payload

    async def send_text(self, text: str) -> None:
        """Publishes a message for the client."""
        await self._publish(Text(t=text))

    async def close(self, code: int, reason: str) -> None:
        """Publishes the side's close (the last frame of its stream)."""
        await self._publish(Close(close=(code, reason)))

    async def _publish(self, frame: SideFrame) -> None:
        """Posts the next frame for the relay, again while Redis does not take it, until it
        does or the conversation ends (the writer is cancelled then): a frame given up would
        leave the relay's client silent, its mailbox without a gap to show it (nothing after
        it either), and its owner unchanged. A try Redis stored though its answer was lost
        is read once: the relay's mailbox drops a number it has."""
        self._sent += 1
        payload = frame.encode()
        failures = 0
        while True:
            try:
                await self.mailboxes.post(self.relay, self.code, self.conn, self._sent, payload)
            except BusUnavailableError as error:
                if failures == 0:
                    log.warning("table %s: a relayed frame waits for Redis (%s)", self.code, error)
                failures += 1
                await asyncio.sleep(SEND_RETRY_SECONDS)
                continue
            if failures:
                log.info("table %s: a relayed frame went out after %d tries", self.code, failures)
            return
