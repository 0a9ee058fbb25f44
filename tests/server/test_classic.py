"""The classic rule set on the server (RULES.md §9): server bots, the reaction test timed by the
server's clock, stand-in bots and restarts.

Every table deals from the suite's seed (``support.DEAL_SEED``), whatever it is: the server's
process is started with it, and the tables made here in process are stored with it. Those have
two people and no bot, and the tests play them at random until a reaction test comes (a hand
down to two cards or one, long before the game could end: ``_to_reaction`` fails by name
otherwise)."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from dos.cli import main as dos_main
from dos.rules.classic import Phase
from dos.server.clock import ManualClock
from dos.server.protocol.refusals import RefusedError
from dos.server.storage.database import Database
from dos.server.storage.table_store import StoredSeat, StoredTable, insert_table
from dos.server.tables.settings import Settings
from dos.server.tables.table import Table
from server.support import (
    CLASSIC_VIEW_KEYS,
    HTTP,
    TIMEOUT,
    ServerProcess,
    WsPlayer,
    check_hidden,
    classic_hands_by_version,
    create_table,
    join_table,
    play_to_reaction,
    play_until_the_bot_moves,
)
from support import DEAL_SEED

pytestmark = pytest.mark.asyncio


@pytest.fixture(scope="module")
def server(standin_server: ServerProcess) -> ServerProcess:
    """Stand-ins play here 0.2 s after their player left: a server of this module's own."""
    return standin_server


REACT = re.compile(r"^react (\d+) (\d+)ms$")


async def _watch(player: WsPlayer) -> dict[str, Any]:
    while player.result is None:
        await player.recv()
    return player.result


async def test_two_players_and_two_server_bots_play_classic_to_a_full_ranking(
    server: ServerProcess, tmp_path: Path
) -> None:
    host = create_table(
        server.url, name="Ada", rules="classic", seats=[None, None, "medium", "easy"]
    )
    code = host["code"]
    guest = join_table(server.url, code, "Bob")
    ada = await WsPlayer(server.ws_url, code, host["token"]).connect()
    bob = await WsPlayer(server.ws_url, code, guest["token"]).connect()
    watcher = await WsPlayer(server.ws_url, code, None).connect()
    await ada.send({"type": "start"})
    for player in (ada, bob, watcher):
        await player.expect("state")

    results = await asyncio.gather(
        ada.play_to_end(random.Random(1)), bob.play_to_end(random.Random(2)), _watch(watcher)
    )
    assert results[0] == results[1] == results[2]
    assert sorted(results[0]["ranking"]) == [0, 1, 2, 3]  # a full ranking
    for player in (ada, bob, watcher):
        assert player.history == ada.history

    updates = [m for m in watcher.messages if m["type"] == "update"]
    by_bots = [m for m in updates if m["by_bot"]]
    assert {m["seat"] for m in by_bots} == {2, 3}  # only the bot seats were played by bots
    assert any(REACT.match(m["action"]) or m["action"] == "timeout" for m in by_bots)

    info = HTTP.get(f"{server.url}/api/tables/{code}").json()
    assert info["status"] == "finished"
    record = HTTP.get(f"{server.url}/api/games/{info['game_id']}/record").text
    path = tmp_path / "classic.jsonl"
    path.write_text(record, encoding="utf-8")
    assert dos_main(["replay", str(path)]) == 0

    hands = classic_hands_by_version(record)
    checked = sum(check_hidden(p, hands, CLASSIC_VIEW_KEYS) for p in (ada, bob, watcher))
    assert checked > 3 * len(ada.history) // 2
    for player in (ada, bob, watcher):
        await player.close()


async def test_a_classic_expert_bot_plays_its_turns(server: ServerProcess) -> None:
    host = create_table(server.url, rules="classic", seats=[None, "expert"])
    ada = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
    await ada.send({"type": "start"})
    await ada.expect("state")
    assert ada.table is not None and ada.table["seats"][1]["bot"] == "expert"
    moves = await play_until_the_bot_moves(ada, 1, 3, random.Random(8))
    assert len(moves) >= 3
    await ada.close()


async def test_a_reaction_test_nobody_answers_times_out_on_the_server(
    server: ServerProcess,
) -> None:
    host = create_table(
        server.url, rules="classic", seats=[None, "easy"], options={"reaction_time_ms": 300}
    )
    ada = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
    await ada.send({"type": "start"})
    await ada.expect("state")
    await play_to_reaction(ada, random.Random(5))
    version = ada.version
    # Ada says nothing: the server's own deadline answers. That it is not before the time
    # runs out is checked on the server's fake clock below (..._when_the_time_runs_out).
    answer = await ada.expect("update", seat=0)
    assert answer["version"] == version + 1
    assert answer["action"] == "timeout" and answer["by_bot"] is False
    assert answer["view"]["reaction"] is None or answer["view"]["reaction"]["seat"] != 0
    late = await ada.act("react 2 100ms", version=version)  # too late: the test is over
    assert late["type"] == "error" and late["code"] == "stale"
    await ada.close()


async def test_a_timed_out_player_at_a_classic_table_is_played_by_a_stand_in(
    server: ServerProcess,
) -> None:
    host = create_table(server.url, rules="classic", seats=[None, "easy"], turn_seconds=0.2)
    ada = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
    await ada.send({"type": "start"})
    await ada.expect("timer", phase="turn", seat=0)
    await ada.expect("timer", phase="grace", seat=0)
    stand_in = await ada.expect("update", seat=0, by_bot=True)
    assert ada.table is not None and ada.table["seats"][0]["away"] is True
    assert stand_in["view"]["seat"] == 0
    await ada.send({"type": "back"})
    while ada.table["seats"][0]["away"]:
        await ada.expect("table")
    await ada.close()


# --- the server's clock, injected: a table in this process --------------------------------------


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = Database(f"sqlite:///{tmp_path / 'dos.sqlite3'}")
    database.start()
    yield database
    database.close()


async def _table(db: Database, clock: ManualClock, code: str) -> Table:
    stored = StoredTable(
        code=code,
        rules="classic",
        options={"reaction_time_ms": 3000},
        public=False,
        status="lobby",
        host=0,
        turn_seconds=None,
        games=0,
        created_at=1.0,
        seats=[StoredSeat(0, "Ada", None, "p_ada"), StoredSeat(1, "Bob", None, "p_bob")],
        deal_seed=DEAL_SEED,
    )
    await db.call(insert_table, stored)
    table = Table(stored, db, Settings(bot_delay=0, clock=clock))
    await table.start(0)
    return table


async def _until(condition: Callable[[], bool], what: str) -> None:
    """Waits for the table's own task (its commit goes through the database's thread)."""
    for _ in range(int(TIMEOUT / 0.005)):
        if condition():
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"never: {what}")


async def _to_reaction(table: Table, rng: random.Random) -> int:
    """Plays random legal actions (passing every reaction test) until a reaction test is
    shown; returns the seat taking it."""
    for _ in range(3000):
        state = table.current.state
        assert state.phase != Phase.OVER, "the game ended before a reaction test"
        if state.phase == Phase.REACTION and table.reaction.referee.running:
            seat: int = state.turn
            return seat
        legal = [str(a) for a in table.rules.legal_actions(state, state.turn)]
        await table.submit(state.turn, rng.choice(legal), table.current.version)
    raise AssertionError("no reaction test came")


async def test_the_server_clock_decides_a_forged_fast_answer(db: Database) -> None:
    clock = ManualClock()
    table = await _table(db, clock, "CLOCKA")
    try:
        rng = random.Random(3)
        seat = await _to_reaction(table, rng)
        targets = len(table.current.state.targets)
        await clock.advance(1.2)  # in time: a fast claim is raised to what the server measured
        await table.submit(seat, f"react {targets} 5ms", table.current.version)
        assert (
            table.current.stored is not None
            and table.current.stored.actions[-1] == f"react {targets} 1200ms"
        )

        seat = await _to_reaction(table, rng)
        targets = len(table.current.state.targets)
        cards = len(table.current.state.hands[seat])
        version = table.current.version
        assert await table.expire_reaction(("other", 0)) is False  # not this test
        await clock.advance(3.5)  # past the deadline: however fast it claims to be, it fails
        await _until(lambda: table.current.version == version + 1, "the server timed the test out")
        with pytest.raises(RefusedError):
            await table.submit(seat, f"react {targets} 5ms", version)
        assert table.current.stored.actions[-1] == "timeout"
        assert (
            len(table.current.state.hands[seat])
            == cards + table.current.state.options.penalty_cards
        )
    finally:
        table.close()


async def test_the_server_applies_timeout_when_the_time_runs_out(db: Database) -> None:
    clock = ManualClock()
    table = await _table(db, clock, "CLOCKB")
    try:
        seat = await _to_reaction(table, random.Random(4))
        version = table.current.version
        await clock.advance(3.0)  # exactly at the deadline: still in time
        assert await table.expire_reaction() is False
        assert table.current.version == version
        await clock.advance(0.001)  # the deadline wakes the table, which applies the timeout
        await _until(lambda: table.current.version == version + 1, "the server timed the test out")
        assert table.current.stored is not None and table.current.stored.actions[-1] == "timeout"
        assert (
            table.current.stored.action_seats[-1] == seat
            and table.current.stored.by_bot[-1] is False
        )
        assert table.current.version == version + 1
        assert await table.expire_reaction() is False  # nothing running now
    finally:
        table.close()
