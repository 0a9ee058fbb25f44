"""Whole games on a real server: WebSocket players with server bots, hidden hands, records."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from dos.cli import main as dos_main
from server.support import (
    HTTP,
    ServerProcess,
    WsPlayer,
    check_hidden,
    create_table,
    hands_by_version,
    join_table,
    play_until_the_bot_moves,
)

pytestmark = pytest.mark.asyncio


async def test_two_players_and_two_bots_play_a_whole_game(
    server: ServerProcess, tmp_path: Path
) -> None:
    host = create_table(
        server.url,
        name="Ada",
        seats=[None, None, "medium", "easy"],
        options={"target_score": 30},
        public=True,
    )
    code = host["code"]
    guest = join_table(server.url, code, "Bob")
    assert guest["seat"] == 1
    listed = HTTP.get(f"{server.url}/api/tables").json()["tables"]
    assert code in [t["code"] for t in listed]

    ada = await WsPlayer(server.ws_url, code, host["token"]).connect()
    bob = await WsPlayer(server.ws_url, code, guest["token"]).connect()
    watcher = await WsPlayer(server.ws_url, code, None).connect()
    assert (ada.seat, bob.seat, watcher.seat) == (0, 1, None)
    assert ada.view is None  # the lobby has no game yet

    await ada.send({"type": "start"})
    for player in (ada, bob, watcher):
        await player.expect("state")
        assert player.version == 0

    results = await asyncio.gather(
        ada.play_to_end(random.Random(1)),
        bob.play_to_end(random.Random(2)),
        _watch(watcher),
    )
    assert results[0] == results[1] == results[2]
    assert results[0]["winner"] in range(4)
    for player in (ada, bob, watcher):
        assert player.history == ada.history  # everyone saw the same game

    info = HTTP.get(f"{server.url}/api/tables/{code}").json()
    assert info["status"] == "finished"
    record = HTTP.get(f"{server.url}/api/games/{info['game_id']}/record")
    assert record.status_code == 200
    lines = record.text.splitlines()  # the header, the deals, the actions, the result
    assert sum(line.startswith('{"action"') for line in lines) == len(ada.history)
    assert any(line.startswith('{"deal"') for line in lines)
    path = tmp_path / "game.jsonl"
    path.write_text(record.text, encoding="utf-8")
    assert dos_main(["replay", str(path)]) == 0
    assert dos_main(["verify", str(path)]) == 0  # every deal follows from its commitment

    hands = hands_by_version(record.text)
    checked = sum(check_hidden(p, hands) for p in (ada, bob, watcher))
    assert checked > 3 * len(ada.history) // 2

    mine = HTTP.get(f"{server.url}/api/players/{host['player_id']}/results").json()
    assert mine["games"] == 1
    assert mine["results"][0]["won"] == (results[0]["winner"] == 0)
    address = f"{server.url}/api/games/{info['game_id']}/replay"
    replay = HTTP.get(address).json()
    assert replay["total"] == len(ada.history) + 1
    frames = list(replay["frames"])
    while len(frames) < replay["total"]:  # the rest, page by page
        page = HTTP.get(address, params={"offset": len(frames)}).json()
        assert page["offset"] == len(frames) and page["frames"]
        frames += page["frames"]
    assert [f["action"] for f in frames[1:]] == ada.history

    for player in (ada, bob, watcher):
        await player.close()


async def _watch(watcher: WsPlayer) -> dict[str, object]:
    while watcher.result is None:
        await watcher.recv()
    return watcher.result


async def test_a_rematch_deals_a_new_game_with_the_same_seats(server: ServerProcess) -> None:
    host = create_table(server.url, seats=[None, "easy"], options={"target_score": 5})
    code = host["code"]
    ada = await WsPlayer(server.ws_url, code, host["token"]).connect()
    await ada.send({"type": "start"})
    await ada.expect("state")
    first = await ada.play_to_end(random.Random(3))
    await ada.rematch()
    assert ada.version == 0 and ada.result is None
    assert ada.table is not None and ada.table["game"] == 2
    second = await ada.play_to_end(random.Random(4))
    assert set(first) == set(second)
    games = HTTP.get(f"{server.url}/api/tables/{code}/games").json()["games"]
    assert [g["status"] for g in games] == ["finished", "finished"]
    await ada.close()


async def test_an_expert_bot_plays_its_turns(server: ServerProcess) -> None:
    host = create_table(server.url, seats=[None, "expert"])
    ada = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
    await ada.send({"type": "start"})
    await ada.expect("state")
    assert ada.table is not None and ada.table["seats"][1]["bot"] == "expert"
    moves = await play_until_the_bot_moves(ada, 1, 3, random.Random(8))
    assert len(moves) >= 3
    await ada.close()


async def test_bots_alone_fill_the_open_seats_and_finish(server: ServerProcess) -> None:
    host = create_table(server.url, seats=[None, None, None], options={"target_score": 5})
    ada = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
    await ada.send({"type": "start"})
    await ada.expect("state")
    assert ada.table is not None
    assert [s["bot"] for s in ada.table["seats"]] == [None, "medium", "medium"]
    await ada.play_to_end(random.Random(5))
    await ada.close()


async def test_any_rule_set_is_played_the_same_way(server: ServerProcess) -> None:
    from dos import ruleset
    from server.support import drive

    for name in ruleset.NAMES:
        if name == "official":
            continue
        refused = HTTP.post(
            f"{server.url}/api/tables", json={"name": "Ada", "rules": name, "seats": [None, "easy"]}
        )
        assert refused.status_code in (201, 400), refused.text
        host = create_table(server.url, rules=name, seats=[None, None])
        guest = join_table(server.url, host["code"], "Bob")
        ada = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
        bob = await WsPlayer(server.ws_url, host["code"], guest["token"]).connect()
        await ada.send({"type": "start"})
        await ada.expect("state")
        await bob.expect("state")
        assert ada.view is not None and "hand" in ada.view
        await drive([ada, bob], random.Random(7), stop_version=10)
        assert ada.history == bob.history and len(ada.history) >= 1
        await ada.close()
        await bob.close()


async def test_a_dropped_player_reconnects_with_a_full_resync(server: ServerProcess) -> None:
    from server.support import drive

    host = create_table(server.url, seats=[None, None], options={"target_score": 500})
    guest = join_table(server.url, host["code"], "Bob")
    ada = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
    bob = await WsPlayer(server.ws_url, host["code"], guest["token"]).connect()
    await ada.send({"type": "start"})
    await ada.expect("state")
    await bob.expect("state")
    rng = random.Random(9)
    await drive([ada, bob], rng, stop_version=6)
    await ada.close()  # the connection drops
    while bob.table is None or bob.table["seats"][0]["connected"]:
        await bob.expect("table")
    ada = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
    assert (ada.version, ada.history) == (bob.version, bob.history)
    assert ada.view is not None and ada.view["seat"] == 0
    await drive([ada, bob], rng, stop_version=12)
    assert ada.history == bob.history
    await ada.close()
    await bob.close()
