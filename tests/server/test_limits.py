"""Abuse held at bay: per-client limits that reconnecting does not renew, request
deadlines and a connection cap, a paginated lobby, bounded resyncs, linear spectator fan-out,
and a goodbye on shutdown. Each server here runs with the limit under test tightened.

The tests of the tightened limits share one server (``tight``): each is a client of its own
there, connecting from a loopback address of its own (``loopback``), so the per-client limits
each one meets are untouched by the others."""

from __future__ import annotations

import json
import socket
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
import pytest_asyncio
from websockets.exceptions import ConnectionClosed

from server.support import HTTP, TIMEOUT, ServerProcess, WsPlayer, create_table


def _server(tmp_path: Path, *limits: str) -> ServerProcess:
    args: list[str] = ["--limit", "off"]
    for limit in limits:
        args += ["--limit", limit]
    server = ServerProcess(tmp_path / "data", None, *args)
    server.start()
    return server


@pytest.fixture(scope="module")
def tight(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server with small per-client limits (the other limits at their defaults), shared by
    the tests of those limits, each a client of its own (``loopback``)."""
    server = _server(
        tmp_path_factory.mktemp("tight"),
        "create=3/minute",
        "client_messages=50/day",
        "messages=1000/day",
        "connects=1000/minute",
        "syncs=2/minute",
        "header_seconds=0.5",
        "client_connections=8",
        "table_page=2",
    )
    yield server
    server.stop()


@pytest.fixture
def http(loopback: str) -> Iterator[httpx.Client]:
    """An HTTP client connecting from the test's own address (``loopback``)."""
    with httpx.Client(
        transport=httpx.HTTPTransport(local_address=loopback), timeout=TIMEOUT
    ) as session:
        yield session


def _create(http: httpx.Client, url: str, **body: object) -> dict[str, str]:
    """``POST /api/tables`` as ``http``'s client; returns the seat grant."""
    response = http.post(f"{url}/api/tables", json={"name": "Host", **body})
    assert response.status_code == 201, response.text
    grant: dict[str, str] = response.json()
    return grant


@pytest.fixture(scope="module")
def relaxed(server: ServerProcess) -> ServerProcess:
    """A server without per-client limits for the tests that leave it running: the one the
    tests share (``server``)."""
    return server


@pytest_asyncio.fixture
async def doomed(tmp_path: Path) -> AsyncIterator[ServerProcess]:
    """A server of its own, for a test that stops it."""
    server = _server(tmp_path, "off")
    yield server
    server.stop()


def test_creating_tables_is_limited_per_client(tight: ServerProcess, http: httpx.Client) -> None:
    for _ in range(3):
        _create(http, tight.url, seats=[None, "easy"])
    refused = http.post(f"{tight.url}/api/tables", json={"name": "Ada"})
    assert refused.status_code == 429
    assert refused.json()["code"] == "rate_limited"
    assert int(refused.headers["retry-after"]) >= 1


def test_the_public_list_comes_in_pages(tight: ServerProcess, http: httpx.Client) -> None:
    # The only public tables of the shared server: the other tests' tables are private.
    made = [_create(http, tight.url, seats=[None, "easy"], public=True)["code"] for _ in range(3)]
    first = http.get(f"{tight.url}/api/tables").json()
    assert first["total"] == 3 and first["limit"] == 2 and len(first["tables"]) == 2
    rest = http.get(f"{tight.url}/api/tables", params={"offset": 2, "limit": 50}).json()
    assert len(rest["tables"]) == 1
    listed = [t["code"] for t in first["tables"] + rest["tables"]]
    assert sorted(listed) == sorted(made)


@pytest.mark.asyncio
async def test_reconnecting_does_not_renew_the_message_budget(
    tight: ServerProcess, loopback: str, http: httpx.Client
) -> None:
    host = _create(http, tight.url, seats=[None, "easy"])
    answered = 0
    limited = False
    for _ in range(4):  # connections in a row, 20 pings each: 80 > the client's 50
        if limited:
            break
        player = await WsPlayer(tight.ws_url, host["code"], host["token"], loopback).connect()
        for number in range(20):
            await player.send({"type": "ping", "id": f"p{number}"})
        for _ in range(20):
            message = await player.recv()
            if message["type"] == "error":
                assert message["code"] == "rate_limited"
                limited = True
            elif message["type"] == "pong":
                answered += 1
        await player.close()
    assert limited
    assert answered <= 50


@pytest.mark.asyncio
async def test_resyncs_are_bounded_per_connection(
    tight: ServerProcess, loopback: str, http: httpx.Client
) -> None:
    host = _create(http, tight.url, seats=[None, "easy"])
    player = await WsPlayer(tight.ws_url, host["code"], host["token"], loopback).connect()
    for _ in range(3):
        await player.send({"type": "sync"})
    answers = []
    while len(answers) < 3:
        message = await player.recv()
        if message["type"] in ("state", "error"):  # not its arrival's table, log, chat rules
            answers.append(message)
    assert [m["type"] for m in answers] == ["state", "state", "error"]
    assert answers[-1]["code"] == "rate_limited"
    await player.close()


def _raw(server: ServerProcess, loopback: str) -> socket.socket:
    port = int(server.url.rsplit(":", 1)[1])
    return socket.create_connection(
        ("127.0.0.1", port), timeout=TIMEOUT, source_address=(loopback, 0)
    )


def test_a_half_sent_request_is_closed_after_the_deadline(
    tight: ServerProcess, loopback: str, http: httpx.Client
) -> None:
    with _raw(tight, loopback) as sock:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")  # no blank line: never ends
        answer = b""
        while chunk := sock.recv(4096):  # the server closes it: recv returns b""
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 408")
    assert http.get(f"{tight.url}/api/health").json() == {"ok": True}


def test_a_client_holds_a_bounded_number_of_connections(
    tight: ServerProcess, loopback: str
) -> None:
    held = [_raw(tight, loopback) for _ in range(8)]
    try:
        # Each held connection is counted once the server has seen it: a request on each.
        for sock in held:
            sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
            assert sock.recv(4096).startswith(b"HTTP/1.1 200")
        with _raw(tight, loopback) as extra:
            try:
                extra.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
                answer = extra.recv(4096)
            except ConnectionResetError:
                answer = b""
            assert answer == b""  # closed at once, unanswered
    finally:
        for sock in held:
            sock.close()


@pytest.mark.asyncio
async def test_spectators_joining_one_by_one_cost_linear_messages(
    relaxed: ServerProcess,
) -> None:
    host = create_table(relaxed.url, seats=[None, "easy"])
    seated = await WsPlayer(relaxed.ws_url, host["code"], host["token"]).connect()
    watchers = []
    for _ in range(30):
        watchers.append(await WsPlayer(relaxed.ws_url, host["code"], None).connect())
    await seated.send({"type": "ping", "id": "last"})
    await seated.expect("pong", id="last")
    for watcher in watchers:
        await watcher.send({"type": "ping", "id": "last"})
        await watcher.expect("pong", id="last")
    tables = sum(m["type"] == "table" for w in [seated, *watchers] for m in w.messages)
    assert tables <= 2 * 31  # was 30 * 31 / 2 = 465: every joiner told every earlier one
    assert seated.table is not None and seated.table["spectators"] == 30
    for watcher in watchers:
        await watcher.close()
    await seated.close()


@pytest.mark.asyncio
async def test_a_shutdown_says_goodbye_with_1001(doomed: ServerProcess) -> None:
    host = create_table(doomed.url, seats=[None, "easy"])
    player = await WsPlayer(doomed.ws_url, host["code"], host["token"]).connect()
    assert doomed.process is not None
    doomed.process.terminate()
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            await player.recv()
    assert closed.value.rcvd is not None
    assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (1001, "server shutting down")


@pytest.mark.asyncio
async def test_a_message_too_big_in_bytes_is_refused(relaxed: ServerProcess) -> None:
    host = create_table(relaxed.url, seats=[None, "easy"])
    player = await WsPlayer(relaxed.ws_url, host["code"], host["token"]).connect()
    text = json.dumps({"type": "ping", "id": "é" * 60}, ensure_ascii=False)
    padded = text[:-1] + ', "pad": "' + "é" * 2100 + '"}'  # 2,100 characters, 4,200 bytes
    assert len(padded) < 4096 < len(padded.encode())
    await player.send(padded)
    assert (await player.expect("error"))["code"] == "too_big"
    await player.send({"type": "ping", "id": "after"})
    await player.expect("pong", id="after")
    await player.close()


@pytest.mark.asyncio
async def test_deeply_nested_json_is_refused_and_the_connection_kept(
    relaxed: ServerProcess,
) -> None:
    host = create_table(relaxed.url, seats=[None, "easy"])
    player = await WsPlayer(relaxed.ws_url, host["code"], host["token"]).connect()
    await player.send("[" * 2000 + "]" * 2000)
    assert (await player.expect("error"))["code"] == "bad_json"
    await player.send({"type": "ping", "id": "after"})
    await player.expect("pong", id="after")
    nested = HTTP.post(
        f"{relaxed.url}/api/tables",
        content=b'{"name": "Ada", "options": ' + b"[" * 3000 + b"]" * 3000 + b"}",
        headers={"content-type": "application/json"},
    )
    assert nested.status_code == 400 and nested.json()["code"] in ("bad_json", "bad_request")
    await player.close()
