"""Deals from outside: a server given a deal seed deals every table's games from it (or from
the seed the table's creator named), reproducibly and never rated; a server that deals at
random refuses a chosen seed (``dos.server.deals``)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from sqlalchemy import select

from dos.ratings.store import RatingRow
from dos.server.deals import MAX_SEED, Deals, game_seed
from dos.server.net.limits import Limits
from dos.server.protocol.http_bodies import CreateTable, ServerInfo
from dos.server.protocol.refusals import RefusedError
from dos.server.service import Service
from dos.server.storage.database import Database
from dos.server.storage.schema import migrate
from dos.server.storage.table_store import (
    StoredGame,
    StoredSeat,
    StoredTable,
    finish_game,
    insert_game,
    insert_table,
)
from dos.server.tables.settings import Settings


def test_game_1_is_the_table_seed_and_later_games_are_keyed_hashes_of_it() -> None:
    seeds = [game_seed(1106, n) for n in range(1, 50)]
    assert seeds[0] == 1106
    assert len(set(seeds)) == len(seeds)
    assert all(0 <= s <= MAX_SEED for s in seeds)
    assert seeds == [game_seed(1106, n) for n in range(1, 50)]  # a function of its inputs
    assert game_seed(1107, 2) != game_seed(1106, 2)


def test_a_random_server_refuses_a_chosen_seed_and_a_seeded_one_takes_it() -> None:
    with pytest.raises(ValueError, match="--deal-seed"):
        Deals().table_seed(5)
    assert Deals().table_seed(None) is None
    assert Deals(7).table_seed(None) == 7
    assert Deals(7).table_seed(5) == 5
    with pytest.raises(ValueError, match="0 to"):
        Deals(-1)
    with pytest.raises(ValueError, match="0 to"):
        Deals(MAX_SEED + 1)


def _service(data: Path, deals: Deals) -> Service:
    url = f"sqlite:///{data / 'dos.sqlite3'}"
    return Service(Database(url, "OFF"), data, Settings(bot_delay=0, deals=deals), Limits())


async def _first_seeds(service: Service, seed: int | None) -> tuple[int, int, bool, bool]:
    """Creates a table (naming ``seed``), starts it, ends its game by the host's leaving
    the game to a rematch; returns its games' seeds, whether it is rated and seeded."""
    grant = await service.create(
        CreateTable(name="Ada", seats=[None, "easy"], seed=seed, options={"target_score": 1}),
        "test",
    )
    table = await service.table(grant["code"])
    assert table is not None
    await table.start(0)
    assert table.current.stored is not None
    first = table.current.stored.seed
    second = Deals.deal_seed(table.deal_seed, 2)
    return first, second, grant["table"]["rated"], grant["table"]["seeded"]


@pytest.mark.asyncio
async def test_a_seeded_server_deals_each_table_from_its_seed_unrated(tmp_path: Path) -> None:
    service = _service(tmp_path, Deals(1106))
    await service.start()
    try:
        # Every table deals its first game from the server's seed, whatever came before it.
        assert await _first_seeds(service, None) == (1106, game_seed(1106, 2), False, True)
        assert await _first_seeds(service, None) == (1106, game_seed(1106, 2), False, True)
        # A table may name its own.
        assert await _first_seeds(service, 1019) == (1019, game_seed(1019, 2), False, True)
    finally:
        await service.stop()


@pytest.mark.asyncio
async def test_a_random_server_refuses_a_seed_naming_the_field(tmp_path: Path) -> None:
    service = _service(tmp_path, Deals())
    await service.start()
    try:
        with pytest.raises(RefusedError) as refused:
            await service.create(CreateTable(name="Ada", seats=[None, "easy"], seed=5), "t")
        assert refused.value.field == "seed"
        assert "--deal-seed" in str(refused.value)
        assert service.tables == {}  # nothing was made
        grant = await service.create(CreateTable(name="Ada", seats=[None, "easy"]), "test")
        assert grant["table"]["rated"] is True and grant["table"]["seeded"] is False
    finally:
        await service.stop()


def test_a_finished_game_of_a_seeded_table_is_never_rated(tmp_path: Path) -> None:
    # Even a table that says rated (stored so by another build, or by hand) is not, once its
    # deals were known in advance.
    db = Database(f"sqlite:///{tmp_path / 'dos.sqlite3'}", "OFF")
    migrate(db.engine)
    try:
        for code, deal_seed in (("SEEDED", 7), ("RANDOM", None)):
            seats = [StoredSeat(0, "Ada", None, f"p_{code}"), StoredSeat(1, None, "easy", None)]
            table = StoredTable(
                code, "official", {}, False, "lobby", 0, None, 0, 0.0, seats, deal_seed=deal_seed
            )
            db.run_sync(lambda s, t=table: insert_table(s, t))
            game = StoredGame(0, 1, "official", {}, 7, ["Ada", "easy bot"], "playing", None)
            game_id = db.run_sync(lambda s, c=code, g=game, t=table: insert_game(s, c, g, t.seats))
            result = {"winner": 0, "scores": [200, 0]}
            db.run_sync(lambda s, c=code, i=game_id, r=result: finish_game(s, c, i, r, time.time()))
        rated = db.run_sync(lambda s: list(s.scalars(select(RatingRow.player_id))))
        assert "p_SEEDED" not in rated
        assert "p_RANDOM" in rated  # the same game at a random table is rated
    finally:
        db.close()


def test_the_server_info_says_whether_it_deals_from_a_seed() -> None:
    assert ServerInfo.model_fields["seeded"].default is False
