"""Who sits where (``dos.server.tables.seating``): leaving, the host's controls over the seats, the
host role passing on, and the default turn timer of a table for people together.

The deal is the suite's (``support.suite_deals``), whatever it is: no test checks what a move
did. Where the stand-ins and bots play a game out, the test waits for its end, whatever happens
on the way (every round's end, with no pause between rounds, and their DOS calls and catches);
elsewhere a stand-in may play on meanwhile, and only the seats are checked."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import cast

import pytest
import pytest_asyncio
from fastapi import WebSocket

from dos.server.net.connections import Client
from dos.server.net.limits import Counters, Limits
from dos.server.protocol.http_bodies import CreateTable, JoinTable
from dos.server.protocol.refusals import RefusedError
from dos.server.service import DEFAULT_TURN_SECONDS, Service
from dos.server.storage.database import Database
from dos.server.storage.table_store import load_table
from dos.server.tables import seating
from dos.server.tables.bots import STAND_IN
from dos.server.tables.seating import REMOVED_CLOSE
from dos.server.tables.settings import Settings
from dos.server.tables.table import Status, Table
from support import suite_deals

pytestmark = pytest.mark.asyncio

WAIT = 20.0
"""The longest wait for a table to reach a state (a failure, not a pace)."""


def _service(data: Path, grace: float = 60.0) -> Service:
    url = f"sqlite:///{data / 'dos.sqlite3'}"
    settings = Settings(bot_delay=0, grace_seconds=grace, pause_seconds=0, deals=suite_deals())
    return Service(Database(url, "OFF"), data, settings)


@pytest_asyncio.fixture
async def service(tmp_path: Path) -> AsyncIterator[Service]:
    service = _service(tmp_path)
    await service.start()
    yield service
    await service.stop()


def _client() -> Client:
    return Client(cast(WebSocket, None), "127.0.0.1", Counters(Limits()))  # never started


def _closed_with(client: Client) -> int | None:
    """The close code queued for ``client``, if any."""
    while not client._queue.empty():
        item = client._queue.get_nowait()
        if isinstance(item, tuple):
            return item[0]
    return None


async def _until(table: Table, check: Callable[[], bool]) -> None:
    """Waits for ``check`` to hold, woken by the table's changes; fails after ``WAIT``."""
    async with asyncio.timeout(WAIT):
        while True:
            change = table.audience.change
            if check():
                return
            await table.audience.changed(change, WAIT)


async def _table(
    service: Service, people: int, bots: list[str] | None = None, **options: object
) -> tuple[Table, list[Client]]:
    """A table of ``people`` (each connected) and ``bots``, in the lobby."""
    request = CreateTable(
        name="P0",
        seats=[None] * people + (bots or []),
        rated=False,
        options={"target_score": 30, **options},
    )
    code = (await service.create(request, "test"))["code"]
    for index in range(1, people):
        await service.join(code, JoinTable(name=f"P{index}"), "test")
    table = await service.table(code)
    assert table is not None
    clients = []
    for seat in range(people):
        client = _client()
        await seating.attach(table, client, seat)
        clients.append(client)
    return table, clients


async def _stored_host(service: Service, code: str) -> int:
    stored = await service.db.read(load_table, code)
    assert stored is not None
    return stored.host


async def test_leaving_between_games_opens_the_seat_and_the_host_role_passes_on(
    service: Service,
) -> None:
    table, clients = await _table(service, 3)
    await seating.leave(table, 0)
    assert table.seats[0].open and table.host == 1
    assert await _stored_host(service, table.code) == 1
    assert _closed_with(clients[0]) == 4000
    # Guests leave too; the last person keeps the role; a newcomer takes the empty seats.
    await seating.leave(table, 2)
    await seating.leave(table, 1)
    assert all(s.open for s in table.seats) and table.host == 1
    grant = await service.join(table.code, JoinTable(name="Newcomer"), "test")
    assert table.host == grant["seat"] == 0
    assert await _stored_host(service, table.code) == 0


async def test_the_host_replaces_an_absent_player_at_once(service: Service) -> None:
    table, clients = await _table(service, 3)
    await table.start(0)
    with pytest.raises(RefusedError) as here:
        await _replace(table, 0, 1)
    assert here.value.code == "bad_state"  # seat 1's player is here
    seating.detach(table, clients[1])
    assert not table.seats[1].away  # the grace (60 s) runs
    with pytest.raises(RefusedError) as not_host:
        await _replace(table, 2, 1)
    assert not_host.value.code == "not_host"
    with pytest.raises(RefusedError) as spectator:
        await _replace(table, None, 1)
    assert spectator.value.code == "not_seated"
    await _replace(table, 0, 1)
    assert table.seats[1].away and table.stand_ins.bot_level(1) == STAND_IN
    # Back on a new connection, the player has the seat again.
    await seating.attach(table, _client(), 1)
    assert not table.seats[1].away


async def _replace(table: Table, by: int | None, seat: int) -> None:
    await seating.replace(table, by, seat)


async def test_the_host_removes_a_player_in_the_lobby_and_during_a_game(
    service: Service,
) -> None:
    table, clients = await _table(service, 3)
    player_id = table.seats[2].player_id
    assert player_id is not None
    with pytest.raises(RefusedError) as own:
        await seating.remove(table, 0, 0)
    assert own.value.code == "bad_seat"
    await seating.remove(table, 0, 2)
    assert table.seats[2].open
    assert _closed_with(clients[2]) == REMOVED_CLOSE
    assert not seating.opens(table, 2, player_id)  # the seat token opens nothing any more
    # During a game the stand-in plays the removed player's seat, for good.
    await table.start(0)
    await seating.remove(table, 0, 1)
    assert table.seats[1].bot == STAND_IN and table.seats[1].name is None
    assert _closed_with(clients[1]) == REMOVED_CLOSE
    stored = await service.db.read(load_table, table.code)
    assert stored is not None and stored.seats[1].bot == STAND_IN
    assert stored.seats[1].player_id is None


async def test_who_left_during_a_game_is_out_when_it_ends_and_who_came_back_is_in(
    service: Service,
) -> None:
    table, _ = await _table(service, 3)
    await table.start(0)
    await seating.leave(table, 1)
    await seating.attach(table, _client(), 1)  # came back
    await seating.leave(table, 2)
    await seating.leave(table, 0)  # the host too: the role passes to P1, who is here
    assert table.host == 1
    table.stand_ins.stand_in(1)  # stood in for, still seated: P1 stays after the game
    await _until(table, lambda: table.status == Status.FINISHED)
    assert table.seats[0].open and table.seats[2].open
    assert table.seats[1].name == "P1" and table.host == 1
    stored = await service.db.read(load_table, table.code)
    assert stored is not None
    assert [s.name for s in stored.seats] == [None, "P1", None]
    assert stored.host == 1


async def test_between_games_the_host_fills_open_seats_with_bots_and_newcomers_sit(
    service: Service,
) -> None:
    table, _ = await _table(service, 2, ["easy"])
    await table.start(0)
    with pytest.raises(RefusedError) as playing:
        await seating.set_seat(table, 0, 2, None)
    assert playing.value.code == "bad_state"
    with pytest.raises(RefusedError) as started:
        await service.join(table.code, JoinTable(name="Late"), "test")
    assert started.value.code == "started"
    await seating.leave(table, 1)
    await seating.leave(table, 0)
    await _until(table, lambda: table.status == Status.FINISHED)
    assert table.seats[0].open and table.seats[1].open
    grant = await service.join(table.code, JoinTable(name="Newcomer"), "test")
    assert grant["seat"] == 0 and table.host == 0
    await seating.set_seat(table, 0, 2, None)
    assert table.seats[2].open
    with pytest.raises(RefusedError) as unknown:
        await seating.set_seat(table, 0, 1, "grandmaster")
    assert unknown.value.code == "bad_message"
    await seating.set_seat(table, 0, 1, "hard")
    assert table.seats[1].bot == "hard"
    with pytest.raises(RefusedError) as taken:
        await seating.set_seat(table, 0, 1, "easy")
    assert taken.value.code == "no_seat"
    await seating.attach(table, _client(), 0)
    await table.rematch(0)
    assert table.status == Status.PLAYING
    assert table.stand_ins.bot_level(2) == STAND_IN  # the open seat: a bot, as the host said


async def test_the_host_hands_the_role_to_a_player_who_is_here(service: Service) -> None:
    table, clients = await _table(service, 3)
    seating.detach(table, clients[2])
    with pytest.raises(RefusedError) as absent:
        await seating.make_host(table, 0, 2)
    assert absent.value.code == "bad_state"
    with pytest.raises(RefusedError) as guest:
        await seating.make_host(table, 1, 1)
    assert guest.value.code == "not_host"
    await seating.make_host(table, 0, 1)
    assert table.host == 1 and await _stored_host(service, table.code) == 1
    with pytest.raises(RefusedError) as old_host:
        await table.start(0)
    assert old_host.value.code == "not_host"


async def test_a_gone_host_hands_the_role_on_after_the_grace(tmp_path: Path) -> None:
    service = _service(tmp_path, grace=0.05)
    await service.start()
    try:
        table, clients = await _table(service, 3)
        seating.detach(table, clients[0])  # the host's tab closes, in the lobby
        await _until(table, lambda: table.host != 0)
        assert table.host == 1
        # A first game deals in a player without a connection: the stand-in after the grace.
        seating.detach(table, clients[2])
        await table.start(1)
        await _until(table, lambda: table.seats[2].away)
        assert table.stand_ins.bot_level(2) == STAND_IN and table.stand_ins.bot_level(0) == STAND_IN
    finally:
        await service.stop()


async def test_after_a_restart_whoever_does_not_come_back_is_stood_in_for(
    tmp_path: Path,
) -> None:
    service = _service(tmp_path, grace=0.05)
    await service.start()
    table, _ = await _table(service, 2)
    await table.start(0)
    code = table.code
    await service.stop()
    service = _service(tmp_path, grace=0.05)
    await service.start()
    try:
        again = await service.table(code)
        assert again is not None and again.status == Status.PLAYING
        await _until(again, lambda: again.seats[0].away and again.seats[1].away)
    finally:
        await service.stop()


async def test_a_table_for_people_together_has_a_turn_timer_unless_told_otherwise(
    service: Service,
) -> None:
    async def timer(**fields: object) -> float | None:
        grant = await service.create(CreateTable.model_validate({"name": "A", **fields}), "t")
        seconds: float | None = grant["table"]["turn_seconds"]
        return seconds

    assert await timer(seats=[None, None]) == DEFAULT_TURN_SECONDS
    assert await timer(seats=[None, "easy", None]) == DEFAULT_TURN_SECONDS
    assert await timer(seats=[None, "easy"]) is None  # alone against bots
    assert await timer(seats=[None, None], turn_seconds=None) is None
    assert await timer(seats=[None, "easy"], turn_seconds=20) == 20


async def test_a_connection_seated_as_its_table_leaves_the_process_is_sent_to_connect_again(
    service: Service,
) -> None:
    # With many processes a table leaves the one that held it (its lease lost, another took
    # it): its connections are closed with 1012 and reconnect wherever it is now. One whose
    # seating waited for the table's lock meanwhile must not end up on the closed table, deaf
    # to the game and refused every action ("not_playing"), as one did in the failover test.
    table, (_, guest) = await _table(service, 2)
    await table.start(0)
    late = _client()
    async with table.lock:  # a commit under way while the reconnection comes in
        attaching = asyncio.create_task(seating.attach(table, late, 1))
        await asyncio.sleep(0)  # one turn of the loop: the attach now waits for the lock
        table.close()  # what the cluster's node does as the table leaves (``lose``)
        for client in table.audience.clients():
            client.close(1012, "the table moved to another server process")
    await attaching
    assert _closed_with(late) == 1012
    assert late not in table.audience.clients()
    assert _closed_with(guest) == 1012  # the connection it would have replaced, closed too
