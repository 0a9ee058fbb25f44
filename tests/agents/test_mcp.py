"""An MCP client from the SDK plays a whole game against the server's bots through the MCP
server: mounted on ``dos serve`` (streamable HTTP), and on stdio (``dos mcp --server``)."""

from __future__ import annotations

import random
import re
import sys
from typing import Any

import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from dos.bots.registry import LEVELS
from server.support import ServerProcess

pytestmark = pytest.mark.asyncio

TOOLS = {
    "rules",
    "list_tables",
    "create_table",
    "join_table",
    "start_game",
    "look",
    "look_json",
    "act",
    "call_dos",
    "catch",
    "wait",
    "game_record",
}


def text_of(result: Any) -> str:
    """The text a tool answered (failing on a tool error)."""
    assert not result.is_error, result.content[0].text
    return str(result.content[0].text)


def token_of(grant: str) -> str:
    found = re.search(r"^token: (\S+)$", grant, re.MULTILINE)
    assert found, grant
    return found.group(1)


async def play_a_game(session: ClientSession, rng: random.Random) -> str:
    """Creates a table with an easy bot, plays it to the end; returns the final text."""
    await session.initialize()
    tools = {tool.name: tool for tool in (await session.list_tools()).tools}
    assert set(tools) == TOOLS
    levels = (tools["create_table"].description or "").split("easiest first: ", 1)[1]
    assert f"official {', '.join(LEVELS)};" in levels and "expert" in LEVELS
    assert "Double Number Match" in text_of(await session.call_tool("rules", {}))
    grant = text_of(
        await session.call_tool(
            "create_table", {"name": "Claude", "bots": ["easy"], "target_score": 20}
        )
    )
    token = token_of(grant)
    assert text_of(await session.call_tool("start_game", {"token": token})).startswith("DOS 1")
    for _ in range(5000):
        seat = (await session.call_tool("look_json", {"token": token})).structured_content
        assert seat is not None
        if seat["result"] is not None:
            return text_of(await session.call_tool("look", {"token": token}))
        legal = seat["view"]["legal"]
        calls = [a for a in legal if a.endswith("dos")]
        turn = [a for a in legal if ":" not in a and not a.startswith("catch")]
        version = seat["version"]
        if calls:
            answer = await session.call_tool("call_dos", {"token": token, "version": version})
        elif turn:
            action = rng.choice(turn)
            args = {"token": token, "action": action, "version": version}
            answer = await session.call_tool("act", args)
        else:
            since = {"token": token, "version": version, "change": seat["change"]}
            text_of(await session.call_tool("wait", since))
            continue
        if answer.is_error:  # only a bot's faster action may refuse ours
            refusal = answer.content[0].text
            if "refused (not_playing)" in refusal:  # the bot's action ended the game
                after = (await session.call_tool("look_json", {"token": token})).structured_content
                assert after is not None and after["result"] is not None, refusal
            else:
                assert "refused (stale)" in refusal
    raise AssertionError("the game did not end")


async def test_an_mcp_client_plays_a_whole_game_over_streamable_http(
    agent_server: ServerProcess,
) -> None:
    async with (
        streamable_http_client(f"{agent_server.url}/mcp") as (read, write),
        ClientSession(read, write) as session,
    ):
        final = await play_a_game(session, random.Random(5))
        assert "status: finished" in final
        assert re.search(r"^result: winner [01]; scores", final, re.MULTILINE)
        tables = (await session.call_tool("list_tables", {})).structured_content
        assert tables is not None and "tables" in tables


async def test_an_mcp_client_plays_a_whole_game_over_stdio(agent_server: ServerProcess) -> None:
    command = StdioServerParameters(
        command=sys.executable, args=["-m", "dos", "mcp", "--server", agent_server.url]
    )
    async with (
        stdio_client(command) as (read, write),
        ClientSession(read, write) as session,
    ):
        final = await play_a_game(session, random.Random(6))
        assert "status: finished" in final
        grant = token_of(
            text_of(await session.call_tool("create_table", {"name": "Claude", "bots": [None]}))
        )
        record = await session.call_tool("game_record", {"token": grant})
        assert record.is_error
        assert "refused (bad_state)" in record.content[0].text


@pytest.mark.parametrize("name", ["official", "classic"])
async def test_the_rules_tool_tells_each_rule_set(agent_server: ServerProcess, name: str) -> None:
    async with (
        streamable_http_client(f"{agent_server.url}/mcp") as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        text = text_of(await session.call_tool("rules", {"rules": name}))
        assert text.startswith(f"# DOS, the {name} rules")
