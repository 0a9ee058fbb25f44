"""Agents get no more than browsers: the agent API and the MCP endpoint count as API
look-ups of their client, and an agent's actions as its WebSocket messages."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from dos.agents.mcp_mount import RATE_LIMITED
from server.support import HTTP, TIMEOUT, ServerProcess, create_table


@pytest.fixture(scope="module")
def strict_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server that allows a client 6 look-ups and 1 message a day (nothing else is
    limited). A day, not a minute: the busy counters are sliding window counters, whose
    count is an estimate across a window's edge, and a test that counts exactly must not
    straddle one."""
    data: Path = tmp_path_factory.mktemp("strict")
    limits = ["--limit", "off", "--limit", "lookup=6/day", "--limit", "client_messages=1/day"]
    process = ServerProcess(data, None, *limits)
    process.start()
    yield process
    process.stop()


def test_agent_requests_count_as_lookups_and_actions_as_messages(
    strict_server: ServerProcess,
) -> None:
    url = strict_server.url
    grant = create_table(url, seats=[None, "easy"])
    auth = {"authorization": f"Bearer {grant['token']}"}
    assert HTTP.post(f"{url}/api/agent/seat/start", headers=auth).status_code == 200
    move = {"action": "R7@99", "version": 0}  # refused, but counted as a message
    first = HTTP.post(f"{url}/api/agent/seat/actions", headers=auth, json=move)
    assert first.json()["code"] in ("illegal", "stale", "not_playing")
    second = HTTP.post(f"{url}/api/agent/seat/actions", headers=auth, json=move)
    assert second.status_code == 429 and second.json()["code"] == "rate_limited"
    answers = [HTTP.get(f"{url}/api/agent/seat", headers=auth) for _ in range(3)]
    assert [a.status_code for a in answers] == [200] * 3
    refused = HTTP.get(f"{url}/api/agent/seat", headers=auth)
    assert refused.status_code == 429
    assert refused.json()["code"] == "rate_limited"
    assert int(refused.headers["retry-after"]) >= 1
    mcp = HTTP.post(
        f"{url}/mcp",
        json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
        headers={"accept": "application/json, text/event-stream"},
    )
    assert mcp.status_code == 429 and mcp.json()["code"] == "rate_limited"


@pytest.fixture(scope="module")
def few(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server that allows a client 1 message a day, 3 tables and 3 joins a minute
    (nothing else is limited). Each test is a client of its own there (``loopback``: the
    limits are per client address)."""
    limits = ["off", "client_messages=1/day", "create=3/minute", "join=3/minute"]
    process = ServerProcess(
        tmp_path_factory.mktemp("few"), None, *[a for x in limits for a in ("--limit", x)]
    )
    process.start()
    yield process
    process.stop()


@pytest.fixture
def http(loopback: str) -> Iterator[httpx.Client]:
    """An HTTP client connecting from the test's own address (``loopback``)."""
    transport = httpx.HTTPTransport(local_address=loopback)
    with httpx.Client(transport=transport, timeout=TIMEOUT) as session:
        yield session


def _create(http: httpx.Client, url: str, **body: Any) -> dict[str, Any]:
    """``POST /api/tables`` as ``http``'s client; returns the seat grant."""
    response = http.post(f"{url}/api/tables", json={"name": "Host", **body})
    assert response.status_code == 201, response.text
    grant: dict[str, Any] = response.json()
    return grant


def _mcp_http(loopback: str) -> Any:
    """The MCP client's HTTP client (``httpx2``, the MCP SDK's), connecting from
    ``loopback``, with the SDK's own timeouts."""
    import httpx2

    return httpx2.AsyncClient(
        timeout=httpx2.Timeout(30.0, read=300.0),
        transport=httpx2.AsyncHTTPTransport(local_address=loopback),
    )


@pytest.mark.asyncio
async def test_mcp_actions_count_as_messages_of_their_client(
    few: ServerProcess, http: httpx.Client, loopback: str
) -> None:
    from mcp.client.session import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    url = few.url
    grant = _create(http, url, seats=[None, "easy"])
    auth = {"authorization": f"Bearer {grant['token']}"}
    assert http.post(f"{url}/api/agent/seat/start", headers=auth).status_code == 200
    async with (
        _mcp_http(loopback) as client,
        streamable_http_client(f"{url}/mcp", http_client=client) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        args = {"token": grant["token"], "action": "R7@99", "version": 0}
        first = await session.call_tool("act", args)
        assert first.is_error and "rate_limited" not in first.content[0].text
        second = await session.call_tool("act", args)
        said = second.content[0].text
        assert second.is_error and "refused (rate_limited)" in said
        assert "(client_messages: 1/day per client): try again in " in said


@pytest.mark.asyncio
async def test_mcp_meets_the_same_create_and_join_limits_as_rest(
    few: ServerProcess, http: httpx.Client, loopback: str
) -> None:
    """One limit per operation, whatever the path: tables made over MCP and over REST count
    together, and so do joins."""
    from mcp.client.session import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    url = few.url
    code = _create(http, url, seats=[None, None, None, None])["code"]  # 1 of 3, over REST
    async with (
        _mcp_http(loopback) as client,
        streamable_http_client(f"{url}/mcp", http_client=client) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        made = [await session.call_tool("create_table", {"name": "Bot"}) for _ in range(3)]
        assert [m.is_error for m in made] == [False, False, True]
        assert "refused (rate_limited)" in made[2].content[0].text
        joins = [
            await session.call_tool("join_table", {"code": code, "name": f"Guest{i}"})
            for i in range(3)
        ]
        assert [j.is_error for j in joins] == [False, False, False]
    refused = http.post(f"{url}/api/tables/{code}/join", json={"name": "Late"})
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    assert int(refused.headers["retry-after"]) >= 1
    again = http.post(f"{url}/api/tables", json={"name": "Ada"})
    assert again.status_code == 429 and again.json()["code"] == "rate_limited"


@pytest.mark.asyncio
async def test_mcp_wait_refuses_a_timeout_that_is_no_number_of_seconds(
    few: ServerProcess, http: httpx.Client
) -> None:
    """``NaN``, infinities and values past 30 s are refused over MCP as over HTTP, at once."""
    from mcp.client.session import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    url = few.url
    token = _create(http, url, seats=[None, "easy"])["token"]
    async with (
        streamable_http_client(f"{url}/mcp") as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        for timeout in ("NaN", "nan", "Infinity", "-Infinity", 31, -1):
            args = {"token": token, "version": 0, "timeout": timeout}
            answer = await session.call_tool("wait", args)
            assert answer.is_error, timeout
            assert "timeout" in answer.content[0].text
    over_http = HTTP.get(
        f"{url}/api/agent/seat/wait",
        params={"version": 0, "timeout": "NaN"},
        headers={"authorization": f"Bearer {token}"},
    )
    assert over_http.status_code == 422
    assert not any("Traceback" in line for line in few.output)


def test_get_mcp_opens_no_stream(few: ServerProcess) -> None:
    """The MCP endpoint answers one JSON body per POST; a GET (which would open an event
    stream that never ends) is refused at once."""
    answer = HTTP.get(f"{few.url}/mcp", headers={"accept": "text/event-stream"}, timeout=10)
    assert answer.status_code == 405
    assert answer.json()["code"] == "method_not_allowed"
    assert "POST" in answer.headers.get("allow", "")


@pytest.mark.asyncio
async def test_mcp_past_the_lookup_limit_is_a_json_rpc_error_with_the_wait(
    strict_server: ServerProcess, loopback: str
) -> None:
    """Past its look-ups, an MCP SDK client gets the server's refusal as a JSON-RPC error
    that names the limit and the seconds to wait (not the SDK's bare "Server returned an
    error response"); the HTTP answer is still 429 with ``Retry-After``."""
    from mcp.client.session import ClientSession
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared.exceptions import MCPError

    async with (
        _mcp_http(loopback) as client,
        streamable_http_client(f"{strict_server.url}/mcp", http_client=client) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        refused: MCPError | None = None
        for _ in range(8):  # 6 look-ups a day: initialize and its notice count
            try:
                await session.call_tool("rules", {"rules": "official"})
            except MCPError as error:
                refused = error
                break
    assert refused is not None, "the limit never refused"
    error = refused.error
    assert error.code == RATE_LIMITED
    assert "lookup" in error.message and "6/day" in error.message
    assert isinstance(error.data, dict) and error.data["code"] == "rate_limited"
    assert error.data["limit"] == "lookup" and error.data["rate"] == "6/day"
    wait = error.data["retry_after"]
    assert isinstance(wait, int) and wait >= 1 and f"try again in {wait} s" in error.message
