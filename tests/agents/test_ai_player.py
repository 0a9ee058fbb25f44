"""Agents as players (docs/agents.md, docs/ratings.md): an agent on the official MCP Python
SDK client plays three rated tables through ``/mcp`` with one ``player_token``, and stays one
player: one id, one rating that all three games moved, marked as an AI, listed once on the
bots' leaderboard and never on the people's."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from sqlalchemy import update

from agents.test_mcp import data_of
from dos.bots.base import Budget
from dos.bots.loading import load
from dos.ratings.policy import ESTABLISHED_GAMES, MIN_TARGET
from dos.ratings.store import RatingRow
from dos.rules.official.views import view_from_json
from dos.server.storage.database import Database
from server.support import HTTP, ServerProcess

pytestmark = pytest.mark.asyncio

TABLES = 3

SHEDDER = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "shedder.py")


async def play_to_the_end(session: ClientSession, seat: dict[str, Any], seed: int) -> str:
    """Plays the seat's game to its end over MCP, each move the example bot's choice from the
    tool's structured view (``dos.agents.seat_view``), "DOS!" called with the move; the
    final text."""
    bot = load(f"{SHEDDER}:Shedder").make("shedder")
    rng = random.Random(seed)
    token = seat["token"]
    while seat["result"] is None:
        legal = seat["view"]["legal"]
        version = seat["version"]
        if any(action.endswith("dos") for action in legal):
            answer = await session.call_tool("call_dos", {"token": token, "version": version})
        elif seat["view"]["turn"] == seat["seat"] and legal:
            action = bot.choose(view_from_json(seat["view"]), rng, Budget())
            move = {"token": token, "action": str(action), "version": version, "dos": True}
            answer = await session.call_tool("act", move)
        else:
            since = {"token": token, "version": version, "change": seat["change"]}
            answer = await session.call_tool("wait", since)
        if answer.is_error:  # a bot was quicker (stale), or its move ended the game
            refusal = answer.content[0].text
            assert "refused (stale)" in refusal or "refused (not_playing)" in refusal, refusal
            answer = await session.call_tool("look", {"token": token})
        seat = {**data_of(answer), "token": token}
    return str(seat["text"])


def _get(url: str, path: str, **params: Any) -> dict[str, Any]:
    answer = HTTP.get(f"{url}{path}", params=params, timeout=30.0)
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


async def test_an_sdk_client_keeps_one_ai_identity_over_three_rated_tables(
    random_server: ServerProcess,
) -> None:
    agent_server = random_server  # rated tables: a seeded server rates none
    async with (
        streamable_http_client(f"{agent_server.url}/mcp") as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        grants: list[dict[str, Any]] = []
        keep: dict[str, str] = {}
        for _ in range(TABLES):  # each grant hands the token on to the next table
            body = {"name": "Claude", "bots": ["easy"], "rated": True, **keep}
            grant = data_of(
                await session.call_tool("create_table", {**body, "target_score": MIN_TARGET})
            )
            grants.append(grant)
            keep = {"player_token": grant["player_token"]}
        seats = []
        for grant in grants:
            started = data_of(await session.call_tool("start_game", {"token": grant["token"]}))
            assert started["table"]["rated"] is True
            seats.append({**started, "token": grant["token"]})
        # The three games at once, as an agent with three tables open would play them.
        finals = await asyncio.gather(
            *(play_to_the_end(session, seat, number) for number, seat in enumerate(seats))
        )
    assert all("status: finished" in final for final in finals)
    player = grants[0]["player_id"]
    assert {grant["player_id"] for grant in grants} == {player}
    assert len({grant["code"] for grant in grants}) == TABLES

    page = _get(agent_server.url, f"/api/players/{player}")
    assert page["ai"] is True and page["bot"] is False and page["name"] == "Claude"
    assert [(r["rules"], r["players"], r["games"], r["ai"]) for r in page["ratings"]] == [
        ("official", 2, TABLES, True)
    ]
    assert sorted(game["code"] for game in page["recent"]) == sorted(g["code"] for g in grants)
    assert page["history_total"] == TABLES

    # As if seven more games had counted (docs/ratings.md: the tenth makes a player
    # established): then the AI is on the bots' board, once, and not on the people's.
    db = Database(f"sqlite:///{agent_server.data / 'dos.sqlite3'}")
    try:
        db.run_sync(
            lambda s: s.execute(
                update(RatingRow)
                .where(RatingRow.player_id == player)
                .values(games=ESTABLISHED_GAMES)
            )
        )
    finally:
        db.close()
    bots = _get(agent_server.url, "/api/leaderboard", rules="official", players=2, board="bots")
    mine = [entry for entry in bots["entries"] if entry["player_id"] == player]
    assert len(mine) == 1 and mine[0]["ai"] is True and mine[0]["name"] == "Claude"
    assert mine[0]["games"] == ESTABLISHED_GAMES and not mine[0]["provisional"]
    people = _get(agent_server.url, "/api/leaderboard", rules="official", players=2)
    assert people["board"] == "people"
    assert all(entry["player_id"] != player and not entry["ai"] for entry in people["entries"])
