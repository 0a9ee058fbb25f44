"""A game's end is stored before anyone is told of it: whoever sees the result (a page, an
agent, a test) finds the game finished and its record served.

In-process: a ``Service`` on a temporary SQLite database, a table of two guests played to its
end through ``Table.submit``; the update of the last action is watched as it is sent.

The deal is the suite's (``support.suite_deals``), whatever it is: with a target of one point
the first round's end is the game's end, and every seat's out-of-turn action (a DOS call, a
catch) is played as the seat's own, so nothing moves the game but the test.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from dos.server.protocol.http_bodies import CreateTable, JoinTable
from dos.server.service import Service
from dos.server.storage.database import Database
from dos.server.storage.table_store import load_game
from dos.server.tables.settings import Settings
from support import suite_deals

pytestmark = pytest.mark.asyncio


async def test_the_last_update_is_sent_once_the_games_end_is_stored(tmp_path: Path) -> None:
    database = Database(f"sqlite:///{tmp_path / 'dos.sqlite3'}", "OFF")
    service = Service(database, tmp_path, Settings(bot_delay=0, deals=suite_deals()))
    await service.start()
    try:
        grant = await service.create(
            CreateTable(name="Ann", seats=[None, None], options={"target_score": 1}), "test"
        )
        await service.join(grant["code"], JoinTable(name="Bob"), "test")
        table = await service.table(grant["code"])
        assert table is not None
        await table.start(0)
        seen: list[tuple[str, str | None]] = []  # each update's action, and the stored status
        send = table.broadcasts.update

        def update(actor: int, action: str, client_id: str | None, by_bot: bool) -> None:
            game = table.current.stored
            stored = database.run_sync(load_game, game.id) if game is not None else None
            seen.append((action, stored.status if stored is not None else None))
            send(actor, action, client_id, by_bot)

        table.broadcasts.update = update  # type: ignore[method-assign]
        rng = random.Random(5)
        rules, current = table.rules, table.current
        for _ in range(5000):
            if rules.is_over(current.state):
                break
            actions: list[Any] = rules.all_legal_actions(current.state)
            action = rng.choice(actions)
            seat = rules.turn(current.state)
            text = str(action)
            if ":" in text:
                seat = int(text.split(":", 1)[0])
            await table.submit(seat, text, current.version)
        assert rules.is_over(current.state)
        assert len(current.state.round_results) == 1  # the round's end was the game's
        assert seen[-1][1] == "finished", seen[-3:]
        assert all(status == "playing" for _, status in seen[:-1])
    finally:
        await service.stop()
