"""The leaderboard and player pages in headless Chromium: a rated game finished on the server
shows on the leaderboard in the page's language, and the player's page plots their rating."""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
from playwright.sync_api import Browser, expect

from dos.i18n import text
from server.support import WsPlayer, create_table

from .conftest import DESKTOP, PHONE, Server
from .pages import create_table as create_at_page
from .pages import open_page, set_language

PLAYER = "Lea Board"


async def _rated_game(url: str) -> str:
    """The host (a name no other browser test uses: they share the server) plays a short
    rated game against an ``easy`` bot; returns her id."""
    grant = create_table(url, name=PLAYER, seats=[None, "easy"], options={"target_score": 20})
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
    player_id: str = grant["player_id"]
    return player_id


def test_the_leaderboard_and_the_player_page_show_a_finished_rated_game(
    browser: Browser, server: Server, output_dir: Path
) -> None:
    with ThreadPoolExecutor(1) as pool:  # Playwright's event loop runs in this thread
        ada = pool.submit(asyncio.run, _rated_game(server.url)).result()
    context, page = open_page(browser, f"{server.url}/leaderboard", DESKTOP)
    try:
        expect(page.locator("#board-rows tr", has_text=PLAYER)).to_have_count(1)
        expect(page.locator("#board-rows")).to_contain_text("easy bot")
        page.screenshot(path=str(output_dir / "leaderboard-desktop.png"))
        set_language(page, "ja")
        expect(page.locator("#board-title")).to_have_text(text("ja", "rank.title"))
        expect(page.locator("#board-rows")).to_contain_text(
            text("ja", "rank.bot", level=text("ja", "web.level_easy"))
        )
        set_language(page, "en")

        page.get_by_role("link", name=PLAYER).click()
        expect(page).to_have_url(f"{server.url}/leaderboard?player={ada}")
        expect(page.locator("#player-title")).to_have_text(f"Player: {PLAYER}")
        expect(page.locator("#plot svg circle")).to_have_count(2)  # the start and one game
        expect(page.locator("#player-games tr")).to_have_count(1)
        expect(page.locator("#player-ratings tr")).to_have_count(1)
        page.screenshot(path=str(output_dir / "player-desktop.png"), full_page=True)
        page.set_viewport_size(PHONE)
        page.screenshot(path=str(output_dir / "player-phone.png"), full_page=True)
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        context.close()


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
