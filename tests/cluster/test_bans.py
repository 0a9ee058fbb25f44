"""A ban acts on every process of a server at once: a player connected through one process,
at a table that process holds, is banned by an admin through another, and their connection
is closed with the ban's code without any step of theirs. Two in-process servers on one
database and one Redis stand for two processes."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from redis import Redis as SyncRedis
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from cluster.support import RedisServer
from dos.house import create_app
from dos.server.app import ServerConfig
from dos.server.net.limits import Limits
from dos.server.people.admins import grant
from dos.server.people.relying_party import RelyingParty
from dos.server.service import Service
from dos.server.tables.settings import Settings
from server.support import TIMEOUT

SECRET = "a-secret-every-process-shares-0123456789"


def _app(data: Path, database: str, redis_url: str) -> TestClient:
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
    """Two servers on one database and one Redis (emptied first)."""
    monkeypatch.setenv("DOS_SECRET", SECRET)
    with SyncRedis.from_url(redis_server.url) as client:
        client.flushdb()
    with (
        _app(tmp_path / "a", database, redis_server.url) as a,
        _app(tmp_path / "b", database, redis_server.url) as b,
    ):
        yield a, b


def _service(client: TestClient) -> Service:
    found: Service = client.app.state.service  # type: ignore[attr-defined]
    return found


def _closing(ws: WebSocketTestSession) -> queue.Queue[int]:
    """Where the close code of ``ws`` will be put, read in a thread meanwhile (every frame
    before it skipped)."""
    codes: queue.Queue[int] = queue.Queue()

    def read() -> None:
        try:
            while True:
                ws.receive_json()
        except WebSocketDisconnect as closed:
            codes.put(closed.code)
        except Exception:  # the test closed the session: nothing more to read
            return

    threading.Thread(target=read, daemon=True).start()
    return codes


def test_a_ban_through_one_process_closes_the_players_connection_through_another(
    two_processes: tuple[TestClient, TestClient],
) -> None:
    a, b = two_processes
    bo = "p_banned_bo"
    admin = "p_admin"
    service_b = _service(b)
    service_b.db.run_sync(grant, admin, service_b.clock.time())
    body = {"name": "Bo", "seats": [None, None], "player_token": service_b.signer.player_token(bo)}
    created = b.post("/api/tables", json=body)
    assert created.status_code == 201, created.text
    seat = created.json()
    assert seat["player_id"] == bo
    assert service_b.ownership.owns(seat["code"])  # the table is held by B, not A
    with b.websocket_connect(f"/ws/{seat['code']}") as ws:
        ws.send_json({"type": "hello", "protocol": 1, "token": seat["token"]})
        while ws.receive_json()["type"] != "chat_history":
            pass
        closed = _closing(ws)
        token = _service(a).signer.player_token(admin)
        banned = a.post(
            "/api/admin/actions",
            headers={"Authorization": f"Bearer {token}"},
            json={"action": "ban", "player_id": bo, "reason": "abuse"},
        )
        assert banned.status_code == 200, banned.text
        try:
            code = closed.get(timeout=TIMEOUT)
        except queue.Empty:
            pytest.fail(f"the banned player's connection was still open after {TIMEOUT} s")
        assert code == 4403
    with b.websocket_connect(f"/ws/{seat['code']}") as ws:
        ws.send_json({"type": "hello", "protocol": 1, "token": seat["token"]})
        assert ws.receive_json()["code"] == "banned"
