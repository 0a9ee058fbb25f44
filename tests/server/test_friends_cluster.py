"""Friends across the processes of one server: two applications on one database (as the
processes of a server of many share PostgreSQL) see one presence and one challenge, whichever
process each player's page reaches. Here two in-process servers share one SQLite file and
one token secret."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from dos.server.app import ServerConfig, create_app
from dos.server.net.limits import Limits
from dos.server.people.relying_party import RelyingParty
from dos.server.service import Service
from dos.server.tables.settings import Settings


@pytest.fixture
def two(tmp_path: Path) -> Iterator[tuple[TestClient, TestClient]]:
    config = ServerConfig(
        data=tmp_path,
        settings=Settings(bot_delay=0, grace_seconds=0.2, pause_seconds=0),
        limits=Limits().with_changes(["off"]),
        relying_party=RelyingParty("localhost"),
    )
    with TestClient(create_app(config)) as one, TestClient(create_app(config)) as other:
        yield one, other


def token(client: TestClient, player_id: str) -> dict[str, str]:
    service: Service = client.app.state.service  # type: ignore[attr-defined]
    headers = {"Authorization": f"Bearer {service.signer.player_token(player_id)}"}
    assert client.post("/api/account/recovery", headers=headers).status_code == 200
    return headers


def test_presence_and_challenges_hold_whichever_process_a_page_reaches(
    two: tuple[TestClient, TestClient],
) -> None:
    one, other = two
    ada, bea = token(one, "p_ada"), token(other, "p_bea")
    assert one.put("/api/friends/p_bea", headers=ada).json()["status"] == "asked"
    assert other.put("/api/friends/p_ada", headers=bea).json()["status"] == "friends"

    other.post("/api/friends/pulse", headers=bea, json={"where": "watching", "code": "ABCDEF"})
    (friend,) = one.get("/api/friends", headers=ada).json()["friends"]
    assert friend["presence"] == {"state": "watching", "code": "ABCDEF"}

    body = {"to": "p_bea", "name": "Ada", "bots": []}
    made = one.post("/api/friends/challenges", headers=ada, json=body).json()
    (invitation,) = other.post("/api/friends/pulse", headers=bea, json={}).json()["challenges"]
    assert invitation["id"] == made["id"]
    accept = f"/api/friends/challenges/{made['id']}/accept"
    grant = other.post(accept, headers=bea, json={"name": "Bea"}).json()
    assert one.post(accept, headers=bea, json={"name": "Bea"}).json()["code"] == "no_challenge"
    (outcome,) = one.post("/api/friends/pulse", headers=ada, json={}).json()["outcomes"]
    assert outcome["landing"]["code"] == grant["code"] and outcome["landing"]["seat"] == 0
