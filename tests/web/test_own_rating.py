"""A provisional player sees their own rating, in Chromium: after a first rated game the
lobby's "Your player" shows it, marked provisional, with a link to their own page (so another
device signed in as them shows that their history came along)."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser, expect

from dos.i18n import text
from dos.ratings.policy import MIN_TARGET
from dos.server.storage.database import Database
from dos.server.storage.table_store import (
    StoredGame,
    StoredSeat,
    StoredTable,
    finish_game,
    insert_game,
    insert_table,
)
from server.support import create_table
from web.conftest import DESKTOP, Server
from web.pages import open_page

pytestmark = pytest.mark.usefixtures("chromium")


def _a_rated_game(server: Server, player_id: str) -> None:
    """A rated game the player lost against an easy bot, in the server's database (a seeded
    server rates none of its own: its deals are known)."""
    db = Database(f"sqlite:///{server.data / 'dos.sqlite3'}")
    seats = [StoredSeat(0, "Ada", None, player_id), StoredSeat(1, None, "easy", None)]
    code = "OWNRATE1"
    table = StoredTable(code, "official", {}, False, "lobby", 0, None, 0, 1.0, seats)
    game = StoredGame(
        0, 1, "official", {"players": 2, "target_score": MIN_TARGET}, 7, ["Ada", "easy"], "", None
    )
    try:
        db.run_sync(insert_table, table)
        game_id = db.run_sync(insert_game, code, game, seats)
        db.run_sync(
            finish_game, code, game_id, {"winner": 1, "scores": [0, MIN_TARGET]}, time.time()
        )
    finally:
        db.close()


def test_a_provisional_player_sees_their_rating_and_their_page(
    browser: Browser, server: Server
) -> None:
    # A player made at a table (the API a page's lobby calls), their first rated game stored,
    # and only then a page of theirs: a player's page is kept for a few seconds once read
    # (``dos.server.http.players.CACHE_SECONDS``), and a page that had asked for it before the
    # game would be shown the page from before it, as a real player is, for those seconds.
    grant = create_table(server.url, name="Ada", seats=[None, "easy"])
    player = grant["player_id"]
    _a_rated_game(server, player)
    _, page = open_page(browser, server.url, DESKTOP)  # nobody's yet: it asked for no page
    page.evaluate(
        "([id, token]) => { localStorage.setItem('dos.player_id', id);"
        " localStorage.setItem('dos.player_token', token);"
        " localStorage.setItem('dos.name', 'Ada'); }",
        [player, grant["player_token"]],
    )
    page.reload()
    ratings = page.locator("#account-ratings li")
    expect(ratings).to_have_count(1)
    expect(ratings.first).to_have_attribute("data-provisional", "true")
    provisional = text("en", "rank.provisional_rating", rating="")
    expect(ratings.first).to_contain_text(provisional.strip())
    link = page.locator("#account-page")
    expect(link).to_have_attribute("href", f"/leaderboard?player={player}")
    link.click()
    expect(page).to_have_url(f"{server.url}/leaderboard?player={player}")
    assert not page.errors  # type: ignore[attr-defined]
