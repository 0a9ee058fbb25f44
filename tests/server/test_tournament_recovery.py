"""A tournament's pairing is stored before its tables are made: a server that dies in between
makes and deals them when it comes back, once, from the rows; of two pairings made from one
version of a tournament (two processes at once) only one is stored; and two players who block
each other are never paired."""

from __future__ import annotations

from pathlib import Path

import pytest

from dos.server.clock import ManualClock
from dos.server.people.blocks import add_block
from dos.server.service import Service
from dos.server.storage.database import Database
from dos.server.tables.settings import Settings
from dos.server.tables.table import Status
from dos.server.tournaments import store
from dos.server.tournaments.bodies import CreateTournament, Entry
from dos.server.tournaments.service import Tournaments
from dos.server.tournaments.store import KeptGame

pytestmark = pytest.mark.asyncio


def service(data: Path, clock: ManualClock) -> Service:
    url = f"sqlite:///{data / 'dos.sqlite3'}"
    return Service(Database(url, "OFF"), data, Settings(bot_delay=0, clock=clock))


class DiedError(Exception):
    """The server stopped between storing a pairing and making its table."""


async def test_a_table_paired_but_never_made_is_made_after_a_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = ManualClock()
    first = service(tmp_path, clock)
    await first.start()
    tournaments = Tournaments(first)
    made = await tournaments.create(
        CreateTournament(name="Ada", title="Cup", format="arena", minutes=10)
    )

    async def die(_self: Tournaments, _kept: object, _game: KeptGame) -> None:
        raise DiedError

    monkeypatch.setattr(Tournaments, "_open", die)
    with pytest.raises(DiedError):
        await tournaments.join(made["id"], Entry(name="Bea"))
    monkeypatch.undo()
    await first.stop()

    second = service(tmp_path, ManualClock(start=clock.time()))
    await second.start()
    again = Tournaments(second)
    await again.tick(made["id"])
    await again.tick(made["id"])  # once made, a table is never made twice
    view = await again.view(made["id"])
    [table] = view["tables"]
    assert [p["name"] for p in table["players"]] == ["Ada", "Bea"]
    held = await second.table(table["code"])
    assert held is not None and held.status == Status.PLAYING
    assert list(second.tables) == [table["code"]]
    await second.stop()


async def test_of_two_pairings_made_from_one_version_only_the_first_is_stored(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    held = service(tmp_path, clock)
    await held.start()
    tournaments = Tournaments(held)
    made = await tournaments.create(
        CreateTournament(name="Ada", title="Cup", format="swiss", rounds=1)
    )
    kept = await held.db.read(store.load, made["id"])
    assert kept is not None
    ours = [store.NewGame(1, ("a", "b"), "CODE1")]
    theirs = [store.NewGame(1, ("a", "c"), "CODE2")]
    first = await held.db.call(store.store_pairing, kept.id, kept.version, ours, 1.0)
    second = await held.db.call(store.store_pairing, kept.id, kept.version, theirs, 1.0)
    assert first is not None and second is None
    after = await held.db.read(store.load, made["id"])
    assert after is not None and [g.table_code for g in after.games] == ["CODE1"]
    assert after.version == kept.version + 1
    await held.stop()


async def test_players_who_block_each_other_are_never_paired(tmp_path: Path) -> None:
    held = service(tmp_path, ManualClock())
    await held.start()
    tournaments = Tournaments(held)
    made = await tournaments.create(
        CreateTournament(name="Ada", title="Cup", format="arena", minutes=10)
    )
    bea, bea_token = held.player(None)
    assert await held.db.call(add_block, bea, made["player_id"], 1.0)
    await tournaments.join(made["id"], Entry(name="Bea", player_token=bea_token))
    assert (await tournaments.view(made["id"]))["tables"] == []  # they wait for others
    await tournaments.join(made["id"], Entry(name="Cai"))
    [table] = (await tournaments.view(made["id"]))["tables"]
    assert [p["name"] for p in table["players"]] == ["Ada", "Cai"]
    await held.stop()
