"""The chat is kept with its table: stored, bounded to the latest
``HISTORY_MAX`` lines, sent to every connection as it opens (``chat_history``), back after a
restart; a line is sent to nobody until it is stored, and one the database refuses is sent to
nobody at all. On SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from dos.server.net.limits import Counters, Limits
from dos.server.storage.database import Database
from dos.server.storage.table_store import insert_table, load_table
from dos.server.tables.chat import (
    HISTORY_MAX,
    ChatRefusedError,
    ChatRoom,
    Line,
    expire_with_chat,
    load_lines,
    store_line,
)
from dos.server.tables.settings import Settings
from dos.server.tables.table import Table
from server.chat_fakes import FakeTable
from server.stored import stored_table
from server.support import ServerProcess, WsPlayer, create_table, join_table

AT = 2_000_000_000.0
"""When the lines are said (the table's clock gives it in the server)."""


def _line(number: int, seat: int | None = 0) -> Line:
    name = None if seat is None else "Ada"
    return {"seat": seat, "name": name, "text": f"line {number}", "reaction": None}


@pytest.mark.asyncio
async def test_a_tables_chat_is_stored_bounded_loaded_with_it_and_expires_with_it(
    database: str,
) -> None:
    db = Database(database)
    db.start()
    try:
        await db.call(insert_table, stored_table("AAAAAA", options={}, public=False))
        await db.call(insert_table, stored_table("BBBBBB", options={}, public=False))
        for number in range(8):
            await db.call(store_line, "AAAAAA", _line(number), AT, 5)
        gg: Line = {"seat": None, "name": None, "text": None, "reaction": "gg"}
        await db.call(store_line, "BBBBBB", gg, AT)
        assert await db.read(load_lines, "AAAAAA") == [_line(n) for n in range(3, 8)]
        assert await db.read(load_lines, "BBBBBB") == [gg]  # each table its own

        def say_many(session: Any, count: int) -> None:
            for number in range(count):
                store_line(session, "AAAAAA", _line(number, seat=1), AT)

        await db.call(say_many, HISTORY_MAX + 3)  # the default bound
        kept = [_line(n, seat=1) for n in range(3, HISTORY_MAX + 3)]
        assert await db.read(load_lines, "AAAAAA") == kept
        stored = await db.read(load_table, "AAAAAA")
        assert stored is not None
        table = await Table.load(stored, db, Settings(bot_delay=0))
        assert list(table.chat.lines) == kept  # loaded with the table
        await db.call(expire_with_chat, "AAAAAA", None, AT)  # an expired table's chat goes
        assert await db.read(load_lines, "AAAAAA") == []
        assert await db.read(load_lines, "BBBBBB") == [gg]
    finally:
        db.close()


@dataclass(eq=False)
class FakeClient:
    seat: int | None
    player_id: str | None = None
    sent: list[dict[str, Any]] = field(default_factory=list)
    counters: Counters = field(default_factory=lambda: Counters(Limits()))

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def allow_chat(self) -> bool:
        return True


class FakeDatabase:
    """Stores lines in a list, or refuses them while ``failing``; each store waits for
    ``gate`` so that a test can act while a line is on its way to the database."""

    def __init__(self) -> None:
        self.stored: list[Line] = []
        self.failing = False
        self.gate = asyncio.Event()
        self.gate.set()
        self.reached = asyncio.Event()
        """Set once a store has begun."""

    async def call(self, fn: Callable[..., Any], code: str, line: Line, at: float) -> None:
        assert fn is store_line and code == "CHAT22"
        self.reached.set()
        await self.gate.wait()
        if self.failing:
            raise OSError("disk full")
        self.stored.append(line)


def _chats(client: FakeClient) -> list[str | None]:
    return [m["text"] for m in client.sent if m["type"] == "chat"]


@pytest.mark.asyncio
async def test_a_line_is_sent_once_stored_and_a_refused_one_to_nobody() -> None:
    db = FakeDatabase()
    room = ChatRoom("CHAT22", db)  # type: ignore[arg-type]
    ada, bo = FakeClient(0), FakeClient(1)
    table = FakeTable([ada, bo])
    db.gate.clear()
    saying = asyncio.create_task(room.say(table, ada, "hello", None))  # type: ignore[arg-type]
    await db.reached.wait()  # the line is on its way to the database: nobody has it yet
    assert _chats(bo) == [] and list(room.lines) == []
    db.gate.set()
    await saying
    assert db.stored == list(room.lines) == [_line(0) | {"text": "hello"}]
    assert _chats(ada) == _chats(bo) == ["hello"]
    db.failing = True
    with pytest.raises(ChatRefusedError) as refused:
        await room.say(table, bo, "lost", None)  # type: ignore[arg-type]
    assert refused.value.code == "storage"
    assert _chats(ada) == _chats(bo) == ["hello"]  # sent to nobody, kept nowhere
    assert [line["text"] for line in room.lines] == ["hello"]
    db.failing = False
    await room.say(table, bo, "again", None)  # type: ignore[arg-type]
    assert _chats(ada) == ["hello", "again"]
    history = json.loads(room.history_message())
    assert [line["text"] for line in history["lines"]] == ["hello", "again"]


@pytest.mark.asyncio
async def test_lines_said_at_once_are_kept_in_the_order_everyone_saw(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'dos.sqlite3'}")
    db.start()
    try:
        await db.call(insert_table, stored_table("CHAT22", options={}, public=False))
        room = ChatRoom("CHAT22", db)
        ada, bo = FakeClient(0), FakeClient(1)
        table = FakeTable([ada, bo])
        await asyncio.gather(
            *(
                room.say(table, [ada, bo][n % 2], f"line {n}", None)  # type: ignore[arg-type]
                for n in range(20)
            )
        )
        seen = _chats(ada)
        assert sorted(seen) == sorted(f"line {n}" for n in range(20))
        assert _chats(bo) == seen
        assert [line["text"] for line in await db.read(load_lines, "CHAT22")] == seen
        assert [line["text"] for line in room.lines] == seen
    finally:
        db.close()


async def _say(player: WsPlayer, message: dict[str, Any]) -> dict[str, Any]:
    """Sends a chat message; returns the ``chat`` line that comes back."""
    await player.send({"type": "chat", **message})
    return await player.expect("chat")


def _history(player: WsPlayer) -> list[dict[str, Any]]:
    """The lines of the ``chat_history`` the connection got, which came right after its
    ``chat_rules`` (the connect's last message before the table's news)."""
    kinds = [m["type"] for m in player.messages]
    at = kinds.index("chat_history")
    assert kinds[at - 1] == "chat_rules"
    lines: list[dict[str, Any]] = player.messages[at]["lines"]
    return lines


@pytest.mark.asyncio
async def test_every_connection_gets_the_chat_kept_even_after_a_kill(tmp_path: Path) -> None:
    """End to end, on SQLite (the storage above runs on PostgreSQL too)."""
    server = ServerProcess(tmp_path / "data")
    server.start()
    try:
        grant = create_table(server.url, name="Ada", seats=[None, None, "easy"])
        code = str(grant["code"])
        ada = await WsPlayer(server.ws_url, code, str(grant["token"])).connect()
        await ada.expect("chat_history", lines=[])
        said = [
            await _say(ada, {"text": "hello from the lobby"}),
            await _say(ada, {"reaction": "gg"}),
        ]
        bo_grant = join_table(server.url, code, "Bo")
        bo = await WsPlayer(server.ws_url, code, str(bo_grant["token"])).connect()
        await bo.expect("chat_history")
        watcher = await WsPlayer(server.ws_url, code, None).connect()
        await watcher.expect("chat_history")
        lines = [{k: v for k, v in line.items() if k != "type"} for line in said]
        assert _history(bo) == _history(watcher) == lines
        said.append(await _say(bo, {"text": "hi Ada"}))
        lines.append({"seat": 1, "name": "Bo", "text": "hi Ada", "reaction": None})
        server.kill()  # no goodbye: what everyone saw was stored before it was sent
        for player in (ada, bo, watcher):
            await player.close()
        server.start()
        for token in (grant["token"], None):
            again = await WsPlayer(server.ws_url, code, token).connect()
            await again.expect("chat_history")
            assert _history(again) == lines
            await again.close()
    finally:
        server.stop()
