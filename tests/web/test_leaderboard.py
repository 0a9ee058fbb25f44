"""The leaderboard and player pages in headless Chromium: an established player's rated
games show on the leaderboard in the page's language, the player's page plots their rating,
and a new player's page marks their rating provisional (they are not on the leaderboard).
Each game of a player's page opens its replay, which plays by itself and gives a link to the
moment it shows."""

from __future__ import annotations

import asyncio
import random
import re
import sqlite3
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from dos.i18n import text
from dos.ratings.policy import ESTABLISHED_GAMES, MIN_TARGET
from server.support import WsPlayer, create_table

from .conftest import DESKTOP, PHONE, Server
from .pages import create_table as create_at_page
from .pages import open_page, set_language

PLAYER = "Lea Board"
NEWCOMER = "Pia Provisional"


async def _rated_game(url: str, name: str, player_token: str | None = None) -> dict[str, Any]:
    """The host (a name no other browser test uses: they share the server) plays a rated
    game to the shortest rated target against an ``easy`` bot; returns her seat grant."""
    more = {} if player_token is None else {"player_token": player_token}
    options = {"target_score": MIN_TARGET}
    grant = create_table(url, name=name, seats=[None, "easy"], options=options, **more)
    ws_url = "ws" + url.removeprefix("http")
    ada = await WsPlayer(ws_url, grant["code"], grant["token"]).connect()
    await ada.send({"type": "start"})
    await ada.expect("state")
    start = len(ada.messages)
    await ada.play_to_end(random.Random(5))

    def stored() -> bool:  # the table message sent once the game's end is stored
        seen = ada.messages[start:]
        end = next(i for i, m in enumerate(seen) if m["type"] == "update" and m["result"])
        return any(m["type"] == "table" and m["table"]["status"] == "finished" for m in seen[end:])

    while not stored():
        await ada.recv()
    await ada.close()
    return grant


def _count_games_of(data: Path, player_id: str, games: int) -> None:
    """Sets how many games counted for a player, in the running server's database (as if she
    had played that many against bots)."""
    with sqlite3.connect(data / "dos.sqlite3", timeout=30) as connection:
        connection.execute(
            "UPDATE dos_ratings SET games = ? WHERE player_id = ?", (games, player_id)
        )
    connection.close()


def _mark_ai(data: Path, player_id: str) -> None:
    """Marks a player as an AI in the running server's database (as if she had played
    through the agent API)."""
    with sqlite3.connect(data / "dos.sqlite3", timeout=30) as connection:
        connection.execute("INSERT INTO dos_agents VALUES (?, 1.0)", (player_id,))
    connection.close()


async def _games(server: Server) -> tuple[str, str]:
    """Lea's first game counts for her alone; established, her next one moves the bot too.
    Pia plays one game, beside Lea's first. Returns their ids."""
    lea, pia = await asyncio.gather(
        _rated_game(server.url, PLAYER), _rated_game(server.url, NEWCOMER)
    )
    _count_games_of(server.data, lea["player_id"], ESTABLISHED_GAMES)
    await _rated_game(server.url, PLAYER, lea["player_token"])
    return lea["player_id"], pia["player_id"]


@pytest.fixture(scope="module")
def instant(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of this module whose bots answer at once: three rated games to the shortest
    rated target take a moment, not half a minute."""
    server = Server(
        data=tmp_path_factory.mktemp("instant"), args=["--bot-delay", "0"], seeded=False
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_the_leaderboard_and_the_player_page_show_a_finished_rated_game(
    browser: Browser, instant: Server, output_dir: Path
) -> None:
    server = instant
    with ThreadPoolExecutor(1) as pool:  # Playwright's event loop runs in this thread
        lea, pia = pool.submit(asyncio.run, _games(server)).result()
    board = f"{server.url}/leaderboard?rules=official&players=2"
    context, page = open_page(browser, board, DESKTOP)
    try:
        expect(page.locator("#board-rows tr", has_text=PLAYER)).to_have_count(1)
        expect(page.locator("#board-rows")).not_to_contain_text("easy bot")  # people only
        expect(page.locator("#board-rows")).not_to_contain_text(NEWCOMER)  # provisional
        expect(page.locator("#board-note")).to_be_hidden()
        page.screenshot(path=str(output_dir / "leaderboard-desktop.png"))
        page.select_option("#board-kind", "bots")  # the bots' board: levels and AI players
        page.click("#board-form button[type=submit]")
        expect(page).to_have_url(f"{board}&board=bots")
        expect(page.locator("#board-rows")).to_contain_text("easy bot")
        expect(page.locator("#board-rows")).not_to_contain_text(PLAYER)
        expect(page.locator("#board-note")).to_have_text(text("en", "rank.bots_note"))
        set_language(page, "ja")
        expect(page.locator("#board-title")).to_have_text(text("ja", "rank.title"))
        expect(page.locator("#board-rows")).to_contain_text(
            text("ja", "rank.bot", level=text("ja", "web.level_easy"))
        )
        expect(page.locator("#board-kind option:checked")).to_have_text(
            text("ja", "rank.board_bots")
        )
        set_language(page, "en")
        page.go_back()
        expect(page.locator("#board-rows tr", has_text=PLAYER)).to_have_count(1)

        page.get_by_role("link", name=PLAYER).click()
        expect(page).to_have_url(f"{server.url}/leaderboard?player={lea}")
        expect(page.locator("#player-title")).to_have_text(f"Player: {PLAYER}")
        expect(page.locator("#plot svg circle")).to_have_count(3)  # the start and two games
        expect(page.locator("#player-games tr")).to_have_count(2)
        expect(page.locator("#player-ratings tr")).to_have_count(1)
        expect(page.locator("#player-ratings tr[data-provisional]")).to_have_count(0)
        expect(page.locator("#player-provisional")).to_be_hidden()
        page.screenshot(path=str(output_dir / "player-desktop.png"), full_page=True)
        page.set_viewport_size(PHONE)
        page.screenshot(path=str(output_dir / "player-phone.png"), full_page=True)

        _mark_ai(server.data, pia)
        page.goto(f"{server.url}/leaderboard?player={pia}")
        expect(page.locator("#player-title")).to_have_text(f"Player: {NEWCOMER} AI")
        expect(page.locator("#player-title .ai-badge")).to_have_attribute(
            "title", text("en", "rank.ai_title")
        )
        expect(page.locator("#player-ratings tr[data-provisional]")).to_have_count(1)
        expect(page.locator("#player-ratings")).to_contain_text("(provisional)")
        expect(page.locator("#player-provisional")).to_contain_text(f"{ESTABLISHED_GAMES} games")
        expect(page.locator("#plot svg circle")).to_have_count(2)

        page.set_viewport_size(DESKTOP)
        page.goto(f"{server.url}/leaderboard?player={lea}")
        _replay_from_the_player_page(page, server)
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        context.close()


def _replay_from_the_player_page(page: Page, server: Server) -> None:
    """A game of the player's page is a link to its replay; the replay plays and pauses, and
    copies a link to the step it shows, which opens on that step."""
    links = page.locator("#player-games a")
    expect(links).to_have_count(2)
    bot = "Bot 2 (easy)"  # as the table names it, not as the game keeps it ("easy bot")
    expect(page.locator("#player-games tr").first).to_contain_text(f"{PLAYER}, {bot}")
    link = links.first
    game = re.fullmatch(r"/replay/(\d+)", link.get_attribute("href") or "")
    assert game, link.get_attribute("href")
    link.click()
    expect(page).to_have_url(f"{server.url}/replay/{game[1]}")
    expect(page.locator("#view-replay")).to_be_visible()
    slider = page.locator("#replay-slider")
    expect(slider).to_have_value("0")
    expect(page.locator("#replay-board .replay-hands li").nth(1)).to_contain_text(bot)
    play = page.locator("#replay-play")
    expect(play).to_have_attribute("aria-pressed", "false")
    play.click()
    expect(play).to_have_attribute("aria-pressed", "true")
    page.wait_for_function("() => Number(document.getElementById('replay-slider').value) >= 2")
    play.click()
    expect(play).to_have_attribute("aria-pressed", "false")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    page.click("#replay-copy")
    expect(page.locator("#replay-copied")).to_be_visible()
    step = slider.input_value()
    moment = f"{server.url}/replay/{game[1]}?step={step}"
    assert page.evaluate("() => navigator.clipboard.readText()") == moment
    expect(page.locator("#replay-link")).to_have_value(moment)
    total = slider.get_attribute("max")
    page.goto(moment)
    expect(page.locator("#view-replay")).to_be_visible()
    expect(slider).to_have_value(step)
    expect(page.locator("#replay-step")).to_have_text(f"Step {step} of {total}")


def test_the_lobby_creates_a_casual_table_when_rated_is_unticked(
    browser: Browser, server: Server
) -> None:
    context, page = open_page(browser, server.url, DESKTOP)
    try:
        link = page.locator("a[href='/leaderboard']")
        expect(link).to_have_text("Leaderboard")
        page.uncheck("#create-form input[name=rated]")
        code = create_at_page(page, "Bea", seats=2, bots=1)
        info = httpx.get(f"{server.url}/api/tables/{code}", timeout=30).json()
        assert info["rated"] is False
    finally:
        context.close()
