"""What a player does about another (``dos.server.people.moderation``) as the table's chat
shows it: a player sees none of the chat of those they mute or block, neither said nor kept;
a player an admin muted may not chat; a report carries the last lines of the table's chat."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import cast

import pytest
import pytest_asyncio
from fastapi import WebSocket

from dos.server.net.connections import Client
from dos.server.net.limits import Counters, Limits
from dos.server.people.admins import Order, sanction, until_of
from dos.server.people.blocks import add_block
from dos.server.people.moderation import (
    EXCERPT_LINES,
    ModerationRefusedError,
    NewReport,
    add_mute,
    check_report,
    file_report,
    open_reports,
)
from dos.server.protocol.http_bodies import CreateTable, JoinTable
from dos.server.protocol.refusals import RefusedError
from dos.server.seat_service import SeatService
from dos.server.service import Service
from dos.server.storage.database import Database
from dos.server.storage.table_store import load_table
from dos.server.tables import seating
from dos.server.tables.chat import ChatRefusedError, store_line
from dos.server.tables.settings import Settings
from dos.server.tables.table import Table

pytestmark = pytest.mark.asyncio

AT = 2_000_000_000.0


@pytest_asyncio.fixture
async def service(tmp_path: Path) -> AsyncIterator[Service]:
    url = f"sqlite:///{tmp_path / 'dos.sqlite3'}"
    service = Service(Database(url, "OFF"), tmp_path, Settings(bot_delay=0, pause_seconds=0))
    await service.start()
    yield service
    await service.stop()


def _client(player_id: str) -> Client:
    client = Client(cast(WebSocket, None), "127.0.0.1", Counters(Limits()))  # never started
    client.player_id = player_id
    return client


def _said(client: Client) -> list[str]:
    """The chat texts queued for ``client`` (its history's and each line's), in order."""
    texts = []
    while not client._queue.empty():
        item = client._queue.get_nowait()
        if isinstance(item, str):
            message = json.loads(item)
            if message["type"] == "chat_history":
                texts += [line["text"] for line in message["lines"]]
            elif message["type"] == "chat":
                assert "player_id" not in message  # authors are never sent
                texts.append(message["text"])
    return texts


async def _seated(service: Service) -> tuple[Table, list[Client]]:
    """Ada, Bo and Cy at one table, each connected."""
    ids = [service.player(None) for _ in range(3)]
    request = CreateTable(name="Ada", seats=[None] * 3, rated=False, player_token=ids[0][1])
    code = (await service.create(request, "test"))["code"]
    for name, (_, token) in zip(("Bo", "Cy"), ids[1:], strict=True):
        await service.join(code, JoinTable(name=name, player_token=token), "test")
    table = await service.table(code)
    assert table is not None
    clients = [_client(player_id) for player_id, _ in ids]
    for seat, client in enumerate(clients):
        client.seat = seat
    return table, clients


async def test_a_player_sees_none_of_the_chat_of_those_they_mute_or_block(
    service: Service,
) -> None:
    table, (ada, bo, cy) = await _seated(service)
    await table.chat.say(table, bo, "before", None)
    assert ada.player_id and bo.player_id and cy.player_id
    await service.db.call(add_mute, ada.player_id, bo.player_id, AT)
    await service.db.call(add_block, cy.player_id, ada.player_id, AT)
    for seat, client in enumerate((ada, bo, cy)):
        await seating.attach(table, client, seat)
    await table.chat.say(table, bo, "from Bo", None)
    await table.chat.say(table, ada, "from Ada", None)
    assert _said(ada) == ["from Ada"]  # Bo's lines, kept or new, are hidden
    assert _said(bo) == ["before", "from Bo", "from Ada"]
    assert _said(cy) == ["before", "from Bo"]  # Cy blocks Ada
    # The table loaded again (a restart) keeps each line's author.
    stored = await service.db.read(load_table, table.code)
    assert stored is not None
    reloaded = await Table.load(stored, service.db, service.settings)
    await reloaded.chat.learn(ada.player_id)
    lines = json.loads(reloaded.chat.history_message(ada.player_id))["lines"]
    assert [line["text"] for line in lines] == ["from Ada"]


async def test_a_player_an_admin_muted_may_not_chat_until_the_mute_ends(
    service: Service,
) -> None:
    table, (ada, bo, _cy) = await _seated(service)
    assert bo.player_id is not None
    now = service.clock.time()
    order = Order("p_admin", "mute", "spam", player_id=bo.player_id, until=until_of(1, now))
    await service.db.call(sanction, order, now)
    with pytest.raises(ChatRefusedError) as refused:
        await table.chat.say(table, bo, "hello?", None)
    assert refused.value.code == "muted"
    await table.chat.say(table, ada, "Ada may", None)


async def test_a_banned_agent_plays_no_more_through_the_seat_api(service: Service) -> None:
    player_id, token = service.player(None)
    request = CreateTable(name="Agent", seats=[None, "easy"], rated=False, player_token=token)
    grant = await service.create(request, "test")
    seats = SeatService(service)
    await seats.seat(grant["token"])  # opens its seat
    now = service.clock.time()
    await service.db.call(sanction, Order("p_admin", "ban", "bot farm", player_id=player_id), now)
    with pytest.raises(RefusedError) as refused:
        await seats.seat(grant["token"])
    assert refused.value.code == "banned"


async def test_a_report_from_a_table_carries_its_last_chat_lines(service: Service) -> None:
    table, _ = await _seated(service)
    for number in range(EXCERPT_LINES + 5):
        line = {"seat": 1, "name": "Bo", "text": f"line {number}", "reaction": None}
        await service.db.call(store_line, table.code, {**line, "player_id": "p_bo"}, AT + number)
    report = NewReport("p_ada", "p_bo", "abuse", None, "Bo", table.code)
    filed = await service.db.call(file_report, report, AT + EXCERPT_LINES + 1)
    (kept,) = [r for r in await service.db.read(open_reports) if r["id"] == filed]
    assert [line["text"] for line in kept["excerpt"]] == [f"line {n}" for n in range(2, 22)]
    assert {line["player_id"] for line in kept["excerpt"]} == {"p_bo"}


async def test_a_report_names_the_field_it_breaks() -> None:
    cases = [
        (NewReport("p_a", "p_a", "spam"), "bad_player"),
        (NewReport("p_a", "p_b", "rude"), "bad_reason"),
        (NewReport("p_a", "p_b", "spam", "x" * 501), "text_too_long"),
        (NewReport("p_a", "p_b", "spam", "hi\u200b"), "bad_text"),
    ]
    for report, code in cases:
        with pytest.raises(ModerationRefusedError) as refused:
            check_report(report)
        assert refused.value.code == code
