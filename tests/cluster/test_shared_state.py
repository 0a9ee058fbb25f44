"""What the processes of one server share through its database and configuration: the token
secret (``DOS_SECRET``), unique table codes, and the ownership counter of
``take_table``. Two in-process servers on one database stand for two processes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from redis import Redis as SyncRedis
from redis.asyncio import Redis

from cluster.leases import table_lease
from cluster.support import RedisServer
from dos.cluster.ownership import take_table
from dos.house import create_app
from dos.server import service as service_module
from dos.server.app import ServerConfig
from dos.server.metrics import Metrics
from dos.server.net.limits import Limits
from dos.server.people.relying_party import RelyingParty
from dos.server.storage.database import Database
from dos.server.storage.table_store import StoredTable, insert_table
from dos.server.tables.settings import Settings

SECRET = "a-secret-every-process-shares-0123456789"


def _app(data: Path, database: str, redis_url: str | None) -> TestClient:
    config = ServerConfig(
        data=data,
        database=database,
        settings=Settings(bot_delay=0, pause_seconds=0),
        limits=Limits().with_changes(["off"]),
        relying_party=RelyingParty("localhost"),
        redis=redis_url,
    )
    return TestClient(create_app(config))


@pytest.fixture
def two_processes(
    tmp_path: Path, database: str, redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[TestClient, TestClient]]:
    """Two servers on one database and one Redis (emptied first: the tables' leases of
    earlier tests are gone), each with a data folder of its own."""
    monkeypatch.setenv("DOS_SECRET", SECRET)
    with SyncRedis.from_url(redis_server.url) as client:
        client.flushdb()
    one = _app(tmp_path / "one", database, redis_server.url)
    other = _app(tmp_path / "other", database, redis_server.url)
    with one, other:
        yield one, other


def _create(client: TestClient, **body: Any) -> dict[str, Any]:
    answer = client.post("/api/tables", json={"name": "Ada", "seats": [None, None], **body})
    assert answer.status_code == 201, answer.text
    grant: dict[str, Any] = answer.json()
    return grant


def test_a_token_made_by_one_process_is_accepted_by_another(
    two_processes: tuple[TestClient, TestClient],
) -> None:
    one, other = two_processes
    grant = _create(one)
    seat = other.get("/api/agent/seat", headers={"authorization": f"Bearer {grant['token']}"})
    assert seat.status_code == 200, seat.text
    assert seat.json()["seat"] == 0
    joined = other.post(
        f"/api/tables/{grant['code']}/join",
        json={"name": "Bea", "player_token": grant["player_token"]},
    )
    assert joined.status_code == 200, joined.text
    assert joined.json()["player_id"] == grant["player_id"]  # the same player on both


def test_processes_with_secrets_of_their_own_refuse_each_others_tokens(
    tmp_path: Path, database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What --redis prevents by requiring DOS_SECRET: a secret per data folder.
    monkeypatch.delenv("DOS_SECRET", raising=False)
    with _app(tmp_path / "one", database, None) as one:
        grant = _create(one)
    with _app(tmp_path / "other", database, None) as other:
        seat = other.get("/api/agent/seat", headers={"authorization": f"Bearer {grant['token']}"})
        assert seat.status_code == 401


def test_a_code_taken_by_another_process_meanwhile_is_not_taken_twice(
    two_processes: tuple[TestClient, TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    one, other = two_processes
    codes = iter(["AAAAAA", "AAAAAA", "BBBBBB"])
    monkeypatch.setattr(service_module, "new_code", lambda taken: next(codes))
    assert _create(one)["code"] == "AAAAAA"
    # The other process looks before the first one's insert is visible to it: it sees a free
    # code, and the database's primary key refuses its insert.
    missed = [False]
    real = service_module.code_exists
    monkeypatch.setattr(
        service_module,
        "code_exists",
        lambda session, code: missed.pop() if missed else real(session, code),
    )
    second = _create(other, name="Bea")
    assert second["code"] == "BBBBBB"
    assert one.get("/api/tables/AAAAAA").json()["seats"][0]["name"] == "Ada"
    assert other.get("/api/tables/BBBBBB").json()["seats"][0]["name"] == "Bea"


@pytest.mark.asyncio
async def test_taking_a_table_counts_an_ownership_change(database: str, redis: Redis) -> None:
    db = Database(database)
    db.start()
    try:
        table = StoredTable("ABCDEF", "official", {}, True, "lobby", 0, None, 0, 1.0, [])
        await db.call(insert_table, table)
        metrics = Metrics()
        assert await take_table(await table_lease(redis, "ABCDEF", "owner-a"), db, metrics) == 1
        assert metrics.registry.get_sample_value("dos_ownership_changes_total") == 1
    finally:
        db.close()
