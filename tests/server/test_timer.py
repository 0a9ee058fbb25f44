"""The turn timer: a player who runs out of time, or leaves, is played by a stand-in bot after
the grace period, and takes the seat back."""

from __future__ import annotations

import pytest

from server.support import ServerProcess, WsPlayer, create_table

pytestmark = pytest.mark.asyncio


@pytest.fixture(scope="module")
def server(standin_server: ServerProcess) -> ServerProcess:
    """Stand-ins play here 0.2 s after their player left: a server of this module's own."""
    return standin_server


def _away(player: WsPlayer, seat: int) -> bool:
    assert player.table is not None
    return bool(player.table["seats"][seat]["away"])


async def test_a_player_out_of_time_is_played_by_a_bot_and_comes_back(
    server: ServerProcess,
) -> None:
    host = create_table(
        server.url, seats=[None, "easy"], options={"target_score": 500}, turn_seconds=0.2
    )
    ada = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
    watcher = await WsPlayer(server.ws_url, host["code"], None).connect()
    await ada.send({"type": "start"})
    await ada.expect("timer", phase="turn", seat=0)  # the first turn that is Ada's
    await ada.expect("timer", phase="grace", seat=0)
    while not _away(ada, 0):
        await ada.expect("table")
    stand_in = await ada.expect("update", seat=0, by_bot=True)
    assert stand_in["view"]["seat"] == 0
    await ada.send({"type": "back"})
    while _away(ada, 0):
        await ada.expect("table")
    await ada.expect("timer", phase="turn", seat=0)
    await ada.close()
    await watcher.close()


async def test_a_player_who_leaves_a_timed_game_is_stood_in_for(server: ServerProcess) -> None:
    host = create_table(
        server.url, seats=[None, "easy"], options={"target_score": 500}, turn_seconds=60
    )
    ada = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
    watcher = await WsPlayer(server.ws_url, host["code"], None).connect()
    await ada.send({"type": "start"})
    await ada.expect("state")
    await ada.close()
    while watcher.table is None or not _away(watcher, 0):
        await watcher.expect("table")
    assert watcher.table["seats"][0]["connected"] is False
    await watcher.expect("update", seat=0, by_bot=True)
    ada = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
    assert not _away(ada, 0)  # reconnecting takes the seat back
    assert ada.view is not None and ada.view["seat"] == 0
    await ada.close()
    await watcher.close()


async def test_without_a_timer_the_game_waits(server: ServerProcess) -> None:
    host = create_table(server.url, seats=[None, "easy"], options={"target_score": 500})
    ada = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
    await ada.send({"type": "start"})
    await ada.expect("state")
    await ada.send({"type": "ping", "id": "p"})
    await ada.expect("pong", id="p")
    assert not any(m["type"] == "timer" for m in ada.messages)
    await ada.close()
