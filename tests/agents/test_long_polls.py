"""Many agents waiting on one busy table cost it one view per change, not one per waiter: the
long polls that one change wakes share one answer (its view, text and JSON).

The deal is the suite's (``support.suite_deals``), whatever it is: two agents and no bot, so
the one change is the turn's own action, read from the game."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from dos.agents import service as agents_service
from dos.agents.service import Agents
from dos.server.protocol.http_bodies import CreateTable, JoinTable
from dos.server.seat_service import Moment, SeatService
from dos.server.service import Service
from dos.server.storage.database import Database
from dos.server.tables.settings import Settings
from support import suite_deals

WAITERS = 300


@pytest.mark.asyncio
async def test_one_change_renders_one_view_per_seat_however_many_wait(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'dos.sqlite3'}"
    service = Service(Database(url, "OFF"), tmp_path, Settings(bot_delay=0, deals=suite_deals()))
    await service.start()
    agents = Agents(SeatService(service))
    renders: list[int] = []
    original = agents_service._answer

    def counted(moment: Moment) -> dict[str, Any]:
        renders.append(moment.seat)
        return original(moment)

    monkeypatch.setattr(agents_service, "_answer", counted)
    try:
        host = await agents.create(CreateTable(name="Ada", seats=[None, None]), "test")
        guest = await agents.join(host["code"], JoinTable(name="Bob"), "test")
        seen = await agents.start(host["token"])
        version = seen.data["version"]
        tokens = [host["token"], guest["token"]]
        waiting = [
            asyncio.ensure_future(agents.wait(tokens[i % 2], version, None, 30, "change"))
            for i in range(WAITERS)
        ]
        renders.clear()
        table = await service.table(host["code"])
        assert table is not None
        turn = table.rules.turn(table.current.state)
        legal = [str(a) for a in table.rules.legal_actions(table.current.state, turn)]
        # Whether a waiter parked before the action or saw it at once, the answer is shared.
        await table.submit(turn, next(a for a in legal if ":" not in a), version)
        answers = await asyncio.gather(*waiting)
        assert all(a.data["version"] == version + 1 for a in answers)
        assert len(renders) <= 2 * 2, renders  # a seat's view per change, not per waiter
        assert len({id(a) for a in answers}) <= 4
        assert answers[0].json == answers[2].json
    finally:
        await service.stop()
