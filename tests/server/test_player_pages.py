"""The players' endpoints stay bounded however much a player has played: a player with
thousands of rated games and results gets pages of at most 200 history points and 50
results, with totals counted in SQL, in a stable order, and pages that join up without gap or
overlap. The queries walk indexes (SQLite's query plans say which), and a small cache shares
what many ask for."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, insert, text
from sqlalchemy.orm import Session

from dos.ratings.api import HISTORY_PAGE, RECENT_GAMES
from dos.ratings.policy import ESTABLISHED_GAMES
from dos.ratings.store import RatingHistoryRow, RatingRow, leaderboard, player_ratings
from dos.server.http.players import RESULTS_PAGE, ReadCache, results_page
from dos.server.storage.database import Database
from dos.server.storage.models import GamePlayerRow, GameRow, TableRow
from dos.server.storage.schema import migrate
from server.support import HTTP, ServerProcess

GAMES = 2_500
"""Finished games of the busy player, each rated."""
PLAYER = "p_busy"


def _won(number: int) -> bool:
    return number % 3 == 0


def fill_busy(db: Database, games: int = GAMES) -> None:
    """``games`` finished games of ``PLAYER`` against a ``medium`` bot, each with a history
    point (times tied in fours and threes, so the order needs its second key), and a few games
    that are not finished (left out of the results)."""

    def fill(session: Session) -> None:
        session.execute(
            insert(TableRow),
            [
                {
                    "code": "BUSY01",
                    "rules": "official",
                    "options": {},
                    "public": False,
                    "status": "finished",
                    "host": 0,
                    "turn_seconds": None,
                    "games": games,
                    "created_at": 1.0,
                    "rated": True,
                }
            ],
        )
        statuses = ["finished"] * games + ["playing", "abandoned", "abandoned"]
        session.execute(
            insert(GameRow),
            [
                {
                    "id": number + 1,
                    "table_code": "BUSY01",
                    "number": number + 1,
                    "rules": "official",
                    "options": {"players": 2, "target_score": 200},
                    "seed": number,
                    "players": ["Busy", "medium bot"],
                    "status": status,
                    "result": (
                        {"winner": 0 if _won(number) else 1, "scores": [200, 10]}
                        if status == "finished"
                        else None
                    ),
                    "started_at": 1000.0 + number,
                    "finished_at": 2000.0 + number // 3 if status != "playing" else None,
                }
                for number, status in enumerate(statuses)
            ],
        )
        session.execute(
            insert(GamePlayerRow),
            [
                {"game_id": number + 1, "seat": seat, "player_id": who, "name": name, "bot": bot}
                for number in range(len(statuses))
                for seat, who, name, bot in ((0, PLAYER, "Busy", None), (1, None, "bot", "medium"))
            ],
        )
        session.execute(
            insert(RatingHistoryRow),
            [
                {
                    "game_id": number + 1,
                    "player_id": PLAYER,
                    "rules": "official",
                    "players": 2,
                    "rank": 0 if _won(number) else 1,
                    "mu_before": 25.0 + number / 1000,
                    "sigma_before": 5.0,
                    "mu_after": 25.0 + (number + 1) / 1000,
                    "sigma_after": 5.0,
                    "at": 2000.0 + number // 4,
                }
                for number in range(games)
            ],
        )
        session.add(
            RatingRow(
                player_id=PLAYER,
                rules="official",
                players=2,
                name="Busy",
                mu=25.0 + games / 1000,
                sigma=5.0,
                ordinal=10.0 + games / 1000,
                games=games,
                wins=sum(_won(n) for n in range(games)),
                updated=3000.0,
            )
        )

    db.run_sync(fill)


@pytest.fixture(scope="module")
def busy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server on a data folder whose database already holds the busy player."""
    data = tmp_path_factory.mktemp("busy") / "data"
    db = Database(f"sqlite:///{data / 'dos.sqlite3'}")
    try:
        migrate(db.engine)
        fill_busy(db)
    finally:
        db.close()
    server = ServerProcess(data, seeded=False)  # rated games: a seeded server rates none
    server.start()
    yield server
    server.stop()


def _get(server: ServerProcess, path: str, **params: Any) -> dict[str, Any]:
    response = HTTP.get(f"{server.url}{path}", params=params, timeout=30.0)
    assert response.status_code == 200, response.text
    assert len(response.content) < 256 * 1024  # bounded, whatever the player's past
    body: dict[str, Any] = response.json()
    return body


def test_the_player_page_has_the_newest_history_page_and_the_latest_games(
    busy: ServerProcess,
) -> None:
    page = _get(busy, f"/api/players/{PLAYER}")
    assert page["history_total"] == GAMES and page["history_limit"] == HISTORY_PAGE
    assert page["history_offset"] == GAMES - HISTORY_PAGE
    history = [point["game_id"] for point in page["history"]]
    assert history == list(range(GAMES - HISTORY_PAGE + 1, GAMES + 1))  # oldest first
    recent = [game["game_id"] for game in page["recent"]]
    assert recent == list(range(GAMES, GAMES - RECENT_GAMES, -1))  # newest first
    assert page["recent"][0]["code"] == "BUSY01"
    assert [game["won"] for game in page["recent"]] == [_won(n - 1) for n in recent]
    assert page["ratings"][0]["provisional"] is False
    assert page["established_games"] == ESTABLISHED_GAMES


def test_the_history_pages_join_up_without_gaps(busy: ServerProcess) -> None:
    seen: list[int] = []
    offset = 0
    while True:
        page = _get(busy, f"/api/players/{PLAYER}", offset=offset, limit=10_000)
        assert page["history_offset"] == offset and page["history_limit"] == HISTORY_PAGE
        assert page["history_total"] == GAMES
        points = page["history"]
        assert len(points) <= HISTORY_PAGE
        if not points:
            break
        seen += [point["game_id"] for point in points]
        offset += len(points)
    assert seen == list(range(1, GAMES + 1))
    middle = _get(busy, f"/api/players/{PLAYER}", offset=1234, limit=7)
    assert [p["game_id"] for p in middle["history"]] == list(range(1235, 1242))
    assert _get(busy, f"/api/players/{PLAYER}", offset=GAMES)["history"] == []


def test_the_results_are_pages_with_totals_counted_in_sql(busy: ServerProcess) -> None:
    first = _get(busy, f"/api/players/{PLAYER}/results")
    assert first["games"] == GAMES
    assert first["wins"] == sum(_won(n) for n in range(GAMES))
    assert first["offset"] == 0 and first["limit"] == RESULTS_PAGE
    assert len(first["results"]) == RESULTS_PAGE
    seen: list[int] = []
    offset = 0
    while True:
        page = _get(busy, f"/api/players/{PLAYER}/results", offset=offset, limit=10_000)
        assert page["limit"] == RESULTS_PAGE and page["games"] == GAMES
        if not page["results"]:
            break
        for game in page["results"]:
            assert game["won"] == _won(game["game_id"] - 1) == (game["result"]["winner"] == 0)
        seen += [game["game_id"] for game in page["results"]]
        offset += len(page["results"])
    # Newest first: by finishing time (tied in threes), then the later game first.
    assert seen == sorted(range(1, GAMES + 1), key=lambda g: (-((g - 1) // 3), -g))
    nobody = _get(busy, "/api/players/p_nobody/results")
    assert (nobody["games"], nobody["wins"], nobody["results"]) == (0, 0, [])


def test_the_leaderboard_lists_the_busy_player(busy: ServerProcess) -> None:
    board = _get(busy, "/api/leaderboard", rules="official", players=2, limit=10_000)
    assert board["limit"] == 50 and board["total"] == 1
    assert board["entries"][0]["player_id"] == PLAYER


# --- the queries walk indexes ------------------------------------------------------------------


def _plans(db: Database, fn: Any, *args: Any) -> list[str]:
    """SQLite's query plan of every statement ``fn(session, *args)`` runs."""
    statements: list[tuple[str, Any]] = []

    def seen(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        if statement.lstrip().upper().startswith("SELECT"):
            statements.append((statement, parameters))

    event.listen(db.engine, "before_cursor_execute", seen)
    try:
        db.run_sync(fn, *args)
    finally:
        event.remove(db.engine, "before_cursor_execute", seen)
    plans = []
    with db.engine.connect() as connection:
        for statement, parameters in statements:
            rows = connection.exec_driver_sql("EXPLAIN QUERY PLAN " + statement, parameters)
            plans.append(" / ".join(row[-1] for row in rows))
    return plans


@pytest.fixture
def filled(tmp_path: Path) -> Iterator[Database]:
    db = Database(f"sqlite:///{tmp_path / 'dos.sqlite3'}")
    migrate(db.engine)
    fill_busy(db)
    yield db
    db.close()


def test_the_player_page_reads_along_the_history_index(filled: Database) -> None:
    index = "ix_dos_rating_history_player_at"
    for offset in (None, 0, 1234):
        plans = _plans(filled, player_ratings, PLAYER, RECENT_GAMES, offset, HISTORY_PAGE)
        history = [plan for plan in plans if "dos_rating_history" in plan]
        assert len(history) == 3, plans  # the count, the latest games and the page
        for plan in history:
            assert index in plan, plan
            assert "SCAN dos_rating_history" not in plan and "TEMP B-TREE" not in plan, plan


def test_the_results_and_the_leaderboard_read_along_indexes(filled: Database) -> None:
    for plan in _plans(filled, results_page, PLAYER, 100, RESULTS_PAGE):
        assert "ix_dos_game_players_player_id" in plan, plan
        assert "SCAN dos_games" not in plan and "SCAN dos_game_players" not in plan, plan
    for plan in _plans(filled, leaderboard, "official", 2, 0, 50):
        assert "ix_dos_ratings_board" in plan, plan
        assert "SCAN dos_ratings" not in plan, plan


def test_the_queries_use_the_indexes_the_migrations_made(filled: Database) -> None:
    with filled.engine.connect() as connection:
        names = {row[0] for row in connection.execute(text("SELECT name FROM sqlite_master"))}
    assert {"ix_dos_rating_history_player_at", "ix_dos_ratings_board"} <= names


# --- the cache -----------------------------------------------------------------------------------


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_cache_shares_one_read_and_forgets_it_in_time() -> None:
    clock = _Clock()
    cache = ReadCache(seconds=5.0, entries=3, clock=clock)
    reads: list[str] = []

    async def read(key: str) -> str:
        reads.append(key)
        await asyncio.sleep(0.01)
        return f"answer {len(reads)}"

    async def scenario() -> None:
        same = await asyncio.gather(*(cache.get("a", lambda: read("a")) for _ in range(5)))
        assert same == ["answer 1"] * 5 and reads == ["a"]  # one read for all five
        clock.now = 4.9
        assert await cache.get("a", lambda: read("a")) == "answer 1"
        clock.now = 5.0
        assert await cache.get("a", lambda: read("a")) == "answer 2"  # a fresh read
        for key in "bcde":
            await cache.get(key, lambda key=key: read(key))
        assert len(cache) == 3  # bounded: the least recently used left first

        async def fail() -> str:
            raise RuntimeError("the database is away")

        with pytest.raises(RuntimeError):
            await cache.get("f", fail)
        assert await cache.get("f", lambda: read("f")) == f"answer {len(reads)}"

    asyncio.run(scenario())
