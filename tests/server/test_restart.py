"""Persistence: a server killed with SIGKILL mid-game resumes every table where it stood,
on SQLite and on PostgreSQL.

The tests share one kill per database (``restarted``): each has a table of its own on that
server, brought to where it stood before the kill, and checks it after the restart."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from dos import records
from server.support import (
    HTTP,
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


@dataclass
class Restarted:
    """A server killed mid-game and started again, and what its tables' players had seen
    before the kill."""

    server: ServerProcess
    people: dict[str, Any] = field(default_factory=dict)
    """Two people's table: the grants, each seat's version, view and history at the kill."""
    bots: dict[str, Any] = field(default_factory=dict)
    """A person and two bots' table: the host's grant and the history it had seen."""
    classic: dict[str, Any] = field(default_factory=dict)
    """A classic table of a person and two bots, killed while the person was to take a
    reaction test: the host's grant, the history it had seen and the test."""


async def _people_before_the_kill(server: ServerProcess, state: dict[str, Any]) -> list[WsPlayer]:
    host = create_table(server.url, seats=[None, None], options={"target_score": 20})
    guest = join_table(server.url, host["code"], "Bob")
    ada = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
    bob = await WsPlayer(server.ws_url, host["code"], guest["token"]).connect()
    await ada.send({"type": "start"})
    await ada.expect("state")
    await bob.expect("state")
    rng = random.Random(11)
    await drive([ada, bob], rng, stop_version=20)
    state.update(
        host=host,
        guest=guest,
        rng=rng,
        before={p.seat: (p.version, _without_history(p.view), list(p.history)) for p in (ada, bob)},
    )
    return [ada, bob]


async def _bots_before_the_kill(server: ServerProcess, state: dict[str, Any]) -> list[WsPlayer]:
    host = create_table(server.url, seats=[None, "medium", "easy"], options={"target_score": 40})
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
    state.update(host=host, rng=rng, seen=list(ada.history))
    return [ada]


async def _classic_before_the_kill(server: ServerProcess, state: dict[str, Any]) -> list[WsPlayer]:
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
    state.update(host=host, rng=rng, seen=list(ada.history), reaction=ada.view["reaction"])
    return [ada]


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def restarted(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Restarted]:
    """A server on a fresh database (SQLite, then PostgreSQL) with the tables of the tests
    below in play, killed mid-game (no goodbye) and started again."""
    folder = tmp_path_factory.mktemp("restart")
    if request.param == "sqlite":
        database = f"sqlite:///{folder / 'dos.sqlite3'}"
    else:
        cluster, url = request.getfixturevalue("postgres")
        database = cluster.new_database(url)
    # The grace before a stand-in plays for a player who is not back: longer than the tests
    # after the restart take, since each test's players come back in their own turn.
    found = Restarted(ServerProcess(folder / "data", database, "--grace", "120"))
    found.server.start()
    try:

        async def before_the_kill() -> None:
            players = await _people_before_the_kill(found.server, found.people)
            players += await _bots_before_the_kill(found.server, found.bots)
            # Last: the kill comes as soon as the host is to take the reaction test.
            players += await _classic_before_the_kill(found.server, found.classic)
            found.server.kill()  # mid-game, no goodbye
            for player in players:
                await player.close()

        asyncio.run(before_the_kill())
        found.server.start()
        yield found
    finally:
        found.server.stop()


# The classic test comes first after the restart: the reaction test's clock (60 s) started
# again with the server.


async def test_a_classic_table_with_bots_goes_on_after_a_restart(restarted: Restarted) -> None:
    """Killed while the host is to take a reaction test: after the restart the test starts
    again (the server's clock restarts with the table), the host answers it, and the bots play
    on to a full ranking."""
    server, state = restarted.server, restarted.classic
    host, seen, reaction = state["host"], state["seen"], state["reaction"]
    ada = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
    assert ada.history == seen  # nothing committed was lost, nothing added
    assert ada.view is not None and ada.view["reaction"] == reaction
    targets = len(reaction["targets"])
    answer = await ada.act(f"react {targets} 900ms")
    assert answer["type"] == "update" and answer["action"].startswith(f"react {targets} ")
    result = await ada.play_to_end(state["rng"])
    assert sorted(result["ranking"]) == [0, 1, 2]
    await ada.close()


async def test_a_killed_server_resumes_the_game_where_it_stood(restarted: Restarted) -> None:
    server, state = restarted.server, restarted.people
    host, guest = state["host"], state["guest"]
    ada = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
    bob = await WsPlayer(server.ws_url, host["code"], guest["token"]).connect()
    for player in (ada, bob):
        version, view, history = state["before"][player.seat]
        assert player.version == version
        assert _without_history(player.view) == view
        assert player.history == history

    await drive([ada, bob], state["rng"])
    assert ada.result == bob.result and ada.result is not None
    info = HTTP.get(f"{server.url}/api/tables/{host['code']}").json()
    text = HTTP.get(f"{server.url}/api/games/{info['game_id']}/record").text
    record = records.loads(text)
    assert record.actions == ada.history
    records.replay(record)
    await ada.close()
    await bob.close()


async def test_bots_go_on_playing_after_a_restart(restarted: Restarted) -> None:
    server, state = restarted.server, restarted.bots
    host, seen = state["host"], state["seen"]
    ada = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
    assert ada.history[: len(seen)] == seen  # nothing committed was lost
    result = await ada.play_to_end(state["rng"])
    assert result["winner"] in (0, 1, 2)
    await ada.close()
