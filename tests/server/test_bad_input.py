"""Bad input on every path gets a clear error; the connection stays usable or is closed with
a reason; nothing changes."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed

from dos.i18n import catalog, placeholders
from dos.server.people.auth import TOKEN_DAYS, Signer
from server.support import HTTP, TIMEOUT, ServerProcess, WsPlayer, create_table, join_table

pytestmark = pytest.mark.asyncio


async def _started(server: ServerProcess) -> tuple[dict[str, object], WsPlayer, WsPlayer]:
    host = create_table(server.url, seats=[None, None], options={"target_score": 100})
    guest = join_table(server.url, str(host["code"]), "Bob")
    ada = await WsPlayer(server.ws_url, str(host["code"]), str(host["token"])).connect()
    bob = await WsPlayer(server.ws_url, str(host["code"]), str(guest["token"])).connect()
    await ada.send({"type": "start"})
    await ada.expect("state")
    await bob.expect("state")
    return host, ada, bob


async def _still_usable(player: WsPlayer, version: int) -> None:
    await player.send({"type": "ping", "id": "still"})
    await player.expect("pong", id="still")
    await player.send({"type": "sync"})
    state = await player.expect("state")
    assert state["version"] == version  # nothing changed


async def _closed(player: WsPlayer) -> int:
    assert player.ws is not None
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            await player.recv()
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ("{oops", "bad_json"),
        ("[]", "bad_message"),
        (json.dumps({"type": "launch"}), "unknown_type"),
        (json.dumps({"type": "action", "action": "draw"}), "bad_message"),
        (json.dumps({"type": "ping", "id": "x" * 5000}), "too_big"),
        (b"\xff\xfe", "bad_json"),
    ],
)
async def test_malformed_messages_are_answered_and_the_connection_stays(
    server: ServerProcess, payload: str | bytes, code: str
) -> None:
    _, ada, bob = await _started(server)
    await ada.send(payload)
    error = await ada.expect("error")
    assert error["code"] == code and error["message"]
    await _still_usable(ada, 0)
    await ada.close()
    await bob.close()


async def test_refused_actions_change_nothing(server: ServerProcess) -> None:
    _, ada, bob = await _started(server)
    mover, other = (ada, bob) if ada.view and ada.view["turn"] == 0 else (bob, ada)
    cases = [
        (other, "draw", 0, "illegal"),  # not its turn: the engine's reason
        (mover, "R7@9", 0, "illegal"),
        (mover, "R11@0", 0, "notation"),
        (mover, f"{other.seat}: catch {mover.seat}", 0, "not_your_seat"),
        (other, f"{mover.seat}: draw", 0, "not_your_seat"),
        (mover, "draw", 5, "stale"),
    ]
    for player, action, version, code in cases:
        answer = await player.act(action, version)
        assert answer["type"] == "error", answer
        assert answer["code"] == code, answer
        assert answer["message"]
    assert (await mover.act("draw"))["type"] == "update"
    assert (await mover.act("draw", 0))["code"] == "stale"
    await _still_usable(mover, 1)
    await ada.close()
    await bob.close()


async def test_the_illegal_message_is_the_engines_reason(server: ServerProcess) -> None:
    _, ada, bob = await _started(server)
    other = bob if ada.view and ada.view["turn"] == 0 else ada
    answer = await other.act("draw")
    assert "RULES" in answer["message"] or "turn" in answer["message"]
    assert answer["key"] == "game.err_not_your_turn" and answer["params"] == {}
    await ada.close()
    await bob.close()


async def test_an_illegal_action_says_why_in_catalog_words(server: ServerProcess) -> None:
    _, ada, bob = await _started(server)
    mover = ada if ada.view and ada.view["turn"] == 0 else bob
    missing = next(c for c in ("R1", "G1", "B1", "Y1") if c not in mover.view["hand"])
    answer = await mover.act(f"{missing}@0")  # a card it does not hold
    assert answer["code"] == "illegal", answer
    assert answer["key"] == "game.err_not_in_hand", answer
    card = answer["params"]["card"]
    for key in (answer["key"], card["key"]):
        assert key in catalog("ja")
    assert placeholders(catalog("en")[answer["key"]]) == set(answer["params"])
    assert answer["message"]  # the engine's own reason, in English, beside the key
    notation = await mover.act("R11@0")
    assert notation["code"] == "notation" and "key" not in notation
    await ada.close()
    await bob.close()


async def test_a_spectator_cannot_act_start_or_take_a_seat(server: ServerProcess) -> None:
    host, ada, bob = await _started(server)
    watcher = await WsPlayer(server.ws_url, str(host["code"]), None).connect()
    assert "hand" not in (watcher.view or {})
    assert (await watcher.act("draw"))["code"] == "not_seated"
    await watcher.send({"type": "rematch"})
    assert (await watcher.expect("error"))["code"] == "not_seated"
    await _still_usable(watcher, 0)
    for player in (ada, bob, watcher):
        await player.close()


async def test_only_the_host_starts_and_only_once(server: ServerProcess) -> None:
    host = create_table(server.url, seats=[None, None])
    guest = join_table(server.url, host["code"], "Bob")
    bob = await WsPlayer(server.ws_url, host["code"], guest["token"]).connect()
    await bob.send({"type": "start"})
    assert (await bob.expect("error"))["code"] == "not_host"
    assert (await bob.act("draw", 0))["code"] == "not_playing"
    ada = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
    await ada.send({"type": "start"})
    await ada.expect("state")
    await ada.send({"type": "start"})
    assert (await ada.expect("error"))["code"] == "bad_state"
    await ada.send({"type": "rematch"})
    assert (await ada.expect("error"))["code"] == "bad_state"
    await ada.close()
    await bob.close()


async def test_a_forged_token_closes_the_connection(server: ServerProcess) -> None:
    host = create_table(server.url, seats=[None, "easy"])
    forged = Signer(b"not the server's secret!").seat_token(host["code"], 0, host["player_id"])
    player = WsPlayer(server.ws_url, host["code"], forged)
    await player.connect(hello=False)
    await player.send({"type": "hello", "protocol": 1, "token": forged})
    assert (await player.expect("error"))["code"] == "bad_token"
    assert await _closed(player) == 4401


async def test_an_expired_token_closes_the_connection(
    server: ServerProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = create_table(server.url, seats=[None, "easy"])
    secret = (server.data / "secret.key").read_text(encoding="ascii").strip()
    old = Signer(bytes.fromhex(secret)).seat_token(
        host["code"], 0, host["player_id"], now=time.time() - TOKEN_DAYS * 86400 - 100
    )
    player = WsPlayer(server.ws_url, host["code"], old)
    await player.connect(hello=False)
    await player.send({"type": "hello", "protocol": 1, "token": old})
    assert (await player.expect("error"))["code"] == "expired_token"
    assert await _closed(player) == 4401


async def test_a_token_of_another_table_is_refused(server: ServerProcess) -> None:
    first = create_table(server.url, seats=[None, "easy"])
    second = create_table(server.url, seats=[None, "easy"])
    player = WsPlayer(server.ws_url, second["code"], first["token"])
    await player.connect(hello=False)
    await player.send({"type": "hello", "protocol": 1, "token": first["token"]})
    assert (await player.expect("error"))["code"] == "bad_token"
    assert await _closed(player) == 4401


async def test_messages_before_hello_are_refused(server: ServerProcess) -> None:
    host = create_table(server.url, seats=[None, "easy"])
    player = WsPlayer(server.ws_url, host["code"], host["token"])
    await player.connect(hello=False)
    await player.send({"type": "sync"})
    assert (await player.expect("error"))["code"] == "hello_required"
    await player.send({"type": "hello", "protocol": 2, "token": None})
    assert (await player.expect("error"))["code"] == "protocol"
    assert await _closed(player) == 4400


async def test_an_unknown_table_closes_the_connection(server: ServerProcess) -> None:
    player = WsPlayer(server.ws_url, "NOSUCH", None)
    await player.connect(hello=False)
    assert await _closed(player) == 4404


async def test_a_flood_is_rate_limited_then_closed(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "data", None)
    server.args = ("--limit", "messages=40/2second")  # the default, the other limits too
    server.start()
    try:
        await _flood(server)
    finally:
        server.stop()


async def _flood(server: ServerProcess) -> None:
    host = create_table(server.url, seats=[None, "easy"])
    player = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
    for number in range(200):
        await player.send({"type": "ping", "id": f"p{number}"})
    codes = []
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            message = await player.recv(TIMEOUT)
            if message["type"] == "error":
                codes.append(message["code"])
                assert message["id"] is None or message["id"].startswith("p")
    assert "rate_limited" in codes
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429


async def test_a_newer_connection_replaces_the_older(server: ServerProcess) -> None:
    host = create_table(server.url, seats=[None, "easy"])
    first = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
    second = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
    assert await _closed(first) == 4000
    await _still_usable(second, 0)
    await second.close()


async def test_a_player_who_leaves_is_sent_the_close_and_its_reason(
    server: ServerProcess,
) -> None:
    # The server closes the connection of a seat that left (4000): the close frame must reach
    # the client, not a dropped connection (1006) that a client would reconnect after.
    host = create_table(server.url, seats=[None, "easy"])
    player = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
    await player.send({"type": "start"})
    while player.view is None:
        await player.recv(TIMEOUT)
    await player.send({"type": "leave"})
    assert await _closed(player) == 4000


async def test_the_record_of_a_game_in_play_stays_hidden(server: ServerProcess) -> None:

    host, ada, bob = await _started(server)
    info = HTTP.get(f"{server.url}/api/tables/{host['code']}").json()
    for what in ("record", "replay"):
        hidden = HTTP.get(f"{server.url}/api/games/{info['game_id']}/{what}")
        assert hidden.status_code == 409, hidden.text
    await ada.close()
    await bob.close()
