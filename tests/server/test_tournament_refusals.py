"""What ``/api/tournaments`` refuses, and why: each refusal names its field or rule, none is a
500; who asks is the player of the token, whatever the body says."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, cast

from fastapi import FastAPI
from fastapi.testclient import TestClient

from dos.server.app import ServerConfig, create_app
from dos.server.clock import ManualClock
from dos.server.net.limits import Limits
from dos.server.people.admins import CLI, Order, sanction
from dos.server.tables.settings import Settings


def refused(answer: Any, status: int, code: str, field: str | None = None) -> None:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert body["code"] == code, body
    if field is not None:
        assert body["field"] == field, body


def test_bad_requests_are_refused_with_their_reason(tmp_path: Path) -> None:
    settings = Settings(bot_delay=0, clock=ManualClock())
    config = ServerConfig(
        data=tmp_path,
        settings=settings,
        sqlite_synchronous="OFF",
        limits=Limits().with_changes(["off"]),
    )
    with TestClient(create_app(config)) as client:
        base = {"name": "Ada", "title": "Cup", "format": "swiss", "rounds": 2}
        refused(
            client.post("/api/tournaments", json={**base, "rules": "chess"}),
            400,
            "bad_request",
            "rules",
        )
        refused(
            client.post("/api/tournaments", json={**base, "rounds": None}),
            400,
            "bad_request",
            "rounds",
        )
        refused(
            client.post("/api/tournaments", json={**base, "format": "arena", "rounds": None}),
            400,
            "bad_request",
            "minutes",
        )
        refused(
            client.post("/api/tournaments", json={**base, "options": {"target_score": -1}}),
            400,
            "bad_request",
            "options",
        )
        refused(client.post("/api/tournaments", json={**base, "seats": 5}), 422, "bad_request")
        refused(
            client.post("/api/tournaments", json={**base, "player_token": "x.y"}), 401, "bad_token"
        )
        refused(client.get("/api/tournaments/nosuch"), 404, "no_tournament", "id")

        made = client.post("/api/tournaments", json=base).json()
        cup, ada = made["id"], made["player_token"]
        bea = client.post(f"/api/tournaments/{cup}/join", json={"name": "Bea"}).json()
        assert bea["player_id"] != made["player_id"]
        # Bea cannot act as the organiser, whatever she names.
        as_ada = {"player_token": bea["player_token"], "player_id": made["player_id"]}
        refused(client.post(f"/api/tournaments/{cup}/drop", json=as_ada), 403, "not_organiser")
        refused(
            client.post(
                f"/api/tournaments/{cup}/start", json={"player_token": bea["player_token"]}
            ),
            403,
            "not_organiser",
        )
        refused(
            client.post(
                f"/api/tournaments/{cup}/drop", json={"player_token": ada, "player_id": "p_nobody"}
            ),
            409,
            "not_entered",
            "player_id",
        )
        refused(
            client.post(
                f"/api/tournaments/{cup}/add", json={"player_token": ada, "player_id": "p_new"}
            ),
            400,
            "bad_request",
            "name",
        )
        # A round needs a table's worth of players: Bea leaves, one is left.
        left = client.post(
            f"/api/tournaments/{cup}/leave", json={"player_token": bea["player_token"]}
        )
        assert [r["active"] for r in left.json()["standings"]] == [True, False]
        refused(
            client.post(f"/api/tournaments/{cup}/start", json={"player_token": ada}),
            409,
            "bad_state",
        )
        listed = client.get("/api/tournaments").json()
        assert listed["total"] == 1 and listed["tournaments"][0]["players"] == 1

        # A player an admin banned is never seated: they cannot come back, nor organise.
        ban = Order(CLI, "ban", "spam in chat", player_id=bea["player_id"])
        db = cast(FastAPI, client.app).state.service.db
        assert client.portal is not None
        client.portal.call(functools.partial(db.call, sanction, ban, 1.0))
        back = {"name": "Bea", "player_token": bea["player_token"]}
        refused(client.post(f"/api/tournaments/{cup}/join", json=back), 403, "banned")
        refused(client.post("/api/tournaments", json={**base, **back}), 403, "banned")
