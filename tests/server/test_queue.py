"""Play people over HTTP, in process (``/api/queue``): two players are seated together, a
blocked pair never is, bots fill only after the wait chosen, a silent or departed player
leaves the queue. The server runs on a ``ManualClock`` that the tests move."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from dos.matchmaking.queue import BAND_EVERY, BAND_START, BAND_STEP, Entry
from dos.server.clock import ManualClock
from dos.server.matchmaking import store
from dos.server.matchmaking.routes import queue_router
from dos.server.matchmaking.service import Queue
from dos.server.matchmaking.store import HEARTBEAT_SECONDS
from dos.server.net import errors
from dos.server.people.blocks import add_block
from dos.server.service import Service
from dos.server.storage.database import Database
from dos.server.storage.queue_rows import QueueRow
from dos.server.tables.settings import Settings


@dataclass
class Server:
    service: Service
    clock: ManualClock
    http: httpx.AsyncClient

    async def join(self, name: str, **body: Any) -> dict[str, Any]:
        answer = await self.http.post("/api/queue", json={"name": name, **body})
        assert answer.status_code == 200, answer.text
        return dict(answer.json())

    async def status(self, player: dict[str, Any]) -> dict[str, Any]:
        body = {"player_token": player["player_token"]}
        answer = await self.http.post("/api/queue/status", json=body)
        assert answer.status_code == 200, answer.text
        return dict(answer.json())

    async def seated(self, code: str) -> list[tuple[str | None, str | None]]:
        table = await self.service.table(code)
        assert table is not None
        return [(seat.player_id, seat.bot) for seat in table.seats]


@asynccontextmanager
async def server(data: Path) -> AsyncIterator[Server]:
    clock = ManualClock()
    db = Database(f"sqlite:///{data / 'dos.sqlite3'}", "OFF")
    service = Service(db, data, Settings(bot_delay=0), clock=clock)
    await service.start()
    app = FastAPI()
    errors.install(app)
    app.include_router(queue_router(Queue(service), service.counters))
    transport = httpx.ASGITransport(app=app)
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            yield Server(service, clock, http)
    finally:
        await service.stop()


@pytest.mark.asyncio
async def test_two_players_who_queue_are_seated_together(tmp_path: Path) -> None:
    async with server(tmp_path) as s:
        ada = await s.join("Ada", seats=2)
        assert ada["state"] == "waiting" and ada["band"] == BAND_START
        await s.clock.advance(BAND_EVERY)
        assert (await s.status(ada))["band"] == BAND_START + BAND_STEP
        bob = await s.join("Bob", seats=2)
        assert bob["state"] == "matched"
        ada = await s.status(ada)
        assert ada["state"] == "matched"
        assert ada["seat"]["code"] == bob["seat"]["code"]
        assert (ada["seat"]["seat"], bob["seat"]["seat"]) == (0, 1)  # the longest waiting hosts
        seats = await s.seated(ada["seat"]["code"])
        assert seats == [(ada["player_id"], None), (bob["player_id"], None)]
        table = await s.service.table(ada["seat"]["code"])
        assert table is not None and not table.rated  # guests play casual


@pytest.mark.asyncio
async def test_a_blocked_pair_is_never_seated_together(tmp_path: Path) -> None:
    async with server(tmp_path) as s:
        ada = await s.join("Ada")
        bob = await s.join("Bob")
        assert bob["state"] == "matched"  # unblocked, they meet; now block and queue again
        await s.service.db.call(add_block, bob["player_id"], ada["player_id"], s.clock.time())
        ada = await s.join("Ada", player_token=ada["player_token"])
        await s.clock.advance(1)
        bob = await s.join("Bob", player_token=bob["player_token"])
        await s.clock.advance(HEARTBEAT_SECONDS / 2)
        assert (await s.status(ada))["state"] == "waiting"
        assert (await s.status(bob))["state"] == "waiting"
        cy = await s.join("Cy")
        assert cy["state"] == "matched"
        assert (await s.status(ada))["state"] == "matched"  # the longest waiting first
        assert (await s.status(bob))["state"] == "waiting"


@pytest.mark.asyncio
async def test_bots_fill_only_after_the_wait_the_player_chose(tmp_path: Path) -> None:
    async with server(tmp_path) as s:
        ada = await s.join("Ada", seats=3, bots_after=30)
        never = await s.join("Bo", rules="classic", seats=2)
        await s.clock.advance(29)
        assert (await s.status(ada))["state"] == "waiting"
        assert (await s.status(never))["state"] == "waiting"
        await s.clock.advance(1)
        ada = await s.status(ada)
        assert ada["state"] == "matched"
        seats = await s.seated(ada["seat"]["code"])
        assert seats[0] == (ada["player_id"], None)
        assert all(bot is not None for _, bot in seats[1:]) and len(seats) == 3
        for _ in range(3):  # who chose never waits on for people
            await s.clock.advance(HEARTBEAT_SECONDS - 1)
            assert (await s.status(never))["state"] == "waiting"


@pytest.mark.asyncio
async def test_a_silent_player_leaves_the_queue_and_so_does_one_who_leaves(
    tmp_path: Path,
) -> None:
    async with server(tmp_path) as s:
        ada = await s.join("Ada")
        await s.clock.advance(HEARTBEAT_SECONDS + 1)  # her tab closed: no heartbeat
        bob = await s.join("Bob")
        assert bob["state"] == "waiting"
        assert (await s.status(ada))["state"] == "gone"
        left = await s.http.post("/api/queue/leave", json={"player_token": bob["player_token"]})
        assert left.json()["state"] == "gone"
        cy = await s.join("Cy")
        assert cy["state"] == "waiting"


@pytest.mark.asyncio
async def test_accounts_play_rated_and_an_account_with_a_guest_casual(tmp_path: Path) -> None:
    async with server(tmp_path) as s:
        signer = s.service.signer
        tokens = [signer.player_token(f"p_{name}", session=f"s_{name}") for name in "abc"]
        await s.join("Ada", player_token=tokens[0])
        bob = await s.join("Bob", player_token=tokens[1])
        assert bob["rated"] and bob["state"] == "matched"
        rated = await s.service.table(bob["seat"]["code"])
        assert rated is not None and rated.rated
        await s.join("Cy", player_token=tokens[2])
        guest = await s.join("Dee")
        casual = await s.service.table(guest["seat"]["code"])
        assert casual is not None and not casual.rated


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({"rules": "nonesuch"}, 400, "rules"),
        ({"seats": 5}, 422, "seats"),
        ({"bots_after": -1}, 422, "bots_after"),
    ],
)
async def test_a_bad_request_is_refused_naming_its_field(
    tmp_path: Path, body: dict[str, Any], status: int, field: str
) -> None:
    async with server(tmp_path) as s:
        answer = await s.http.post("/api/queue", json={"name": "Ada", **body})
        assert answer.status_code == status
        assert answer.json()["field"] == field


@pytest.mark.asyncio
async def test_rounds_of_two_processes_at_once_match_nobody_twice(
    tmp_path: Path, database: str
) -> None:
    """Two services on one database, each its own connection: their rounds run together."""
    clock = ManualClock()
    services = [
        Service(Database(database, "OFF"), tmp_path, Settings(bot_delay=0), clock=clock)
        for _ in range(2)
    ]
    for service in services:
        await service.start()
    try:
        now = clock.time()
        for i, name in enumerate(["Ada", "Bob", "Cy", "Dee", "Eve"]):
            entry = Entry(f"p_{name}", name, "official", 2, since=now + i)
            await services[0].db.call(store.join, entry, now + i)
        made = await asyncio.gather(*(Queue(service).run_round() for service in services))
        assert sorted(len(codes) for codes in made) == [0, 2]
        rows = await services[0].db.read(
            lambda session: session.execute(
                select(QueueRow.player_id, QueueRow.code, QueueRow.seat).where(
                    QueueRow.code.is_not(None)
                )
            ).all()
        )
        seated = {player: (code, seat) for player, code, seat in rows}
        assert sorted(seated) == ["p_Ada", "p_Bob", "p_Cy", "p_Dee"]
        assert len({code for code, _ in seated.values()}) == 2
    finally:
        for service in services:
            await service.stop()
