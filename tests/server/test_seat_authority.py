"""The seat of an action comes from the connection alone: no text chooses who acts.

In-process: a ``Service`` on a temporary SQLite database, a table of three guests, and
``Table.submit`` called with the seat a connection was authenticated for. (The same over
real WebSockets: ``test_impersonation.py``.)

The deal is the suite's (``support.suite_deals``), whatever it is: the tests read whose turn it
is from the game, and no bot sits at the table, so nothing moves it but the one action sent.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from hypothesis import given, settings
from hypothesis import strategies as st

from dos import ruleset
from dos.server.protocol.http_bodies import CreateTable, JoinTable
from dos.server.protocol.refusals import RefusedError
from dos.server.service import Service
from dos.server.storage.database import Database
from dos.server.tables.settings import Settings
from dos.server.tables.table import Table
from support import suite_deals


async def _table(data: Path, rules: str = "official") -> tuple[Service, Table]:
    service = Service(
        Database(f"sqlite:///{data / 'dos.sqlite3'}", "OFF"),
        data,
        Settings(bot_delay=0, deals=suite_deals()),
    )
    await service.start()
    grant = await service.create(
        CreateTable(name="Ann", rules=rules, seats=[None, None, None]), "test"
    )
    code = grant["code"]
    await service.join(code, JoinTable(name="Bob"), "test")
    await service.join(code, JoinTable(name="Cy"), "test")
    table = await service.table(code)
    assert table is not None
    await table.start(0)
    return service, table


@pytest_asyncio.fixture
async def official(tmp_path: Path) -> AsyncIterator[Table]:
    service, table = await _table(tmp_path)
    yield table
    await service.stop()


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("sender", "template"),
    [
        ("turn", "{turn}: {a}: catch {b}"),  # the case found: stored as seat a's catch
        ("b", "{b}: {a}: dos"),
        ("turn", "{a}: dos"),
        ("turn", "{a}: catch {b}"),
        ("a", "{turn}: draw"),
        ("b", " {turn} :draw"),
        ("a", "{b}: dos"),
    ],
)
async def test_a_seat_cannot_act_for_another(official: Table, sender: str, template: str) -> None:
    turn = official.rules.turn(official.current.state)
    seats = {"turn": turn, "a": (turn + 1) % 3, "b": (turn + 2) % 3}
    text = template.format(**seats)
    before = official.rules.to_position(official.current.state)
    with pytest.raises(RefusedError) as refused:
        await official.submit(seats[sender], text, 0)
    assert refused.value.code in ("not_your_seat", "notation"), refused.value.message
    assert official.current.version == 0
    assert official.rules.to_position(official.current.state) == before


@pytest.mark.asyncio
async def test_an_unprefixed_action_is_the_connections_own(official: Table) -> None:
    turn = official.rules.turn(official.current.state)
    other = (turn + 1) % 3
    # A seat not to act: its "draw" is its own (refused as out of turn), never the turn's.
    with pytest.raises(RefusedError) as refused:
        await official.submit(other, "draw", 0)
    assert refused.value.code == "illegal"
    assert official.current.version == 0
    await official.submit(turn, f"{turn}: draw", 0)  # one's own seat may be named
    assert official.current.stored is not None
    assert official.current.stored.actions == ["draw"]
    assert official.current.stored.action_seats == [turn]


@settings(max_examples=60, deadline=None)
@given(
    seat=st.integers(0, 2),
    prefix=st.one_of(st.just(""), st.integers(0, 5).map(lambda n: f"{n}: ")),
    body=st.sampled_from(["draw", "dos", "catch 0", "catch 1", "catch 2", "end", "lay B3"]),
)
def test_whatever_the_text_the_action_applied_is_the_senders(
    tmp_path_factory: pytest.TempPathFactory, seat: int, prefix: str, body: str
) -> None:
    async def check() -> None:
        service, table = await _table(tmp_path_factory.mktemp("seat"))
        try:
            try:
                await table.submit(seat, prefix + body, 0)
            except RefusedError as error:
                named = prefix.strip(": ")
                if named and int(named) != seat:
                    assert error.code in ("not_your_seat", "notation")
                else:
                    assert error.code in ("notation", "illegal")
                assert table.current.version == 0
                return
            assert table.current.stored is not None
            assert table.current.stored.action_seats == [seat]
            rules = ruleset.get("official")
            applied = rules.parse_action(table.current.stored.actions[0])
            assert rules.by_seat(table.current.state, applied, seat) is not None
        finally:
            await service.stop()

    asyncio.run(check())
