"""Ratings through the server: finished games at rated tables reach the player page, and the
leaderboard once the player is established; casual and short ones count for nobody; a
restart keeps every rating, and a game whose end a crash lost is rated when the server starts
again."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import update

from dos import ruleset
from dos.ratings.model import Rating, rate_game
from dos.ratings.policy import ESTABLISHED_GAMES, MIN_TARGET
from dos.ratings.ranks import official_ranks
from dos.ratings.store import RatingHistoryRow, RatingRow
from dos.server.storage.database import Database
from dos.server.storage.models import ActionRow
from dos.server.storage.schema import migrate
from dos.server.storage.table_store import (
    StoredGame,
    StoredSeat,
    StoredTable,
    insert_game,
    insert_table,
)
from server.support import HTTP, ServerProcess, WsPlayer, create_table

pytestmark = pytest.mark.asyncio

RATED = {"target_score": MIN_TARGET}
"""The shortest games that are rated: the first to 100 points wins."""


async def _finish(player: WsPlayer, rng: random.Random) -> dict[str, Any]:
    """Plays the game to its end, then waits until the server has stored it: the ``table``
    message sent after the stored end (it may have come while an action was answered)."""
    start = len(player.messages)
    result = await player.play_to_end(rng)

    def stored() -> bool:
        seen = player.messages[start:]
        end = next(i for i, m in enumerate(seen) if m["type"] == "update" and m["result"])
        return any(
            m["type"] == "table" and m["table"]["status"] == "finished" for m in seen[end + 1 :]
        )

    while not stored():
        await player.recv()
    return result


async def _play_games(
    url: str,
    ws_url: str,
    rated: bool,
    games: int,
    seed: int,
    *,
    options: dict[str, Any] | None = None,
    player_token: str | None = None,
) -> dict[str, Any]:
    """Plays ``games`` games at a new table of the host against an ``easy`` bot (to 100 points
    unless ``options`` say otherwise); returns the host's seat grant."""
    more = {} if player_token is None else {"player_token": player_token}
    grant = create_table(url, seats=[None, "easy"], options=options or RATED, rated=rated, **more)
    assert grant["table"]["rated"] is rated
    host = await WsPlayer(ws_url, grant["code"], grant["token"]).connect()
    rng = random.Random(seed)
    for number in range(games):
        await host.send({"type": "start" if number == 0 else "rematch"})
        await host.expect("state")
        await _finish(host, rng)
    await host.close()
    return grant


def _get(url: str, path: str, **params: Any) -> httpx.Response:
    return HTTP.get(f"{url}{path}", params=params, timeout=30.0)


def _count_games_of(data: Path, player_id: str, games: int) -> None:
    """Sets how many games counted for a player (as if they had played more against bots)."""
    db = Database(f"sqlite:///{data / 'dos.sqlite3'}")
    try:
        db.run_sync(
            lambda s: s.execute(
                update(RatingRow).where(RatingRow.player_id == player_id).values(games=games)
            )
        )
    finally:
        db.close()


async def test_rated_games_reach_the_leaderboard_and_survive_a_restart(tmp_path: Path) -> None:
    """A new player's rated game counts for them, not for the bot they beat, and they are off
    the board (provisional) until their tenth counted game; from then on their games move the
    bot too, and both are on the board. Casual and short games count for nobody."""
    data = tmp_path / "data"
    server = ServerProcess(data, seeded=False)  # rated games: a seeded server rates none
    server.start()
    try:
        ada = await _play_games(server.url, server.ws_url, rated=True, games=1, seed=3)
        casual = await _play_games(server.url, server.ws_url, rated=False, games=1, seed=4)
        short = await _play_games(
            server.url, server.ws_url, rated=True, games=1, seed=5, options={"target_score": 1}
        )
        board = _get(server.url, "/api/leaderboard", rules="official", players=2).json()
        assert board["entries"] == [] and board["total"] == 0
        page = _get(server.url, f"/api/players/{ada['player_id']}").json()
        assert [(r["games"], r["provisional"]) for r in page["ratings"]] == [(1, True)]
        assert len(page["history"]) == len(page["recent"]) == page["history_total"] == 1
        for nobody in (casual["player_id"], short["player_id"], "bot:easy"):
            assert _get(server.url, f"/api/players/{nobody}").status_code == 404
        server.stop()

        _count_games_of(data, ada["player_id"], ESTABLISHED_GAMES - 1)
        server.start()
        token = ada["player_token"]
        await _play_games(server.url, server.ws_url, True, 2, 6, player_token=token)

        board = _get(server.url, "/api/leaderboard", rules="official", players=2).json()
        bots = _get(server.url, "/api/leaderboard", players=2, board="bots").json()
        assert (board["board"], bots["board"]) == ("people", "bots")
        entries = {e["player_id"]: e for e in [*board["entries"], *bots["entries"]]}
        assert set(entries) == {ada["player_id"], "bot:easy"}
        assert board["total"] == bots["total"] == 1  # a person's board, and the bots'
        mine = entries[ada["player_id"]]
        assert mine["games"] == ESTABLISHED_GAMES + 1 and not mine["provisional"]
        assert entries["bot:easy"]["games"] == 1 and entries["bot:easy"]["bot"]
        assert mine["name"] == "Host"
        for entry in entries.values():
            assert entry["rating"] == pytest.approx(entry["mu"] - 3 * entry["sigma"])
        assert [e["place"] for e in board["entries"]] == [e["place"] for e in bots["entries"]]
        assert (
            _get(server.url, "/api/leaderboard", rules="classic", players=2).json()["entries"] == []
        )

        page = _get(server.url, f"/api/players/{ada['player_id']}").json()
        assert [r["games"] for r in page["ratings"]] == [ESTABLISHED_GAMES + 1]
        assert len(page["history"]) == len(page["recent"]) == page["history_total"] == 3
        assert page["history"][-1]["mu"] == pytest.approx(mine["mu"])
        bot = _get(server.url, "/api/players/bot:easy").json()
        assert bot["bot"] and bot["ratings"][0]["games"] == 1
        assert bot["ratings"][0]["provisional"] is False

        server.stop()
        server.start()

        again = _get(server.url, "/api/leaderboard", rules="official", players=2).json()
        assert again == board
        assert _get(server.url, f"/api/players/{ada['player_id']}").json() == page
    finally:
        server.stop()


async def test_the_rating_endpoints_refuse_with_the_json_error_body(server: ServerProcess) -> None:
    unknown = _get(server.url, "/api/leaderboard", rules="draughts")
    assert unknown.status_code == 400
    assert unknown.json()["code"] == "bad_request" and unknown.json()["field"] == "rules"
    too_many = _get(server.url, "/api/leaderboard", players=11)
    assert too_many.status_code in (400, 422) and too_many.json()["code"] == "bad_request"
    nobody = _get(server.url, "/api/players/p_nobody")
    assert nobody.status_code == 404 and nobody.json()["code"] == "no_player"


def _stored_but_unfinished(data: Path) -> dict[str, Any]:
    """A database as a crash leaves it: a game's last action committed, not its end (Ada,
    established, against an ``easy`` bot). Returns the game's result."""
    rules = ruleset.get("official")
    options = {"players": 2, **RATED}
    state = rules.new_game(options, 5)
    rng = random.Random(5)
    actions = []
    while not rules.is_over(state):
        action = rng.choice(rules.all_legal_actions(state))
        rules.apply(state, action)
        actions.append((str(action), action))
    seats = [StoredSeat(0, "Ada", None, "p_ada"), StoredSeat(1, None, "easy", None)]
    table = StoredTable("CRASH1", "official", RATED, False, "lobby", 0, None, 0, 1.0, seats)
    game = StoredGame(0, 1, "official", rules.options_json(state), 5, ["Ada", "easy bot"], "", None)
    db = Database(f"sqlite:///{data / 'dos.sqlite3'}")
    try:
        migrate(db.engine)
        db.run_sync(insert_table, table)
        game_id = db.run_sync(insert_game, "CRASH1", game, seats)
        db.run_sync(
            lambda s: s.add_all(
                ActionRow(game_id=game_id, idx=i, action=text, seat=0, by_bot=False, at=1.0)
                for i, (text, _) in enumerate(actions)
            )
        )
        ada = Rating()
        db.run_sync(
            lambda s: s.add(
                RatingRow(
                    player_id="p_ada",
                    rules="official",
                    players=2,
                    name="Ada",
                    mu=ada.mu,
                    sigma=ada.sigma,
                    ordinal=ada.ordinal,
                    games=ESTABLISHED_GAMES,
                    wins=0,
                    updated=1.0,
                )
            )
        )
    finally:
        db.close()
    result: dict[str, Any] = rules.result(state)
    return result


async def test_a_game_whose_end_a_crash_lost_is_rated_at_the_next_start(tmp_path: Path) -> None:
    data = tmp_path / "data"
    result = _stored_but_unfinished(data)
    assert _get_nothing_rated(data)
    server = ServerProcess(data, seeded=False)  # rated games: a seeded server rates none
    server.start()
    try:
        board = _get(server.url, "/api/leaderboard", rules="official", players=2).json()
        bots = _get(server.url, "/api/leaderboard", players=2, board="bots").json()
        expected = rate_game(["p_ada", "bot:easy"], official_ranks(result, 2), {})
        got = {e["player_id"]: e for e in [*board["entries"], *bots["entries"]]}
        assert set(got) == set(expected)
        for player, outcome in expected.items():
            assert got[player]["mu"] == pytest.approx(outcome.after.mu)
            assert got[player]["games"] == (1 if player == "bot:easy" else ESTABLISHED_GAMES + 1)
    finally:
        server.stop()


def _get_nothing_rated(data: Path) -> bool:
    db = Database(f"sqlite:///{data / 'dos.sqlite3'}")
    try:
        return db.run_sync(lambda s: s.query(RatingHistoryRow).count()) == 0
    finally:
        db.close()
