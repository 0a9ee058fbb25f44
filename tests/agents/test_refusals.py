"""An agent's illegal, stale and foreign-seat actions are refused exactly like a browser's:
the same code, message and catalog words over the agent API, the MCP tools and the
WebSocket, and nothing changes."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import pytest_asyncio
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

from server.support import HTTP, ServerProcess, WsPlayer, create_table, join_table

pytestmark = pytest.mark.asyncio


class Seat:
    """One seat, played over the WebSocket and over the agent API with the same token."""

    def __init__(self, url: str, grant: dict[str, Any], ws: WsPlayer) -> None:
        self.url = url
        self.token = grant["token"]
        self.ws = ws

    def agent(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        headers = {"authorization": f"Bearer {self.token}"}
        return httpx.request(method, f"{self.url}/api/agent{path}", headers=headers, **kwargs)

    async def both(self, action: str, version: int) -> tuple[dict[str, Any], httpx.Response]:
        """The WebSocket's answer and the agent API's to the same action."""
        socket = await self.ws.act(action, version)
        body = {"action": action, "version": version}
        return socket, self.agent("POST", "/seat/actions", json=body)


@pytest_asyncio.fixture
async def seats(agent_server: ServerProcess) -> AsyncIterator[list[Seat]]:
    """A table of two guests (no bots: nothing moves but what the test sends), started."""
    url = agent_server.url
    host = create_table(url, name="Ann", seats=[None, None])
    guest = join_table(url, host["code"], "Bob")
    players = [
        await WsPlayer(agent_server.ws_url, host["code"], g["token"]).connect()
        for g in (host, guest)
    ]
    table = [Seat(url, g, p) for g, p in zip((host, guest), players, strict=True)]
    assert table[0].agent("POST", "/seat/start").status_code == 200
    for player in players:
        await player.expect("state")
    yield table
    for player in players:
        await player.close()


def same_refusal(socket: dict[str, Any], agent: httpx.Response, code: str, status: int) -> None:
    assert socket["type"] == "error"
    assert agent.status_code == status, agent.text
    body = agent.json()
    assert socket["code"] == body["code"] == code
    assert socket["message"] == body["message"]
    assert socket.get("key") == body.get("key")
    assert socket.get("params") == body.get("params")


async def test_an_illegal_action_is_refused_with_the_rule_and_its_words(
    seats: list[Seat],
) -> None:
    version = seats[0].ws.version
    socket, agent = await seats[0].both("R7@9", version)
    same_refusal(socket, agent, "illegal", 422)
    assert agent.json()["key"].startswith("game.err_")
    after = seats[0].agent("GET", "/seat").json()
    assert after["version"] == version


async def test_a_stale_action_is_refused(seats: list[Seat]) -> None:
    version = seats[0].ws.version
    socket, agent = await seats[0].both("draw", version + 3)
    same_refusal(socket, agent, "stale", 409)


async def test_unreadable_notation_is_refused(seats: list[Seat]) -> None:
    socket, agent = await seats[1].both("fly away", seats[1].ws.version)
    same_refusal(socket, agent, "notation", 400)


async def test_an_action_for_another_seat_is_refused(seats: list[Seat]) -> None:
    # Seat 0 writes seat 1's action (RULES §6's prefix), on the right version.
    socket, agent = await seats[0].both("1: dos", seats[0].ws.version)
    same_refusal(socket, agent, "not_your_seat", 403)
    socket, agent = await seats[1].both("0: draw", seats[1].ws.version)
    same_refusal(socket, agent, "not_your_seat", 403)


async def test_only_the_host_starts_and_not_twice(seats: list[Seat]) -> None:
    guest = seats[1].agent("POST", "/seat/start")
    assert guest.status_code == 403 and guest.json()["code"] == "not_host"
    again = seats[0].agent("POST", "/seat/start")
    assert again.status_code == 409 and again.json()["code"] == "bad_state"


async def test_a_forged_or_missing_token_opens_nothing(seats: list[Seat]) -> None:
    url = seats[0].url
    for headers in ({}, {"authorization": "Bearer x.y.z"}, {"authorization": "Basic abc"}):
        answer = HTTP.get(f"{url}/api/agent/seat", headers=headers)
        assert answer.status_code == 401, headers
        assert answer.json()["code"] == "bad_token"
    forged = seats[0].token[:-3] + ("AAA" if not seats[0].token.endswith("AAA") else "BBB")
    answer = HTTP.get(f"{url}/api/agent/seat", headers={"authorization": f"Bearer {forged}"})
    assert answer.status_code == 401 and answer.json()["code"] == "bad_token"


async def test_the_mcp_tools_refuse_as_the_websocket_does(
    agent_server: ServerProcess, seats: list[Seat]
) -> None:
    version = seats[0].ws.version
    socket = await seats[0].ws.act("R7@9", version)
    stale = await seats[0].ws.act("draw", version + 3)
    async with (
        streamable_http_client(f"{agent_server.url}/mcp") as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        args = {"token": seats[0].token, "action": "R7@9", "version": version}
        illegal = await session.call_tool("act", args)
        assert illegal.is_error
        assert f"refused (illegal): {socket['message']}" in illegal.content[0].text
        words = {"key": socket["key"], "params": socket["params"]}
        assert illegal.content[0].text.endswith(json.dumps(words))
        args = {"token": seats[0].token, "action": "draw", "version": version + 3}
        late = await session.call_tool("act", args)
        assert f"refused (stale): {stale['message']}" in late.content[0].text
        args = {"token": seats[0].token, "seat": 1, "version": version}
        caught = await session.call_tool("catch", args)
        assert caught.is_error and "refused (illegal)" in caught.content[0].text


async def test_a_wait_returns_with_the_action_that_ended_it(seats: list[Seat]) -> None:
    view = seats[0].agent("GET", "/seat").json()
    turn = view["view"]["turn"]
    mover = seats[turn]
    params = {"version": view["version"], "change": view["change"], "timeout": 30}
    params["until"] = "change"
    waiting = asyncio.create_task(
        asyncio.to_thread(seats[1 - turn].agent, "GET", "/seat/wait", params=params, timeout=40)
    )
    answer = await mover.ws.act("draw", mover.ws.version)
    assert answer["type"] == "update"
    woken = (await waiting).json()
    assert woken["version"] == view["version"] + 1
    assert woken["view"]["hand_sizes"][turn] == view["view"]["hand_sizes"][turn] + 1


async def test_a_wait_waits_for_the_turn_by_default(seats: list[Seat]) -> None:
    """Without ``until``, a wait is not ended by a change that gives the seat nothing to do
    (the other seat's draw): it lasts its ``timeout``."""
    view = seats[0].agent("GET", "/seat").json()
    turn = view["view"]["turn"]
    mover = seats[turn]
    params = {"version": view["version"], "change": view["change"], "timeout": 1.5}
    started = time.monotonic()
    waiting = asyncio.create_task(
        asyncio.to_thread(seats[1 - turn].agent, "GET", "/seat/wait", params=params, timeout=40)
    )
    await asyncio.sleep(0.2)
    assert (await mover.ws.act("draw", mover.ws.version))["type"] == "update"
    woken = (await waiting).json()
    assert time.monotonic() - started >= 1.4
    assert woken["version"] == view["version"] + 1
    assert woken["legal"] == []


async def test_a_stale_action_says_what_moved_the_game(
    agent_server: ServerProcess, seats: list[Seat]
) -> None:
    """A stale refusal is the WebSocket's, and tells the actions since the version the action
    was made on (``moved``; in the MCP tool's text); the views tell the last actions."""
    view = seats[0].agent("GET", "/seat").json()
    version, turn = view["version"], view["view"]["turn"]
    late = seats[1 - turn]
    assert (await seats[turn].ws.act("draw", version))["type"] == "update"
    socket, agent = await late.both("draw", version)
    same_refusal(socket, agent, "stale", 409)
    moved = {
        "version": version,
        "seat": turn,
        "action": "draw",
        "words": f"seat {turn} drew a card",
    }
    assert agent.json()["moved"] == [moved]
    now = late.agent("GET", "/seat").json()
    assert now["last_actions"] == [moved]
    line = f"- {version} seat {turn}: draw | seat {turn} drew a card"
    assert f"\nlast actions:\n{line}\nlegal:" in now["text"]
    mine = seats[turn].agent("GET", "/seat").json()
    (own,) = mine["last_actions"]  # the drawer reads which card it drew
    assert own == {**moved, "words": own["words"]} and own["words"].startswith("you drew ")
    assert own["words"] != "you drew a card"
    async with (
        streamable_http_client(f"{agent_server.url}/mcp") as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        args = {"token": late.token, "action": "draw", "version": version}
        answer = await session.call_tool("act", args)
        assert answer.is_error
        text = answer.content[0].text
        assert f"refused (stale): {socket['message']}\nsince version {version}:\n{line}" in text
