"""Ratings in the database: updated with a game's end at a rated table, once; never at a
casual one; the stand-in's play counts as its guest's; the migration from the first schema."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import select, text
from sqlalchemy.orm import Session

from dos import server
from dos.ratings.model import Rating, rate_game
from dos.ratings.store import RatingHistoryRow, RatingRow, leaderboard, player_ratings
from dos.server.models import ActionRow
from dos.server.storage import (
    Database,
    NewAction,
    StoredGame,
    StoredSeat,
    StoredTable,
    finish_game,
    insert_game,
    insert_table,
    migrate,
)

SEATS = [
    StoredSeat(0, "Ada", None, "p_ada"),
    StoredSeat(1, None, "hard", None),
    StoredSeat(2, "Bea", None, "p_bea"),
]


def _play(db: Database, code: str, result: dict[str, Any], rated: bool = True) -> int:
    table = StoredTable(
        code=code,
        rules="official",
        options={},
        public=False,
        status="lobby",
        host=0,
        turn_seconds=None,
        games=0,
        created_at=1.0,
        seats=SEATS,
        rated=rated,
    )
    game = StoredGame(
        id=0,
        number=1,
        rules="official",
        options={"players": 3},
        seed=7,
        players=["Ada", "hard bot", "Bea"],
        status="playing",
        result=None,
    )
    db.run_sync(insert_table, table)
    game_id = db.run_sync(insert_game, code, game, SEATS)
    db.run_sync(finish_game, code, game_id, result)
    return game_id


def _ratings(db: Database) -> dict[str, tuple[float, float, int, int]]:
    def read(session: Session) -> dict[str, tuple[float, float, int, int]]:
        rows = session.scalars(select(RatingRow))
        return {r.player_id: (r.mu, r.sigma, r.games, r.wins) for r in rows}

    return db.run_sync(read)


@pytest.fixture
def db(database: str) -> Any:
    db = Database(database)
    migrate(db.engine)
    yield db
    db.close()


def test_a_rated_game_updates_every_player_as_the_model_does_once(db: Database) -> None:
    result = {"winner": 2, "scores": [40, 90, 200], "rounds": 3}
    game_id = _play(db, "RATED1", result)
    expected = rate_game(["p_ada", "bot:hard", "p_bea"], [2, 1, 0], {})
    stored = _ratings(db)
    assert set(stored) == {"p_ada", "bot:hard", "p_bea"}
    for player, outcome in expected.items():
        mu, sigma, games, wins = stored[player]
        assert (mu, sigma) == pytest.approx((outcome.after.mu, outcome.after.sigma))
        assert games == 1 and wins == (player == "p_bea")
    db.run_sync(finish_game, "RATED1", game_id, result)  # the end stored again: no new rating
    assert _ratings(db) == stored
    history = db.run_sync(
        lambda s: [(h.player_id, h.rank) for h in s.scalars(select(RatingHistoryRow))]
    )
    assert sorted(history) == [("bot:hard", 1), ("p_ada", 2), ("p_bea", 0)]


def test_a_casual_game_rates_nobody(db: Database) -> None:
    _play(db, "CASUAL", {"winner": 0, "scores": [200, 0, 0]}, rated=False)
    assert _ratings(db) == {}


def test_the_stand_ins_play_counts_as_its_guests(db: Database) -> None:
    """Bea left and the stand-in bot played her seat to a win: Bea is rated with it, and the
    stand-in's level is not."""
    table = StoredTable("AWAY01", "official", {}, False, "lobby", 0, 5.0, 0, 1.0, SEATS)
    game = StoredGame(0, 1, "official", {"players": 3}, 7, ["Ada", "hard bot", "Bea"], "", None)
    db.run_sync(insert_table, table)
    game_id = db.run_sync(insert_game, "AWAY01", game, SEATS)
    stand_in = [NewAction(game_id, i, "draw", 2, by_bot=True) for i in range(3)]
    db.run_sync(
        lambda s: s.add_all(
            ActionRow(
                game_id=a.game_id, idx=a.idx, action=a.action, seat=a.seat, by_bot=True, at=1.0
            )
            for a in stand_in
        )
    )
    db.run_sync(finish_game, "AWAY01", game_id, {"winner": 2, "scores": [0, 10, 200]})
    stored = _ratings(db)
    assert set(stored) == {"p_ada", "bot:hard", "p_bea"}
    assert stored["p_bea"][3] == 1 and "bot:medium" not in stored


def test_the_leaderboard_and_the_player_page_read_the_ratings(db: Database) -> None:
    _play(db, "BOARD1", {"winner": 0, "scores": [200, 10, 20]})
    total, entries = db.run_sync(leaderboard, "official", 3, 0, 10)
    assert total == 3
    assert [e["player_id"] for e in entries] == ["p_ada", "p_bea", "bot:hard"]
    assert [e["place"] for e in entries] == [1, 2, 3]
    assert entries[0]["rating"] == pytest.approx(entries[0]["mu"] - 3 * entries[0]["sigma"])
    assert entries[0]["name"] == "Ada" and entries[2]["bot"]
    assert db.run_sync(leaderboard, "official", 2, 0, 10) == (0, [])
    page = db.run_sync(player_ratings, "p_ada", 5)
    assert page is not None and page["name"] == "Ada"
    assert [r["games"] for r in page["ratings"]] == [1]
    assert len(page["history"]) == len(page["recent"]) == 1
    assert page["recent"][0]["won"] and page["recent"][0]["rating_change"] > 0
    assert db.run_sync(player_ratings, "p_nobody", 5) is None
    assert Rating(page["history"][0]["mu"], page["history"][0]["sigma"]).ordinal == (
        pytest.approx(page["history"][0]["rating"])
    )


def test_the_migration_keeps_tables_made_before_it_and_rates_them(database: str) -> None:
    db = Database(database)
    try:
        config = Config()
        config.set_main_option("script_location", str(Path(server.__file__).parent / "migrations"))
        with db.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "0001")
        with db.engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO dos_tables (code, rules, options, public, status, host,"
                    " games, created_at) VALUES ('OLD001', 'official', '{}', false,"
                    " 'lobby', 0, 0, 1.0)"
                )
            )
        migrate(db.engine)
        with db.engine.connect() as connection:
            rated = connection.execute(
                text("SELECT rated FROM dos_tables WHERE code = 'OLD001'")
            ).scalar_one()
        assert bool(rated) is True
    finally:
        db.close()


def test_a_result_without_places_still_finishes_the_game_unrated(db: Database) -> None:
    game_id = _play(db, "NOPLAC", {"winner": None, "scores": [0, 0, 0]})
    assert _ratings(db) == {}
    status = db.run_sync(
        lambda s: s.execute(text(f"SELECT status FROM dos_games WHERE id = {game_id}")).scalar_one()
    )
    assert status == "finished"
