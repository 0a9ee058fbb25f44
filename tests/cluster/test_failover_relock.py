"""A page never locked out of its seat by its own connections relayed through other processes
(three ``dos serve --redis`` processes: the table's owner and two that relay to it).

After a failover a browser page comes back through any process while its former relayed
connection may still be registered at the owner, and that connection's hello may reach the
owner late (a relayed connection says its hello again wherever the table moved). Whatever the
order, each connection is welcomed once per hello, the page's newest connection holds the
seat, an older one of the same page (``?page=``) is told to connect again (4012), and none of
the page's connections is ever closed with 4000 ("replaced": final, the browser stops
reconnecting). The order is the test's own: no process is killed here, the late hello is
said by the test (``bench/failover.py`` kills owners at random)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
import redis
from websockets.exceptions import ConnectionClosed

from cluster.conftest import redis_server  # noqa: F401 (the fixture)
from cluster.support import RedisServer, redis_processes
from server.support import TIMEOUT, ServerProcess, WsPlayer, create_table, join_table

pytestmark = pytest.mark.asyncio

SECRET = "relock-secret-0123456789-0123456789-01"
PAGE = "page-3f9a61c2e07b"
"""The browser page's id (``?page=``), the same on each of its connections."""
CONNECT_AGAIN = 4012


@pytest.fixture(scope="module")
def processes(
    tmp_path_factory: pytest.TempPathFactory,
    redis_server: RedisServer,  # noqa: F811
) -> Iterator[list[ServerProcess]]:
    """The owner ``p0`` (tables are created there) and ``p1``, ``p2``."""
    with redis.Redis.from_url(redis_server.url) as client:
        client.flushdb()
    folder = tmp_path_factory.mktemp("relock")
    database = f"sqlite:///{folder / 'shared.sqlite3'}"
    servers = redis_processes(folder, database, redis_server.url, 3, SECRET)
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.stop()


def _page(server: ServerProcess, code: str, token: str) -> WsPlayer:
    """A connection of the page ``PAGE`` to table ``code`` through ``server``."""
    player = WsPlayer(server.ws_url, code, token)
    player.url += f"?page={PAGE}"
    return player


async def _hello(player: WsPlayer) -> None:
    """Says the seat's hello on an open connection and reads its welcome and state."""
    await player.send({"type": "hello", "protocol": 1, "token": player.token})
    await player.expect("welcome")
    await player.expect("state")


async def _closed(player: WsPlayer) -> int:
    """Reads the connection, welcomed once already, to its close; the close code. A second
    welcome fails: the connection's hello was said again, and took the seat back."""
    while True:
        try:
            message = await player.recv()
        except ConnectionClosed as closed:
            assert closed.rcvd is not None
            return closed.rcvd.code
        assert message["type"] != "welcome", "welcomed again: the seat went back to it"


async def _still_open(player: WsPlayer) -> None:
    """Answers a ping: the connection is open and served."""
    await player.send({"type": "ping", "id": "open?"})
    await player.expect("pong", id="open?")


def _welcomes(player: WsPlayer) -> int:
    return sum(message["type"] == "welcome" for message in player.messages)


@pytest.fixture
def table(processes: list[ServerProcess]) -> tuple[str, str]:
    """A table of two people, owned by ``p0``; its code and the host's seat token."""
    grant = create_table(processes[0].url, seats=[None, None], name="Ada")
    join_table(processes[0].url, grant["code"], "Bea")
    return grant["code"], grant["token"]


async def test_a_reconnect_through_another_process_takes_the_seat_from_the_pages_older(
    processes: list[ServerProcess], table: tuple[str, str]
) -> None:
    code, token = table
    _, first_relay, second_relay = processes
    older = await _page(first_relay, code, token).connect()
    # The page comes back through another process while its relayed connection is still
    # registered at the owner, holding the seat.
    newer = await _page(second_relay, code, token).connect()
    assert await asyncio.wait_for(_closed(older), TIMEOUT) == CONNECT_AGAIN
    await _still_open(newer)
    assert (_welcomes(older), _welcomes(newer)) == (1, 1)
    await newer.close()


async def test_a_late_hello_of_the_pages_older_connection_never_locks_the_page_out(
    processes: list[ServerProcess], table: tuple[str, str]
) -> None:
    code, token = table
    _, first_relay, second_relay = processes
    # The page's former connection, relayed and registered at the owner: its hello is late.
    older = await _page(first_relay, code, token).connect(hello=False)
    current = await _page(second_relay, code, token).connect()
    await _hello(older)  # the late hello takes the seat...
    # ...and the page's current connection is told to connect again, never "replaced".
    assert await asyncio.wait_for(_closed(current), TIMEOUT) == CONNECT_AGAIN
    # The page connects again (through another process than the one that relays the older
    # connection) and holds the seat; the older connection loses it.
    again = await _page(second_relay, code, token).connect()
    assert await asyncio.wait_for(_closed(older), TIMEOUT) == CONNECT_AGAIN
    await _still_open(again)
    assert [_welcomes(player) for player in (older, current, again)] == [1, 1, 1]
    await again.close()


async def test_a_connection_of_another_page_still_replaces_the_seat_for_good(
    processes: list[ServerProcess], table: tuple[str, str]
) -> None:
    code, token = table
    _, first_relay, second_relay = processes
    mine = await _page(first_relay, code, token).connect()
    other = WsPlayer(second_relay.ws_url, code, token)  # another page, or another client
    await other.connect()
    assert await asyncio.wait_for(_closed(mine), TIMEOUT) == 4000
    await _still_open(other)
    await other.close()
