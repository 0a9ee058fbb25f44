"""Shuffles anyone can check, on the server: every game is committed to before its first card
is played, no client learns its seed or salt while it is played, and the finished game's
record passes ``dos verify`` (``dos.records.verify``, docs/records.md)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from dos import records
from dos.cli import main as dos_main
from dos.records.commitment import commitment
from dos.server.deals import Deals
from dos.server.protocol.http_bodies import Replay
from dos.server.storage.database import Database
from dos.server.storage.schema import migrate
from dos.server.storage.table_store import (
    StoredGame,
    StoredSeat,
    StoredTable,
    insert_game,
    insert_table,
    load_game,
)
from server.support import HTTP, ServerProcess, WsPlayer, create_table

TABLE_SEED = 3_141_592_653_589_793
"""A seed of many digits: no message of the game holds its text by chance."""


@pytest.mark.asyncio
async def test_a_served_game_is_committed_hidden_then_revealed_and_verified(
    server: ServerProcess, tmp_path: Path
) -> None:
    host = create_table(
        server.url, seats=[None, "easy"], seed=TABLE_SEED, options={"target_score": 60}
    )
    ada = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
    watcher = await WsPlayer(server.ws_url, host["code"], None).connect()
    await ada.send({"type": "start"})
    dealt = await ada.expect("state")
    committed = dealt["table"]["commitment"]
    assert committed is not None and dealt["version"] == 0  # before the first card is played
    game_id = dealt["table"]["game_id"]
    hidden = HTTP.get(f"{server.url}/api/games/{game_id}/record")
    assert hidden.status_code == 409  # the record, and its reveal, wait for the game's end

    await ada.play_to_end(random.Random(5))
    while watcher.table is None or watcher.table["status"] != "finished":
        await watcher.recv()
    record_text = HTTP.get(f"{server.url}/api/games/{game_id}/record").text
    record = records.loads(record_text)
    assert record.seed == TABLE_SEED and record.salt is not None
    assert record.commitment == committed == commitment(TABLE_SEED, record.salt)

    # Every message of the game, to the seat and to the spectator: each one naming the game
    # carries its commitment, and none holds its seed or salt.
    for player in (ada, watcher):
        for message in player.messages:
            text = json.dumps(message)
            assert str(TABLE_SEED) not in text and record.salt not in text
            table = message.get("table")
            if table is not None and table["game_id"] == game_id:
                assert table["commitment"] == committed

    path = tmp_path / "game.jsonl"
    path.write_text(record_text, encoding="utf-8")
    assert dos_main(["verify", str(path)]) == 0
    assert record.result is not None and len(record.deals) == record.result["rounds"]

    # The replay page is given the commitment opened, and the step of each round's deal.
    replay = Replay.model_validate(HTTP.get(f"{server.url}/api/games/{game_id}/replay").json())
    assert replay.shuffle is not None
    assert (replay.shuffle.commitment, replay.shuffle.seed, replay.shuffle.salt) == (
        committed,
        str(TABLE_SEED),
        record.salt,
    )
    assert replay.shuffle.rounds == [deal.at for deal in record.deals]

    changed = json.loads(record_text.splitlines()[1])
    changed["deal"]["draw_pile"].reverse()
    lines = record_text.splitlines()
    lines[1] = json.dumps(changed)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert dos_main(["verify", str(path)]) == 1
    for player in (ada, watcher):
        await player.close()


def test_a_stored_game_keeps_its_salt_and_reveals_it_only_once_finished(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'dos.sqlite3'}", "OFF")
    migrate(db.engine)
    try:
        seats = [StoredSeat(0, "Ada", None, "p_ada"), StoredSeat(1, None, "easy", None)]
        table = StoredTable("SALTED", "official", {}, False, "lobby", 0, None, 0, 0.0, seats)
        db.run_sync(lambda s: insert_table(s, table))
        salt = Deals.deal_salt()
        game = StoredGame(0, 1, "official", {}, 7, ["Ada", "easy bot"], "playing", None)
        game.salt = salt
        game_id = db.run_sync(lambda s: insert_game(s, "SALTED", game, seats))
        loaded = db.run_sync(lambda s: load_game(s, game_id))
        assert loaded is not None and loaded.salt == salt
        assert loaded.commitment == commitment(7, salt)
        playing = loaded.record()
        assert playing.commitment == loaded.commitment and playing.salt is None
        loaded.status = "finished"
        assert loaded.record().salt == salt
    finally:
        db.close()
