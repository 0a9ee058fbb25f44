"""A signed-in spectator's chat is filtered by blocks as a seated player's is: they see none of
the lines of a player they block, nor does that player see theirs; an anonymous spectator
(no player token) sees every line. WebSocket clients of one server in process."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from dos.server.clock import ManualClock
from server.guests import running, service

CLOCK = ManualClock()
_IDS = itertools.count()


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with running(tmp_path_factory.mktemp("spectator_chat"), CLOCK) as server:
        yield server


def _token(client: TestClient, player_id: str) -> str:
    return service(client).signer.player_token(player_id)


def _hello(ws: WebSocketTestSession, **hello: Any) -> list[str]:
    """Says hello; the texts of the chat history it is sent."""
    ws.send_json({"type": "hello", "protocol": 1, **hello})
    while (message := ws.receive_json())["type"] != "chat_history":
        assert message["type"] != "error", message
    return [line["text"] for line in message["lines"]]


def _say(ws: WebSocketTestSession, text: str) -> None:
    ws.send_json({"type": "chat", "text": text})


def _heard_until(ws: WebSocketTestSession, last: str) -> list[str]:
    """The chat texts ``ws`` is sent up to ``last`` (said after the others: the lines reach
    each connection in the order they were said)."""
    heard = []
    while True:
        message = ws.receive_json()
        assert message["type"] != "error", message
        if message["type"] == "chat":
            heard.append(message["text"])
            if message["text"] == last:
                return heard


def test_a_signed_in_spectator_and_the_player_they_block_hear_nothing_of_each_other(
    client: TestClient,
) -> None:
    ada, bo, cy = (f"p_watch{next(_IDS)}" for _ in range(3))
    body = {"name": "Ada", "seats": [None, None], "player_token": _token(client, ada)}
    host = client.post("/api/tables", json={**body, "rated": False}).json()
    code = host["code"]
    joined = {"name": "Bo", "player_token": _token(client, bo)}
    seat = client.post(f"/api/tables/{code}/join", json=joined).json()
    blocked = client.post(
        "/api/moderation/blocks",
        headers={"Authorization": f"Bearer {_token(client, cy)}"},
        json={"player_id": bo},
    )
    assert blocked.status_code == 200, blocked.text
    with (
        client.websocket_connect(f"/ws/{code}") as host_ws,
        client.websocket_connect(f"/ws/{code}") as bo_ws,
    ):
        _hello(host_ws, token=host["token"])
        _hello(bo_ws, token=seat["token"])
        host_ws.send_json({"type": "chat_spectators", "allowed": True})
        _say(bo_ws, "Bo before")
        _heard_until(host_ws, "Bo before")
        _heard_until(bo_ws, "Bo before")
        with (
            client.websocket_connect(f"/ws/{code}") as cy_ws,
            client.websocket_connect(f"/ws/{code}") as anon_ws,
        ):
            assert _hello(cy_ws, token=None, player=_token(client, cy)) == []
            assert _hello(anon_ws, token=None) == ["Bo before"]
            # One line at a time: lines said on different connections at once may be taken in
            # either order; each is said once the host has heard the one before.
            for ws, words in ((bo_ws, "Bo now"), (cy_ws, "Cy watching"), (host_ws, "Ada last")):
                _say(ws, words)
                assert _heard_until(host_ws, words) == [words]
            assert _heard_until(cy_ws, "Ada last") == ["Cy watching", "Ada last"]
            assert _heard_until(bo_ws, "Ada last") == ["Bo now", "Ada last"]
            assert _heard_until(anon_ws, "Ada last") == ["Bo now", "Cy watching", "Ada last"]
        # Bo connects again: the history leaves out the line of the spectator who blocks him.
        with client.websocket_connect(f"/ws/{code}") as again:
            assert _hello(again, token=seat["token"]) == ["Bo before", "Bo now", "Ada last"]


def test_a_spectator_whose_player_token_does_not_verify_watches_as_an_anonymous_one(
    client: TestClient,
) -> None:
    body = {"name": "Ada", "seats": [None, None], "player_token": _token(client, "p_host")}
    host = client.post("/api/tables", json={**body, "rated": False}).json()
    with client.websocket_connect(f"/ws/{host['code']}") as ws:
        forged = _token(client, "p_someone") + "x"
        ws.send_json({"type": "hello", "protocol": 1, "token": None, "player": forged})
        while (message := ws.receive_json())["type"] != "welcome":
            assert message["type"] != "error", message
        assert message["seat"] is None and message["player_id"] is None
