"""Two leaderboards over one rating scale (docs/ratings.md, "Who is rated"): the people's
board lists established persons only; the bots' board the bot levels and the established AI
players (whoever played through the agent API or MCP); provisional players are on neither."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest

from dos.ratings.policy import BOARDS, ESTABLISHED_GAMES, board_of
from dos.ratings.store import RatingRow, is_agent, leaderboard, mark_agent, player_ratings
from dos.server.storage.database import Database
from dos.server.storage.schema import migrate


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    db = Database(f"sqlite:///{tmp_path / 'dos.sqlite3'}")
    migrate(db.engine)
    yield db
    db.close()


def _rate(db: Database, player_id: str, mu: float, games: int = ESTABLISHED_GAMES) -> None:
    row = RatingRow(
        player_id=player_id,
        rules="official",
        players=2,
        name=player_id.removeprefix("p_"),
        mu=mu,
        sigma=2.0,
        ordinal=mu - 6.0,
        games=games,
        wins=games // 2,
        updated=1.0,
    )
    db.run_sync(lambda s: s.add(row))


def _listed(db: Database, board: str) -> list[tuple[str, bool, bool]]:
    total, entries = db.run_sync(partial(leaderboard, board=board), "official", 2, 0, 50)
    assert total == len(entries)
    return [(e["player_id"], e["bot"], e["ai"]) for e in entries]


def test_people_and_bots_are_listed_apart_in_rating_order(db: Database) -> None:
    _rate(db, "p_ada", 30.0)
    _rate(db, "p_new", 40.0, games=ESTABLISHED_GAMES - 1)  # provisional: on no board
    _rate(db, "bot:hard", 32.0, games=3)  # a level has standing from its first game
    _rate(db, "p_shedder", 35.0)
    _rate(db, "p_fresh_ai", 50.0, games=2)
    for agent in ("p_shedder", "p_fresh_ai"):
        db.run_sync(mark_agent, agent)
    assert _listed(db, "people") == [("p_ada", False, False)]
    assert _listed(db, "bots") == [("p_shedder", False, True), ("bot:hard", True, False)]
    people = partial(leaderboard, board="people")
    assert db.run_sync(leaderboard, "official", 2, 0, 50) == db.run_sync(
        people, "official", 2, 0, 50
    )  # the people's board is the default


def test_a_person_who_plays_as_an_agent_moves_to_the_bots_board_for_good(db: Database) -> None:
    _rate(db, "p_ada", 30.0)
    assert _listed(db, "people") == [("p_ada", False, False)] and _listed(db, "bots") == []
    assert db.run_sync(mark_agent, "p_ada") is True
    assert db.run_sync(mark_agent, "p_ada") is False  # marked once
    assert _listed(db, "people") == [] and _listed(db, "bots") == [("p_ada", False, True)]
    page = db.run_sync(player_ratings, "p_ada", 5, None, 200)
    assert page is not None and page["ai"] is True and page["ratings"][0]["ai"] is True
    assert db.run_sync(is_agent, "p_ada") and not db.run_sync(is_agent, "p_bea")


def test_the_sql_boards_are_the_policys(db: Database) -> None:
    players = {
        "p_person": (False, ESTABLISHED_GAMES),
        "p_provisional": (False, 1),
        "p_agent": (True, ESTABLISHED_GAMES + 4),
        "p_new_agent": (True, 0),
        "bot:easy": (False, 0),
    }
    for number, (player, (ai, games)) in enumerate(players.items()):
        _rate(db, player, 20.0 + number, games)
        if ai:
            db.run_sync(mark_agent, player)
    for board in BOARDS:
        expected = {p for p, (ai, games) in players.items() if board_of(p, games, ai) == board}
        assert {player for player, *_ in _listed(db, board)} == expected


def test_an_unknown_board_is_refused(db: Database) -> None:
    with pytest.raises(ValueError, match="unknown board 'humans'"):
        db.run_sync(partial(leaderboard, board="humans"), "official", 2, 0, 50)
