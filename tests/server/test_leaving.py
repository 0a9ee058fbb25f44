"""A player who leaves never freezes a table: in every game, timed or not, a seat whose
connection closed is played by the stand-in bot after the grace, and the player who walks
out of a game they are losing is rated all the same."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from server.support import (
    HTTP,
    TIMEOUT,
    ServerProcess,
    WsPlayer,
    create_table,
    join_table,
    running,
)

pytestmark = pytest.mark.asyncio


@pytest.fixture(scope="module")
def server(standin_server: ServerProcess) -> ServerProcess:
    """Stand-ins play here 0.2 s after their player left: a server of this module's own."""
    return standin_server


async def _until_table(player: WsPlayer, check: object) -> dict[str, object]:
    while True:
        message = await player.expect("table")
        table: dict[str, object] = message["table"]
        if callable(check) and check(table):
            return table


async def test_a_leaver_of_an_untimed_game_gets_a_stand_in(server: ServerProcess) -> None:
    grant = create_table(
        server.url, seats=[None, None], options={"target_score": 100}, turn_seconds=None
    )
    assert grant["table"]["turn_seconds"] is None
    guest = join_table(server.url, grant["code"], "Bob")
    host = await WsPlayer(server.ws_url, grant["code"], grant["token"]).connect()
    bob = await WsPlayer(server.ws_url, grant["code"], guest["token"]).connect()
    await host.send({"type": "start"})
    await host.expect("state")
    await bob.expect("state")
    await bob.close()
    table = await _until_table(host, lambda t: t["seats"][1]["away"])
    assert table["status"] == "playing" and not table["seats"][1]["connected"]
    # The game goes on: the stand-in plays Bob's turns while the host plays theirs.
    rng = random.Random(5)
    before = host.version
    while not any(m["type"] == "update" and m["seat"] == 1 and m["by_bot"] for m in host.messages):
        await host.step(rng)
    assert host.version > before
    # Bob comes back and has his seat again.
    bob = await WsPlayer(server.ws_url, grant["code"], guest["token"]).connect()
    table = await _until_table(host, lambda t: not t["seats"][1]["away"])
    assert table["seats"][1]["connected"]
    await host.close()
    await bob.close()


async def test_walking_out_of_a_losing_game_does_not_save_the_rating(tmp_path: Path) -> None:
    # Stand-ins 0.2 s after a player left, at a rated table: a server that deals at random,
    # since a seeded server rates none.
    with running(ServerProcess(tmp_path, None, "--grace", "0.2", seeded=False)) as server:
        await _walk_out(server)


async def _walk_out(server: ServerProcess) -> None:
    grant = create_table(
        server.url, seats=[None, "easy"], options={"target_score": 100}, rated=True
    )
    ada = await WsPlayer(server.ws_url, grant["code"], grant["token"]).connect()
    watcher = await WsPlayer(server.ws_url, grant["code"], None).connect()
    await ada.send({"type": "start"})
    await ada.expect("state")
    await ada.close()  # walks out at the deal, in an untimed game
    await _until_table(watcher, lambda t: t["status"] == "finished")
    page = HTTP.get(f"{server.url}/api/players/{grant['player_id']}", timeout=TIMEOUT)
    assert page.status_code == 200, page.text
    rated = [r for r in page.json()["ratings"] if r["rules"] == "official" and r["players"] == 2]
    assert rated and rated[0]["games"] == 1
    await watcher.close()
