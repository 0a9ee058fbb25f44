"""A report, block or mute named by a table's seat reaches the player the reporter saw there,
even once that player has left the seat: the table's records keep who sat in each seat (its
chat lines, its games), and the name the seat showed picks among them. One server in
process, on SQLite."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session
from starlette.websockets import WebSocketDisconnect

from dos.server.clock import ManualClock
from dos.server.people.moderation import open_reports
from dos.server.storage.models import GamePlayerRow, GameRow, SeatRow, TableRow
from dos.server.storage.seat_history import Occupant, seat_occupants, seat_person
from server.guests import Guest, running, service

CLOCK = ManualClock()


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with running(tmp_path_factory.mktemp("report_by_seat"), CLOCK) as server:
        yield server


def _say_and_leave(client: TestClient, grant: dict[str, Any], text: str) -> None:
    """The seat of ``grant`` says ``text`` at its table, then leaves it (between games: the
    seat opens at once)."""
    with client.websocket_connect(f"/ws/{grant['code']}") as ws:
        ws.send_json({"type": "hello", "protocol": 1, "token": grant["token"]})
        while ws.receive_json()["type"] != "chat_history":
            pass
        ws.send_json({"type": "chat", "text": text})
        while (message := ws.receive_json())["type"] != "chat":
            assert message["type"] != "error", message
        ws.send_json({"type": "leave"})
        with pytest.raises(WebSocketDisconnect):  # the seat is left: its connection closes
            while True:
                ws.receive_json()
    table = client.get(f"/api/tables/{grant['code']}").json()
    assert table["seats"][grant["seat"]]["name"] is None  # the seat is open


def test_a_report_by_seat_names_the_player_who_left_it(client: TestClient) -> None:
    ada, bo, cy = Guest(client), Guest(client), Guest(client)
    host = ada.create("Ada")
    seat = bo.join(host["code"], "Bo")
    _say_and_leave(client, seat, "you are all terrible")
    about = {"code": host["code"], "seat": seat["seat"], "name": "Bo"}
    # From Bo's chat line, with the seat empty now: Bo.
    assert ada.call("POST", "/api/moderation/relation", **about)["player_id"] == bo.id
    filed = ada.call("POST", "/api/moderation/reports", **about, reason="abuse")
    report = next(r for r in service(client).db.run_sync(open_reports) if r["id"] == filed["id"])
    assert (report["reported"], report["reported_name"]) == (bo.id, "Bo")
    assert [line["player_id"] for line in report["excerpt"]] == [bo.id]
    # Cy sits there now: Bo's line still names Bo; the seat itself, as shown now, names Cy.
    assert cy.join(host["code"], "Cy")["seat"] == seat["seat"]
    assert ada.call("POST", "/api/moderation/relation", **about)["player_id"] == bo.id
    now = {"code": host["code"], "seat": seat["seat"]}
    assert ada.call("POST", "/api/moderation/relation", **now)["player_id"] == cy.id
    named_now = {**now, "name": "Cy"}
    assert ada.call("POST", "/api/moderation/relation", **named_now)["player_id"] == cy.id
    assert ada.call("POST", "/api/moderation/blocks", **about)["person"]["player_id"] == bo.id
    assert [p["player_id"] for p in ada.call("GET", "/api/moderation")["blocks"]] == [bo.id]


def test_a_name_that_never_sat_in_the_seat_names_nobody(client: TestClient) -> None:
    ada, bo = Guest(client), Guest(client)
    host = ada.create("Ada")
    seat = bo.join(host["code"], "Bo")
    about = {"code": host["code"], "seat": seat["seat"], "name": "Zed"}
    refused = ada.call("POST", "/api/moderation/reports", 400, **about, reason="spam")
    assert refused["code"] == "bad_seat"


def _a_table_with_a_game(session: Session) -> None:
    """Table ``HIST``: Bo played seat 1 in game 1, Di in game 2 (each left after), Eve
    sits there now; seat 2 is a bot's, in both games."""
    session.add(
        TableRow(
            code="HIST",
            rules="official",
            options={},
            public=False,
            status="lobby",
            host=0,
            turn_seconds=None,
            games=2,
            created_at=1.0,
        )
    )
    session.flush()
    session.add(SeatRow(table_code="HIST", seat=1, name="Eve", bot=None, player_id="p_eve"))
    for number, (player, name) in enumerate((("p_bo", "Bo"), ("p_di", "Di")), start=1):
        game = GameRow(
            table_code="HIST",
            number=number,
            rules="official",
            options={},
            seed=1,
            players=[name],
            status="finished",
            result=None,
            started_at=10.0 * number,
        )
        session.add(game)
        session.flush()
        session.add(GamePlayerRow(game_id=game.id, seat=1, player_id=player, name=name, bot=None))
        session.add(GamePlayerRow(game_id=game.id, seat=2, player_id=None, name="Bot", bot="easy"))


def test_the_seat_at_a_game_names_who_played_it_after_they_left(client: TestClient) -> None:
    db = service(client).db
    db.run_sync(_a_table_with_a_game)
    people = db.run_sync(seat_occupants, "HIST", 1)
    assert people == [Occupant("p_eve", "Eve"), Occupant("p_di", "Di"), Occupant("p_bo", "Bo")]
    assert db.run_sync(seat_person, "HIST", 1, "Bo") == Occupant("p_bo", "Bo")
    assert db.run_sync(seat_person, "HIST", 1) == Occupant("p_eve", "Eve")
    assert db.run_sync(seat_occupants, "HIST", 2) == []  # a bot is nobody's to report
