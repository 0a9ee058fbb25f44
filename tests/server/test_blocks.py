"""Blocks (``dos.server.people.blocks``): kept both ways, and a blocked pair is never seated
together, whoever sits first."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from dos.server.people.blocks import (
    ModerationRefusedError,
    add_block,
    blocked_between,
    blocked_set,
    blocks_of,
    remove_block,
)
from dos.server.protocol.http_bodies import CreateTable, JoinTable
from dos.server.protocol.refusals import RefusedError
from dos.server.service import Service
from dos.server.storage.database import Database
from dos.server.tables.settings import Settings

pytestmark = pytest.mark.asyncio

AT = 2_000_000_000.0


@pytest_asyncio.fixture
async def service(tmp_path: Path) -> AsyncIterator[Service]:
    url = f"sqlite:///{tmp_path / 'dos.sqlite3'}"
    service = Service(Database(url, "OFF"), tmp_path, Settings(bot_delay=0, pause_seconds=0))
    await service.start()
    yield service
    await service.stop()


async def test_a_block_is_seen_from_both_sides_and_lifted_by_the_blocker(
    service: Service,
) -> None:
    db = service.db
    assert await db.call(add_block, "p_ada", "p_bo", AT)
    assert not await db.call(add_block, "p_ada", "p_bo", AT + 1)  # already
    assert await blocked_between(db, "p_ada", "p_bo")
    assert await blocked_between(db, "p_bo", "p_ada")
    assert not await blocked_between(db, "p_ada", "p_cy")
    await db.call(add_block, "p_cy", "p_ada", AT + 2)
    assert await blocked_set(db, "p_ada") == frozenset({"p_bo", "p_cy"})
    assert await blocked_set(db, "p_bo") == frozenset({"p_ada"})
    assert await db.read(blocks_of, "p_ada") == ["p_bo"]  # only those Ada blocks
    assert not await db.call(remove_block, "p_bo", "p_ada")  # only the blocker lifts it
    assert await db.call(remove_block, "p_ada", "p_bo")
    assert not await blocked_between(db, "p_ada", "p_bo")


async def test_nobody_blocks_themselves(service: Service) -> None:
    with pytest.raises(ModerationRefusedError) as refused:
        await service.db.call(add_block, "p_ada", "p_ada", AT)
    assert refused.value.code == "bad_player"


@pytest.mark.parametrize("first", ["blocker", "blocked"])
async def test_a_blocked_pair_is_never_seated_together_whoever_sits_first(
    service: Service, first: str
) -> None:
    ada_id, ada_token = service.player(None)
    bo_id, bo_token = service.player(None)
    await service.db.call(add_block, ada_id, bo_id, AT)
    tokens = {"blocker": ("Ada", ada_token), "blocked": ("Bo", bo_token)}
    host_name, host_token = tokens[first]
    joiner_name, joiner_token = tokens["blocked" if first == "blocker" else "blocker"]
    request = CreateTable(
        name=host_name, seats=[None, None, None], rated=False, player_token=host_token
    )
    code = (await service.create(request, "test"))["code"]
    with pytest.raises(RefusedError) as refused:
        await service.join(code, JoinTable(name=joiner_name, player_token=joiner_token), "test")
    assert refused.value.code == "blocked"
    table = await service.table(code)
    assert table is not None and [s.name for s in table.seats] == [host_name, None, None]
    # Anyone else sits down as before.
    grant = await service.join(code, JoinTable(name="Cy"), "test")
    assert grant["seat"] == 1
