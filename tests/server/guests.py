"""The whole server in this process for the tests of what people do to each other (chat,
moderation), and the guests who use it by their player tokens."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from dos.server.app import ServerConfig, create_app
from dos.server.clock import ManualClock
from dos.server.net.limits import Limits
from dos.server.people.relying_party import RelyingParty
from dos.server.service import Service
from dos.server.tables.settings import Settings

_IDS = itertools.count()


@contextmanager
def running(data: Path, clock: ManualClock) -> Iterator[TestClient]:
    """The server on ``data`` (SQLite) and ``clock``: no limits, bots at once, a grace of a
    minute, no pause between rounds."""
    config = ServerConfig(
        data=data,
        settings=Settings(bot_delay=0, grace_seconds=60, pause_seconds=0, clock=clock),
        limits=Limits().with_changes(["off"]),
        relying_party=RelyingParty("localhost"),
    )
    with TestClient(create_app(config)) as client:
        yield client


def service(client: TestClient) -> Service:
    """The server's service (its tables, database and signer)."""
    found: Service = client.app.state.service  # type: ignore[attr-defined]
    return found


class Guest:
    """A guest of the server, by their player token (a fresh player id each)."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.id = f"p_guest{next(_IDS)}"
        self.token = service(client).signer.player_token(self.id)

    def call(self, method: str, path: str, status: int = 200, **body: Any) -> Any:
        """``method path`` with ``body`` as this guest; its answer must have ``status``."""
        headers = {"Authorization": f"Bearer {self.token}"}
        answer = self.client.request(method, path, headers=headers, json=body or None)
        assert answer.status_code == status, answer.text
        return answer.json()

    def create(self, name: str, seats: int = 3) -> dict[str, Any]:
        """A casual table of ``seats`` open seats, this guest at the first."""
        body = {"name": name, "seats": [None] * seats, "player_token": self.token}
        return dict(self.client.post("/api/tables", json={**body, "rated": False}).json())

    def join(self, code: str, name: str) -> dict[str, Any]:
        body = {"name": name, "player_token": self.token}
        return dict(self.client.post(f"/api/tables/{code}/join", json=body).json())
