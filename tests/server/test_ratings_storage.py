"""Ratings in the database: updated with a game's end at a rated table, once; never at a
casual one; the stand-in's play counts as its guest's; the migration from the first schema.

And the rules against bought ratings (``dos.ratings.policy``, docs/ratings.md): a short game
is not rated, a player's rating moves only from its opponents with standing, and only the
established persons and the bot levels are on the board. Each manipulation of the outside
review fails here: beating throwaway guests, guests losing to a bot on purpose, fresh guests
(as an MCP client makes them) reaching the board.
"""

from __future__ import annotations

import functools
import itertools
import time
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import select, text
from sqlalchemy.orm import Session

from dos.ratings.model import Rating, rate_game
from dos.ratings.policy import ESTABLISHED_GAMES, MIN_TARGET
from dos.ratings.store import (
    RatingHistoryRow,
    RatingRow,
    leaderboard,
    player_ratings,
    rerate_all,
)
from dos.server import storage
from dos.server.storage.database import Database
from dos.server.storage.models import ActionRow
from dos.server.storage.schema import migrate
from dos.server.storage.table_store import (
    StoredGame,
    StoredSeat,
    StoredTable,
    finish_game,
    insert_game,
    insert_table,
)

SEATS = [
    StoredSeat(0, "Ada", None, "p_ada"),
    StoredSeat(1, None, "hard", None),
    StoredSeat(2, "Bea", None, "p_bea"),
]

_codes = itertools.count(1)


def _game(
    db: Database,
    seats: list[StoredSeat],
    result: dict[str, Any],
    *,
    options: dict[str, Any] | None = None,
    rated: bool = True,
    turn_seconds: float | None = None,
    by_bot: int | None = None,
) -> int:
    """Stores a table of ``seats`` and a game of official DOS at it with these ``options``
    (``{"players": n}`` and the default target, 200, if none), then its end; returns its id.
    ``by_bot``: a seat whose moves the stand-in bot made."""
    code = f"T{next(_codes):05d}"
    names = [s.name or f"{s.bot} bot" for s in seats]
    table = StoredTable(
        code, "official", {}, False, "lobby", 0, turn_seconds, 0, 1.0, seats, rated=rated
    )
    game = StoredGame(
        0, 1, "official", {"players": len(seats), **(options or {})}, 7, names, "", None
    )
    db.run_sync(insert_table, table)
    game_id = db.run_sync(insert_game, code, game, seats)
    if by_bot is not None:
        db.run_sync(
            lambda s: s.add_all(
                ActionRow(game_id=game_id, idx=i, action="draw", seat=by_bot, by_bot=True, at=1.0)
                for i in range(3)
            )
        )
    db.run_sync(finish_game, code, game_id, result, time.time())
    return game_id


def _play(db: Database, result: dict[str, Any], rated: bool = True) -> int:
    """A game of Ada, a ``hard`` bot and Bea at a three-seat table."""
    return _game(db, SEATS, result, rated=rated)


def _duel(db: Database, winner: StoredSeat, loser: StoredSeat, target: int = MIN_TARGET) -> int:
    """A two-seat game to ``target`` that ``winner`` (seat 0) wins over ``loser``."""
    seats = [StoredSeat(0, winner.name, winner.bot, winner.player_id)]
    seats.append(StoredSeat(1, loser.name, loser.bot, loser.player_id))
    return _game(db, seats, {"winner": 0, "scores": [target, 0]}, options={"target_score": target})


def _guest(player_id: str) -> StoredSeat:
    return StoredSeat(0, player_id.removeprefix("p_").title(), None, player_id)


def _bot(level: str) -> StoredSeat:
    return StoredSeat(0, None, level, None)


def _establish(
    db: Database,
    player_id: str,
    players: int,
    rating: Rating | None = None,
    games: int = ESTABLISHED_GAMES,
) -> None:
    """Gives a player a rating row with ``games`` counted games (established by default)."""
    rating = rating or Rating()

    def add(session: Session) -> None:
        session.add(
            RatingRow(
                player_id=player_id,
                rules="official",
                players=players,
                name=player_id.removeprefix("p_").title(),
                mu=rating.mu,
                sigma=rating.sigma,
                ordinal=rating.ordinal,
                games=games,
                wins=0,
                updated=1.0,
            )
        )

    db.run_sync(add)


def _ratings(db: Database) -> dict[str, tuple[float, float, int, int]]:
    def read(session: Session) -> dict[str, tuple[float, float, int, int]]:
        rows = session.scalars(select(RatingRow))
        return {r.player_id: (r.mu, r.sigma, r.games, r.wins) for r in rows}

    return db.run_sync(read)


bots_board = functools.partial(leaderboard, board="bots")
"""The bots' board (``leaderboard`` reads the people's unless told)."""


def _history(db: Database) -> list[tuple[str, int]]:
    return db.run_sync(
        lambda s: sorted((h.player_id, h.rank) for h in s.scalars(select(RatingHistoryRow)))
    )


def _board(db: Database, players: int) -> tuple[int, list[str]]:
    """Who the two boards list, people's and bots', together in rating order."""
    people = db.run_sync(leaderboard, "official", players, 0, 50)
    bots = db.run_sync(bots_board, "official", players, 0, 50)
    entries = sorted(
        [*people[1], *bots[1]], key=lambda e: (-e["rating"], -e["games"], e["player_id"])
    )
    return people[0] + bots[0], [e["player_id"] for e in entries]


@pytest.fixture
def db(database: str) -> Any:
    db = Database(database)
    migrate(db.engine)
    yield db
    db.close()


def test_a_rated_game_updates_every_player_as_the_model_does_once(db: Database) -> None:
    """Between established persons and a bot, everyone has standing: the whole game rates
    everyone, as the model does."""
    _establish(db, "p_ada", 3)
    _establish(db, "p_bea", 3)
    result = {"winner": 2, "scores": [40, 90, 200], "rounds": 3}
    game_id = _play(db, result)
    expected = rate_game(["p_ada", "bot:hard", "p_bea"], [2, 1, 0], {})
    stored = _ratings(db)
    assert set(stored) == {"p_ada", "bot:hard", "p_bea"}
    for player, outcome in expected.items():
        mu, sigma, games, wins = stored[player]
        assert (mu, sigma) == pytest.approx((outcome.after.mu, outcome.after.sigma))
        assert games == (1 if player == "bot:hard" else ESTABLISHED_GAMES + 1)
        assert wins == (player == "p_bea")
    code = db.run_sync(
        lambda s: s.execute(
            text(f"SELECT table_code FROM dos_games WHERE id = {game_id}")
        ).scalar_one()
    )
    db.run_sync(
        finish_game, code, game_id, result, time.time()
    )  # the end stored again: no new rating
    assert _ratings(db) == stored
    assert _history(db) == [("bot:hard", 1), ("p_ada", 2), ("p_bea", 0)]


def test_a_casual_game_rates_nobody(db: Database) -> None:
    _establish(db, "p_ada", 3)
    _establish(db, "p_bea", 3)
    before = _ratings(db)
    _play(db, {"winner": 0, "scores": [200, 0, 0]}, rated=False)
    assert _ratings(db) == before and _history(db) == []


def test_the_stand_ins_play_counts_as_its_guests(db: Database) -> None:
    """Bea left and the stand-in bot played her seat to a win: Bea is rated with it, and the
    stand-in's level is not."""
    _establish(db, "p_ada", 3)
    _establish(db, "p_bea", 3)
    _game(db, SEATS, {"winner": 2, "scores": [0, 10, 200]}, turn_seconds=5.0, by_bot=2)
    stored = _ratings(db)
    assert set(stored) == {"p_ada", "bot:hard", "p_bea"}
    assert stored["p_bea"][2:] == (ESTABLISHED_GAMES + 1, 1) and "bot:medium" not in stored


def test_the_leaderboard_and_the_player_page_read_the_ratings(db: Database) -> None:
    _establish(db, "p_ada", 3)
    _establish(db, "p_bea", 3)
    _play(db, {"winner": 0, "scores": [200, 10, 20]})
    total, entries = db.run_sync(leaderboard, "official", 3, 0, 10)
    assert total == 2  # the people's board: people only
    assert [e["player_id"] for e in entries] == ["p_ada", "p_bea"]
    assert [e["place"] for e in entries] == [1, 2]
    assert entries[0]["rating"] == pytest.approx(entries[0]["mu"] - 3 * entries[0]["sigma"])
    assert entries[0]["name"] == "Ada" and not entries[1]["bot"]
    assert not any(e["provisional"] or e["ai"] for e in entries)
    bots = db.run_sync(bots_board, "official", 3, 0, 10)
    assert [(e["player_id"], e["place"], e["bot"]) for e in bots[1]] == [("bot:hard", 1, True)]
    assert db.run_sync(leaderboard, "official", 2, 0, 10) == (0, [])
    page = db.run_sync(player_ratings, "p_ada", 5, None, 200)
    assert page is not None and page["name"] == "Ada"
    assert [r["games"] for r in page["ratings"]] == [ESTABLISHED_GAMES + 1]
    assert len(page["history"]) == len(page["recent"]) == page["history_total"] == 1
    assert page["history_offset"] == 0 and page["history_limit"] == 200
    assert page["recent"][0]["won"] and page["recent"][0]["rating_change"] > 0
    assert db.run_sync(player_ratings, "p_nobody", 5, None, 200) is None
    assert Rating(page["history"][0]["mu"], page["history"][0]["sigma"]).ordinal == (
        pytest.approx(page["history"][0]["rating"])
    )


# --- the rules against bought ratings ------------------------------------------------------------


def test_beating_throwaway_guests_in_short_games_rates_nothing(db: Database) -> None:
    """(1) One player beats 12 fresh guests at target 1: too short, nothing is rated."""
    host = _guest("p_host")
    _establish(db, "p_host", 2, games=3)  # some games against bots already
    before = _ratings(db)
    for number in range(12):
        _duel(db, host, _guest(f"p_throwaway{number}"), target=1)
    assert _ratings(db) == before and _history(db) == []
    assert _board(db, 2) == (0, [])


def test_beating_throwaway_guests_in_long_games_does_not_move_the_host(db: Database) -> None:
    """(1) At target 100 the games are long enough, but fresh guests have no standing: the
    host's rating does not move and the host is not on the board. An established host is
    not moved either (the guests lose rating, provisional, off the board)."""
    for number in range(12):
        _duel(db, _guest("p_host"), _guest(f"p_throwaway{number}"))
    assert _ratings(db) == {} and _history(db) == []
    assert db.run_sync(player_ratings, "p_host", 5, None, 200) is None
    assert _board(db, 2) == (0, [])

    _establish(db, "p_champ", 2, Rating(26.0, 3.0))
    before = _ratings(db)["p_champ"]
    for number in range(12):
        _duel(db, _guest("p_champ"), _guest(f"p_farmed{number}"))
    after = _ratings(db)
    assert after["p_champ"] == before
    farmed = [after[f"p_farmed{n}"] for n in range(12)]
    assert all(mu < 25 and games == 1 for mu, _sigma, games, _wins in farmed)
    assert _board(db, 2) == (1, ["p_champ"])
    page = db.run_sync(player_ratings, "p_farmed0", 5, None, 200)
    assert page is not None and page["ratings"][0]["provisional"] is True


def test_guests_losing_to_a_bot_on_purpose_do_not_move_it(db: Database) -> None:
    """(2) 21 fresh guests lose to ``bot:easy``: its rating does not move, and it is not first
    (it was at 21-0 before the rules: first on the board)."""
    _establish(db, "p_ada", 2, Rating(27.0, 4.0))  # an established person on the board
    _establish(db, "bot:easy", 2, games=4)
    before = _ratings(db)
    for number in range(21):
        _duel(db, _bot("easy"), _guest(f"p_loser{number}"))
    after = _ratings(db)
    assert after["bot:easy"] == before["bot:easy"] and after["p_ada"] == before["p_ada"]
    assert ("bot:easy", 0) not in _history(db)
    total, board = _board(db, 2)
    assert board == ["p_ada", "bot:easy"] and total == 2  # the losers are provisional
    assert all(after[f"p_loser{n}"][2] == 1 for n in range(21))  # each counted for them


def test_fresh_guests_never_reach_the_board(db: Database) -> None:
    """(3) 10 fresh guests (an MCP client's: a fresh player id each) finish one game each,
    against a bot and against each other: none is on the board, and the board's total counts
    only whom it lists."""
    for number in range(10):
        _duel(db, _guest(f"p_mcp{number}"), _bot("medium"))
    for number in range(0, 10, 2):
        _duel(db, _guest(f"p_mcp{number}"), _guest(f"p_mcp{number + 1}"))
    stored = _ratings(db)
    assert {player for player in stored} == {f"p_mcp{n}" for n in range(10)}
    assert all(games == 1 for _mu, _sigma, games, _wins in stored.values())
    assert _board(db, 2) == (0, [])


def test_established_players_move_each_other(db: Database) -> None:
    """(4) An established player beating another moves both, as the model does."""
    ada, bea = Rating(28.0, 4.0), Rating(24.0, 5.0)
    _establish(db, "p_ada", 2, ada)
    _establish(db, "p_bea", 2, bea)
    _duel(db, _guest("p_ada"), _guest("p_bea"))
    expected = rate_game(["p_ada", "p_bea"], [0, 1], {"p_ada": ada, "p_bea": bea})
    stored = _ratings(db)
    for player, outcome in expected.items():
        assert stored[player][:2] == pytest.approx((outcome.after.mu, outcome.after.sigma))
        assert stored[player][2] == ESTABLISHED_GAMES + 1
    assert stored["p_ada"][0] > ada.mu and stored["p_bea"][0] < bea.mu
    assert _board(db, 2) == (2, ["p_ada", "p_bea"])


def test_a_provisional_player_becomes_established_against_bots(db: Database) -> None:
    """(5) A new player's games against a bot count for them (not for the bot); after
    ``ESTABLISHED_GAMES`` of them they are on the board, and their next game moves the bot."""
    new, easy = _guest("p_new"), _bot("easy")
    for number in range(ESTABLISHED_GAMES):
        assert _board(db, 2) == (0, [])
        if number % 3 == 2:
            _duel(db, easy, new)
        else:
            _duel(db, new, easy)
        mu, sigma, games, _wins = _ratings(db)["p_new"]
        assert games == number + 1 and "bot:easy" not in _ratings(db)
    page = db.run_sync(player_ratings, "p_new", 5, None, 200)
    assert page is not None and page["ratings"][0]["provisional"] is False
    assert _board(db, 2) == (1, ["p_new"])
    _duel(db, new, easy)
    stored = _ratings(db)
    expected = rate_game(["p_new", "bot:easy"], [0, 1], {"p_new": Rating(mu, sigma)})
    assert stored["bot:easy"][:3] == pytest.approx(
        (expected["bot:easy"].after.mu, expected["bot:easy"].after.sigma, 1)
    )
    assert _board(db, 2)[1] == ["p_new", "bot:easy"]


def test_a_provisional_person_moves_from_bots_and_established_persons_only(
    db: Database,
) -> None:
    """Four seats: an established person, a provisional one, a fresh one and a bot. Each is
    rated on the sub-game of its opponents with standing."""
    old, provisional = Rating(30.0, 3.0), Rating(22.0, 6.0)
    _establish(db, "p_old", 4, old)
    _establish(db, "p_mid", 4, provisional, games=4)
    seats = [
        StoredSeat(0, "Old", None, "p_old"),
        StoredSeat(1, "Mid", None, "p_mid"),
        StoredSeat(2, "New", None, "p_new"),
        StoredSeat(3, None, "hard", None),
    ]
    _game(db, seats, {"winner": 2, "scores": [50, 100, 200, 10]})
    ranks = {"p_old": 2, "p_mid": 1, "p_new": 0, "bot:hard": 3}
    current = {"p_old": old, "p_mid": provisional}
    sub_games = {  # whom each is rated against
        "p_old": ["bot:hard"],
        "p_mid": ["p_old", "bot:hard"],
        "p_new": ["p_old", "bot:hard"],
        "bot:hard": ["p_old"],
    }
    stored = _ratings(db)
    for player, against in sub_games.items():
        table = [player, *against]
        outcome = rate_game(table, [ranks[p] for p in table], current)[player]
        assert stored[player][:2] == pytest.approx((outcome.after.mu, outcome.after.sigma))
    assert _history(db) == [("bot:hard", 3), ("p_mid", 1), ("p_new", 0), ("p_old", 2)]


def test_a_game_to_a_target_under_the_minimum_is_not_rated(db: Database) -> None:
    _establish(db, "p_ada", 2)
    _establish(db, "p_bea", 2)
    before = _ratings(db)
    _duel(db, _guest("p_ada"), _guest("p_bea"), target=MIN_TARGET - 1)
    assert _ratings(db) == before
    _duel(db, _guest("p_ada"), _guest("p_bea"), target=MIN_TARGET)
    assert _ratings(db)["p_ada"][2] == ESTABLISHED_GAMES + 1


def test_rating_again_from_nothing_forgets_ratings_bought_under_the_old_rules(
    db: Database,
) -> None:
    """``rerate_all`` replays every rated game's rating in order under the rules: what the
    rules gave stays, and a rating they never give (``bot:easy`` at 21-0 against fresh guests,
    as the old rules made it) is gone."""
    new, easy = _guest("p_new"), _bot("easy")
    for number in range(ESTABLISHED_GAMES + 2):
        _duel(db, *((easy, new) if number % 4 == 1 else (new, easy)))
    for number in range(3):
        _duel(db, easy, _guest(f"p_loser{number}"))
    _game(db, SEATS, {"winner": 0, "scores": [200, 0, 0]}, rated=False)
    rules_gave = _ratings(db)
    history = _history(db)
    # What the old rules left: the bot at 21-0, a farmer on the board of another size.
    db.run_sync(
        lambda s: s.execute(
            text("UPDATE dos_ratings SET mu = 40, sigma = 2, games = 21, wins = 21")
        )
    )
    _establish(db, "p_farmer", 3, Rating(35.0, 2.0), games=12)
    assert db.run_sync(rerate_all) == ESTABLISHED_GAMES + 2 + 3
    again = _ratings(db)
    assert set(again) == set(rules_gave) and "p_farmer" not in again
    assert _board(db, 3) == (0, [])
    for player, (mu, sigma, games, wins) in rules_gave.items():
        assert again[player] == (pytest.approx(mu), pytest.approx(sigma), games, wins)
    assert _history(db) == history


def test_the_migration_keeps_tables_made_before_it_and_rates_them(database: str) -> None:
    db = Database(database)
    try:
        config = Config()
        config.set_main_option("script_location", str(Path(storage.__file__).parent / "migrations"))
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
    game_id = _play(db, {"winner": None, "scores": [0, 0, 0]})
    assert _ratings(db) == {}
    status = db.run_sync(
        lambda s: s.execute(text(f"SELECT status FROM dos_games WHERE id = {game_id}")).scalar_one()
    )
    assert status == "finished"


def test_dos_rerate_rates_a_servers_database_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``dos rerate`` runs ``rerate_all`` on the database of a data folder: a rating the rules
    never give (a bought one) is gone."""
    from dos.cli import main

    db = Database(f"sqlite:///{tmp_path / 'dos.sqlite3'}")
    migrate(db.engine)
    _establish(db, "p_farmer", 2, Rating(40.0, 2.0), games=12)
    db.engine.dispose()
    assert main(["rerate", "--data", str(tmp_path)]) == 0
    assert "rated 0 games" in capsys.readouterr().out
    db = Database(f"sqlite:///{tmp_path / 'dos.sqlite3'}")
    assert _ratings(db) == {}
    db.engine.dispose()
