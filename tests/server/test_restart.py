"""Persistence: a server killed with SIGKILL mid-game resumes every table where it stood,
on SQLite and on PostgreSQL."""

from __future__ import annotations

import random
from pathlib import Path

import httpx
import pytest

from dos import records
from server.support import (
    ServerProcess,
    WsPlayer,
    create_table,
    drive,
    join_table,
    play_to_reaction,
)

pytestmark = pytest.mark.asyncio


def _without_history(view: dict[str, object] | None) -> dict[str, object]:
    assert view is not None
    return {k: v for k, v in view.items() if k != "history"}


async def test_a_killed_server_resumes_the_game_where_it_stood(
    database: str, tmp_path: Path
) -> None:
    server = ServerProcess(tmp_path / "data", database)
    server.start()
    try:
        host = create_table(server.url, seats=[None, None], options={"target_score": 20})
        guest = join_table(server.url, host["code"], "Bob")
        ada = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
        bob = await WsPlayer(server.ws_url, host["code"], guest["token"]).connect()
        await ada.send({"type": "start"})
        await ada.expect("state")
        await bob.expect("state")
        rng = random.Random(11)
        await drive([ada, bob], rng, stop_version=20)
        before = {
            p.seat: (p.version, _without_history(p.view), list(p.history)) for p in (ada, bob)
        }

        server.kill()  # mid-game, no goodbye
        await ada.close()
        await bob.close()
        server.start()

        ada = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
        bob = await WsPlayer(server.ws_url, host["code"], guest["token"]).connect()
        for player in (ada, bob):
            version, view, history = before[player.seat]
            assert player.version == version
            assert _without_history(player.view) == view
            assert player.history == history

        await drive([ada, bob], rng)
        assert ada.result == bob.result and ada.result is not None
        info = httpx.get(f"{server.url}/api/tables/{host['code']}").json()
        text = httpx.get(f"{server.url}/api/games/{info['game_id']}/record").text
        record = records.loads(text)
        assert record.actions == ada.history
        records.replay(record)
        await ada.close()
        await bob.close()
    finally:
        server.stop()


async def test_bots_go_on_playing_after_a_restart(database: str, tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "data", database)
    server.start()
    try:
        host = create_table(
            server.url, seats=[None, "medium", "easy"], options={"target_score": 40}
        )
        ada = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
        await ada.send({"type": "start"})
        await ada.expect("state")
        rng = random.Random(12)
        while ada.version < 15 and ada.result is None:
            action = ada.choice(rng)
            if action is None:
                await ada.recv()
            else:
                await ada.act(action)
        seen = list(ada.history)

        server.kill()
        await ada.close()
        server.start()

        ada = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
        assert ada.history[: len(seen)] == seen  # nothing committed was lost
        result = await ada.play_to_end(rng)
        assert result["winner"] in (0, 1, 2)
        await ada.close()
    finally:
        server.stop()


async def test_a_classic_table_with_bots_goes_on_after_a_restart(
    database: str, tmp_path: Path
) -> None:
    """Killed while the host is to take a reaction test: after the restart the test starts
    again (the server's clock restarts with the table), the host answers it, and the bots play
    on to a full ranking."""
    server = ServerProcess(tmp_path / "data", database)
    server.start()
    try:
        host = create_table(
            server.url,
            rules="classic",
            seats=[None, "medium", "easy"],
            options={"reaction_time_ms": 60000},
        )
        ada = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
        await ada.send({"type": "start"})
        await ada.expect("state")
        rng = random.Random(13)
        await play_to_reaction(ada, rng)
        assert ada.view is not None
        seen, reaction = list(ada.history), ada.view["reaction"]

        server.kill()
        await ada.close()
        server.start()

        ada = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
        assert ada.history == seen  # nothing committed was lost, nothing added
        assert ada.view is not None and ada.view["reaction"] == reaction
        targets = len(reaction["targets"])
        answer = await ada.act(f"react {targets} 900ms")
        assert answer["type"] == "update" and answer["action"].startswith(f"react {targets} ")
        result = await ada.play_to_end(rng)
        assert sorted(result["ranking"]) == [0, 1, 2]
        await ada.close()
    finally:
        server.stop()
