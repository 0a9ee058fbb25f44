"""An MCP client from the SDK plays a whole game against the server's bots through the MCP
server: mounted on ``dos serve`` (streamable HTTP), and on stdio (``dos mcp --server``); the
tools answer structured content (and text), describe every parameter, keep one player across
tables, and name a game as the view does."""

from __future__ import annotations

import asyncio
import importlib.metadata
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from dos import records
from dos.agents.text import FORMAT
from dos.bots.registry import LEVELS
from server.support import HTTP, ServerProcess, create_table

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
    "leave_table",
}


def text_of(result: Any) -> str:
    """The text a tool answered (failing on a tool error)."""
    assert not result.is_error, result.content[0].text
    return str(result.content[0].text)


def data_of(result: Any) -> dict[str, Any]:
    """The structured content a tool answered (failing on a tool error)."""
    text_of(result)
    assert isinstance(result.structured_content, dict), result
    return dict(result.structured_content)


def token_of(grant: str) -> str:
    found = re.search(r"^token: (\S+)$", grant, re.MULTILINE)
    assert found, grant
    return found.group(1)


async def new_game(session: ClientSession, **args: Any) -> str:
    """A table with an easy bot (to 20 points), started; the seat token."""
    body = {"name": "Claude", "bots": ["easy"], "target_score": 20, **args}
    answer = await session.call_tool("create_table", body)
    grant = data_of(answer)
    assert token_of(text_of(answer)) == grant["token"]
    started = await session.call_tool("start_game", {"token": grant["token"]})
    assert text_of(started).startswith(f"DOS {FORMAT}\n")
    assert data_of(started)["text"] == text_of(started)
    return str(grant["token"])


async def play_a_game(session: ClientSession, rng: random.Random) -> str:
    """Creates a table with an easy bot, plays it to the end; returns the final text."""
    await session.initialize()
    tools = {tool.name: tool for tool in (await session.list_tools()).tools}
    assert set(tools) == TOOLS
    levels = (tools["create_table"].description or "").split("easiest first: ", 1)[1]
    assert f"official {', '.join(LEVELS)};" in levels and "expert" in LEVELS
    assert "Double Number Match" in text_of(await session.call_tool("rules", {}))
    return await play_to_the_end(session, await new_game(session), rng)


async def play_to_the_end(session: ClientSession, token: str, rng: random.Random) -> str:
    """Plays the seat's game to its end, at random (DOS calls first); the final text."""
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
            waited = await session.call_tool("wait", since)
            assert data_of(waited)["text"] == text_of(waited)
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


async def test_an_mcp_client_plays_a_whole_game_over_stdio(random_server: ServerProcess) -> None:
    agent_server = random_server  # a rated table: a seeded server rates none
    command = StdioServerParameters(
        command=sys.executable, args=["-m", "dos", "mcp", "--server", agent_server.url]
    )
    async with (
        stdio_client(command) as (read, write),
        ClientSession(read, write) as session,
    ):
        final = await play_a_game(session, random.Random(6))
        assert "status: finished" in final
        first = data_of(await session.call_tool("create_table", {"name": "Claude", "bots": [None]}))
        args = {"name": "Claude", "rated": True, "player_token": first["player_token"]}
        second = data_of(await session.call_tool("create_table", args))
        assert first["player_id"] == second["player_id"]
        assert (first["table"]["rated"], second["table"]["rated"]) == (False, True)
        record = await session.call_tool("game_record", {"token": first["token"]})
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


async def test_the_tools_describe_their_parameters_and_answer_structured_content(
    agent_server: ServerProcess,
) -> None:
    async with (
        streamable_http_client(f"{agent_server.url}/mcp") as (read, write),
        ClientSession(read, write) as session,
    ):
        hello = await session.initialize()
        assert hello.server_info.name == "dos"
        assert hello.server_info.version == importlib.metadata.version("dos-game")
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        for tool in tools.values():
            for name, schema in tool.input_schema.get("properties", {}).items():
                assert schema.get("description"), (tool.name, name)
            assert tool.output_schema is not None, tool.name
        for name in ("start_game", "look", "act", "call_dos", "catch", "wait"):
            fields = set(tools[name].output_schema["properties"])  # type: ignore[index]
            assert {"version", "change", "view", "legal", "last_actions", "text"} <= fields
        for name in ("create_table", "join_table"):
            fields = set(tools[name].output_schema["properties"])  # type: ignore[index]
            assert {"code", "seat", "token", "player_id", "player_token"} <= fields
        assert tools["wait"].input_schema["properties"]["until"]["default"] == "turn"
        tables = data_of(await session.call_tool("list_tables", {}))
        assert isinstance(tables["tables"], list)


async def test_an_agent_keeps_one_player_across_tables_and_plays_casual_by_default(
    random_server: ServerProcess,
) -> None:
    """The ``player_token`` of a grant, passed back, keeps the agent one player (one id on the
    leaderboard); a table made over MCP is casual unless asked to be rated."""
    agent_server = random_server  # a rated table: a seeded server rates none
    lobby = create_table(agent_server.url, name="Host", seats=[None, None])
    async with (
        streamable_http_client(f"{agent_server.url}/mcp") as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        first = data_of(await session.call_tool("create_table", {"name": "Agent"}))
        assert first["table"]["rated"] is False
        keep = first["player_token"]
        args = {"name": "Agent", "bots": ["easy"], "rated": True, "player_token": keep}
        second = data_of(await session.call_tool("create_table", args))
        assert second["table"]["rated"] is True
        args = {"code": lobby["code"], "name": "Agent", "player_token": keep}
        third = data_of(await session.call_tool("join_table", args))
        assert third["seat"] == 1
        assert first["player_id"] == second["player_id"] == third["player_id"]
        other = data_of(await session.call_tool("create_table", {"name": "Agent"}))
        assert other["player_id"] != first["player_id"]  # without it: a new player
        forged = {"name": "Agent", "player_token": keep[:-2] + "xx"}
        refused = await session.call_tool("create_table", forged)
        assert refused.is_error and "refused (bad_token)" in refused.content[0].text
        for grant in (first, second, third):
            look = data_of(await session.call_tool("look", {"token": grant["token"]}))
            assert look["code"] == grant["code"]


async def test_the_record_names_the_game_as_the_view_does(agent_server: ServerProcess) -> None:
    async with (
        streamable_http_client(f"{agent_server.url}/mcp") as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        token = await new_game(session)
        table = data_of(await session.call_tool("look", {"token": token}))["table"]
        early = await session.call_tool("game_record", {"token": token})
        assert early.is_error
        refusal = early.content[0].text
        assert f"game 1 of table {table['code']} is not finished" in refusal
        assert f"game {table['game_id']} is" not in refusal or table["game_id"] == 1
        final = await play_to_the_end(session, token, random.Random(8))
        assert "\ngame: 1\n" in final
        answer = await session.call_tool("game_record", {"token": token})
        record = data_of(answer)
        assert record["code"] == table["code"]
        assert (record["game"], record["game_id"]) == (1, table["game_id"])
        assert text_of(answer).startswith(f"table {table['code']}, game 1:")
        game = records.loads(record["record"])
        assert game.result is not None and max(game.result["scores"]) >= 20
    over_http = HTTP.get(
        f"{agent_server.url}/api/agent/seat/record", headers={"authorization": f"Bearer {token}"}
    )
    assert over_http.status_code == 200 and over_http.text == record["record"]
    assert f"{table['code']}-game-1.jsonl" in over_http.headers["content-disposition"]


LAZY_MCP = """
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from fastapi.testclient import TestClient

from dos.house import create_app
from dos.server.app import ServerConfig
from dos.server.net.limits import Limits
from dos.server.people.relying_party import RelyingParty
from dos.server.tables.settings import Settings

config = ServerConfig(
    data=Path(sys.argv[1]),
    settings=Settings(bot_delay=0, pause_seconds=0),
    limits=Limits().with_changes(["off"]),
    relying_party=RelyingParty("localhost"),
)
with TestClient(create_app(config)) as client:
    assert client.get("/api/health").status_code == 200
    print("loaded at start:", sorted(m for m in sys.modules if m.split(".")[0] == "mcp")[:3])
    body = {
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "probe", "version": "1"}},
    }
    headers = {"accept": "application/json, text/event-stream"}
    with ThreadPoolExecutor(2) as pool:  # two first calls at once: one load
        answers = list(pool.map(lambda _: client.post("/mcp", json=body, headers=headers), [0, 1]))
    for answer in answers:
        print("answer:", answer.status_code, answer.json()["result"]["serverInfo"]["name"])
"""


async def test_the_sdk_is_loaded_at_the_first_mcp_call_not_at_the_start(tmp_path: Path) -> None:
    """The MCP SDK costs more of the server's start than the rest of it: it is imported when
    an agent first calls ``/mcp``, and calls that come meanwhile are answered too."""
    done = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-c", LAZY_MCP, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "loaded at start: []",
        "answer: 200 dos",
        "answer: 200 dos",
    ]
