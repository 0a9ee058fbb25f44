"""An agent calls "DOS!" with the move that leaves it two cards (``dos`` on ``act``, over
HTTP and MCP alike): the move and the call are the game's next two versions, so no catch can
come between.

The deal is the suite's (``support.suite_deals``), whatever it is; the bot's own calls come
when the scheduler lets them, so an action made on a version a bot's call moved on is refused
as stale and the agent looks again, as any agent must."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from dos.agents.service import Agents, StaleError
from dos.server.protocol.http_bodies import CreateTable
from dos.server.seat_service import SeatService
from dos.server.service import Service
from dos.server.storage.database import Database
from dos.server.tables.settings import Settings
from server.test_dos_with_move import leaving_two
from support import suite_deals

pytestmark = pytest.mark.asyncio


async def test_an_agent_calling_with_its_move_is_never_caught(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'dos.sqlite3'}"
    settings = Settings(bot_delay=0, pause_seconds=0, deals=suite_deals())
    service = Service(Database(url, "OFF"), tmp_path, settings)
    await service.start()
    agents = Agents(SeatService(service))
    rng = random.Random(3)
    try:
        request = CreateTable(name="Ada", seats=[None, "easy"], options={"target_score": 1000})
        token = (await agents.create(request, "test"))["token"]
        seen = (await agents.start(token)).data
        called = 0
        for _ in range(2000):
            view = seen["view"]
            if called == 2 or seen["result"] is not None:
                break
            legal = view["legal"]
            if view["turn"] != 0 or view["phase"] == "over":
                seen = (await agents.wait(token, seen["version"], None, 30, "turn")).data
                continue
            calls = [a for a in legal if a.endswith("dos")]
            moves = leaving_two(view)
            version = seen["version"]
            try:
                if calls:
                    seen = (await agents.act(token, calls[0], version)).data
                    continue
                if not moves:  # a draw to two cards carries the call as well
                    turn = [a for a in legal if ":" not in a and not a.startswith("catch")]
                    seen = (await agents.act(token, rng.choice(turn), version, dos=True)).data
                    continue
                seen = (await agents.act(token, rng.choice(moves), version, dos=True)).data
            except StaleError:  # a bot's call came first: look again
                seen = (await agents.look(token)).data
                continue
            else:
                last = seen["last_actions"]
                made = [(a["version"], a["seat"]) for a in last if a["version"] >= version]
                assert made[:2] == [(version, 0), (version + 1, 0)], last
                assert last[[a["version"] for a in last].index(version + 1)]["action"].endswith(
                    "dos"
                )
                assert 0 not in seen["view"]["dos_open"]
                called += 1
        assert called == 2
    finally:
        await service.stop()
