"""A seat's connections by lineage (``dos.server.tables.audience``): a connection of another
page replaces the seat's with 4000 (final: the seat is held elsewhere), one of the same page
or relayed connection with 4012 (connect again), so a client's own late connection never
locks it out of its seat."""

from __future__ import annotations

import pytest

from dos.server.clock import ManualClock
from dos.server.net.connections import Client
from dos.server.net.limits import Counters, Limits
from dos.server.tables.audience import Audience
from dos.server.tables.seat import Seat

pytestmark = pytest.mark.asyncio


class Socket:
    """A client's WebSocket that records its close."""

    def __init__(self) -> None:
        self.closed: tuple[int, str] | None = None

    async def receive(self) -> str | bytes:
        raise AssertionError("not read here")

    async def send_text(self, text: str) -> None:
        pass

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


async def closed_by_the_next(older: str | None, newer: str | None) -> int | None:
    """The close code the seat's connection of lineage ``older`` gets when one of ``newer``
    takes the seat."""
    audience = Audience([Seat(0)], ManualClock())
    counters = Counters(Limits())
    socket = Socket()
    first = Client(socket, "127.0.0.1", counters, older)
    first.start()
    audience.take_seat(first, 0)
    second = Client(Socket(), "127.0.0.1", counters, newer)
    audience.take_seat(second, 0)
    await first.drain()
    assert audience.seats[0].client is second
    return None if socket.closed is None else socket.closed[0]


async def test_a_connection_of_another_page_replaces_the_seat_for_good() -> None:
    assert await closed_by_the_next("page-aaaaaaaa", "page-bbbbbbbb") == 4000
    assert await closed_by_the_next(None, "page-bbbbbbbb") == 4000
    assert await closed_by_the_next(None, None) == 4000


async def test_a_connection_of_the_same_page_tells_the_older_to_connect_again() -> None:
    assert await closed_by_the_next("page-aaaaaaaa", "page-aaaaaaaa") == 4012
