"""Moderation over HTTP, in process: players block, mute and report (from a table's seat, with
the table's chat attached), and admins, granted by ``dos admin``, work the queue: only an
admin gets in (a forged token or another player's is refused), a ban takes effect at once
(the banned player's connection is closed, their hello, joins and tables refused), a table
is closed, and every action is in the log. One server on SQLite for the module, on a manual
clock; each test makes its own players."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from dos.cli import main
from dos.server.clock import ManualClock
from dos.server.people.account_store import ensure_account
from dos.server.people.admins import action_log, grant
from dos.server.people.moderation import REPORTS_PER_DAY
from dos.server.storage.database import Database, database_url
from server.guests import Guest, running, service

CLOCK = ManualClock()


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with running(tmp_path_factory.mktemp("admin"), CLOCK) as server:
        yield server


class Player(Guest):
    """A guest of the server; with ``admin``, granted the admin role."""

    def __init__(self, client: TestClient, admin: bool = False) -> None:
        super().__init__(client)
        if admin:
            service(client).db.run_sync(grant, self.id, CLOCK.time())


def _say(client: TestClient, grant_: dict[str, Any], text: str) -> None:
    """The seat of ``grant_`` says ``text`` at its table (and is sent it back)."""
    with client.websocket_connect(f"/ws/{grant_['code']}") as ws:
        ws.send_json({"type": "hello", "protocol": 1, "token": grant_["token"]})
        while ws.receive_json()["type"] != "chat_history":
            pass
        ws.send_json({"type": "chat", "text": text})
        while (message := ws.receive_json())["type"] != "chat":
            assert message["type"] != "error", message
        assert message["text"] == text


def test_only_admins_get_in_and_no_token_or_a_forged_one_does(client: TestClient) -> None:
    player = Player(client)
    refused = player.call("GET", "/api/admin", 403)
    assert refused["code"] == "not_admin"
    action = {"action": "ban", "player_id": player.id, "reason": "me"}
    assert player.call("POST", "/api/admin/actions", 403, **action)["code"] == "not_admin"
    assert player.call("POST", "/api/admin/tables/ABCDEF/close", 403, reason="x")["code"] == (
        "not_admin"
    )
    assert client.get("/api/admin").status_code == 401
    forged = client.get("/api/admin", headers={"Authorization": f"Bearer {player.token}x"})
    assert forged.status_code == 401 and forged.json()["code"] == "bad_token"
    admin = Player(client, admin=True)
    assert admin.call("GET", "/api/admin")["player_id"] == admin.id
    assert client.get("/admin").status_code == 200  # the page; its data is the API's


def test_a_report_from_a_table_reaches_the_admins_with_its_chat_and_a_ban_works_at_once(
    client: TestClient,
) -> None:
    ada, bo, admin = Player(client), Player(client), Player(client, admin=True)
    host = ada.create("Ada")
    seat = bo.join(host["code"], "Bo")
    _say(client, seat, "you are all terrible")
    _say(client, host, "be nice")
    about = {"code": host["code"], "seat": seat["seat"]}
    ada.call("POST", "/api/moderation/mutes", **about)
    assert ada.call("POST", "/api/moderation/relation", **about) == {
        "player_id": bo.id,
        "name": "Bo",
        "blocked": False,
        "muted": True,
    }
    assert ada.call("DELETE", f"/api/moderation/mutes/{bo.id}")["done"]
    assert not ada.call("POST", "/api/moderation/relation", **about)["muted"]
    report = {**about, "reason": "abuse", "text": " rude "}
    ada.call("POST", "/api/moderation/reports", **report)
    queue = admin.call("GET", "/api/admin")["reports"]
    mine = next(r for r in queue if r["reporter"] == ada.id)
    assert mine["reported"] == bo.id and mine["reported_name"] == "Bo"
    assert mine["reason"] == "abuse" and mine["text"] == "rude"
    assert [(line["player_id"], line["text"]) for line in mine["excerpt"]] == [
        (bo.id, "you are all terrible"),
        (ada.id, "be nice"),
    ]
    # Bo is at the table when the ban comes: the connection is closed, and stays refused.
    with client.websocket_connect(f"/ws/{seat['code']}") as ws:
        ws.send_json({"type": "hello", "protocol": 1, "token": seat["token"]})
        while ws.receive_json()["type"] != "chat_history":
            pass
        ban = {"action": "ban", "player_id": bo.id, "report_id": mine["id"], "reason": "abuse"}
        logged = admin.call("POST", "/api/admin/actions", **ban)
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                ws.receive_json()
        assert closed.value.code == 4403
    with client.websocket_connect(f"/ws/{seat['code']}") as ws:
        ws.send_json({"type": "hello", "protocol": 1, "token": seat["token"]})
        assert ws.receive_json()["code"] == "banned"
    assert bo.create("Bo")["code"] == "banned"
    assert bo.join(host["code"], "Bo")["code"] == "banned"
    assert bo.call("GET", "/api/moderation")["standing"]["banned_until"] == "forever"
    overview = admin.call("GET", "/api/admin")
    assert all(r["id"] != mine["id"] for r in overview["reports"])  # answered: closed
    entry = next(e for e in overview["log"] if e["id"] == logged["log_id"])
    assert entry["admin"] == admin.id and entry["action"] == "ban"
    assert entry["player_id"] == bo.id and entry["reason"] == "abuse"
    assert entry["report_id"] == mine["id"] and entry["at"] == CLOCK.time()


def test_every_admin_action_is_logged_and_a_warning_is_shown_once(client: TestClient) -> None:
    admin, cy, di = Player(client, admin=True), Player(client), Player(client)
    cy.call("POST", "/api/moderation/reports", player_id=di.id, reason="spam")
    report = next(r for r in admin.call("GET", "/api/admin")["reports"] if r["reporter"] == cy.id)
    actions = [
        {"action": "warn", "player_id": di.id, "reason": "mind your words"},
        {"action": "mute", "player_id": di.id, "reason": "spam", "hours": 2},
        {"action": "dismiss", "report_id": report["id"], "reason": "handled"},
    ]
    ids = [admin.call("POST", "/api/admin/actions", **body)["log_id"] for body in actions]
    table = admin.create("Host")
    closed = admin.call("POST", f"/api/admin/tables/{table['code']}/close", reason="test table")[
        "log_id"
    ]
    log = {e["id"]: e for e in admin.call("GET", "/api/admin")["log"]}
    assert [log[i]["action"] for i in [*ids, closed]] == ["warn", "mute", "dismiss", "close_table"]
    assert log[ids[1]]["until"] == CLOCK.time() + 2 * 3600
    assert log[closed]["table_code"] == table["code"]
    assert client.get(f"/api/tables/{table['code']}").status_code == 404
    assert di.call("GET", "/api/moderation")["standing"]["muted_until"] == CLOCK.time() + 7200
    assert di.call("POST", "/api/moderation/warnings")["warnings"] == [
        {"reason": "mind your words", "at": CLOCK.time()}
    ]
    assert di.call("POST", "/api/moderation/warnings")["warnings"] == []  # shown once
    bad = admin.call("POST", "/api/admin/actions", 400, action="warn", player_id=di.id, reason=" ")
    assert bad["code"] == "bad_reason" and bad["field"] == "reason"


def test_a_block_over_http_keeps_the_pair_apart_both_ways(client: TestClient) -> None:
    gil, hal = Player(client), Player(client)
    assert gil.call("POST", "/api/moderation/blocks", player_id=hal.id)["done"]
    assert gil.call("GET", "/api/moderation")["blocks"] == [{"player_id": hal.id, "name": None}]
    for host, guest in ((gil, hal), (hal, gil)):
        table = host.create("Host")
        answer = client.post(
            f"/api/tables/{table['code']}/join", json={"name": "Guest", "player_token": guest.token}
        )
        assert answer.status_code == 409 and answer.json()["code"] == "blocked"


def test_report_limits_one_open_per_pair_and_so_many_a_day(client: TestClient) -> None:
    ed = Player(client)
    others = [Player(client) for _ in range(REPORTS_PER_DAY + 1)]
    ed.call("POST", "/api/moderation/reports", player_id=others[0].id, reason="name")
    again = ed.call("POST", "/api/moderation/reports", 409, player_id=others[0].id, reason="other")
    assert again["code"] == "already_reported"
    for other in others[1:REPORTS_PER_DAY]:
        ed.call("POST", "/api/moderation/reports", player_id=other.id, reason="spam")
    over = ed.call("POST", "/api/moderation/reports", 429, player_id=others[-1].id, reason="spam")
    assert over["code"] == "too_many_reports"
    bad = ed.call("POST", "/api/moderation/reports", 422, player_id=others[-1].id, reason="rude")
    assert bad["field"] == "reason"
    fay = Player(client)
    own = fay.call("POST", "/api/moderation/reports", 400, player_id=fay.id, reason="spam")
    assert own["code"] == "bad_player"


def test_dos_admin_grants_lists_and_revokes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    where = ["--data", str(tmp_path)]
    assert main(["admin", "grant", "p_someone", *where]) == 2  # neither an id known nor a name
    assert "no player" in capsys.readouterr().err
    db = Database(database_url(None, tmp_path))
    db.run_sync(ensure_account, "p_someone", 0.0)
    db.engine.dispose()
    assert main(["admin", "grant", "p_someone", *where]) == 0
    assert main(["admin", "list", *where]) == 0
    assert "p_someone" in capsys.readouterr().out
    assert main(["admin", "revoke", "p_someone", *where]) == 0
    db = Database(database_url(None, tmp_path))
    logged = [(e["admin"], e["action"], e["player_id"]) for e in db.run_sync(action_log)]
    db.engine.dispose()
    assert logged == [("cli", "revoke", "p_someone"), ("cli", "grant", "p_someone")]
    capsys.readouterr()
    assert main(["admin", "list", *where]) == 0
    assert capsys.readouterr().out == ""
