"""Tables nobody comes back to expire: a lobby after ``lobby_idle``, a game after
``abandoned_idle`` (stored as abandoned); an expired table is gone, its code answers no table.
The service runs on a ``ManualClock`` that the tests move instead of passing idle times.

Every table is dealt ``DEAL``, in which Ada (seat 0) plays first: a started game waits for her,
so the easy bot never gets a turn and nothing but the clock moves while the tests look at
idleness (nor when a restarted server loads the game again)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import cast

import pytest
from starlette.websockets import WebSocket

from dos.server.clock import ManualClock
from dos.server.deals import Deals
from dos.server.net.connections import Client
from dos.server.net.limits import Counters, Limits
from dos.server.protocol.http_bodies import CreateTable
from dos.server.service import Service
from dos.server.storage.database import Database
from dos.server.storage.table_store import load_game
from dos.server.tables import seating
from dos.server.tables.settings import Settings

DEAL = Deals(seed=2026)
"""The deal of every table: Ada, the person, plays first."""


def _service(data: Path, clock: ManualClock) -> Service:
    url = f"sqlite:///{data / 'dos.sqlite3'}"
    limits = Limits(lobby_idle=60.0, abandoned_idle=600.0)
    settings = Settings(bot_delay=0, deals=DEAL)
    return Service(Database(url, "OFF"), data, settings, limits, clock=clock)


@pytest.mark.asyncio
async def test_an_idle_lobby_expires_and_an_idle_game_is_abandoned(tmp_path: Path) -> None:
    clock = ManualClock()
    service = _service(tmp_path, clock)
    await service.start()
    try:
        lobby = (await service.create(CreateTable(name="Ada", seats=[None, "easy"]), "test"))[
            "code"
        ]
        game = (await service.create(CreateTable(name="Bob", seats=[None, "easy"]), "test"))["code"]
        table = await service.table(game)
        assert table is not None
        await table.start(0)
        assert table.rules.turn(table.current.state) == 0  # Ada's turn: the bot waits
        assert table.current.stored is not None
        game_id = table.current.stored.id
        await clock.advance(30)
        assert await service.expire_idle() == []
        await clock.advance(31)  # 61 s
        assert await service.expire_idle() == [lobby]
        await clock.advance(540)  # 601 s
        assert await service.expire_idle() == [game]
        assert await service.table(lobby) is None and await service.table(game) is None
        stored = await service.db.call(load_game, game_id)
        assert stored is not None and stored.status == "abandoned"
    finally:
        await service.stop()


@pytest.mark.asyncio
async def test_a_table_with_somebody_connected_does_not_expire(tmp_path: Path) -> None:
    clock = ManualClock()
    service = _service(tmp_path, clock)
    await service.start()
    try:
        code = (await service.create(CreateTable(name="Ada", seats=[None, "easy"]), "test"))["code"]
        table = await service.table(code)
        assert table is not None
        client = Client(cast(WebSocket, None), "127.0.0.1", Counters(Limits()))  # never started
        await seating.attach(table, client, 0)
        await clock.advance(10**6)
        assert await service.expire_idle() == []
        assert await service.table(code) is table
        seating.detach(table, client)  # the last one leaves: the clock starts
        await clock.advance(30)
        assert await service.expire_idle() == []
        await clock.advance(31)  # 61 s
        assert await service.expire_idle() == [code]
    finally:
        await service.stop()


@pytest.mark.asyncio
async def test_idleness_counts_from_the_last_stored_activity_not_from_a_restart(
    tmp_path: Path,
) -> None:
    # A game nobody has touched for 590 s of its 600, when the server restarts (or another
    # process takes it over): it expires once its people had the grace to come back, not
    # after another 600 s.
    clock = ManualClock()
    service = _service(tmp_path, clock)
    await service.start()
    code = (await service.create(CreateTable(name="Ada", seats=[None, "easy"]), "test"))["code"]
    table = await service.table(code)
    assert table is not None
    await table.start(0)
    assert table.rules.turn(table.current.state) == 0  # Ada's turn: the bot waits
    await service.stop()
    long_ago = clock.time() - 590
    with sqlite3.connect(tmp_path / "dos.sqlite3") as db:
        db.execute("UPDATE dos_tables SET created_at = ?", (long_ago,))
        db.execute("UPDATE dos_games SET started_at = ?", (long_ago,))
        db.execute("UPDATE dos_actions SET at = ?", (long_ago,))
    again = _service(tmp_path, clock)
    await again.start()
    try:
        await clock.advance(5)
        assert await again.expire_idle() == []  # within the grace: not yet
        await clock.advance(6)  # 11 s
        assert await again.expire_idle() == [code]
    finally:
        await again.stop()
