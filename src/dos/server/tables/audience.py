"""A table's audience: who is connected to it, and how a message reaches them.

The seated players' connections are on their seats (``Seat.client``), the spectators' in a set;
agents over HTTP have no connection and wait for a change instead (``changed``). The audience
knows nothing of the game: the table gives it texts to send, or one text per seat (a view
differs by seat), and it delivers them, in the order given, to each connection's queue
(``dos.server.net.connections.Client.send``: never blocking, never waiting for a slow client).

This is the part of a table that a server on many processes spreads out: the table's owner
hands its messages to the audience; here they reach the connections of this process.

>>> from dos.server.clock import ManualClock
>>> from dos.server.tables.seat import Seat
>>> audience = Audience([Seat(0), Seat(1)], ManualClock())
>>> audience.clients(), audience.change
([], 0)
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from dos.server.clock import Clock
from dos.server.net.connections import Client
from dos.server.tables.seat import Seat

REPLACED = 4000
"""The WebSocket close code of a connection replaced by a newer one of its seat, of another
page (or client): final, the seat is held elsewhere now."""
SUPERSEDED = 4012
"""The WebSocket close code of a connection replaced by one of its own lineage (its page's, or
its relay's): "connect again". Such a connection is the client's older one, which it no
longer reads; or, when the older one's hello came late, the client's own current one, which
connects again and takes the seat back: the newest connection wins either way. Not 1012
(the table left this process), which a relaying process answers by attaching the connection
again at the table's owner, saying its hello there: two relayed connections of one page would
take the seat from each other for as long as both stay open."""


class Audience:
    """The connections of one table: its seats' and its spectators'."""

    def __init__(self, seats: list[Seat], clock: Clock) -> None:
        self.seats = seats
        """The table's seats (the same list): each holds its player's connection, if any."""
        self.clock = clock
        self.spectators: set[Client] = set()
        self.idle_since: float | None = clock.monotonic()
        """Since when nobody has been connected (``None``: somebody is)."""
        self.change = 0
        """Counts the changes of the table (actions, seats, status) since it was loaded."""
        self._changed = asyncio.Event()

    def seated(self) -> list[Client]:
        """The connections of seated players, in seat order."""
        return [s.client for s in self.seats if s.client is not None]

    def clients(self) -> list[Client]:
        """Every connection at the table: the seated players', then the spectators'."""
        return self.seated() + list(self.spectators)

    def send(self, text: str, spectators: bool = True) -> None:
        """Sends ``text`` to every seated player, and to the spectators unless told not to."""
        for client in self.clients() if spectators else self.seated():
            client.send(text)

    def send_each(self, text_for: Callable[[int | None], str]) -> None:
        """Sends each seated player ``text_for(seat)`` and every spectator ``text_for(None)``
        (made once for all of them: a spectator's text is the same for each)."""
        for seat in self.seats:
            if seat.client is not None:
                seat.client.send(text_for(seat.index))
        if self.spectators:
            text = text_for(None)
            for client in self.spectators:
                client.send(text)

    def take_seat(self, client: Client, seat: int) -> None:
        """``client`` is ``seat``'s connection from now on; an older one of the seat is closed
        (4000: replaced; 4012 when it is of the same lineage, ``SUPERSEDED``)."""
        place = self.seats[seat]
        old = place.client
        if old is not None and old is not client:
            if old.lineage is not None and old.lineage == client.lineage:
                old.close(SUPERSEDED, "replaced by a newer connection of this page: connect again")
            else:
                old.close(REPLACED, "replaced by a newer connection of this seat")
        place.client = client

    def leave_seat(self, client: Client) -> int | None:
        """A seated connection closed: its seat, which has no connection now; ``None`` if it
        held none (replaced by a newer connection of its seat, or never seated)."""
        seat = client.seat
        if seat is None or self.seats[seat].client is not client:
            return None
        self.seats[seat].client = None
        return seat

    def watch(self, client: Client) -> None:
        """A spectator comes."""
        self.spectators.add(client)

    def unwatch(self, client: Client) -> bool:
        """A spectator's connection closed; whether it was one."""
        if client not in self.spectators:
            return False
        self.spectators.discard(client)
        return True

    def present(self) -> None:
        """Somebody is at the table (a connection, or an agent's request)."""
        self.idle_since = None

    def check_idle(self) -> None:
        """After a connection closed: the table is idle from now if nobody is left."""
        if not self.clients():
            self.idle_since = self.clock.monotonic()

    def idle_for(self, now: float) -> float:
        """Seconds nobody has been connected (0 while somebody is)."""
        return 0.0 if self.idle_since is None else now - self.idle_since

    def signal_change(self) -> None:
        """Wakes whoever waits for a change (``changed``): agents' long polls."""
        self.change += 1
        self._changed.set()
        self._changed = asyncio.Event()

    async def changed(self, change: int, timeout: float) -> None:
        """Returns once ``self.change`` is not ``change``, or after ``timeout`` seconds."""
        if self.change == change:
            with contextlib.suppress(TimeoutError):
                await self.clock.wait_for(self._changed.wait(), timeout)
