"""A rematch keeps the seat of a player whose connection closed within the grace
(``dos.server.tables.seating``, "A rematch deals only those who chose it"): a reload, or a
reconnect through another process after a failover, is not leaving. The seat opens to the
stand-in only once the grace is over without them, before the rematch or after it.

In process, on the suite's deal and a clock the test moves (``ManualClock``); the first game is
played to its end by the stand-ins, whatever it is; no turn timer."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import cast

import pytest
import pytest_asyncio
from fastapi import WebSocket

from dos.server.clock import ManualClock
from dos.server.net.connections import Client
from dos.server.net.limits import Counters, Limits
from dos.server.protocol.http_bodies import CreateTable, JoinTable
from dos.server.service import Service
from dos.server.storage.database import Database
from dos.server.storage.table_store import load_table
from dos.server.tables import seating
from dos.server.tables.bots import STAND_IN
from dos.server.tables.settings import Settings
from dos.server.tables.table import Status, Table
from support import suite_deals

pytestmark = pytest.mark.asyncio

GRACE = 10.0
WAIT = 20.0
"""The longest wait, in real seconds, for a table to reach a state (a failure, not a pace)."""
AWAY = 2
"""The seat whose player's connection closes after the first game."""


@pytest_asyncio.fixture
async def served(tmp_path: Path) -> AsyncIterator[tuple[Service, ManualClock]]:
    clock = ManualClock()
    settings = Settings(
        bot_delay=0, grace_seconds=GRACE, pause_seconds=0, deals=suite_deals(), clock=clock
    )
    service = Service(Database(f"sqlite:///{tmp_path / 'dos.sqlite3'}", "OFF"), tmp_path, settings)
    await service.start()
    yield service, clock
    await service.stop()


def _client() -> Client:
    return Client(cast(WebSocket, None), "127.0.0.1", Counters(Limits()))  # never started


async def _until(table: Table, check: Callable[[], bool]) -> None:
    """Waits for ``check`` to hold, woken by the table's changes; fails after ``WAIT``."""
    async with asyncio.timeout(WAIT):
        while True:
            change = table.audience.change
            if check():
                return
            await table.audience.changed(change, WAIT)


async def _after_a_game(service: Service) -> tuple[Table, list[Client]]:
    """A table of three people, each connected, whose first game is over."""
    request = CreateTable(
        name="P0", seats=[None] * 3, rated=False, turn_seconds=None, options={"target_score": 30}
    )
    code = (await service.create(request, "test"))["code"]
    for index in (1, 2):
        await service.join(code, JoinTable(name=f"P{index}"), "test")
    table = await service.table(code)
    assert table is not None
    clients = []
    for seat in range(3):
        client = _client()
        await seating.attach(table, client, seat)
        clients.append(client)
    await table.start(0)
    for seat in range(3):
        table.stand_ins.stand_in(seat)  # the stand-ins play the game to its end
    await _until(table, lambda: table.status == Status.FINISHED)
    return table, clients


async def _stored_player(service: Service, code: str, seat: int) -> str | None:
    stored = await service.db.read(load_table, code)
    assert stored is not None
    return stored.seats[seat].player_id


async def test_a_player_back_within_the_grace_has_the_seat_the_rematch_kept(
    served: tuple[Service, ManualClock],
) -> None:
    service, clock = served
    table, clients = await _after_a_game(service)
    player = table.seats[AWAY].player_id
    assert player is not None
    seating.detach(table, clients[AWAY])  # the connection drops: the grace runs
    await table.rematch(0)
    assert table.status == Status.PLAYING
    assert table.seats[AWAY].name == f"P{AWAY}" and table.seats[AWAY].bot is None
    assert seating.opens(table, AWAY, player)
    await clock.advance(GRACE - 1)
    back = _client()  # through another process, after a failover, or a reload
    await seating.attach(table, back, AWAY)
    assert table.seats[AWAY].client is back and not table.seats[AWAY].away
    await clock.advance(GRACE)  # the grace that was running is over: nothing of it is left
    assert table.seats[AWAY].name == f"P{AWAY}" and table.seats[AWAY].bot is None
    assert seating.opens(table, AWAY, player)
    assert await _stored_player(service, table.code, AWAY) == player


async def test_a_player_not_back_within_the_grace_loses_the_seat_the_rematch_kept(
    served: tuple[Service, ManualClock],
) -> None:
    service, clock = served
    table, clients = await _after_a_game(service)
    player = table.seats[AWAY].player_id
    assert player is not None
    seating.detach(table, clients[AWAY])
    await clock.advance(GRACE / 2)
    await table.rematch(0)
    assert seating.opens(table, AWAY, player)
    await clock.advance(GRACE / 2 - 1)
    assert seating.opens(table, AWAY, player)  # the grace is the one that ran before
    await clock.advance(1)
    await _until(table, lambda: table.seats[AWAY].name is None)
    # Open to the stand-in under no one's name, as the rematch would have dealt it.
    assert table.seats[AWAY].bot == STAND_IN and table.stand_ins.bot_level(AWAY) == STAND_IN
    assert not seating.opens(table, AWAY, player)
    assert await _stored_player(service, table.code, AWAY) is None
    assert table.status == Status.PLAYING


async def test_a_rematch_opens_the_seat_of_a_player_gone_past_the_grace(
    served: tuple[Service, ManualClock],
) -> None:
    # Whoever closed their tab after the game and stayed away past the grace did not choose
    # the rematch: their seat opens and the stand-in bot is dealt it, under no one's name (nor
    # rating); who is here is dealt in.
    service, clock = served
    table, clients = await _after_a_game(service)
    player = table.seats[AWAY].player_id
    assert player is not None
    seating.detach(table, clients[AWAY])
    await clock.advance(GRACE)
    await table.rematch(0)
    assert table.status == Status.PLAYING
    assert [s.name for s in table.seats] == ["P0", "P1", None]
    assert table.seats[AWAY].bot == STAND_IN
    assert not seating.opens(table, AWAY, player)
    assert await _stored_player(service, table.code, AWAY) is None


async def test_a_rematch_on_the_table_loaded_again_keeps_the_seats_of_players_on_their_way(
    served: tuple[Service, ManualClock],
) -> None:
    # The process holding the table died as its game ended; the next one loads it from the
    # database and has seen none of its players connect: those reconnecting to it are within
    # the grace from the moment it loaded the table, as after a restart during a game.
    service, clock = served
    table, _ = await _after_a_game(service)
    player = table.seats[AWAY].player_id
    assert player is not None
    stored = await service.db.read(load_table, table.code)
    assert stored is not None
    loaded = await Table.load(stored, service.db, service.settings)
    assert loaded.status == Status.FINISHED
    for seat in (0, 1):
        await seating.attach(loaded, _client(), seat)
    await clock.advance(GRACE - 1)
    await loaded.rematch(0)
    assert loaded.status == Status.PLAYING
    assert loaded.seats[AWAY].name == f"P{AWAY}" and loaded.seats[AWAY].bot is None
    assert seating.opens(loaded, AWAY, player)
    back = _client()
    await seating.attach(loaded, back, AWAY)
    assert loaded.seats[AWAY].client is back
    assert await _stored_player(service, loaded.code, AWAY) == player
