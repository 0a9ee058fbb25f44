"""MCP tool calls on a server of many processes: any process takes any call, and a call about
a table (by its seat token, or the code it joins) is served by the table's owner
(``dos.cluster.routing.OwnerRouting``), as the HTTP agent API is. Two processes, played by two
applications on one Redis and one database.

The deal is the suite's (``support.suite_deals``), whatever it is: two people and no bot, so the
one action played is the first legal one of whoever is to play."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from fastapi.testclient import TestClient

from cluster.conftest import redis_server  # noqa: F401 (fixture)
from cluster.support import RedisServer
from dos.house import create_app
from dos.server.app import ServerConfig
from dos.server.net.limits import Limits
from dos.server.people.relying_party import RelyingParty
from dos.server.tables.settings import Settings
from support import suite_deals

SECRET = "m" * 32


@pytest.fixture
def two(
    tmp_path: Path,
    redis_server: RedisServer,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[tuple[TestClient, TestClient]]:
    monkeypatch.setenv("DOS_SECRET", SECRET)
    with redis.Redis.from_url(redis_server.url) as client:
        client.flushdb()
    database = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    apps = []
    for name in ("one", "other"):
        config = ServerConfig(
            data=tmp_path / name,
            database=database,
            settings=Settings(bot_delay=0, pause_seconds=0, deals=suite_deals()),
            limits=Limits().with_changes(["off"]),
            relying_party=RelyingParty("localhost"),
            redis=redis_server.url,
            name=name,
        )
        apps.append(TestClient(create_app(config)))
    with apps[0], apps[1]:
        yield apps[0], apps[1]


def _call(client: TestClient, tool: str, **arguments: Any) -> dict[str, Any]:
    answer = client.post(
        "/mcp",
        json={
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": tool, "arguments": arguments},
        },
        headers={"accept": "application/json, text/event-stream"},
    )
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()["result"]
    return result


def _owner(client: TestClient, code: str) -> str:
    """Which process holds the table's lease (its name)."""
    node = client.app.state.service.ownership  # type: ignore[attr-defined]
    with redis.Redis.from_url(node.redis_url) as store:
        value = store.get(f"dos:table:{{{code}}}:lease")
    assert value is not None
    return str(value.decode().split(" ", 1)[1].split(":", 1)[0])


def test_a_tool_call_reaches_the_tables_owner_from_any_process(
    two: tuple[TestClient, TestClient],
) -> None:
    one, other = two
    created = _call(one, "create_table", name="Ada", bots=[None])
    grant = created["structuredContent"]
    code = grant["code"]
    assert _owner(one, code) == "one"
    # Joined, started, looked at and played through the process that does not own it.
    joined = _call(other, "join_table", code=code, name="Bea")
    assert not joined.get("isError"), joined
    bea = joined["structuredContent"]["token"]
    started = _call(other, "start_game", token=grant["token"])
    assert not started.get("isError"), started
    seen = _call(other, "look_json", token=bea)
    assert not seen.get("isError"), seen
    view = seen["structuredContent"]
    assert view["code"] == code and view["version"] == 0
    mover = bea if view["legal"] else grant["token"]
    mine = _call(other, "look_json", token=mover)["structuredContent"]
    action = mine["legal"][0]["action"]
    played = _call(other, "act", token=mover, action=action, version=0)
    assert not played.get("isError"), played
    assert played["structuredContent"]["version"] == 1
    assert _owner(one, code) == "one"  # served there, never taken over
    # The owner agrees: one action, the one played.
    there = _call(one, "look_json", token=bea)["structuredContent"]
    assert there["version"] == 1
    assert [move["action"] for move in there["last_actions"]] == [action]


def test_a_call_naming_no_table_is_served_where_it_lands(
    two: tuple[TestClient, TestClient],
) -> None:
    _one, other = two
    listed = _call(other, "list_tables")
    assert not listed.get("isError"), listed
    refused = _call(other, "look_json", token="not-a-token")
    assert refused.get("isError") and "token" in json.dumps(refused).lower()
